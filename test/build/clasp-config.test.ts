/**
 * The committed .clasp.json and `npm run deploy`'s check of it (scripts/check-clasp.ts): the repository
 * holds the clasp project file at the top level, with `rootDir: dist` and a placeholder script ID, and
 * the deploy script refuses the placeholder with one sentence saying how to set the real ID, before
 * anything is built or pushed. What `clasp status` pushes from it is checked in manifest.test.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { claspProblem, PLACEHOLDER_SCRIPT_ID } from '../../scripts/check-clasp';
import { repoRoot } from '../support/paths';

/** A folder holding only the given .clasp.json text (or none); removed after `use`. */
function withClaspJson(text: string | undefined, use: (folder: string) => void): void {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-clasp-'));
  try {
    if (text !== undefined) fs.writeFileSync(path.join(folder, '.clasp.json'), text);
    use(folder);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

describe('.clasp.json', () => {
  it('is committed at the top level with rootDir dist and the placeholder script ID', () => {
    // The committed file, whatever a deployer's working copy holds.
    const committed = execFileSync('git', ['show', 'HEAD:.clasp.json'], { cwd: repoRoot, encoding: 'utf8' });
    expect(JSON.parse(committed)).toEqual({ scriptId: PLACEHOLDER_SCRIPT_ID, rootDir: 'dist' });
  });

  it('stops npm run deploy at the placeholder with one sentence naming both ways to set the ID, before building', () => {
    // The repository's deploy script, run in a folder of its own holding the committed .clasp.json, so that a
    // deployer's real ID can never make this test build or push: the check fails, so neither the build
    // (which would write dist/) nor clasp push runs.
    withClaspJson(JSON.stringify({ scriptId: PLACEHOLDER_SCRIPT_ID, rootDir: 'dist' }), (folder) => {
      fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(folder, 'package.json'));
      fs.mkdirSync(path.join(folder, 'scripts'));
      fs.copyFileSync(path.join(repoRoot, 'scripts', 'check-clasp.ts'), path.join(folder, 'scripts', 'check-clasp.ts'));
      fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
      const run = spawnSync('npm', ['run', '--silent', 'deploy'], { cwd: folder, encoding: 'utf8', timeout: 60_000 });
      expect(run.status).not.toBe(0);
      const sentence = run.stderr.split('\n').filter((line) => line.includes('.clasp.json'));
      expect(sentence).toEqual([
        ".clasp.json still holds the placeholder script ID, so nothing was pushed: put your Apps Script project's ID (Project Settings > IDs) in its scriptId, or delete .clasp.json and run `npx clasp create-script --rootDir dist` or `npx clasp clone <scriptId> --rootDir dist`, which writes it.",
      ]);
      expect(run.stdout).not.toMatch(/Built Code\.js|Pushed/);
      expect(fs.existsSync(path.join(folder, 'dist'))).toBe(false);
    });
  }, 60_000);

  it('lets a real script ID with rootDir dist through, and refuses a missing file, bad JSON, an empty ID or another rootDir', () => {
    withClaspJson(JSON.stringify({ scriptId: '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_aBcDeFgHiJkLmNo', rootDir: 'dist' }), (folder) =>
      expect(claspProblem(folder)).toBeUndefined(),
    );
    withClaspJson(undefined, (folder) =>
      expect(claspProblem(folder)).toMatch(/^There is no \.clasp\.json, so nothing was pushed: restore it/),
    );
    withClaspJson('{"scriptId": ', (folder) => expect(claspProblem(folder)).toMatch(/^\.clasp\.json is not valid JSON/));
    withClaspJson(JSON.stringify({ scriptId: ' ', rootDir: 'dist' }), (folder) =>
      expect(claspProblem(folder)).toMatch(/placeholder script ID/),
    );
    withClaspJson(JSON.stringify({ scriptId: 'abc123', rootDir: '.' }), (folder) =>
      expect(claspProblem(folder)).toBe(
        `.clasp.json's rootDir is ".", so clasp would push other files than the build: set "rootDir": "dist".`,
      ),
    );
  });
});
