/**
 * Worker threads cannot load TypeScript under jest (its transform covers only its own module registry)
 * nor reliably under every tsx mode, so the host compiles each worker entry with esbuild on first use
 * into one self-contained CommonJS file in the OS temp folder, named by a hash of its content so
 * concurrent test processes share it safely and a changed source never reuses a stale build.
 *
 * Beside it goes a record of the build's inputs (esbuild's metafile) with one hash of their contents,
 * esbuild's version and the build's options: a later process (each jest test file has its own module
 * registry, so its own first use) reuses the file while that hash is the same, reading some 30 small
 * files instead of running esbuild again.
 */
import { buildSync, version as esbuildVersion, type BuildOptions } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const builtPaths = new Map<string, string>();

/** What a build of one entry read, and the file it wrote. */
interface BuildRecord {
  output: string;
  inputs: string[];
  digest: string;
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** How every worker entry is built (its entry point aside). */
const OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  write: false,
  logLevel: 'silent',
} as const satisfies BuildOptions;

/** One hash of esbuild's version, the options, and the inputs' paths and contents; undefined when an input is gone. */
function digestOf(inputs: string[]): string | undefined {
  const hash = createHash('sha256').update(esbuildVersion).update(JSON.stringify(OPTIONS));
  for (const file of inputs) {
    if (!existsSync(file)) return undefined;
    hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Writes then renames, so a parallel jest worker never reads a half-written file. */
function writeWhole(target: string, text: string): void {
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, target);
}

/** The earlier build of this entry, when its inputs have not changed since. */
function reusable(recordFile: string): string | undefined {
  try {
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as BuildRecord;
    if (!existsSync(record.output)) return undefined;
    return digestOf(record.inputs) === record.digest ? record.output : undefined;
  } catch {
    return undefined;
  }
}

/** Returns the absolute path of a bundled .cjs build of `entryFile` (an absolute .ts path). */
export function buildWorkerFile(entryFile: string): string {
  const cached = builtPaths.get(entryFile);
  if (cached) return cached;
  const dir = path.join(os.tmpdir(), 'engage-gas-host');
  const name = path.basename(entryFile, '.ts');
  const recordFile = path.join(dir, `${name}-${sha256(entryFile).slice(0, 16)}.inputs.json`);
  const earlier = reusable(recordFile);
  if (earlier) {
    builtPaths.set(entryFile, earlier);
    return earlier;
  }
  const workingDir = process.cwd();
  const result = buildSync({ ...OPTIONS, entryPoints: [entryFile], metafile: true, absWorkingDir: workingDir });
  const text = result.outputFiles[0]!.text;
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, `${name}-${sha256(text).slice(0, 16)}.cjs`);
  if (!existsSync(target)) writeWhole(target, text);
  const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(workingDir, input));
  const digest = digestOf(inputs);
  if (digest) writeWhole(recordFile, JSON.stringify({ output: target, inputs, digest } satisfies BuildRecord));
  builtPaths.set(entryFile, target);
  return target;
}
