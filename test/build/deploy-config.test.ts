/**
 * One config names a deployment's Engage addresses: a build with another config (`--config`, or
 * ENGAGE_DEPLOY_CONFIG as `npm run deploy` uses it) writes that deployment's urlFetchWhitelist into
 * the manifest and its addresses and account type into the bundle, whose settings form then refuses
 * any address the manifest would not let Apps Script fetch, and an address on this machine unless the
 * config says localServers. Builds go to a temporary folder, never into the build the other tests run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGasHost, type GasHost } from '../../dev/gas-host';
import { TRIGGER_RUNTIME_KEY } from '../../src/core/api/transport/daily-quota';
import { build as buildHere } from '../../scripts/build';
import { repoRoot } from '../support/paths';

const TSX = path.join(repoRoot, 'node_modules/.bin/tsx');
const OTHER_DEPLOYMENT = {
  reportingBaseUrl: 'https://reports.example.net/engage/v2/',
  recommendationsUrl: 'https://recs.example.net/v1/recommendations',
  accountType: 'workspace',
};

let work: string;

function configFile(config: unknown): string {
  const file = path.join(work, `deploy-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

/** Runs the build as docs/deploying.md says, with a config file; returns the output folder. */
function buildCommand(config: unknown, how: 'flag' | 'env' = 'flag'): string {
  const file = configFile(config);
  const out = fs.mkdtempSync(path.join(work, 'out-'));
  const args = how === 'flag' ? ['scripts/build.ts', '--config', file, '--out', out] : ['scripts/build.ts', '--out', out];
  execFileSync(TSX, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: 60_000,
    env: { ...process.env, ...(how === 'env' ? { ENGAGE_DEPLOY_CONFIG: file } : {}) },
  });
  return out;
}

function buildCommandError(config: unknown): string {
  try {
    buildCommand(config);
  } catch (e) {
    return String((e as { stderr?: string }).stderr ?? e);
  }
  throw new Error('the build should have failed');
}

/**
 * The same build in this process (scripts/build.ts's `build`, which the command runs): what a config
 * makes of the manifest and the bundle, without starting the command again for each config. The
 * command's own paths (--config, ENGAGE_DEPLOY_CONFIG, its message on a wrong config) are tested with it.
 */
async function build(config: unknown): Promise<string> {
  const out = fs.mkdtempSync(path.join(work, 'out-'));
  await buildHere({ configFile: configFile(config), outDir: out });
  return out;
}

