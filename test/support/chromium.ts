/**
 * Debian's chromium for the browser tests, headless. Jest's global setup starts one for the whole run
 * (startSharedChromium) and each test file connects to it, taking a browser context of its own per page
 * (`browser.newPage()`), isolated as a new browser would be: a launch costs Chromium some 2.4 CPU-s, and
 * the browser files launched 26 (75 CPU-s in their browser processes). A file run without that setup
 * launches its own.
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../dev/playground/chromium';

/** The variable through which global setup hands the shared browser's address to the test files. */
export const SHARED_CHROMIUM_ENV = 'ENGAGE_CHROMIUM_WS';

/** Global setup: the run's browser, when Chromium is installed (without it, each browser test fails with launchChromium's message). */
export async function startSharedChromium(): Promise<BrowserServer | undefined> {
  if (!fs.existsSync(CHROMIUM)) return undefined;
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  process.env[SHARED_CHROMIUM_ENV] = server.wsEndpoint();
  return server;
}

/**
 * Debian's chromium, headless: the run's shared browser, or one of this file's own; a clear failure
 * (never a skip) when it is not installed. `close()` leaves the shared browser running and closes the
 * contexts this file made in it.
 */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Debian's chromium at ${CHROMIUM}: install it with "apt-get update && apt-get install -y chromium" (never "npx playwright install").`,
    );
  }
  const shared = process.env[SHARED_CHROMIUM_ENV];
  if (shared) return chromium.connect(shared);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
