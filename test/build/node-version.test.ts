/**
 * `.ci/run` checks the Node.js version before it installs anything, and says which one is needed when it
 * is not there (scripts/check-node.cjs reads package.json's "engines").
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../support/paths';

const check = (version: string) =>
  spawnSync(process.execPath, [path.join(repoRoot, 'scripts/check-node.cjs'), version], { encoding: 'utf8' });

describe('the Node.js version check', () => {
  it.each(['v20.6.0', 'v20.20.2', 'v22.0.0', 'v22.11.0', 'v24.0.0', 'v25.2.1'])('accepts %s', (version) => {
    const run = check(version);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Node.js ${version}: accepted`);
  });

  it.each(['v18.20.4', 'v20.5.1', 'v21.7.3', 'v23.1.0'])('refuses %s, naming what to install', (version) => {
    const run = check(version);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `Node.js ${version} is not one this project runs on: it needs ^20.6.0 || ^22.0.0 || >=24.0.0 (package.json "engines"). Install one of those, then run again.\n`,
    );
  });

  it('runs in .ci/run before anything is installed', () => {
    const ci = fs.readFileSync(path.join(repoRoot, '.ci/run'), 'utf8');
    expect(ci.indexOf('node scripts/check-node.cjs')).toBeGreaterThan(0);
    expect(ci.indexOf('node scripts/check-node.cjs')).toBeLessThan(ci.indexOf('npm ci'));
    expect(ci.indexOf('command -v node')).toBeLessThan(ci.indexOf('node scripts/check-node.cjs'));
  });
});
