/**
 * Jest global setup: starts one Engage emulator in its own process (a server in the same thread
 * as a synchronous UrlFetchApp would deadlock) and hands its addresses to the test workers through
 * environment variables. Test files ask this process for isolated instances (test/support/emulator.ts),
 * so clocks, rate limits and faults of one file never leak into another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

declare global {
  // eslint-disable-next-line no-var
  var __ENGAGE_EMULATOR__: ChildProcess | undefined;
}

const READY_PREFIX = 'EMULATOR_READY ';
const START_TIMEOUT_MS = 20000;

export default async function globalSetup(): Promise<void> {
  if (process.env.ENGAGE_SKIP_EMULATOR === '1') return;
  const root = path.resolve(__dirname, '..', '..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'dev/emulator/main.ts'), '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  globalThis.__ENGAGE_EMULATOR__ = child;
  const ready = await new Promise<{ baseUrl: string; recsUrl: string; adminUrl: string }>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error('the emulator did not start within 20 s')), START_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`the emulator exited with code ${code} before it was ready`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith(READY_PREFIX));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line.slice(READY_PREFIX.length)));
      }
    });
  });
  child.stdout!.resume();
  process.env.ENGAGE_EMULATOR_BASE_URL = ready.baseUrl;
  process.env.ENGAGE_EMULATOR_RECS_URL = ready.recsUrl;
  process.env.ENGAGE_EMULATOR_ADMIN_URL = ready.adminUrl;
}