async function buildError(config: unknown): Promise<string> {
  try {
    await build(config);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error('the build should have failed');
}

const manifestOf = (out: string) => JSON.parse(fs.readFileSync(path.join(out, 'appsscript.json'), 'utf8')) as Record<string, unknown>;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-deploy-'));
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe('a build for the deployment at https://reports.example.net/engage/v2/', () => {
  let out: string;
  let host: GasHost;
  const OWNER = 'owner@example.com';

  beforeAll(() => {
    out = buildCommand(OTHER_DEPLOYMENT);
    host = createGasHost({ owner: OWNER, manifest: manifestOf(out) });
    host.load(fs.readFileSync(path.join(out, 'Code.js'), 'utf8'));
  });
  afterAll(async () => {
    await host.close();
  });

  it('writes exactly that prefix (and the recommendations folder) into appsscript.json, the rest of the manifest unchanged but the default spreadsheet scope', () => {
    const source = JSON.parse(fs.readFileSync(path.join(repoRoot, 'appsscript.json'), 'utf8')) as Record<string, unknown> & {
      oauthScopes: string[];
    };
    expect(manifestOf(out)).toEqual({
      ...source,
      // No spreadsheetAccess in the config: "all", the spreadsheets scope in place of spreadsheets.currentonly.
      oauthScopes: source.oauthScopes.map((scope) => scope.replace(/\.currentonly$/, '')),
      urlFetchWhitelist: ['https://reports.example.net/engage/v2/', 'https://recs.example.net/v1/'],
    });
  });

  it('refuses to save https://elsewhere.example.org/engage/v2 with one sentence naming the allowed prefix, and keeps nothing', () => {
    expect(() => host.call('saveSettings', [{ reportingBaseUrl: 'https://elsewhere.example.org/engage/v2' }], { user: OWNER })).toThrow(
      "reportingBaseUrl ('https://elsewhere.example.org/engage/v2'): must start with https://reports.example.net/engage/v2/, the address this add-on is allowed to call",
    );
    expect(host.properties('user', OWNER).get('engage.settings')).toBeUndefined();
  });

  it("starts with the deployment's addresses and Workspace quotas, takes its own address, and refuses a server on this machine", () => {
    const state = host.call('getSidebarState', [], { user: OWNER }) as {
      settings: Record<string, unknown>;
      quota: { accountType: string; urlFetch: { limit: number } };
    };
    expect(state.settings).toMatchObject({
      reportingBaseUrl: 'https://reports.example.net/engage/v2',
      recommendationsUrl: OTHER_DEPLOYMENT.recommendationsUrl,
      allowedAddresses: {
        reportingBaseUrl: ['https://reports.example.net/engage/v2/'],
        recommendationsUrl: ['https://recs.example.net/v1/'],
      },
      localServers: false,
    });
    expect(state.quota).toMatchObject({ accountType: 'workspace', urlFetch: { limit: 100_000 } });
    // The daily trigger runtime scheduled runs plan with, as the Schedules tab shows it: 6 hours on
    // Workspace, so 100 minutes already used (past a consumer account's 90) leave 260.
    const listRuntime = () =>
      (host.call('listSchedules', [], { user: OWNER }) as { triggerRuntime: { used: number; limit: number } }).triggerRuntime;
    expect(listRuntime()).toEqual({ used: 0, limit: 6 * 3_600_000 });
    host.properties('user', OWNER).set(TRIGGER_RUNTIME_KEY, JSON.stringify({ s: host.clock.now(), n: 100 * 60_000 }));
    expect(listRuntime()).toMatchObject({ used: 100 * 60_000, limit: 6 * 3_600_000 });
    host.call('saveSettings', [{ reportingBaseUrl: 'https://reports.example.net/engage/v2' }], { user: OWNER });
    // A build for Google: Apps Script could never reach this machine, so its address is refused.
    expect(() => host.call('saveSettings', [{ reportingBaseUrl: 'http://127.0.0.1:8787/engage/v2' }], { user: OWNER })).toThrow(
      "reportingBaseUrl ('http://127.0.0.1:8787/engage/v2'): must be an address of your Engage service: this deployment does not accept a server on this machine (only the playground and the tests do)",
    );
    expect(() => host.call('saveSettings', [{ reportingBaseUrl: 'http://reports.example.net/engage/v2' }], { user: OWNER })).toThrow(
      /must be an https address/,
    );
    expect(JSON.parse(host.properties('user', OWNER).get('engage.settings')!)).toEqual({
      reportingBaseUrl: 'https://reports.example.net/engage/v2',
    });
  });
});

describe('a build with localServers, as the playground and the tests make', () => {
  it('takes the emulator on this machine, and says nothing of it in the manifest', async () => {
    const out = await build({ ...OTHER_DEPLOYMENT, localServers: true });
    expect(manifestOf(out).urlFetchWhitelist).toEqual(['https://reports.example.net/engage/v2/', 'https://recs.example.net/v1/']);
    const host = createGasHost({ owner: 'owner@example.com', manifest: manifestOf(out) });
    host.load(fs.readFileSync(path.join(out, 'Code.js'), 'utf8'));
    host.call('saveSettings', [{ reportingBaseUrl: 'http://127.0.0.1:8787/engage/v2' }], { user: 'owner@example.com' });
    expect(JSON.parse(host.properties('user', 'owner@example.com').get('engage.settings')!)).toEqual({
      reportingBaseUrl: 'http://127.0.0.1:8787/engage/v2',
    });
    return host.close();
  });

  it('stops the build when localServers is not true or false', async () => {
    expect(await buildError({ ...OTHER_DEPLOYMENT, localServers: 'yes' })).toMatch(
      /localServers must be true or false \(true only for the playground and the tests/,
    );
  });
});

describe('choosing and checking the config', () => {
  it('reads the config named by ENGAGE_DEPLOY_CONFIG, as `npm run deploy` passes it on to the build', () => {
    expect(manifestOf(buildCommand(OTHER_DEPLOYMENT, 'env')).urlFetchWhitelist).toEqual([
      'https://reports.example.net/engage/v2/',
      'https://recs.example.net/v1/',
    ]);
  });

  it('stops the build with the file, the field and the rule when the config is wrong', () => {
    const message = buildCommandError({
      ...OTHER_DEPLOYMENT,
      reportingBaseUrl: 'http://reports.example.net/engage/v2/',
      accountType: 'business',
      spreadsheetAccess: 'some',
    });
    expect(message).toMatch(/deploy-\w+\.json: reportingBaseUrl must be an https address with a path and no query/);
    expect(message).toMatch(/accountType must be "consumer" \(20,000 URL fetches and 90 minutes of triggers a day\) or "workspace"/);
    expect(message).toMatch(
      /spreadsheetAccess must be "all" \(the spreadsheets scope: scheduled refreshes open each spreadsheet by ID\) or "current"/,
    );
  });
});

describe('webhookPrefixes, where notices may post', () => {
  it('join the manifest after the Engage addresses; a prefix without a path ending in / or with a query stops the build', async () => {
    const prefixes = ['https://chat.googleapis.com/v1/spaces/', 'https://*.hooks.example.net/notify/'];
    expect(manifestOf(await build({ ...OTHER_DEPLOYMENT, webhookPrefixes: prefixes })).urlFetchWhitelist).toEqual([
      'https://reports.example.net/engage/v2/',
      'https://recs.example.net/v1/',
      ...prefixes,
    ]);
    const message = await buildError({ ...OTHER_DEPLOYMENT, webhookPrefixes: ['https://hooks.slack.com', 'http://chat.example.net/x/'] });
    expect(message).toMatch(/webhookPrefixes\.0 must be an https address prefix with a path ending in \/ and no query/);
    expect(message).toMatch(/webhookPrefixes\.1 must be an https address prefix/);
  });
});

describe('"bigquery", the BigQuery destination of saved reports', () => {
  const BIGQUERY_SCOPE = 'https://www.googleapis.com/auth/bigquery';
  const BIGQUERY_HOSTS = ['https://bigquery.googleapis.com/bigquery/v2/', 'https://bigquery.googleapis.com/upload/bigquery/v2/'];

  it('true: adds the bigquery scope and BigQuery’s metadata and upload paths to the manifest, after the Engage addresses', async () => {
    const manifest = manifestOf(await build({ ...OTHER_DEPLOYMENT, bigquery: true })) as {
      oauthScopes: string[];
      urlFetchWhitelist: string[];
    };
    expect(manifest.oauthScopes.filter((scope) => scope === BIGQUERY_SCOPE)).toEqual([BIGQUERY_SCOPE]);
    // Connected Sheets' own scope (enableBigQueryExecution), named too: a manifest lists every scope it uses.
    expect(manifest.oauthScopes.filter((scope) => scope.startsWith(`${BIGQUERY_SCOPE}.`))).toEqual([`${BIGQUERY_SCOPE}.readonly`]);
    expect(manifest.urlFetchWhitelist).toEqual([
      'https://reports.example.net/engage/v2/',
      'https://recs.example.net/v1/',
      ...BIGQUERY_HOSTS,
    ]);
  });

  it('false: neither the scope nor a BigQuery host (as when it is left out, above)', async () => {
    const manifest = manifestOf(await build({ ...OTHER_DEPLOYMENT, bigquery: false })) as {
      oauthScopes: string[];
      urlFetchWhitelist: string[];
    };
    expect(manifest.oauthScopes.some((scope) => scope.includes('bigquery'))).toBe(false);
    expect(manifest.urlFetchWhitelist.some((prefix) => prefix.includes('bigquery'))).toBe(false);
    expect(manifest.urlFetchWhitelist).toEqual(['https://reports.example.net/engage/v2/', 'https://recs.example.net/v1/']);
  });

  it('stops the build for a bigqueryBaseUrl without localServers, or one not on this machine', async () => {
    expect(await buildError({ ...OTHER_DEPLOYMENT, bigquery: true, bigqueryBaseUrl: 'http://127.0.0.1:9050/' })).toMatch(
      /bigqueryBaseUrl may be given only with "localServers": true and "bigquery": true/,
    );
    expect(
      await buildError({ ...OTHER_DEPLOYMENT, localServers: true, bigquery: true, bigqueryBaseUrl: 'https://bq.example.com/' }),
    ).toMatch(/bigqueryBaseUrl must be the root of a BigQuery stand-in on this machine ending in \//);
    expect(await buildError({ ...OTHER_DEPLOYMENT, bigquery: 'yes' })).toMatch(/bigquery must be true or false/);
  });
});
