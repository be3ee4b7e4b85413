/**
 * The built add-on a test runs: dist/ (the tests' deployment, test/fixtures/tests.deploy.json, with
 * spreadsheetAccess "all", its default), or a variant of that deployment, which jest's global setup
 * builds beside it once per jest run (buildTestBundles), so that the test files need not run esbuild:
 * - with spreadsheetAccess "current", for the tests about installations limited to the current spreadsheet;
 * - with `"bigquery": true`, its BigQuery calls sent to a stand-in whose address is known only once an
 *   emulator instance runs: it is built with a placeholder root that bigQueryBundle replaces with the
 *   instance's (test/build/test-bundles.test.ts holds that equal to a build made with the address).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from '../../scripts/build';
import { distDir, repoRoot, TESTS_DEPLOY_CONFIG } from './paths';

export interface Bundle {
  code: string;
  sidebar: string;
  manifest: Record<string, unknown>;
}

/** The root the BigQuery variant is built with: port 1 of the loopback address, which no emulator instance takes. */
export const BIGQUERY_PLACEHOLDER_ROOT = 'http://127.0.0.1:1/';

/** Where global setup builds each variant. */
const VARIANTS = {
  current: { dir: path.join(repoRoot, 'build', 'tests-current'), settings: { spreadsheetAccess: 'current' } },
  bigquery: {
    dir: path.join(repoRoot, 'build', 'tests-bigquery'),
    settings: { bigquery: true, bigqueryBaseUrl: BIGQUERY_PLACEHOLDER_ROOT },
  },
} as const;

/** A built add-on's three files in `dir`, each text through `edit` first. */
const readDir = (dir: string, edit: (text: string) => string = (text) => text): Bundle => {
  const text = (file: string) => edit(fs.readFileSync(path.join(dir, file), 'utf8'));
  return { code: text('Code.js'), sidebar: text('sidebar.html'), manifest: JSON.parse(text('appsscript.json')) as Record<string, unknown> };
};

/** dist/, as global-setup built it. */
export function distBundle(): Bundle {
  return readDir(distDir);
}

/** The tests' deployment with more settings, built into `outDir` (a temporary folder unless given). */
async function buildWith(name: string, settings: Record<string, unknown>, outDir?: string): Promise<Bundle> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `engage-${name}-`));
  try {
    const config = path.join(work, `${name}.deploy.json`);
    const tests = JSON.parse(fs.readFileSync(TESTS_DEPLOY_CONFIG, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(config, JSON.stringify({ ...tests, ...settings }));
    const out = outDir ?? path.join(work, 'out');
    await build({ configFile: config, outDir: out });
    return readDir(out);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Jest's global setup: dist/ for the tests' deployment and each variant beside it, built at once. */
export async function buildTestBundles(): Promise<void> {
  await Promise.all([
    build({ configFile: TESTS_DEPLOY_CONFIG, outDir: distDir }),
    ...Object.entries(VARIANTS).map(([name, { dir, settings }]) => buildWith(name, settings, dir)),
  ]);
}

/** The root as a deploy config takes it: ending in one "/". */
const asRoot = (rootUrl: string) => rootUrl.replace(/\/*$/, '/');

/**
 * The tests' deployment with `"bigquery": true`, its BigQuery calls sent to `rootUrl` (an emulator
 * instance's stand-in): the variant global setup built, its placeholder root replaced by this one.
 */
export async function bigQueryBundle(rootUrl: string): Promise<Bundle> {
  const root = asRoot(rootUrl);
  return readDir(VARIANTS.bigquery.dir, (text) => text.split(BIGQUERY_PLACEHOLDER_ROOT).join(root));
}

/** bigQueryBundle's build made directly with `rootUrl` (an esbuild run), for the test that holds the two equal. */
export function bigQueryBundleBuiltFor(rootUrl: string): Promise<Bundle> {
  return buildWith('bigquery', { bigquery: true, bigqueryBaseUrl: asRoot(rootUrl) });
}

/** The tests' deployment built with spreadsheetAccess "current" (the manifest's spreadsheets.currentonly). */
export async function currentAccessBundle(): Promise<Bundle> {
  return readDir(VARIANTS.current.dir);
}
