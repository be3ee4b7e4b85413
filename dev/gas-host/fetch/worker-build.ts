/**
 * Worker threads cannot load TypeScript under jest (its transform covers only its own module registry)
 * nor reliably under every tsx mode, so the host compiles each worker entry with esbuild on first use
 * into one self-contained CommonJS file in the OS temp folder, named by a hash of its content so
 * concurrent test processes share it safely and a changed source never reuses a stale build.
 */
import { buildSync } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const builtPaths = new Map<string, string>();

/** Returns the absolute path of a bundled .cjs build of `entryFile` (an absolute .ts path). */
export function buildWorkerFile(entryFile: string): string {
  const cached = builtPaths.get(entryFile);
  if (cached) return cached;
  const result = buildSync({
    entryPoints: [entryFile],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]!.text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), 'engage-gas-host');
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, `${path.basename(entryFile, '.ts')}-${hash}.cjs`);
  if (!existsSync(target)) {
    // Write then rename, so a parallel jest worker never loads a half-written file.
    const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, target);
  }
  builtPaths.set(entryFile, target);
  return target;
}
