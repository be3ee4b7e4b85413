/**
 * Browser test of the publisher picker's "All publishers" and "Several publishers…" in the playground
 * (the sidebar 300 px wide, as Sheets shows it): choosing all runs one table with the publisher in
 * front to a sheet, with "Compare with" too (each publisher beside its earlier days), ticking several
 * puts the list into the inserted formula, and Save to schedule keeps the list with the saved report.
 * Run `npm run build` first.
 */
import type { FrameLocator } from 'playwright-core';
import type { Playground } from '../../dev/playground/playground';
import { BIG_PUBLISHER_ID, HOSTILE_PUBLISHER_ID, MEDIUM_PUBLISHER_ID } from '../../dev/emulator/model/seed';
import { eventually, openPlayground, type BrowserPlayground, selectCell, signInAsDemo } from '../support/browser';

jest.setTimeout(90_000);

let env: BrowserPlayground;
let playground: Playground;
let sidebar: FrameLocator;

beforeAll(async () => {
  env = await openPlayground();
  ({ playground, sidebar } = env);
});
afterAll(async () => {
  await env?.close();
});

const savedDefinitions = () =>
  [...playground.host.properties('document').entries()]
    .filter(([key]) => key.startsWith('engage.sr.def.'))
    .map(([, value]) => JSON.parse(value) as Record<string, unknown>);

