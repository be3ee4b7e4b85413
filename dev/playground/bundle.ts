/**
 * The add-on the playground runs. `npm start` builds it into build/playground/ (never dist/, which clasp
 * pushes) from playground.deploy.json (the example addresses, localServers for the emulator's
 * http://127.0.0.1 ones, and "bigquery": true), once the emulator runs: its BigQuery calls go to the
 * emulator's BigQuery stand-in, on the emulator's own port, which is known only then. The browser tests
 * give their own build instead (build/tests/, or one with BigQuery for theirs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from '../../scripts/build';
import type { EmulatorProcess } from '../emulator/spawn';

/** A built add-on: its Code.js, sidebar.html and parsed appsscript.json. */
export interface PlaygroundBundle {
  code: string;
  sidebar: string;
  manifest: Record<string, unknown>;
}

const root = path.resolve(__dirname, '..', '..');
/** The playground's deployment: the example addresses, with localServers for the emulator's http://127.0.0.1, and BigQuery. */
export const PLAYGROUND_DEPLOY_CONFIG = path.join(__dirname, 'playground.deploy.json');
/** Where `npm start` builds the add-on for the playground: never dist/, which clasp pushes. */
export const PLAYGROUND_BUILD_DIR = path.join(root, 'build', 'playground');

/** A built add-on's three files in `dir`. */
export function readBundle(dir: string): PlaygroundBundle {
  return {
    code: fs.readFileSync(path.join(dir, 'Code.js'), 'utf8'),
    sidebar: fs.readFileSync(path.join(dir, 'sidebar.html'), 'utf8'),
    manifest: JSON.parse(fs.readFileSync(path.join(dir, 'appsscript.json'), 'utf8')) as Record<string, unknown>,
  };
}

/**
 * Builds the playground's add-on for this emulator: playground.deploy.json with `bigqueryBaseUrl` set
 * to the emulator's BigQuery stand-in (the config it was built from is kept beside the build).
 */
export async function playgroundBundle(emulator: Pick<EmulatorProcess, 'baseUrl'>): Promise<PlaygroundBundle> {
  const config = JSON.parse(fs.readFileSync(PLAYGROUND_DEPLOY_CONFIG, 'utf8')) as Record<string, unknown>;
  fs.mkdirSync(PLAYGROUND_BUILD_DIR, { recursive: true });
  const configFile = path.join(PLAYGROUND_BUILD_DIR, 'playground.deploy.json');
  fs.writeFileSync(configFile, `${JSON.stringify({ ...config, bigqueryBaseUrl: `${new URL(emulator.baseUrl).origin}/` }, null, 2)}\n`);
  await build({ configFile, outDir: PLAYGROUND_BUILD_DIR });
  return readBundle(PLAYGROUND_BUILD_DIR);
}
