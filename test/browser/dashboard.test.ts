/**
 * Browser test of the dashboard in the playground: the header's "Create dashboard" button (the add-on
 * menu's item, for all publishers) and the sidebar's button (for the publisher chosen there) each open
 * a new sheet whose key figures show in the grid as the host holds them, and whose chart of revenue
 * and RPM by day is drawn over the grid from its cells (two lines, RPM on the right axis); the
 * sidebar's button is off, with the reason, while no publisher is chosen. Run `npm run build` first.
 */
import type { FrameLocator, Page } from 'playwright-core';
import type { Playground } from '../../dev/playground/playground';
import { BIG_PUBLISHER_ID } from '../../dev/emulator/model/seed';
import { eventually, openPlayground, type BrowserPlayground, signInAsDemo } from '../support/browser';

jest.setTimeout(90_000);

let env: BrowserPlayground;
let playground: Playground;
let page: Page;
let sidebar: FrameLocator;

beforeAll(async () => {
  env = await openPlayground();
  ({ playground, page, sidebar } = env);
  await signInAsDemo(sidebar);
});
afterAll(async () => {
  await env?.close();
});

const cellText = (a1: string) => page.locator(`#grid td[data-a1="${a1}"]`).innerText();
const selectedTab = () => page.locator('#sheet-tabs button[aria-selected="true"]').innerText();

/** The chart drawn over the grid: its title, its lines and its legend. */
async function drawnChart(title: string) {
  const chart = page.locator(`#grid-wrap .chart[data-title="${title}"]`);
  await eventually(async () => expect(await chart.count()).toBe(1));
  const lines = chart.locator('polyline.series');
  return {
    lines: await lines.count(),
    points: await lines.evaluateAll((nodes) => nodes.map((n) => (n.getAttribute('points') ?? '').split(' ').filter(Boolean).length)),
    legend: await chart.locator('text').allTextContents(),
    box: await chart.boundingBox(),
  };
}

describe('the dashboard in the playground', () => {
  it('opens from the menu button for all publishers: the sheet, its key figures and its chart', async () => {
    await page.locator('#menu-create-dashboard').click();
    await eventually(async () => expect(await selectedTab()).toBe('Engage dashboard'));
    await eventually(async () => expect(await cellText('A1')).toBe('Engage dashboard: All publishers'));
    await eventually(async () =>
      expect(await page.locator('.toast').first().innerText()).toContain("Created 'Engage dashboard' for all publishers"),
    );
    // Key figures: the comparison's header and Total row, every publisher added up; the grid shows what the host holds.
    expect(await cellText('E7')).toBe('revenue');
    expect(await cellText('A8')).toBe('Total');
    const revenue = playground.host.getValues('Engage dashboard', 'E8:F8')[0]!;
    expect(typeof revenue[0]).toBe('number');
    expect(await cellText('E8')).toBe(`${(revenue[0] as number).toLocaleString('en-US', { minimumFractionDigits: 2 })} USD`);
    expect(await cellText('F8')).toBe(`${(revenue[1] as number).toLocaleString('en-US', { minimumFractionDigits: 2 })} USD`);
    // No formula on the sheet shows an error.
    expect(await page.locator('#grid td.err').count()).toBe(0);
    const chart = await drawnChart('Revenue and RPM by day: All publishers');
    expect(chart.lines).toBe(2);
    expect(chart.points).toEqual([30, 30]);
    expect(chart.legend).toEqual(expect.arrayContaining(['revenue', 'rpmByPvs (right axis)', 'Revenue', 'RPM (page views)']));
    expect(chart.box!.width).toBeGreaterThan(600);
  });

  it('opens from the sidebar for the chosen publisher, as a second dashboard', async () => {
    await sidebar.locator('#report-publisher').selectOption(BIG_PUBLISHER_ID);
    await eventually(async () => expect(await sidebar.locator('#dashboard-hint').innerText()).toContain('A new sheet for Daily Planet'));
    await sidebar.locator('#create-dashboard').click();
    await eventually(async () =>
      expect(await sidebar.locator('#dashboard-outcome .notice-success').innerText()).toContain(
        "Created 'Engage dashboard (2)' for Daily Planet",
      ),
    );
    await eventually(async () => expect(await selectedTab()).toBe('Engage dashboard (2)'));
    await eventually(async () => expect(await cellText('A1')).toBe('Engage dashboard: Daily Planet'));
    expect(await cellText('C7')).toBe('revenue');
    expect(await cellText('A8')).toBe('Total');
    expect(await cellText('C8')).toMatch(/^[\d,]+\.\d{2} USD$/);
    // One publisher: its viewability rate has a figure too.
    expect(await cellText('S8')).toMatch(/^\d+\.\d{2}%$/);
    const chart = await drawnChart('Revenue and RPM by day: Daily Planet');
    expect(chart.points).toEqual([30, 30]);
    expect(await page.locator('#grid td.err').count()).toBe(0);
  });

  it('is off, saying why, while no publisher is chosen', async () => {
    await sidebar.locator('#report-publisher').selectOption({ label: 'Several publishers…' });
    await eventually(async () => expect(await sidebar.locator('#create-dashboard').isDisabled()).toBe(true));
    expect(await sidebar.locator('#dashboard-hint').innerText()).toContain('Choose a publisher, several or all for a dashboard.');
  });
});

