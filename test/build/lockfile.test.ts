/**
 * `npm ci` (which CI runs) refuses a lock that leaves out any optional dependency of a locked
 * package, even one for another platform. This machine's registry lacks some platform binaries, so
 * npm install can drop them: scripts/complete-lockfile.ts puts them back, and this test fails when a
 * lock change forgot to run it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { platformOf } from '../../scripts/complete-lockfile';
import { repoRoot } from '../support/paths';

interface Entry {
  optionalDependencies?: Record<string, string>;
}

describe('package-lock.json', () => {
  it('names every optional dependency of every locked package (run `npm run lock:complete` if not)', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, Entry> };
    const missing: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      for (const dependency of Object.keys(entry.optionalDependencies ?? {})) {
        const base = location === '' ? 'node_modules' : `${location}/node_modules`;
        if (!lock.packages[`${base}/${dependency}`] && !lock.packages[`node_modules/${dependency}`]) missing.push(`${dependency} (for ${location || 'the project'})`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('platformOf', () => {
  it.each([
    ['@swc/core-darwin-arm64', { os: ['darwin'], cpu: ['arm64'] }],
    ['@swc/core-linux-arm-gnueabihf', { os: ['linux'], cpu: ['arm'], libc: ['glibc'] }],
    ['@unrs/resolver-binding-linux-riscv64-musl', { os: ['linux'], cpu: ['riscv64'], libc: ['musl'] }],
    ['@swc/core-win32-ia32-msvc', { os: ['win32'], cpu: ['ia32'] }],
    ['left-pad', undefined],
  ])('reads %s', (name, expected) => {
    expect(platformOf(name)).toEqual(expected);
  });
});
