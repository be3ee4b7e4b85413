/** Paths of the repository and of the built files, for tests that read them. */
import path from 'node:path';
import type { Deployment } from '../../src/core/deployment';
import { deploymentOf, readDeployConfig } from '../../scripts/deploy-config';

export const repoRoot = path.resolve(__dirname, '..', '..');
/**
 * Where the tests' build is (jest's global setup writes it from TESTS_DEPLOY_CONFIG): not dist/, which
 * `npm run build` writes for the deployer and clasp pushes, so a bare `clasp push` after the tests never
 * sends the tests' build.
 */
export const distDir = path.join(repoRoot, 'build', 'tests');
export const distCode = path.join(distDir, 'Code.js');
export const distSidebar = path.join(distDir, 'sidebar.html');
export const distManifest = path.join(distDir, 'appsscript.json');
/** The tests' own deployment config, fixed: global-setup.ts builds build/tests/ from it before every jest run. */
export const TESTS_DEPLOY_CONFIG = path.join(repoRoot, 'test/fixtures/tests.deploy.json');

/** The deployment the tests' build is for: test/fixtures/tests.deploy.json, never a deployer's config. */
export function builtDeployment(): Deployment {
  return deploymentOf(readDeployConfig(TESTS_DEPLOY_CONFIG));
}
