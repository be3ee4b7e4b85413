/**
 * The manifest and the push list. clasp validates neither appsscript.json nor what it sends, so the
 * built manifest is checked against a schema here (V8, exactly the scopes the deployment's
 * spreadsheetAccess asks for and no broader ones, script.send_mail for notices by email, an https
 * urlFetchWhitelist with paths, the Engage addresses' and the webhooks', written from
 * the deployment config; here the tests' own, test/fixtures/tests.deploy.json, which keeps the default
 * "all", and a build of it with "current" in a temporary folder), and `clasp status --json`, which
 * works offline, must list exactly the three files a push should send. The repository commits .clasp.json
 * with `rootDir: dist` and a placeholder script ID (`npm run deploy` refuses the placeholder:
 * test/build/clasp-config.test.ts): the check runs against it, as docs/deploying.md's offline step does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as z from 'zod';
import { build } from '../../scripts/build';
import { builtDeployment, distDir, distManifest, repoRoot, TESTS_DEPLOY_CONFIG } from '../support/paths';
import { manifestWhitelist } from '../../src/core/deployment';

const COMMON_SCOPES = [
  'https://www.googleapis.com/auth/script.container.ui',
  'https://www.googleapis.com/auth/script.external_request',
  'https://www.googleapis.com/auth/script.scriptapp',
  // Session.getEffectiveUser().getEmail(): only the spreadsheet's owner chooses what its formulas may use.
  'https://www.googleapis.com/auth/userinfo.email',
  // MailApp.sendEmail: a saved report's notices go by email to the user who saved it.
  'https://www.googleapis.com/auth/script.send_mail',
];
/** spreadsheetAccess "all" (the default): every spreadsheet of the user, opened by ID by the scheduled refresh. */
const ALL_SPREADSHEETS = 'https://www.googleapis.com/auth/spreadsheets';
/** spreadsheetAccess "current": only the spreadsheet the add-on runs in. */
const CURRENT_ONLY = 'https://www.googleapis.com/auth/spreadsheets.currentonly';
const MINIMAL_SCOPES = [...COMMON_SCOPES, ALL_SPREADSHEETS].sort();

const manifestSchema = z.strictObject({
  timeZone: z.string().min(1),
  dependencies: z.object({}).loose(),
  exceptionLogging: z.enum(['STACKDRIVER', 'NONE']),
  runtimeVersion: z.literal('V8'),
  oauthScopes: z
    .array(z.string())
    .refine((scopes) => JSON.stringify([...scopes].sort()) === JSON.stringify(MINIMAL_SCOPES), 'exactly the minimal scopes'),
  urlFetchWhitelist: z.array(z.string().regex(/^https:\/\/[^/\s]+\/(\S*\/)?$/, 'an https prefix that ends with a slash')).min(1),
});

