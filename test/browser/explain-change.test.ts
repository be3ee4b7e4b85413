/**
 * Browser test of "Explain the change" under a comparison in the report builder, at the sidebar's
 * 300 px, in the playground (Debian's chromium, the real sidebar.html, the built bundle in the local
 * host, the emulator). It appears only once the builder compares; Explain shows the drivers of
 * revenue by widget as a short list that fits the width, each with its signed amount and share, adding
 * up to the change shown, in two requests (one a period); Insert ENGAGE_EXPLAIN puts the formula of the
 * same comparison in the active cell, whose first key is the list's first, and asks before writing
 * over a result already there. From a cell holding ENGAGE_COMPARE, the same part offers the
 * comparison's explanation: Insert ENGAGE_EXPLAIN puts it beside the comparison (its rows adding up
 * to its Total, which is the comparison's), an argument given as a cell reference is named at once,
 * and Run to sheet writes the formula's rows to a sheet, asking before writing over a sheet of that
 * name that holds something. Run `npm run build` first.
 */
import type { FrameLocator, Page } from 'playwright-core';
import type { Playground } from '../../dev/playground/playground';
import { chooseBreakdowns, eventually, openPlayground, type BrowserPlayground, selectCell, signInAsDemo } from '../support/browser';

jest.setTimeout(90_000);

let env: BrowserPlayground;
let playground: Playground;
let page: Page;
let sidebar: FrameLocator;

beforeAll(async () => {
  env = await openPlayground();
  ({ playground, page, sidebar } = env);
  await signInAsDemo(sidebar);
  await eventually(async () => expect(await sidebar.locator('#report-publisher option').count()).toBe(3 + 2));
});

afterAll(async () => {
  await env?.close();
});

const reportRequests = () => playground.host.fetchLog.filter((r) => r.url.includes('/reports/main'));
const cents = (text: string) => Math.round(Number(text.replace('\u2212', '-').replace(/[$,+]/g, '')) * 100);