describe('what the tab says belongs to its moment, at 300 px', () => {
  const dashboardValues = () => playground.host.getValues('Engage dashboard (3)', 'A1:Z60');

  it('after Create dashboard, the banner of the selected cell names no earlier report', async () => {
    await sidebar.locator('#report-publisher').selectOption(BIG_PUBLISHER_ID);
    await sidebar.locator('#report-preset').selectOption('yesterday');
    await sidebar.locator('#report-target').selectOption('newSheet');
    await sidebar.locator('#report-target-name').fill('All pubs L7');
    await sidebar.locator('#run-report').click();
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome .notice-success').innerText()).toMatch(/ to 'All pubs L7'!A1:/),
    );
    await eventually(async () =>
      expect(await sidebar.locator('#report-found').innerText()).toMatch(/^The selected cell is in the report in 'All pubs L7'!A1:/),
    );
    await sidebar.locator('#create-dashboard').click();
    await eventually(async () => expect(await selectedTab()).toBe('Engage dashboard (3)'));
    await eventually(async () =>
      expect(await sidebar.locator('#dashboard-outcome').innerText()).toContain("Created 'Engage dashboard (3)'"),
    );
    await eventually(async () => expect(await sidebar.locator('#report-here').innerText()).toBe(''));
    // The run's outcome went with the new action.
    expect(await sidebar.locator('#report-outcome').innerText()).toBe('');
  });

  it('signed out, Refresh all says so first and changes nothing; a new sign-in finds no message of the last one', async () => {
    await eventually(async () => expect(await page.locator('#grid td.err').count()).toBe(0));
    await eventually(async () => expect(await cellText('A1')).toBe('Engage dashboard: Daily Planet'));
    const before = dashboardValues();
    await sidebar.locator('#tab-account').click();
    await sidebar.locator('#sign-out').click();
    await eventually(async () => expect(await sidebar.locator('#sign-in-submit').count()).toBe(1));
    await page.locator('#menu-refresh-all').click();
    await eventually(async () =>
      expect(await page.locator('#toasts .toast').last().innerText()).toContain(
        'Nobody is signed in to Engage, so Refresh all changed nothing',
      ),
    );
    expect(dashboardValues()).toEqual(before);
    expect(await page.locator('#grid td.err').count()).toBe(0);

    await signInAsDemo(sidebar);
    expect(await sidebar.locator('#dashboard-outcome').innerText()).toBe('');
  });

  it('a problem of the form goes once the form is mended; the line under Compare with keeps clear of the Breakdowns label', async () => {
    await sidebar.locator('#report-preset').selectOption('custom');
    await sidebar.locator('#report-from').fill('2026-11-10');
    await sidebar.locator('#report-to').fill('2026-11-05');
    await sidebar.locator('#run-report').click();
    await eventually(async () => expect(await sidebar.locator('#report-outcome .notice-error').count()).toBe(1));
    await sidebar.locator('#report-preset').selectOption('last7');
    await eventually(async () => expect(await sidebar.locator('#report-outcome').innerText()).toBe(''));
    // The line under Compare with ends its field: the Breakdowns label starts below it, with room between.
    await sidebar.locator('#report-compare').selectOption('previous');
    const line = await sidebar.locator('#report-compare-period').boundingBox();
    const label = await sidebar.locator('#report-breakdowns').locator('xpath=..').locator('.label').first().boundingBox();
    expect(line!.height).toBeGreaterThan(0);
    expect(label!.y - (line!.y + line!.height)).toBeGreaterThanOrEqual(8);
    await sidebar.locator('#report-compare').selectOption('');
  });
});