describe('appsscript.json', () => {
  const manifest: unknown = JSON.parse(fs.readFileSync(distManifest, 'utf8'));

  it('matches the manifest schema (V8, https whitelist prefixes with paths)', () => {
    const parsed = manifestSchema.safeParse(manifest);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('requests exactly the minimal scopes of spreadsheetAccess "all" (the default): spreadsheets, not spreadsheets.currentonly', () => {
    const scopes = manifestSchema.parse(manifest).oauthScopes;
    expect([...scopes].sort()).toEqual(MINIMAL_SCOPES);
    expect(scopes).not.toContain(CURRENT_ONLY);
    expect(builtDeployment().spreadsheetAccess).toBe('all');
  });

  it('requests spreadsheets.currentonly instead, and nothing broader, when built for spreadsheetAccess "current"', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-current-'));
    try {
      const config = path.join(work, 'current.deploy.json');
      fs.writeFileSync(
        config,
        JSON.stringify({ ...JSON.parse(fs.readFileSync(TESTS_DEPLOY_CONFIG, 'utf8')), spreadsheetAccess: 'current' }),
      );
      const { deployment } = await build({ configFile: config, outDir: path.join(work, 'out') });
      const current = JSON.parse(fs.readFileSync(path.join(work, 'out', 'appsscript.json'), 'utf8')) as { oauthScopes: string[] };
      expect([...current.oauthScopes].sort()).toEqual([...COMMON_SCOPES, CURRENT_ONLY].sort());
      expect(deployment.spreadsheetAccess).toBe('current');
      // The bundle knows the choice too: the deployment built into it says "current".
      expect(fs.readFileSync(path.join(work, 'out', 'Code.js'), 'utf8')).toMatch(/spreadsheetAccess: ?"current"/);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("is the repository's manifest with the whitelist and spreadsheet scope of the tests' deployment config, and nothing else changed", () => {
    const source = JSON.parse(fs.readFileSync(path.join(repoRoot, 'appsscript.json'), 'utf8')) as Record<string, unknown> & {
      oauthScopes: string[];
    };
    expect(source).not.toHaveProperty('urlFetchWhitelist');
    // The repository's manifest names currentonly; the build puts the choice of spreadsheetAccess in its place.
    expect(source.oauthScopes).toContain(CURRENT_ONLY);
    expect(manifest).toEqual({
      ...source,
      oauthScopes: source.oauthScopes.map((scope) => (scope === CURRENT_ONLY ? ALL_SPREADSHEETS : scope)),
      urlFetchWhitelist: manifestWhitelist(builtDeployment()),
    });
    expect(builtDeployment().urlFetchWhitelist).toEqual([
      'https://engage-api.tests.invalid/engage/v2/',
      'https://engage-recs.tests.invalid/v1/',
    ]);
    // The webhook prefixes notices may post to follow the Engage addresses in the whitelist.
    expect((manifest as { urlFetchWhitelist: string[] }).urlFetchWhitelist).toEqual([
      'https://engage-api.tests.invalid/engage/v2/',
      'https://engage-recs.tests.invalid/v1/',
      'https://chat.googleapis.com/v1/spaces/',
      'https://hooks.slack.com/services/',
    ]);
  });

  it('is refused by the schema with a broader scope, or a whitelist entry that is not https', () => {
    const broad = { ...(manifest as object), oauthScopes: [...MINIMAL_SCOPES, 'https://www.googleapis.com/auth/drive'] };
    const plainHttp = { ...(manifest as object), urlFetchWhitelist: ['http://engage.example.com/engage/v2/'] };
    expect(manifestSchema.safeParse(broad).error?.issues[0]?.message).toBe('exactly the minimal scopes');
    expect(manifestSchema.safeParse(plainHttp).error?.issues[0]?.path).toEqual(['urlFetchWhitelist', 0]);
  });
});

describe('clasp push list', () => {
  it('sends exactly Code.js, sidebar.html and appsscript.json from dist/ (clasp status --json, offline, with the committed .clasp.json)', () => {
    // In a folder of its own, with a built add-on in dist/ and something else beside it: the tests never
    // write the repository's dist/, which only `npm run build` and `npm run deploy` fill.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-push-'));
    try {
      for (const file of ['.clasp.json', '.claspignore']) fs.copyFileSync(path.join(repoRoot, file), path.join(folder, file));
      fs.mkdirSync(path.join(folder, 'dist'));
      for (const file of ['Code.js', 'sidebar.html', 'appsscript.json'])
        fs.copyFileSync(path.join(distDir, file), path.join(folder, 'dist', file));
      fs.writeFileSync(path.join(folder, 'dist', 'notes.txt'), 'not for Apps Script');
      const out = execFileSync(path.join(repoRoot, 'node_modules/.bin/clasp'), ['status', '--json'], {
        cwd: folder,
        encoding: 'utf8',
        timeout: 30000,
      });
      const status = JSON.parse(out.slice(out.indexOf('{'))) as { filesToPush: string[] };
      expect([...status.filesToPush].sort()).toEqual(['dist/Code.js', 'dist/appsscript.json', 'dist/sidebar.html']);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('lets `clasp create-script` go ahead in a fresh clone once .clasp.json is deleted, as docs/deploying.md says: the committed one stops it', () => {
    // A fresh clone holds the tracked files: copy its clasp files into an empty folder, with no credentials (offline).
    const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-clone-'));
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-home-'));
    const tracked = execFileSync('git', ['ls-files', '.clasp*'], { cwd: repoRoot, encoding: 'utf8' }).trim().split('\n');
    expect(tracked.sort()).toEqual(['.clasp.json', '.claspignore']);
    for (const file of tracked) fs.copyFileSync(path.join(repoRoot, file), path.join(clone, file));
    const createScript = () => {
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home };
      delete env.clasp_config_project;
      delete env.clasp_config_auth;
      const args = ['create-script', '--type', 'standalone', '--title', 'Engage for Sheets', '--rootDir', 'dist'];
      const run = spawnSync(path.join(repoRoot, 'node_modules/.bin/clasp'), args, { cwd: clone, env, encoding: 'utf8', timeout: 30000 });
      return { status: run.status, output: `${run.stdout}${run.stderr}` };
    };
    try {
      // With the committed .clasp.json it stops at once, exiting 0: hence "delete .clasp.json" in the docs and in
      // npm run deploy's refusal of the placeholder.
      expect(createScript()).toEqual({ status: 0, output: expect.stringMatching(/Project file already exists\./) });
      // Deleted, it gets as far as asking for the Google sign-in it needs (what `clasp login` gives).
      fs.rmSync(path.join(clone, '.clasp.json'));
      expect(createScript()).toEqual({ status: 1, output: expect.stringMatching(/No credentials found/) });
    } finally {
      fs.rmSync(clone, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
    }
  }, 90_000);

  it('is pushed by `npm run deploy` with --force: the manifest is generated, and without it clasp asks, and a run without a terminal says No', () => {
    const scripts = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.deploy).toBe('tsx scripts/check-clasp.ts && npm run build && clasp push --force');
  });
});
