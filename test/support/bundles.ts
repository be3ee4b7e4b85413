/**
 * The built add-on a test runs: dist/ (the tests' deployment, test/fixtures/tests.deploy.json, with
 * spreadsheetAccess "all", its default), or the same deployment built for spreadsheetAccess "current"
 * into a temporary folder, once per test worker (an esbuild run of some 200 ms), for the tests about
 * installations limited to the current spreadsheet.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from '../../scripts/build';
import { distCode, distManifest, distSidebar, TESTS_DEPLOY_CONFIG } from './paths';

export interface Bundle {
  code: string;
  sidebar: string;
  manifest: Record<string, unknown>;
}

const read = (code: string, sidebar: string, manifest: string): Bundle => ({
  code: fs.readFileSync(code, 'utf8'),
  sidebar: fs.readFileSync(sidebar, 'utf8'),
  manifest: JSON.parse(fs.readFileSync(manifest, 'utf8')) as Record<string, unknown>,
});

/** dist/, as global-setup built it. */
export function distBundle(): Bundle {
  return read(distCode, distSidebar, distManifest);
}

/** The tests' deployment with more settings, built into a temporary folder (an esbuild run of some 200 ms). */
async function buildWith(name: string, settings: Record<string, unknown>): Promise<Bundle> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `engage-${name}-`));
  try {
    const config = path.join(work, `${name}.deploy.json`);
    const tests = JSON.parse(fs.readFileSync(TESTS_DEPLOY_CONFIG, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(config, JSON.stringify({ ...tests, ...settings }));
    const out = path.join(work, 'out');
    await build({ configFile: config, outDir: out });
    return read(path.join(out, 'Code.js'), path.join(out, 'sidebar.html'), path.join(out, 'appsscript.json'));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The tests' deployment with `"bigquery": true`, its BigQuery calls sent to `rootUrl` (an emulator
 * instance's stand-in, whose port is known only once it runs: hence a build per instance).
 */
export function bigQueryBundle(rootUrl: string): Promise<Bundle> {
  return buildWith('bigquery', { bigquery: true, bigqueryBaseUrl: rootUrl.replace(/\/*$/, '/') });
}

let current: Promise<Bundle> | undefined;

/** The tests' deployment built with spreadsheetAccess "current" (the manifest's spreadsheets.currentonly). */
export function currentAccessBundle(): Promise<Bundle> {
  current ??= buildWith('current-access', { spreadsheetAccess: 'current' });
  return current;
}
