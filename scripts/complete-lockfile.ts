/**
 * `npm run lock:complete`: adds to package-lock.json the platform binaries that this machine's npm
 * registry does not carry (for example @swc/core's macOS and Windows builds). npm install leaves them
 * out of the lock when the registry answers 404 for them, and `npm ci` then refuses the lock as out
 * of sync. Each missing entry is written as npm writes it for another platform: the version its
 * parent asks for, marked optional, with the os and cpu its name states, so npm ci skips it here.
 * The file is written in npm's own order (`lockText`), so a later `npm install` finds nothing to
 * rewrite. Run it after any `npm install` that changes the lock.
 */
import fs from 'node:fs';
import path from 'node:path';

interface LockEntry {
  version?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

const OS_WORDS: Record<string, string> = {
  darwin: 'darwin',
  linux: 'linux',
  win32: 'win32',
  android: 'android',
  freebsd: 'freebsd',
  openharmony: 'openharmony',
};
const CPU_WORDS = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'loong64', 'riscv64'];

/** os, cpu and libc from a platform package's name, such as core-linux-arm-gnueabihf or resolver-binding-linux-x64-musl. */
export function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> | undefined {
  const words = name.split('/').pop()!.split('-');
  const os = words.find((w) => w in OS_WORDS);
  const cpu = words.find((w) => CPU_WORDS.includes(w));
  if (!os || !cpu) return undefined;
  const entry: Pick<LockEntry, 'os' | 'cpu' | 'libc'> = { os: [OS_WORDS[os]!], cpu: [cpu] };
  if (os === 'linux' && words.some((w) => w.startsWith('musl'))) entry.libc = ['musl'];
  else if (os === 'linux' && words.some((w) => w.startsWith('gnu'))) entry.libc = ['glibc'];
  return entry;
}

/** Keys npm writes first, in this order (its shrinkwrap's key order); every other key follows by name. */
const NPM_FIRST_KEYS = ['name', 'version', 'lockfileVersion', 'resolved', 'integrity', 'requires', 'packages', 'dependencies'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The lock as npm serialises it (npm's json-stringify-nice with its shrinkwrap key order): in every
 * object, plain values and arrays before objects, then the keys above in their order, then the rest
 * by name in English collation; two-space indent and a final newline. A lock written any other way
 * is rewritten by the next `npm install`, even with nothing to change.
 */
export function lockText(lock: unknown): string {
  const compareKeys = (a: string, b: string): number => {
    const ia = NPM_FIRST_KEYS.indexOf(a);
    const ib = NPM_FIRST_KEYS.indexOf(b);
    if (ia >= 0 || ib >= 0) return ia < 0 ? 1 : ib < 0 ? -1 : ia - ib;
    return a.localeCompare(b, 'en');
  };
  const ordered = (_key: string, value: unknown): unknown => {
    if (!isObject(value)) return value;
    const entries = Object.entries(value).sort(([ak, av], [bk, bv]) =>
      isObject(av) === isObject(bv) ? compareKeys(ak, bk) : isObject(av) ? 1 : -1,
    );
    return Object.fromEntries(entries);
  };
  return `${JSON.stringify(lock, ordered, 2)}\n`;
}

function main(): void {
  const lockPath = path.resolve(__dirname, '..', 'package-lock.json');
  const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as { packages: Record<string, LockEntry> };
  const added: string[] = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    for (const [dependency, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const base = location === '' ? 'node_modules' : `${location}/node_modules`;
      const nested = `${base}/${dependency}`;
      const top = `node_modules/${dependency}`;
      if (lock.packages[nested] || lock.packages[top]) continue;
      const platform = platformOf(dependency);
      if (!platform)
        throw new Error(
          `${dependency} (optional in ${location || 'the project'}) is missing from the lock and its name states no platform`,
        );
      lock.packages[top] = { version, dev: entry.dev, optional: true, ...platform } as LockEntry;
      if (lock.packages[top]!.dev === undefined) delete lock.packages[top]!.dev;
      added.push(`${dependency}@${version}`);
    }
  }
  fs.writeFileSync(lockPath, lockText(lock));
  console.log(
    added.length ? `Added ${added.length} platform entries: ${added.join(', ')}` : 'The lock already names every platform binary.',
  );
}

if (require.main === module) main();