describe('reports of several publishers from the sidebar', () => {
  it('offers all publishers and several after the publishers themselves', async () => {
    await signInAsDemo(sidebar);
    expect(await sidebar.locator('#report-publisher option').allTextContents()).toEqual([
      'Daily Planet',
      'Gotham Gazette',
      'Hostile Herald <img src=x onerror=alert("publisher")>',
      'All publishers (3)',
      'Several publishers…',
    ]);
    expect(await sidebar.locator('#report-publishers-several').isHidden()).toBe(true);
  });

  it('runs all publishers to a sheet: one table, the publisher first, one Total row', async () => {
    await sidebar.locator('#report-publisher').selectOption({ label: 'All publishers (3)' });
    await sidebar.locator('#report-preset').selectOption('last7');
    await eventually(async () =>
      expect(await sidebar.locator('#formula-preview').textContent()).toMatch(/^=ENGAGE_REPORT\("all","7daysAgo","yesterday",/),
    );
    // The default set by day: day, 7 metrics, and the publisher's ID and name.
    await eventually(async () => expect(await sidebar.locator('#metrics-width').innerText()).toContain('Up to 10 columns'));
    await sidebar.locator('#report-target').selectOption('newSheet');
    await sidebar.locator('#report-target-name').fill('All publishers');
    await sidebar.locator('#run-report').click();
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome .notice-success').first().innerText()).toContain(
        "Wrote 21 rows to 'All publishers'!A1:",
      ),
    );
    const grid = playground.host.getValues('All publishers', 'A1:C23');
    expect(grid[0]).toEqual(['publisher.id', 'publisher.name', 'day']);
    expect([...new Set(grid.slice(1, 22).map((row) => row[0]))]).toEqual([BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, HOSTILE_PUBLISHER_ID]);
    expect(grid[22]![0]).toBe('Total');
    const preview = await sidebar.locator('#run-preview-table thead th').allTextContents();
    expect(preview.slice(0, 2)).toEqual(['publisher.id', 'publisher.name']);
    // Add chart draws one publisher by day: it says so instead.
    expect(await sidebar.locator('#add-chart').isDisabled()).toBe(true);
    expect(await sidebar.locator('#add-chart').getAttribute('title')).toContain('run the report for one publisher');
  });

  it('compares all publishers with the previous period: one table, each publisher beside its earlier days, and the same formula', async () => {
    await sidebar.locator('#report-compare').selectOption('previous');
    // Four default metrics of a comparison, four columns each, after the publisher's two and the day's two.
    await eventually(async () => expect(await sidebar.locator('#metrics-width').innerText()).toContain('Up to 20 columns'));
    await eventually(async () =>
      expect(await sidebar.locator('#formula-preview').textContent()).toMatch(
        /^=ENGAGE_COMPARE\("all","7daysAgo","yesterday","previous","day"/,
      ),
    );
    await sidebar.locator('#report-target').selectOption('newSheet');
    await sidebar.locator('#report-target-name').fill('All compared');
    await sidebar.locator('#run-report').click();
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome .notice-success').first().innerText()).toContain("Wrote 21 rows to 'All compared'"),
    );
    const written = playground.host.getValues('All compared', 'A1:T23');
    expect(written[0]!.slice(0, 6)).toEqual(['publisher.id', 'publisher.name', 'day', 'day.previous', 'totalPvs', 'totalPvs.previous']);
    expect([...new Set(written.slice(1, 22).map((row) => row[0]))]).toEqual([BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, HOSTILE_PUBLISHER_ID]);
    expect(written[22]![0]).toBe('Total');
    // Insert formula writes the ENGAGE_COMPARE of "all", which gives the same cells.
    await selectCell(env, 'Sheet1', 'A1');
    await sidebar.locator('#insert-formula').click();
    await eventually(async () => expect(await sidebar.locator('#inserted-formula').innerText()).toMatch(/^=ENGAGE_COMPARE\("all"/));
    expect(playground.host.getCell('Sheet1', 'A1').error).toBeUndefined();
    const same = (values: unknown[][]) => values.map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : v)));
    expect(same(playground.host.getValues('Sheet1', 'A1:T23'))).toEqual(same(written));
    await sidebar.locator('#report-compare').selectOption('');
  });

  it('ticks several publishers, within the 300 px sidebar, and inserts the formula with the list', async () => {
    await sidebar.locator('#report-publisher').selectOption({ label: 'Several publishers…' });
    await eventually(async () => expect(await sidebar.locator('#report-publishers-several').isVisible()).toBe(true));
    await eventually(async () => expect(await sidebar.locator('#report-publishers-count').innerText()).toContain('Tick the publishers'));
    // No publisher yet, so no formula: a muted line stands in for it, and no sentence poses as a formula.
    await eventually(async () =>
      expect(await sidebar.locator('#formula-none').evaluate((n) => (n as unknown as { hidden: boolean }).hidden)).toBe(false),
    );
    expect(await sidebar.locator('#formula-preview').textContent()).toBe('');
    const boxes = sidebar.locator('#report-publishers input[type=checkbox]');
    expect(await boxes.count()).toBe(3);
    await sidebar.locator(`#report-publishers input[value="${HOSTILE_PUBLISHER_ID}"]`).check();
    await sidebar.locator(`#report-publishers input[value="${MEDIUM_PUBLISHER_ID}"]`).check();
    await eventually(async () => expect(await sidebar.locator('#report-publishers-count').innerText()).toContain('2 ticked'));
    // The hostile name is a label's text, not markup; and nothing is wider than the sidebar.
    expect(await sidebar.locator('#report-publishers img').count()).toBe(0);
    const overflow = await sidebar.locator('body').evaluate((body) => ({ scroll: body.scrollWidth, client: body.clientWidth }));
    expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
    const box = await sidebar.locator('#report-publishers').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(300);

    // Ticked in the list's order, the formula names them that way.
    const list = `${MEDIUM_PUBLISHER_ID},${HOSTILE_PUBLISHER_ID}`;
    await eventually(async () =>
      expect(await sidebar.locator('#formula-preview').textContent()).toContain(`=ENGAGE_REPORT("${list}","7daysAgo","yesterday",`),
    );
    // The comparison's formula fills Sheet1 from A1: Insert formula asks before it writes over it.
    await selectCell(env, 'Sheet1', 'A1');
    await sidebar.locator('#insert-formula').click();
    await eventually(async () =>
      expect(await sidebar.locator('#write-question').innerText()).toMatch(/^The formula's result fills Sheet1!A1:/),
    );
    await sidebar.locator('#write-question [data-choice=replace]').click();
    await eventually(async () => expect(await sidebar.locator('#inserted-formula').innerText()).toContain(`"${list}"`));
    const cell = playground.host.getCell('Sheet1', 'A1');
    expect(cell.error).toBeUndefined();
    const values = playground.host.getValues('Sheet1', 'A1:B20');
    expect(values[0]).toEqual(['publisher.id', 'publisher.name']);
    expect([...new Set(values.slice(1, 15).map((row) => row[0]))]).toEqual([MEDIUM_PUBLISHER_ID, HOSTILE_PUBLISHER_ID]);
    expect(values[15]![0]).toBe('Total');
  });

  it('saves the list with the report to a schedule', async () => {
    await sidebar.locator('#save-schedule').click();
    await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
    expect(await sidebar.locator('#schedule-name').inputValue()).toBe('2 publishers: General last 7 days by day, into All compared');
    await sidebar.locator('#schedule-sheet').fill('Two publishers');
    await sidebar.locator('#schedule-cell').fill('A1');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved “2 publishers'),
    );
    expect(savedDefinitions()).toEqual([
      expect.objectContaining({
        entityId: `${MEDIUM_PUBLISHER_ID},${HOSTILE_PUBLISHER_ID}`,
        destination: { kind: 'sheet', target: { sheetName: 'Two publishers', cell: 'A1' } },
      }),
    ]);
  });
});
