/** Paths of the repository and of the built files, for tests that read them. */
import path from 'node:path';
import type { Deployment } from '../../src/core/api/deployment';
import { deploymentOf, readDeployConfig } from '../../scripts/deploy-config';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const distDir = path.join(repoRoot, 'dist');
export const distCode = path.join(distDir, 'Code.js');
export const distSidebar = path.join(distDir, 'sidebar.html');
export const distManifest = path.join(distDir, 'appsscript.json');
/** The tests' own deployment config, fixed: global-setup.ts builds dist/ from it before every jest run. */
export const TESTS_DEPLOY_CONFIG = path.join(repoRoot, 'test/fixtures/tests.deploy.json');

/** The deployment dist/ is built for in the tests: test/fixtures/tests.deploy.json, never a deployer's config. */
export function builtDeployment(): Deployment {
  return deploymentOf(readDeployConfig(TESTS_DEPLOY_CONFIG));
}
