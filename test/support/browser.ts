/**
 * The playground in Debian's chromium for browser tests: the real dist/sidebar.html beside the grid,
 * its google.script.run calls running the built bundle in the local host against the emulator.
 * Chromium missing is a failure with a clear message, never a silent skip. Run `npm run build` first.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import type { GasHost } from '../../dev/gas-host';
import { startPlayground, type Playground } from '../../dev/playground/playground';
import { BIG_PUBLISHER_ID, DEMO_USER, type SeedName } from '../../dev/emulator/model/seed';
import { a1Cell } from '../../src/core/util/a1-notation';
import { launchChromium } from './chromium';
import { distDir, distSidebar } from './paths';

export { launchChromium };

/**
 * dist/sidebar.html (or `html`, another build's sidebar) served by a real server on 127.0.0.1. The
 * impression pixel goes to the emulator on plain http 127.0.0.1, which Chromium refuses from any origin
 * outside the loopback address space (Local Network Access; a page.route answer does not count as
 * loopback) and from https pages.
 */
export async function serveSidebar(html?: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? fs.readFileSync(distSidebar, 'utf8'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sidebar.html`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Gives the page a google.script.run whose calls run the bundle's server functions in `host` as `user`. */
export async function installScriptRun(page: Page, host: GasHost, user: string): Promise<void> {
  await page.exposeFunction('__gasCall', (name: string, args: unknown[]) => {
    const outcome = host.run(name, args, { user });
    return outcome.ok ? { ok: true, value: outcome.value } : { ok: false, message: outcome.error?.message ?? 'failed' };
  });
  // Runs in the page: a google.script.run whose calls go to __gasCall.
  await page.addInitScript(() => {
    type Outcome = { ok: boolean; value?: unknown; message?: string };
    const call = (globalThis as unknown as { __gasCall(name: string, args: unknown[]): Promise<Outcome> }).__gasCall;
    function runner(success?: (v: unknown) => void, failure?: (e: unknown) => void): unknown {
      return new Proxy(
        {},
        {
          get(_t, name: string) {
            if (name === 'withSuccessHandler') return (f: (v: unknown) => void) => runner(f, failure);
            if (name === 'withFailureHandler') return (f: (e: unknown) => void) => runner(success, f);
            return (...args: unknown[]) => {
              void call(name, args).then((o) => (o.ok ? success?.(o.value) : failure?.(new Error(o.message))));
            };
          },
        },
      );
    }
    (globalThis as unknown as { google: unknown }).google = {
      script: {
        get run() {
          return runner();
        },
      },
    };
  });
}

export interface BrowserPlayground {
  playground: Playground;
  browser: Browser;
  page: Page;
  sidebar: FrameLocator;
  /** Messages of any alert/confirm the page opened (hostile text must open none). */
  dialogs: string[];
  close(): Promise<void>;
}

/** The playground of the tests' build, with the tests' fixtures unless `seed` says 'demo' (npm start's clean demo). */
export async function openPlayground(options: { seed?: SeedName } = {}): Promise<BrowserPlayground> {
  const browser = await launchChromium();
  const playground = await startPlayground({ port: 0, distDir, seed: options.seed ?? 'tests' });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(playground.url);
  return {
    playground,
    browser,
    page,
    dialogs,
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

/** Ticks exactly these breakdowns in the report builder, in this order (each click re-renders the chips). */
export async function chooseBreakdowns(sidebar: FrameLocator, names: string[]): Promise<void> {
  for (;;) {
    const checked = sidebar.locator('input[name=breakdown]:checked:not([disabled])');
    if ((await checked.count()) === 0) break;
    await sidebar.locator(`input[name=breakdown][value=${await checked.first().getAttribute('value')}]`).click();
  }
  for (const name of names) {
    await sidebar.locator(`input[name=breakdown][value=${name}]`).click();
    await eventually(async () => expect(await sidebar.locator(`input[name=breakdown][value=${name}]`).isChecked()).toBe(true));
  }
}

/**
 * Selects a cell in the playground's grid as a user clicks it (its sheet's tab first), and waits until
 * the host has it as the active cell: the page tells the server in a request of its own, which a
 * sidebar call sent right after the click could otherwise overtake.
 */
export async function selectCell(b: Pick<BrowserPlayground, 'page' | 'playground'>, sheet: string, a1: string): Promise<void> {
  const tab = b.page.locator('#sheet-tabs button', { hasText: sheet }).first();
  if ((await tab.getAttribute('aria-selected')) !== 'true') {
    await tab.click();
    await eventually(async () => expect(await tab.getAttribute('aria-selected')).toBe('true'));
  }
  await b.page.locator(`#grid td[data-a1="${a1}"]`).click();
  const spreadsheet = b.playground.host.state.spreadsheet;
  await eventually(() =>
    expect(
      `${spreadsheet.sheetById(spreadsheet.activeSheetId).name}!${spreadsheet.activeRange ? a1Cell(spreadsheet.activeRange.row, spreadsheet.activeRange.column) : ''}`,
    ).toBe(`${sheet}!${a1}`),
  );
}

/**
 * Signs in from the sidebar as the demo user the playground puts in the form, and waits until the
 * report builder has the publishers, the first of them (Daily Planet) chosen. No jest in it: the
 * benchmark signs in with it too.
 */
export async function signInAsDemo(sidebar: FrameLocator): Promise<void> {
  const shows = async (selector: string, value: string) => {
    const shown = await sidebar.locator(selector).inputValue();
    if (shown !== value) throw new Error(`${selector} shows '${shown}', not '${value}'`);
  };
  await eventually(() => shows('#sign-in-username', DEMO_USER.username));
  await sidebar.locator('#sign-in-submit').click();
  await eventually(() => shows('#report-publisher', BIG_PUBLISHER_ID));
}

/** The text a control shows (a select's chosen option, an input's value), its width, and the room it has for text. */
export function measureControl(control: Locator) {
  return control.evaluate((node) => {
    const doc = node.ownerDocument;
    const view = doc.defaultView!;
    const element = node as unknown as {
      tagName: string;
      value: string;
      clientWidth: number;
      selectedOptions?: ArrayLike<{ textContent: string | null }>;
      getBoundingClientRect(): { left: number; right: number };
    };
    const style = view.getComputedStyle(node);
    const context = (
      doc.createElement('canvas') as unknown as { getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } } }
    ).getContext('2d');
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const select = element.tagName === 'SELECT';
    const text = select ? (element.selectedOptions![0]!.textContent ?? '') : element.value;
    // A select draws its arrow inside its box: 20 px of it are not for text.
    const arrow = select ? 20 : 0;
    const rect = element.getBoundingClientRect();
    return {
      text,
      textWidth: Math.ceil(context.measureText(text).width),
      room: element.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight) - arrow,
      left: rect.left,
      right: rect.right,
      viewport: doc.documentElement.clientWidth,
    };
  });
}
