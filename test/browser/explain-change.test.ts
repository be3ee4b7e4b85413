/**
 * Browser test of "Explain the change" under a comparison in the report builder, at the sidebar's
 * 300 px, in the playground (Debian's chromium, the real sidebar.html, the built bundle in the local
 * host, the emulator). It appears only once the builder compares; Explain shows the drivers of
 * revenue by widget as a short list that fits the width, each with its signed amount and share, adding
 * up to the change shown, in two requests (one a period); Insert ENGAGE_EXPLAIN puts the formula of the
 * same comparison in the active cell, whose first key is the list's first, and asks before writing
 * over a result already there. Run `npm run build` first.
 */
import type { FrameLocator, Page } from 'playwright-core';
import type { Playground } from '../../dev/playground/playground';
import { chooseBreakdowns, eventually, openPlayground, type BrowserPlayground, selectCell } from '../support/browser';

jest.setTimeout(90_000);

let env: BrowserPlayground;
let playground: Playground;
let page: Page;
let sidebar: FrameLocator;

beforeAll(async () => {
  env = await openPlayground();
  ({ playground, page, sidebar } = env);
  await eventually(async () => expect(await sidebar.locator('#sign-in-username').inputValue()).toBe('demo@engage.example'));
  await sidebar.locator('#sign-in-submit').click();
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
