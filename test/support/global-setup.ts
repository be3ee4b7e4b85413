/**
 * Jest global setup. First it builds build/tests/ for the tests' own deployment (test/fixtures/tests.deploy.json),
 * whatever engage.deploy.json or ENGAGE_DEPLOY_CONFIG say (dist/, what clasp pushes, is never touched), and beside
 * it the variants some tests run (test/support/bundles.ts), so that test files need not run esbuild: the tests
 * run the built bundle and pin that deployment's addresses, so a deployer's config must not reach them
 * (and a changed sidebar is never tested from a stale build). Then it starts one Engage emulator in its
 * own process (a server in the same thread as a synchronous UrlFetchApp would deadlock), and one Chromium
 * for the browser files, and hands their addresses to the test workers through environment variables.
 * Test files ask this process for isolated instances (test/support/emulator.ts), so clocks, rate limits
 * and faults of one file never leak into another.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnEmulatorProcess } from '../../dev/emulator/spawn';
import type { BrowserServer } from 'playwright-core';
import { buildTestBundles } from './bundles';
import { startSharedChromium } from './chromium';

declare global {
  // eslint-disable-next-line no-var
  var __ENGAGE_EMULATOR__: ChildProcess | undefined;
  // eslint-disable-next-line no-var
  var __ENGAGE_CHROMIUM__: BrowserServer | undefined;
}

export default async function globalSetup(): Promise<void> {
  await buildTestBundles();
  if (process.env.ENGAGE_SKIP_EMULATOR === '1') return;
  // The tests' fixtures (hostile names, thumbnails on a host that never resolves); npm start's emulator serves the clean demo.
  const emulator = await spawnEmulatorProcess({ seed: 'tests' });
  globalThis.__ENGAGE_EMULATOR__ = emulator.child;
  process.env.ENGAGE_EMULATOR_BASE_URL = emulator.baseUrl;
  process.env.ENGAGE_EMULATOR_RECS_URL = emulator.recsUrl;
  process.env.ENGAGE_EMULATOR_ADMIN_URL = emulator.adminUrl;
  // One Chromium for the run's browser tests, each file in contexts of its own (test/support/chromium.ts).
  globalThis.__ENGAGE_CHROMIUM__ = await startSharedChromium();
}
