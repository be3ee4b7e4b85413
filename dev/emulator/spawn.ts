/**
 * Starts the emulator in a child process and waits for its EMULATOR_READY line. A separate process
 * matters: the local Apps Script host's UrlFetchApp blocks its thread while it waits for an answer,
 * so a server on that same thread would never answer. Used by jest's global setup, the playground
 * and the benchmarks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { SeedName } from './model/seed';

export interface EmulatorProcess {
  baseUrl: string;
  recsUrl: string;
  adminUrl: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const READY_PREFIX = 'EMULATOR_READY ';
const START_TIMEOUT_MS = 20_000;

/** `seed`: the fixtures it serves (seed.ts), the clean demo unless 'tests'. */
export async function spawnEmulatorProcess(options: { port?: number; echo?: boolean; seed?: SeedName } = {}): Promise<EmulatorProcess> {
  const main = path.join(__dirname, 'main.ts');
  const args = ['--import', 'tsx', main, '--port', String(options.port ?? 0), '--seed', options.seed ?? 'demo'];
  const child = spawn(process.execPath, args, {
    cwd: path.resolve(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<{ baseUrl: string; recsUrl: string; adminUrl: string }>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`the emulator did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`the emulator exited with code ${code} before it was ready`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (options.echo)
        process.stdout.write(
          text
            .split('\n')
            .filter((l) => !l.startsWith(READY_PREFIX))
            .join('\n'),
        );
      buffered += text;
      const line = buffered.split('\n').find((l) => l.startsWith(READY_PREFIX));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line.slice(READY_PREFIX.length)));
      }
    });
  });
  child.stdout!.resume();
  return {
    ...ready,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
