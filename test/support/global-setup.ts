/**
 * Jest global setup: starts one Engage emulator in its own process (a server in the same thread
 * as a synchronous UrlFetchApp would deadlock) and hands its addresses to the test workers through
 * environment variables. Test files ask this process for isolated instances (test/support/emulator.ts),
 * so clocks, rate limits and faults of one file never leak into another.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnEmulatorProcess } from '../../dev/emulator/spawn';

declare global {
  // eslint-disable-next-line no-var
  var __ENGAGE_EMULATOR__: ChildProcess | undefined;
}

export default async function globalSetup(): Promise<void> {
  if (process.env.ENGAGE_SKIP_EMULATOR === '1') return;
  const emulator = await spawnEmulatorProcess();
  globalThis.__ENGAGE_EMULATOR__ = emulator.child;
  process.env.ENGAGE_EMULATOR_BASE_URL = emulator.baseUrl;
  process.env.ENGAGE_EMULATOR_RECS_URL = emulator.recsUrl;
  process.env.ENGAGE_EMULATOR_ADMIN_URL = emulator.adminUrl;
}
