/**
 * The playground in Debian's chromium for browser tests: the real dist/sidebar.html beside the grid,
 * its google.script.run calls running the built bundle in the local host against the emulator.
 * Chromium missing is a failure with a clear message, never a silent skip. Run `npm run build` first.
 */
import fs from 'node:fs';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { startPlayground, type Playground } from '../../dev/playground/playground';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface BrowserPlayground {
  playground: Playground;
  browser: Browser;
  page: Page;
  sidebar: FrameLocator;
  /** Messages of any alert/confirm the page opened (hostile text must open none). */
  dialogs: string[];
  close(): Promise<void>;
}

export async function openPlayground(): Promise<BrowserPlayground> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's chromium at ${CHROMIUM}: install it with "apt-get update && apt-get install -y chromium" (never "npx playwright install").`);
  }
  const playground = await startPlayground({ port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(playground.url);
  return {
    playground, browser, page, dialogs,
    sidebar: page.frameLocator('#sidebar'),
    async close() {
      await browser.close();
      await playground.close();
    },
  };
}

/** Retries an assertion until it passes (the page updates asynchronously), for up to `timeoutMs`. */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}
