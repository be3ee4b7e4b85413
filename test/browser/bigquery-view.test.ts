/**
 * Browser test of a BigQuery report in the Schedules tab, in a 300 px sidebar: the build with
 * "bigquery": true (its BigQuery calls sent to the emulator's stand-in) in the local host, a small
 * report loaded into its table by Run now, then the tab shows the "Loaded" row as the core words it,
 * the table's address and the ready query (a read-only box), and "Open in Sheets" adds a data source
 * sheet on the table (read back from the host) and names it; with Connected Sheets refused by the
 * host, it says so, points at the query and adds nothing; nothing overflows the 300 px.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { OWNER, type AddonHarness } from '../support/addon-host';
import { bigQueryOf } from '../support/bigquery';
import { bigQueryBundle, type Bundle } from '../support/bundles';
import { eventually, installScriptRun, launchChromium } from '../support/browser';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(120_000);

const PROJECT = 'engage-tests-1';
const DATASET = 'engage_reports';
const TABLE = 'daily_totals';

interface Listed {
  reports: Array<{ id: string; status: { progress?: string }; warehouse?: { address: string; query: string } }>;
}

let h: AddonHarness;
let bundle: Bundle;
let browser: Browser;
let server: http.Server;
let page: Page;
let id = '';

beforeAll(async () => {
  h = await startScheduledAddon('2026-11-20T05:30:00.000Z', {}, undefined, async (emulator) => {
    bundle = await bigQueryBundle(bigQueryOf(emulator).rootUrl);
    return bundle;
  });
  await bigQueryOf(h.emulator).createDataset(PROJECT, DATASET, 'EU');
  h.signIn();
  const saved = h.host.call(
    'saveSchedule',
    [
      {
        name: 'Ledger',
        kind: 'main',
        entityId: MEDIUM_PUBLISHER_ID,
        period: { type: 'lastDays', days: 2, endingYesterday: true },
        breakdowns: ['day'],
        metrics: ['revenue', 'rpmByPvs'],
        target: { sheetName: 'Ledger', cell: 'A1' },
        schedule: { every: 'day', hour: 6 },
        bigquery: { projectId: PROJECT, datasetId: DATASET, tableId: TABLE, location: 'EU' },
      },
    ],
    { user: OWNER },
  ) as Listed;
  id = saved.reports[0]!.id;
  h.host.call('runScheduleNow', [id], { user: OWNER });
  // This build's own sidebar page, served from this machine (the emulator's pixel is loopback http).
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(bundle.sidebar);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 300, height: 900 } });
  await installScriptRun(page, h.host, OWNER);
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sidebar.html`);
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await h?.close();
});

/** How far the page scrolls sideways, and the rightmost edge of anything in `selector`, against the width. */
function overflow(selector: string) {
  return page.locator(selector).evaluate((box) => {
    const doc = box.ownerDocument;
    const all = Array.from(box.querySelectorAll('*')) as unknown as Array<{ getBoundingClientRect(): { right: number } }>;
    const rights = all.map((e) => Math.ceil(e.getBoundingClientRect().right));
    return {
      sideways: doc.documentElement.scrollWidth - doc.documentElement.clientWidth,
      widest: Math.max(...rights),
      width: doc.documentElement.clientWidth,
    };
  });
}

it('shows the Loaded row, the address and the ready query, and Open in Sheets adds the sheet, all within 300 px', async () => {
  const listed = (h.host.call('listSchedules', [], { user: OWNER }) as Listed).reports[0]!;
  expect(listed.status.progress).toMatch(/^BigQuery: 2 of 2 days loaded/);
  await page.click('#tab-schedules');
  const item = page.locator(`article.schedule[data-id="${id}"]`);
  await eventually(async () => expect(await item.count()).toBe(1));

  // The Loaded row reads what the core says; the address and the query are the view's, the query read-only.
  const rows = await item.locator('.schedule-status dt').allInnerTexts();
  const values = await item.locator('.schedule-status dd').allInnerTexts();
  expect(values[rows.indexOf('Loaded')]).toBe(listed.status.progress);
  expect(await item.locator('.bigquery-address').innerText()).toBe(`${PROJECT}.${DATASET}.${TABLE}`);
  const query = item.locator('textarea.bigquery-query');
  expect(await query.inputValue()).toBe(listed.warehouse!.query);
  expect(await query.getAttribute('readonly')).not.toBeNull();
  expect(await item.locator('label[for$="-query"]').innerText()).toBe('Ready query (the last 30 days)');

  const before = h.host.state.spreadsheet.sheets.length;
  await item.locator('button.bigquery-open').click();
  await eventually(async () =>
    expect(await item.locator('.bigquery-outcome .notice-success').innerText()).toBe(
      `Added the sheet 'Ledger (2)', connected to the BigQuery table ${PROJECT}.${DATASET}.${TABLE} (Connected Sheets): it shows a preview of the rows, ` +
        `and its queries run in BigQuery, billed to the project ${PROJECT}.`,
    ),
  );
  const sheets = h.host.state.spreadsheet.sheets;
  expect(sheets).toHaveLength(before + 1);
  expect(
    sheets.filter((s) => s.dataSource).map((s) => [s.name, s.dataSource?.tableProjectId, s.dataSource?.datasetId, s.dataSource?.tableId]),
  ).toEqual([['Ledger (2)', PROJECT, DATASET, TABLE]]);
  const fit = await overflow('#panel-schedules');
  expect(fit.sideways).toBe(0);
  expect(fit.widest).toBeLessThanOrEqual(fit.width);
});

it('with Connected Sheets refused, says so, points at the query and adds no sheet', async () => {
  h.host.state.spreadsheet.connectedSheetsRefusal = 'Connected Sheets is turned off for your domain.';
  try {
    const item = page.locator(`article.schedule[data-id="${id}"]`);
    const before = h.host.state.spreadsheet.sheets.length;
    await item.locator('button.bigquery-open').click();
    const warning = item.locator('.bigquery-outcome .notice-warning');
    await eventually(async () => expect(await warning.count()).toBe(1));
    expect(await warning.innerText()).toMatch(
      /^Sheets could not connect a sheet to engage-tests-1\.engage_reports\.daily_totals: Connected Sheets may not be allowed for your account or your domain .*Use the ready query below/,
    );
    expect(h.host.state.spreadsheet.sheets).toHaveLength(before);
    // The query box has the focus, its text selected for Ctrl+C.
    const selected = await item.locator('textarea.bigquery-query').evaluate((box) => {
      const area = box as unknown as { selectionStart: number; selectionEnd: number; value: string };
      return box.ownerDocument.activeElement === box && area.selectionEnd - area.selectionStart === area.value.length;
    });
    expect(selected).toBe(true);
    const fit = await overflow('#panel-schedules');
    expect(fit.sideways).toBe(0);
    expect(fit.widest).toBeLessThanOrEqual(fit.width);
  } finally {
    h.host.state.spreadsheet.connectedSheetsRefusal = undefined;
  }
});