describe('Explain the change', () => {
  it('shows the drivers of a comparison at 300 px, and inserts ENGAGE_EXPLAIN beside it', async () => {
    expect(await sidebar.locator('html').evaluate((html) => html.clientWidth)).toBeLessThanOrEqual(300);
    await sidebar.locator('#report-preset').selectOption('last7');
    await chooseBreakdowns(sidebar, ['day']);
    // Not a comparison: nothing to explain.
    await eventually(async () => expect(await sidebar.locator('#formula-preview').textContent()).toContain('=ENGAGE_REPORT('));
    expect(await sidebar.locator('#explain-change').isVisible()).toBe(false);
    await sidebar.locator('#report-compare').selectOption('previous');
    await eventually(async () => expect(await sidebar.locator('#explain-change').isVisible()).toBe(true));
    await sidebar.locator('#explain-change summary').click();
    await sidebar.locator('#explain-metric').selectOption('revenue');
    await sidebar.locator('#explain-breakdown').selectOption('widget');

    const before = reportRequests().length;
    await sidebar.locator('#explain-run').click();
    const drivers = sidebar.locator('#explain-drivers');
    await eventually(async () => expect(await drivers.isVisible()).toBe(true));
    // One request a period.
    expect(reportRequests().length - before).toBe(2);
    const heading = await drivers.locator('.hint').first().innerText();
    const total = heading.match(/^revenue: ([−+]?\$[\d,.]+) \(/)![1]!;
    const items = drivers.locator('ol.drivers > li');
    const texts = await items.allInnerTexts();
    expect(texts.length).toBeGreaterThanOrEqual(2);
    // Each key: its name, its signed part in dollars and its share; the parts add up to the change to the cent.
    for (const text of texts.slice(0, -1)) expect(text).toMatch(/^.+ [−+]\$[\d,.]+ \(−?\d+%\)$/);
    expect(texts[texts.length - 1]).toMatch(/^Other/);
    const parts = await drivers.locator('.driver-change').allInnerTexts();
    expect(parts.reduce((a, p) => a + cents(p), 0)).toBe(cents(total));
    // It reads at 300 px: nothing wider than the sidebar.
    const widths = await drivers.evaluate((node) => ({
      scroll: node.scrollWidth,
      client: node.clientWidth,
      page: node.ownerDocument.documentElement.clientWidth,
      right: Math.max(...[...node.querySelectorAll('li')].map((li) => li.getBoundingClientRect().right)),
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(widths.right).toBeLessThanOrEqual(widths.page);
    const firstKey = await items.first().locator('.driver-key').innerText();

    // Insert: the same comparison as a formula in the active cell, by Insert formula's path.
    await selectCell(env, 'Sheet1', 'A1');
    await sidebar.locator('#explain-insert').click();
    await eventually(async () =>
      expect(await sidebar.locator('#explain-outcome #inserted-formula').innerText()).toContain('=ENGAGE_EXPLAIN('),
    );
    const cell = playground.host.getCell('Sheet1', 'A1');
    expect(cell.formula).toMatch(
      /^=ENGAGE_EXPLAIN\("[0-9a-f]+","7daysAgo","yesterday","previous","revenue","widget","","",EngageRefresh\)$/,
    );
    expect(cell.error).toBeUndefined();
    const grid = playground.host.getValues('Sheet1', 'A1:F2');
    expect(grid[0]!.map(String)).toEqual(['widget.id', 'widget.name', 'revenue', 'revenue.previous', 'revenue.change', 'revenue.share%']);
    expect(grid[1]![1]).toBe(firstKey);
    expect(Math.round(Number(grid[1]![4]) * 100)).toBe(cents(parts[0]!));

    // Again on the same cell: it asks before writing over the result; Cancel leaves it.
    await sidebar.locator('#explain-insert').click();
    const cancel = sidebar.locator('#explain-outcome button[data-choice="cancel"]');
    await eventually(async () => expect(await cancel.isVisible()).toBe(true));
    await cancel.click();
    await eventually(async () => expect(await sidebar.locator('#explain-outcome').innerText()).toContain('Nothing was written.'));
    expect(playground.host.getCell('Sheet1', 'A1').formula).toBe(cell.formula);
    expect(page).toBeDefined();
  });
});

/** Selects a cell in the grid, then comes back to the sidebar as a user does (a click in it reads the selection again). */
async function selectAndReturn(sheet: string, a1: string): Promise<void> {
  await selectCell(env, sheet, a1);
  await sidebar.locator('#report-kind-label').click();
}

/** Types into a cell as a user does in the playground: the formula is calculated before this returns. */
async function typeIn(sheet: string, a1: string, input: string): Promise<void> {
  const answer = await page.evaluate(
    async (body) => {
      const response = await fetch('/api/cell', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await response.json()) as { ok: boolean };
    },
    { sheet, a1, input },
  );
  expect(answer.ok).toBe(true);
}

/** The block a formula or a run wrote from `a1` down to its Total row, as the cells hold it. */
function blockFrom(sheet: string, a1: string, columns: number): unknown[][] {
  const [, col, row] = /^([A-Z]+)(\d+)$/.exec(a1)!;
  const last = String.fromCharCode(col!.charCodeAt(0) + columns - 1);
  const grid = playground.host.getValues(sheet, `${a1}:${last}${Number(row) + 60}`);
  return grid.slice(0, grid.findIndex((r) => r[0] === 'Total') + 1);
}

describe('Explain the change from a cell holding ENGAGE_COMPARE', () => {
  let publisher: string;
  const COMPARE_WIDTH = 6; // widget.id, widget.name, revenue, revenue.previous, revenue.change, revenue.change%

  it('inserts ENGAGE_EXPLAIN beside the comparison, whose rows add up to its Total, the comparison’s own', async () => {
    publisher = await sidebar.locator('#report-publisher').inputValue();
    await typeIn('Sheet1', 'A40', `=ENGAGE_COMPARE("${publisher}","7daysAgo","yesterday","previous","widget","revenue")`);
    await eventually(() => expect(playground.host.getCell('Sheet1', 'A40').value).toBe('widget.id'), 60_000);
    await selectAndReturn('Sheet1', 'A40');
    const here = sidebar.locator('#cell-explain-here');
    await eventually(async () => expect(await here.innerText()).toContain('The selected cell Sheet1!A40 holds ENGAGE_COMPARE'));
    expect(await here.innerText()).toContain('ENGAGE_EXPLAIN goes to Sheet1!H40');
    // The pickers start from the comparison's own metric and breakdown.
    expect(await sidebar.locator('#cell-explain-metric').inputValue()).toBe('revenue');
    expect(await sidebar.locator('#cell-explain-breakdown').inputValue()).toBe('widget');
    expect(await sidebar.locator('#cell-explain-change').getAttribute('open')).not.toBeNull();
    // It reads at 300 px: its line, pickers and three actions within the sidebar's width.
    const fits = await sidebar.locator('#cell-explain').evaluate((node) => ({
      scroll: node.scrollWidth,
      client: node.clientWidth,
      page: node.ownerDocument.documentElement.clientWidth,
      right: Math.max(...[...node.querySelectorAll('button, select')].map((b) => b.getBoundingClientRect().right)),
    }));
    expect(fits.page).toBeLessThanOrEqual(300);
    expect(fits.scroll).toBeLessThanOrEqual(fits.client);
    expect(fits.right).toBeLessThanOrEqual(fits.page);

    await sidebar.locator('#cell-explain-insert').click();
    await eventually(async () =>
      expect(await sidebar.locator('#cell-explain-outcome #inserted-formula').innerText()).toContain('=ENGAGE_EXPLAIN('),
    );
    const inserted = playground.host.getCell('Sheet1', 'H40');
    expect(inserted.formula).toBe(
      `=ENGAGE_EXPLAIN("${publisher}","7daysAgo","yesterday","previous","revenue","widget","","",EngageRefresh)`,
    );
    // The comparison is still selected and unchanged.
    expect(playground.host.getCell('Sheet1', 'A40').formula).toMatch(/^=ENGAGE_COMPARE\(/);
    await eventually(() => expect(playground.host.getCell('Sheet1', 'H40').value).toBe('widget.id'), 60_000);
    const rows = blockFrom('Sheet1', 'H40', 6);
    expect(rows[0]!.map(String)).toEqual(['widget.id', 'widget.name', 'revenue', 'revenue.previous', 'revenue.change', 'revenue.share%']);
    const total = rows[rows.length - 1]!;
    const parts = rows.slice(1, -1).reduce((sum, r) => sum + Math.round(Number(r[4]) * 100), 0);
    expect(parts).toBe(Math.round(Number(total[4]) * 100));
    // Its Total is the comparison's Total: this period, the earlier one.
    const comparison = blockFrom('Sheet1', 'A40', COMPARE_WIDTH);
    const compareTotal = comparison[comparison.length - 1]!;
    expect([total[2], total[3]]).toEqual([compareTotal[2], compareTotal[3]]);
    // What evaluating the formula gives: the sidebar's Explain of the same comparison lists the same first key and part.
    await sidebar.locator('#cell-explain-run').click();
    const drivers = sidebar.locator('#cell-explain-drivers');
    await eventually(async () => expect(await drivers.isVisible()).toBe(true));
    expect(await drivers.locator('.driver-key').first().innerText()).toBe(String(rows[1]![1]));
    expect(cents(await drivers.locator('.driver-change').first().innerText())).toBe(Math.round(Number(rows[1]![4]) * 100));
  });

  it('names an argument given as a cell reference, which it cannot read', async () => {
    await typeIn('Sheet1', 'A30', `=ENGAGE_COMPARE("${publisher}",B30,"yesterday","previous")`);
    await selectAndReturn('Sheet1', 'A30');
    const here = sidebar.locator('#cell-explain-here');
    await eventually(async () => expect(await here.innerText()).toContain('cannot read fromDate (the cell reference B30)'));
    expect(await sidebar.locator('#cell-explain-change').isVisible()).toBe(false);
    // Another cell: the offer goes.
    await selectAndReturn('Sheet1', 'C32');
    await eventually(async () => expect(await sidebar.locator('#cell-explain').isVisible()).toBe(false));
  });

  it('runs the explanation to a sheet: the formula’s rows, and a sheet of that name holding something is asked about', async () => {
    await selectAndReturn('Sheet1', 'A40');
    await eventually(async () => expect(await sidebar.locator('#cell-explain-to-sheet').isVisible()).toBe(true));
    await sidebar.locator('#cell-explain-to-sheet').click();
    const written = sidebar.locator('#cell-explain-to-sheet-written');
    await eventually(async () =>
      expect(await written.innerText()).toMatch(
        /^Wrote the explanation \(\d+ rows? with Other, then Total\) to 'Explain revenue by widget'!A1:F\d+\.$/,
      ),
    );
    expect(blockFrom('Explain revenue by widget', 'A1', 6)).toEqual(blockFrom('Sheet1', 'H40', 6));
    // Figures in the sheet's formats: the money columns as a report's, the share in %.
    expect(playground.host.getCell('Explain revenue by widget', 'C2').numberFormat).toBe('#,##0.00 "USD"');
    expect(playground.host.getCell('Explain revenue by widget', 'F2').numberFormat).toBe('0.00"%"');

    // A sheet of the name the run would take, holding the user's notes: asked about, Cancel writes nothing.
    playground.host.state.spreadsheet.addSheet('Explain revenue by platform');
    await typeIn('Explain revenue by platform', 'B2', 'my notes');
    await sidebar.locator('#cell-explain-breakdown').selectOption('platform');
    await sidebar.locator('#cell-explain-to-sheet').click();
    const cancel = sidebar.locator('#cell-explain-outcome button[data-choice="cancel"]');
    await eventually(async () => expect(await cancel.isVisible()).toBe(true));
    expect(await sidebar.locator('#cell-explain-outcome #write-question').innerText()).toContain('A sheet of that name already exists');
    await cancel.click();
    await eventually(async () => expect(await sidebar.locator('#cell-explain-outcome').innerText()).toContain('Nothing was written.'));
    expect(playground.host.getValues('Explain revenue by platform', 'A1:C2')).toEqual([
      ['', '', ''],
      ['', 'my notes', ''],
    ]);
  });
});
