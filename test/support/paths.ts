/** Paths of the repository and of the built files, for tests that read them. */
import path from 'node:path';
import type { Deployment } from '../../src/core/api/deployment';
import { deploymentOf, readDeployConfig } from '../../scripts/deploy-config';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const distDir = path.join(repoRoot, 'dist');
export const distCode = path.join(distDir, 'Code.js');
export const distSidebar = path.join(distDir, 'sidebar.html');
export const distManifest = path.join(distDir, 'appsscript.json');

/** The deployment `npm run build` built dist/ from: the committed engage.deploy.json. */
export function builtDeployment(): Deployment {
  return deploymentOf(readDeployConfig(path.join(repoRoot, 'engage.deploy.json')));
}
