/**
 * Browser test of the saved-report editor (sidebar/editor/) in the playground, whose sidebar is 300 px
 * wide: its write-mode fields in both its mounts, the Report tab's Schedule section and the Schedules
 * tab's Edit. An append with a row cap is offered, checked and saved from the one, and shown and
 * changed in the other; each hint is one line and nothing is wider than the sidebar. The editor's
 * other fields are followed through both tabs by schedules.test.ts (name, how often, incremental,
 * closed months), schedule-notices.test.ts (notices and alerts) and bigquery-destination.test.ts (the
 * BigQuery table); what its fields make of a definition is test/unit/sidebar/editor/.
 */
import type { Locator } from 'playwright-core';
import { BIG_PUBLISHER_ID } from '../../dev/emulator/model/seed';
import { eventually, openPlayground, type BrowserPlayground, signInAsDemo } from '../support/browser';

jest.setTimeout(90_000);

let b: BrowserPlayground;

beforeAll(async () => {
  b = await openPlayground();
  await signInAsDemo(b.sidebar);
});
afterAll(async () => {
  await b?.close();
});

type Listed = { reports: Array<{ id: string }> };
const listed = () => b.playground.host.call('listSchedules', [], { user: b.playground.user }) as Listed;
const savedDefinitions = () =>
  [...b.playground.host.properties('document').entries()]
    .filter(([key]) => key.startsWith('engage.sr.def.'))
    .map(([, value]) => JSON.parse(value) as Record<string, unknown>);

describe('the write mode in the Schedule section at 300 px', () => {
  /** Each hint of the section is one line, and nothing in it is wider than the sidebar. */
  async function fitsOneLineEach(section: Locator): Promise<void> {
    const box = (await section.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(300);
    expect(await section.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
    const hints = section.locator('.write-mode-fields .field:not([hidden]) .hint');
    expect(await hints.count()).toBeGreaterThanOrEqual(2);
    for (const hint of await hints.all()) {
      const lines = await hint.evaluate(
        (node) =>
          node.getBoundingClientRect().height / Number.parseFloat(node.ownerDocument.defaultView!.getComputedStyle(node).lineHeight),
      );
      expect([await hint.innerText(), Math.round(lines)]).toEqual([await hint.innerText(), 1]);
    }
  }

  it('appends with a row cap: offered, checked and saved from the Report tab, shown and changed in the Schedules tab', async () => {
    const { sidebar } = b;
    await sidebar.locator('#tab-report').click();
    await sidebar.locator('#save-schedule').click();
    const form = sidebar.locator('#schedule-form');
    await eventually(async () => expect(await form.isVisible()).toBe(true));
    await sidebar.locator('#schedule-name').fill('Snapshots');
    await sidebar.locator('#schedule-sheet').fill('Snapshots');
    await sidebar.locator('#schedule-cell').fill('A1');
    await sidebar.locator('#schedule-write-mode').selectOption('append');
    expect(await sidebar.locator('#schedule-write-mode-hint').innerText()).toBe('New rows go below, timed in snapshotAt.');
    expect(await sidebar.locator('#schedule-max-stored-rows').inputValue()).toBe('100000');
    expect(await sidebar.locator('#schedule-max-stored-rows-hint').innerText()).toBe('Past it, the oldest snapshots go first.');
    expect(await sidebar.locator('#schedule-incremental').count()).toBe(0);
    await fitsOneLineEach(form);

    // A cap that is no whole number is refused in the page, and nothing is saved.
    await sidebar.locator('#schedule-max-stored-rows').fill('2.5');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-max-stored-rows-problem').innerText()).toBe(
        'Keep at most: write a whole number of rows from 1 to 1,000,000.',
      ),
    );
    expect(savedDefinitions()).toEqual([]);
    await sidebar.locator('#schedule-max-stored-rows').fill('5000');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved “Snapshots”'),
    );
    expect(savedDefinitions()).toEqual([
      expect.objectContaining({
        name: 'Snapshots',
        destination: expect.objectContaining({ kind: 'sheet', writeMode: 'append', maxStoredRows: 5000 }),
      }),
    ]);

    await sidebar.locator('#schedule-open-list').click();
    const item = sidebar.locator('article.schedule');
    await eventually(async () => expect(await item.locator('.schedule-summary').innerText()).toContain(', append, up to 5,000 rows'));
    await item.getByRole('button', { name: 'Edit' }).click();
    const edit = item.locator('form.schedule-edit');
    expect(await edit.locator('select.write-mode').inputValue()).toBe('append');
    expect(await edit.locator('input.max-stored-rows').inputValue()).toBe('5000');
    await fitsOneLineEach(edit);
    await edit.locator('input.max-stored-rows').fill('8000');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await eventually(async () => expect(await item.locator('.schedule-summary').innerText()).toContain(', append, up to 8,000 rows'));
    expect(savedDefinitions()).toEqual([
      expect.objectContaining({ destination: expect.objectContaining({ writeMode: 'append', maxStoredRows: 8000 }) }),
    ]);
    b.playground.host.call('deleteSchedule', [listed().reports[0]!.id], { user: b.playground.user });
  });
});

describe('an open Edit in the Schedules tab', () => {
  it('stays open, with what was typed, when the list reloads meanwhile; the other reports show their new state', async () => {
    const { sidebar } = b;
    const { host, user } = b.playground;
    const definition = (name: string) => ({
      name,
      kind: 'main',
      entityId: BIG_PUBLISHER_ID,
      period: { type: 'lastDays', days: 7, endingYesterday: true },
      breakdowns: ['day'],
      metrics: ['revenue'],
      target: { sheetName: name, cell: 'A1' },
      schedule: { every: 'day', hour: 6 },
    });
    host.call('saveSchedule', [definition('Kept open')], { user });
    host.call('saveSchedule', [definition('Paused meanwhile')], { user });
    const idOf = (name: string) =>
      (host.call('listSchedules', [], { user }) as { reports: { id: string; name: string }[] }).reports.find((r) => r.name === name)!.id;
    await sidebar.locator('#tab-schedules').click();
    const open = sidebar.locator(`article.schedule[data-id="${idOf('Kept open')}"]`);
    const other = sidebar.locator(`article.schedule[data-id="${idOf('Paused meanwhile')}"]`);
    await eventually(async () => expect(await other.count()).toBe(1));
    await open.getByRole('button', { name: 'Edit' }).click();
    const name = open.locator('form.schedule-edit input').first();
    await name.fill('Kept open, renamed');

    host.call('pauseSchedule', [idOf('Paused meanwhile'), true], { user });
    await sidebar.locator('#tab-schedules').click();
    await eventually(async () => expect(await other.getByRole('button', { name: 'Resume' }).count()).toBe(1));
    expect(await open.locator('form.schedule-edit').isVisible()).toBe(true);
    expect(await name.inputValue()).toBe('Kept open, renamed');
    await open.getByRole('button', { name: 'Cancel' }).click();
    for (const report of listed().reports) host.call('deleteSchedule', [report.id], { user });
  });
});
