/**
 * `npm run lock:complete`: adds to package-lock.json the platform binaries that this machine's npm
 * registry does not carry (for example @swc/core's macOS and Windows builds). npm install leaves them
 * out of the lock when the registry answers 404 for them, and `npm ci` then refuses the lock as out
 * of sync. Each missing entry is written as npm writes it for another platform: the version its
 * parent asks for, marked optional, with the os and cpu its name states, so npm ci skips it here.
 * Run it after any `npm install` that changes the lock.
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

const OS_WORDS: Record<string, string> = { darwin: 'darwin', linux: 'linux', win32: 'win32', android: 'android', freebsd: 'freebsd', openharmony: 'openharmony' };
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
      if (!platform) throw new Error(`${dependency} (optional in ${location || 'the project'}) is missing from the lock and its name states no platform`);
      lock.packages[top] = { version, dev: entry.dev, optional: true, ...platform } as LockEntry;
      if (lock.packages[top]!.dev === undefined) delete lock.packages[top]!.dev;
      added.push(`${dependency}@${version}`);
    }
  }
  const sorted: Record<string, LockEntry> = {};
  for (const key of Object.keys(lock.packages).sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))) sorted[key] = lock.packages[key]!;
  lock.packages = sorted;
  fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(added.length ? `Added ${added.length} platform entries: ${added.join(', ')}` : 'The lock already names every platform binary.');
}

if (require.main === module) main();
