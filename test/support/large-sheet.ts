/**
 * The playground with a sheet of over 100,000 report rows, written by the add-on's own Run to sheet,
 * and the times a user waits with it there: the page showing the sheet's first rows, and a Run to
 * sheet from the sidebar. Shared by the browser test of the playground's grid and the benchmark.
 */
import { performance } from 'node:perf_hooks';
import type { FrameLocator, Page, Request, Response } from 'playwright-core';
import type { Playground } from '../../dev/playground/playground';
import { BIG_PUBLISHER_ID } from '../../dev/emulator/model/seed';

export const LARGE_SHEET = 'Large report';
export const LARGE_ROWS = 100_000;
/** Day x country x platform x section over this many days ending yesterday: about 111,000 rows of 14 columns. */
const LARGE_DAYS = 120;
const MS_PER_DAY = 86_400_000;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Writes the large sheet with runReportToSheet, as the sidebar's Run to sheet would; the user must be signed in. */
export function writeLargeSheet(playground: Playground): { dataRows: number; ms: number } {
  const today = Date.parse(utcDay(playground.host.now().getTime()));
  const request = {
    kind: 'main',
    entityId: BIG_PUBLISHER_ID,
    fromDate: utcDay(today - LARGE_DAYS * MS_PER_DAY),
    toDate: utcDay(today - MS_PER_DAY),
    breakdowns: ['day', 'country', 'platform', 'section'],
  };
  const started = performance.now();
  const summary = playground.host.call('runReportToSheet', [request, { type: 'newSheet', sheetName: LARGE_SHEET }, 'large-sheet-seed'], {
    user: playground.user,
  }) as { dataRows: number };
  if (summary.dataRows < LARGE_ROWS) throw new Error(`the large report has ${summary.dataRows} rows, fewer than ${LARGE_ROWS}`);
  return { dataRows: summary.dataRows, ms: performance.now() - started };
}

/**
 * What the page fetched of the grid (/api/sheet and /api/rows): requests, and the bytes and rows of
 * the distinct ones. The page loads its view again after every sidebar call (the playground cannot
 * tell which calls changed the sheet), so the same block may come more than once while the page
 * starts: the rows and bytes say how much of the sheet was asked for, not how often.
 */
export interface GridTraffic {
  requests: number;
  bytes: number;
  rows: number;
}

/** Counts the grid's traffic from now on; `stop()` gives the totals. */
export function watchGridTraffic(page: Page): { stop(): Promise<GridTraffic> } {
  const pending: Array<Promise<void>> = [];
  const traffic: GridTraffic = { requests: 0, bytes: 0, rows: 0 };
  const seen = new Set<string>();
  const onResponse = (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname !== '/api/sheet' && url.pathname !== '/api/rows') return;
    traffic.requests += 1;
    if (seen.has(url.pathname + url.search)) return;
    seen.add(url.pathname + url.search);
    pending.push(
      response.body().then(
        (body) => {
          traffic.bytes += body.length;
          const answer = JSON.parse(body.toString('utf8')) as { rows?: unknown[]; frozen?: unknown[] };
          traffic.rows += (answer.rows ?? answer.frozen ?? []).length;
        },
        () => undefined,
      ),
    );
  };
  page.on('response', onResponse);
  return {
    async stop() {
      page.off('response', onResponse);
      await Promise.all(pending);
      return traffic;
    },
  };
}

/** The text of a grid cell once the page shows `expected` there. */
async function showsCell(page: Page, a1: string, expected: string, timeoutMs: number): Promise<void> {
  // An expression evaluated in the page, checked at every frame.
  await page.waitForFunction(
    `document.querySelector('#grid td[data-a1="${a1}"]')?.textContent === ${JSON.stringify(expected)}`,
    undefined,
    { timeout: timeoutMs, polling: 'raf' },
  );
}

/**
 * Opens the playground page with the large sheet active and waits for its first rows: milliseconds
 * from the start of navigation until row 2 shows the sheet's value (the header row is frozen, so it
 * comes with the sheet's view).
 */
export async function timeFirstRows(page: Page, playground: Playground, timeoutMs = 60_000): Promise<number> {
  playground.host.setActiveRange(LARGE_SHEET, 'A1');
  const expected = String(playground.host.getCell(LARGE_SHEET, 'C2').value);
  const started = performance.now();
  await page.goto(playground.url, { waitUntil: 'commit' });
  await showsCell(page, 'C2', expected, timeoutMs);
  return performance.now() - started;
}

/**
 * Waits until the page (and the sidebar in it) has had no request on its way for `quietMs`, at most
 * `capMs`. Playwright's 'networkidle' is not used: it fails the test when the page never settles (it
 * once waited out its 30 s on a loaded CI machine), where this only times from a later start and says
 * which requests were still open.
 */
async function settle(page: Page, quietMs = 500, capMs = 10_000): Promise<void> {
  const open = new Set<Request>();
  const onRequest = (request: Request) => open.add(request);
  const onDone = (request: Request) => open.delete(request);
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  try {
    const deadline = performance.now() + capMs;
    let quietSince = performance.now();
    while (performance.now() < deadline) {
      if (open.size > 0) quietSince = performance.now();
      else if (performance.now() - quietSince >= quietMs) return;
      await page.waitForTimeout(50);
    }
    console.warn(`The page did not settle within ${capMs} ms; still open: ${[...open].map((r) => r.url()).join(', ') || 'none'}`);
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  }
}

/**
 * A Run to sheet from the sidebar of the last 7 days by day into a new sheet: milliseconds from the
 * click until the sidebar tells the outcome and the grid shows the new sheet's header.
 */
export async function timeSidebarRun(page: Page, sidebar: FrameLocator, sheetName: string, timeoutMs = 60_000): Promise<number> {
  // Both times start from a settled page: no request of the sidebar's start (publishers, sheet) still on its way.
  await settle(page);
  await sidebar.locator('#report-preset').selectOption('last7');
  await sidebar.locator('#report-target').selectOption('newSheet');
  await sidebar.locator('#report-target-name').fill(sheetName);
  const started = performance.now();
  await sidebar.locator('#run-report').click();
  try {
    await sidebar
      .locator('#report-outcome .notice-success')
      // "Wrote 7 rows to Before!A1:H9 ..." (a name with a space is quoted, as Sheets writes it: 'Before 1'!A1:H9).
      .filter({ hasText: new RegExp(` to '?${sheetName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'?!`) })
      .first()
      .waitFor({ timeout: timeoutMs });
  } catch (error) {
    // What the sidebar showed instead, so a failure says more than a timeout.
    const shown = await sidebar.locator('#report-outcome, #run-progress').allInnerTexts();
    throw new Error(
      `no success notice for ${sheetName} within ${timeoutMs} ms; the sidebar showed ${JSON.stringify(shown)}: ${String(error)}`,
    );
  }
  await page.locator('#sheet-tabs button[aria-selected="true"]', { hasText: sheetName }).waitFor({ timeout: timeoutMs });
  await showsCell(page, 'A1', 'day', timeoutMs);
  return performance.now() - started;
}
