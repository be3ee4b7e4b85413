/**
 * The lock on a fresh clone: `npm ci` (which CI runs) refuses a lock that leaves out any optional
 * dependency of a locked package, even one for another platform, and `npm install` rewrites a lock
 * that is not exactly as npm would write it, leaving a clone modified before anyone touched it. This
 * machine's registry lacks some platform binaries, so npm install can drop them:
 * scripts/complete-lockfile.ts puts them back in npm's own format. The Node.js versions the project
 * states (package.json, README.md and docs/) must be ones every locked package accepts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { lockText, platformOf } from '../../scripts/complete-lockfile';
import { repoRoot } from '../support/paths';

interface Entry {
  version?: string;
  optionalDependencies?: Record<string, string>;
  engines?: Record<string, string> | string[];
  hasInstallScript?: boolean;
}

const lockPath = path.join(repoRoot, 'package-lock.json');
const readLock = () => JSON.parse(fs.readFileSync(lockPath, 'utf8')) as { packages: Record<string, Entry> };

describe('package-lock.json', () => {
  it('names every optional dependency of every locked package (run `npm run lock:complete` if not)', () => {
    const lock = readLock();
    const missing: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      for (const dependency of Object.keys(entry.optionalDependencies ?? {})) {
        const base = location === '' ? 'node_modules' : `${location}/node_modules`;
        if (!lock.packages[`${base}/${dependency}`] && !lock.packages[`node_modules/${dependency}`])
          missing.push(`${dependency} (for ${location || 'the project'})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is written exactly as npm writes it (run `npm run lock:complete` if not)', () => {
    const text = fs.readFileSync(lockPath, 'utf8');
    expect(lockText(JSON.parse(text))).toBe(text);
  });

  it('is left unchanged by npm install, as on a fresh clone', () => {
    // The lock alone is what a fresh clone's npm install may rewrite; offline and with an empty
    // cache, so the answer depends on nothing but the two files (about 2 s).
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-lock-'));
    try {
      for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(repoRoot, file), path.join(work, file));
      execFileSync(
        'npm',
        ['install', '--package-lock-only', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--cache', path.join(work, 'cache')],
        { cwd: work, stdio: 'pipe', timeout: 60_000 },
      );
      expect(fs.readFileSync(path.join(work, 'package-lock.json'), 'utf8') === fs.readFileSync(lockPath, 'utf8')).toBe(true);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('install scripts', () => {
  // npm 11 lists every locked package whose install script package.json's allowScripts does not
  // decide ("npm warn install-scripts ..."), and a later npm blocks them. Each is decided there.
  const allowScripts = (
    JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> }
  ).allowScripts;
  const withScripts = Object.entries(readLock().packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([location]) => location.replace(/^.*node_modules\//, ''));

  it('are each decided in package.json (allowScripts), so a fresh npm install prints no warning about them', () => {
    expect(Object.keys(allowScripts).sort()).toEqual([...new Set(withScripts)].sort());
  });

  it('are denied only where prebuilt platform packages do their work (esbuild, @swc/core, @parcel/watcher)', () => {
    // esbuild's postinstall only hard-links its platform binary over the JS shim, @swc/core's only falls
    // back to @swc/wasm when no native binding loads, and @parcel/watcher's only builds from source with
    // npm_config_build_from_source: each locks its prebuilt binaries as optional dependencies.
    const lock = readLock();
    for (const [name, allowed] of Object.entries(allowScripts)) {
      if (allowed) continue;
      const binaries = Object.keys(lock.packages[`node_modules/${name}`]?.optionalDependencies ?? {});
      expect({ name, linuxX64: binaries.filter((binary) => /linux-x64/.test(binary)).length > 0 }).toEqual({ name, linuxX64: true });
    }
  });
});

describe('the Node.js versions the project states', () => {
  const stated = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

  it('are accepted by the engines of every locked package', () => {
    const refusing: string[] = [];
    for (const [location, entry] of Object.entries(readLock().packages)) {
      const wanted = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      if (location !== '' && wanted && !semver.subset(stated, wanted))
        refusing.push(`${location.replace(/^.*node_modules\//, '')}@${entry.version} wants ${wanted}`);
    }
    expect(refusing).toEqual([]);
  });

  it('are the ones README.md and docs/ name, and this Node.js is one of them', () => {
    expect(stated).toBe('^20.6.0 || ^22.0.0 || >=24.0.0');
    const pages = [
      'README.md',
      ...fs
        .readdirSync(path.join(repoRoot, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const readme = pages.map((page) => fs.readFileSync(path.join(repoRoot, page), 'utf8')).join('\n');
    const mentions = readme.match(/Node\.js \d[^:\n]*/g) ?? [];
    expect(mentions.length).toBeGreaterThan(0);
    for (const mention of mentions) expect(mention).toBe('Node.js 20 (20.6 or later), 22, or 24 and later');
    expect(semver.satisfies(process.version, stated)).toBe(true);
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
