/** Paths of the repository and of the built files, for tests that read them. */
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const distDir = path.join(repoRoot, 'dist');
export const distCode = path.join(distDir, 'Code.js');
export const distSidebar = path.join(distDir, 'sidebar.html');
export const distManifest = path.join(distDir, 'appsscript.json');
