/**
 * Browser tests of the sidebar's report builder in the playground: Debian's chromium (driven by
 * playwright-core) shows the real dist/sidebar.html, whose google.script.run calls run the built
 * bundle in the local Apps Script host against the emulator. Run `npm run build` first.
 * Chromium missing is a failure with a clear message, never a silent skip.
 */
import type { FrameLocator, Page } from 'playwright-core';
import type { Playground } from '../../dev/playground/playground';
import { chooseBreakdowns as chooseBreakdownsIn, eventually, openPlayground, type BrowserPlayground, selectCell } from '../support/browser';
import { BIG_PUBLISHER_ID, HOSTILE_PUBLISHER_ID } from '../../dev/emulator/model/seed';

jest.setTimeout(90_000);

let env: BrowserPlayground;
let playground: Playground;
let page: Page;
let sidebar: FrameLocator;
let dialogs: string[] = [];

beforeAll(async () => {
  env = await openPlayground();
  ({ playground, page, sidebar, dialogs } = env);
});

afterAll(async () => {
  await env?.close();
});

async function admin(path: string, method: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${playground.emulator.adminUrl}${path}`, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return response.json();
}

const chooseBreakdowns = (names: string[]) => chooseBreakdownsIn(sidebar, names);

async function runToNewSheet(sheetName: string): Promise<void> {
  await sidebar.locator('#report-target').selectOption('newSheet');
  await sidebar.locator('#report-target-name').fill(sheetName);
  await sidebar.locator('#run-report').click();
  await sidebar.locator('#report-outcome .notice').first().waitFor({ timeout: 60_000 });
}

/** Cells of a block as comparable text: dates as their ISO instant, everything else as is. */
function comparable(values: unknown[][]): string[][] {
  return values.map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : String(v))));
}

describe('the sidebar report builder in the playground', () => {
  it('signs in with the form the playground pre-fills, and lists the publishers from the API', async () => {
    await eventually(async () => expect(await sidebar.locator('#sign-in-username').inputValue()).toBe('demo@engage.example'));
    await sidebar.getByText('Engage allows 2 sign-ins an hour').waitFor();
    await sidebar.locator('#sign-in-submit').click();
    await eventually(async () => expect(await sidebar.locator('#report-publisher option').count()).toBe(3 + 2)); // and All, Several
    await eventually(async () => expect(await sidebar.locator('#report-publisher').inputValue()).toBe(BIG_PUBLISHER_ID));
    expect(playground.host.properties('user', playground.user).get('engage.settings')).toContain(playground.emulator.baseUrl);
  });

  it('disables forbidden breakdown pairs and a fifth breakdown, and says why', async () => {
    await chooseBreakdowns(['day', 'country']);
    for (const forbidden of ['month', 'referrer', 'doc'])
      await eventually(async () => expect(await sidebar.locator(`input[name=breakdown][value=${forbidden}]`).isDisabled()).toBe(true));
    await eventually(async () =>
      expect(await sidebar.locator('#breakdown-why').innerText()).toContain('referrer cannot be combined with country'),
    );
    await chooseBreakdowns(['day', 'platform', 'section', 'widget']);
    await eventually(async () => expect(await sidebar.locator('input[name=breakdown][value=country]').isDisabled()).toBe(true));
    await eventually(async () => expect(await sidebar.locator('#breakdown-why').innerText()).toContain('at most 4 breakdowns'));
    await eventually(async () => expect(await sidebar.locator('#breakdown-hints').innerText()).toContain('Widget brings request metrics'));
  });

  it('runs a preset with two breakdowns and a filter to a sheet, and the inserted formula gives the same rows', async () => {
    await sidebar.locator('#report-preset').selectOption('last7');
    await chooseBreakdowns(['day', 'country']);
    await sidebar.locator('#filter-add').click();
    await sidebar.locator('.filter-row .filter-field').selectOption('revenue');
    await sidebar.locator('.filter-row .filter-operator').selectOption('gt');
    await sidebar.locator('.filter-row .filter-value').fill('5');
    await eventually(async () => expect(await sidebar.locator('#filter-text').innerText()).toContain('revenue:gt:5'));

    await runToNewSheet('Daily by country');
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome .notice-success').first().innerText()).toContain("to 'Daily by country'"),
    );
    const reportRequests = playground.host.fetchLog.filter((r) => r.url.includes('/reports/main'));
    expect(reportRequests.at(-1)!.url).toMatch(/breakdowns=day%2Ccountry/);
    expect(reportRequests.at(-1)!.url).toMatch(/filter=revenue%3Agt%3A5/);

    // The grid: header styled and frozen, and every row's revenue passes the filter.
    const grid = playground.host.getValues('Daily by country', 'A1:Z400');
    const header = grid[0]!.map(String);
    expect(header.slice(0, 3)).toEqual(['day', 'country.id', 'country.name']);
    const rows = grid.slice(1).filter((row) => row[0] instanceof Date);
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(Number(row[header.indexOf('revenue')])).toBeGreaterThan(5);
    expect(playground.host.getCell('Daily by country', 'A2').numberFormat).toBe('yyyy-mm-dd');
    await eventually(async () => expect(await page.locator('#sheet-tabs').innerText()).toContain('Daily by country'));
    await eventually(async () => expect(await page.locator('#grid td[data-a1="B1"]').innerText()).toBe('country.id'));

    // The sidebar's own preview shows the same first rows as the grid.
    const previewFirst = await sidebar.locator('#run-preview-table tbody tr').first().locator('td').allTextContents();
    expect(previewFirst[1]).toBe(String(rows[0]![1]));
    // Its numbers as the sheet formats them: the revenue cell's own number format, "386.90 USD".
    const revenueAt = header.indexOf('revenue');
    expect(playground.host.getCell('Daily by country', `${String.fromCharCode(65 + revenueAt)}2`).numberFormat).toBe('#,##0.00 "USD"');
    const revenue = Number(rows[0]![revenueAt]).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(previewFirst[revenueAt]).toBe(`${revenue} USD`);

    // Insert the formula into an empty sheet's A1 and compare its rows with the grid's.
    await selectCell(env, 'Sheet1', 'A1');
    await sidebar.locator('#insert-formula').click();
    await eventually(async () => expect(await sidebar.locator('#inserted-formula').innerText()).toContain('=ENGAGE_REPORT('));
    const formula = playground.host.getCell('Sheet1', 'A1');
    expect(formula.formula).toContain('"day,country","","revenue:gt:5"');
    expect(formula.error).toBeUndefined();
    const formulaValues = playground.host.getValues('Sheet1', `A1:Z${grid.length}`);
    expect(comparable(formulaValues)).toEqual(comparable(grid));
  });

  it('shows an API error as one sentence with its trace id', async () => {
    await admin('/faults', 'POST', { faults: [{ match: 'reports/main', status: 500, times: 1 }] });
    await sidebar.locator('#report-preset').selectOption('yesterday');
    await runToNewSheet('Will fail');
    const log = (await admin('/requests', 'GET')) as
      | { requests?: Array<{ path: string; traceId?: string; status: number }> }
      | Array<{ path: string; traceId?: string; status: number }>;
    const entries = Array.isArray(log) ? log : (log.requests ?? []);
    const failed = entries.filter((e) => e.status === 500).at(-1)!;
    expect(failed.traceId).toBeTruthy();
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome .notice-error').first().innerText()).toContain(failed.traceId!),
    );
    await admin('/faults', 'DELETE');
  });

  it('shows hostile text from the API as text, and writes =HYPERLINK(...) to a cell as text', async () => {
    await sidebar.locator('#report-publisher').selectOption(HOSTILE_PUBLISHER_ID);
    await sidebar.locator('#report-preset').selectOption('last30');
    await sidebar
      .locator('#filter-rows button[aria-label="Remove filter"]')
      .first()
      .click()
      .catch(() => undefined);
    await chooseBreakdowns(['section']);
    await runToNewSheet('Hostile');
    await eventually(async () => expect(await sidebar.locator('#run-preview-table').innerText()).toContain('<img src=x onerror=alert(1)>'));
    expect(await sidebar.locator('#run-preview-table img, #run-preview-table script').count()).toBe(0);
    await eventually(async () => expect(await page.locator('#grid').innerText()).toContain('=HYPERLINK("http://evil.example","click")'));
    expect(await page.locator('#grid img').count()).toBe(0);
    const values = playground.host.getValues('Hostile', 'A1:C40').flat().map(String);
    expect(values).toContain('=HYPERLINK("http://evil.example","click")');
    for (let r = 1; r <= 40; r++) for (const c of ['A', 'B', 'C']) expect(playground.host.getCell('Hostile', `${c}${r}`).formula).toBe('');
    expect(dialogs).toEqual([]);
  });
});
