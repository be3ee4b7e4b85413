/**
 * Browser test of scheduled refresh from the sidebar in the playground: a report built in the Report
 * tab is saved to a schedule through its Schedule section, the Schedules tab lists it with its status,
 * its schedule is edited, it is run now (the data lands in the grid), paused and deleted, and the
 * user's hourly trigger comes and goes with it.
 */
import { BIG_PUBLISHER_ID } from '../../dev/emulator/seed';
import { eventually, openPlayground, type BrowserPlayground } from '../support/browser';

jest.setTimeout(90_000);

let b: BrowserPlayground;

beforeAll(async () => {
  b = await openPlayground();
});
afterAll(async () => {
  await b?.close();
});

const triggers = () => b.playground.host.triggers.filter((t) => t.user === b.playground.user);
const savedDefinitions = () =>
  [...b.playground.host.properties('document').entries()]
    .filter(([key]) => key.startsWith('engage.sr.def.'))
    .map(([, value]) => JSON.parse(value) as Record<string, unknown>);

describe('scheduled refresh from the sidebar', () => {
  it('saves the report built in the Report tab to a schedule', async () => {
    const { sidebar } = b;
    await eventually(async () => expect(await sidebar.locator('#sign-in-username').inputValue()).toBe('demo@engage.example'));
    await sidebar.locator('#sign-in-submit').click();
    await eventually(async () => expect(await sidebar.locator('#report-publisher').inputValue()).toBe(BIG_PUBLISHER_ID));
    await sidebar.locator('#report-preset').selectOption('last7');
    await sidebar.locator('#report-sort').selectOption('day');
    await sidebar.locator('#report-order').selectOption('asc');

    // The Schedule section appears only when asked for.
    expect(await sidebar.locator('#schedule-form').isHidden()).toBe(true);
    await sidebar.locator('#save-schedule').click();
    await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
    expect(await sidebar.locator('#schedule-name').inputValue()).toBe('Daily Planet: General last 7 days by day');
    expect(await sidebar.locator('#schedule-period').innerText()).toContain('the 7 days before today (UTC days)');
    expect(await sidebar.locator('#schedule-incremental').count()).toBe(1);

    await sidebar.locator('#schedule-name').fill('Daily revenue');
    await sidebar.locator('#schedule-every').selectOption('day');
    await sidebar.locator('#schedule-hour').selectOption('6');
    await sidebar.locator('#schedule-sheet').fill('Scheduled');
    await sidebar.locator('#schedule-cell').fill('b2');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain(
        'Saved “Daily revenue”: daily at 06:00 (Europe/Berlin), the 7 days before today (UTC days), into Scheduled!B2.',
      ),
    );
    expect(await sidebar.locator('#schedule-form').isHidden()).toBe(true);

    // What was saved is the builder's report with a moving period, and the trigger came with it.
    expect(savedDefinitions()).toEqual([
      expect.objectContaining({
        name: 'Daily revenue',
        kind: 'main',
        entityId: BIG_PUBLISHER_ID,
        breakdowns: ['day'],
        sort: 'day asc',
        currencyCode: 'USD',
        decDigits: 2,
        period: { type: 'lastDays', days: 7, endingYesterday: true },
        schedule: { every: 'day', hour: 6 },
        target: { sheetName: 'Scheduled', cell: 'B2' },
      }),
    ]);
    expect(triggers()).toHaveLength(1);
  });

  it('lists it in the Schedules tab with its status', async () => {
    const { sidebar } = b;
    await sidebar.locator('#schedule-open-list').click();
    const item = sidebar.locator('article.schedule');
    await eventually(async () => expect(await item.count()).toBe(1));
    expect(await item.locator('h3').innerText()).toBe('Daily revenue');
    expect(await item.locator('.schedule-summary').innerText()).toBe(
      'daily at 06:00 (Europe/Berlin) → Scheduled!B2, the 7 days before today (UTC days)',
    );
    const status = await item.locator('.schedule-status').innerText();
    expect(status).toMatch(/Last success\s+never/);
    expect(status).toMatch(/Next run\s+from /);
    // The day's trigger runtime: nothing run yet, 90 minutes on a consumer account.
    expect(await sidebar.locator('#schedule-runtime .quota-text').innerText()).toBe(
      '0 min of 90 min used, 90 min left. Nothing was counted in the last 24 hours.',
    );
  });

  it('edits its name, schedule and incremental option', async () => {
    const { sidebar } = b;
    const item = sidebar.locator('article.schedule');
    await item.getByRole('button', { name: 'Edit' }).click();
    const form = item.locator('form.schedule-edit');
    await eventually(async () => expect(await form.isVisible()).toBe(true));
    expect(await form.locator('.edit-name').inputValue()).toBe('Daily revenue');
    await form.locator('.edit-name').fill('Revenue every 6 hours');
    await form.locator('select[id$="-every"]').selectOption('hours');
    await form.locator('select[id$="-hours"]').selectOption('6');
    await form.locator('.edit-incremental').check();
    await form.getByRole('button', { name: 'Save changes' }).click();

    await eventually(async () => expect(await item.locator('h3').innerText()).toBe('Revenue every 6 hours'));
    expect(await item.locator('.schedule-summary').innerText()).toBe(
      'every 6 hours (Europe/Berlin) → Scheduled!B2, the 7 days before today (UTC days), incremental',
    );
    expect(await item.locator('form.schedule-edit').count()).toBe(0);
    expect(savedDefinitions()).toEqual([
      expect.objectContaining({
        name: 'Revenue every 6 hours',
        schedule: { every: 'hours', hours: 6 },
        incremental: true,
        breakdowns: ['day'],
      }),
    ]);
  });

  it('runs it now: the rows land in the grid and the status shows them', async () => {
    const { sidebar, page, playground } = b;
    const item = sidebar.locator('article.schedule');
    await item.getByRole('button', { name: 'Run now' }).click();
    await eventually(async () => expect(await item.locator('.schedule-status').innerText()).toMatch(/Last success\s+.*7 rows in/), 60_000);
    expect(await item.locator('.schedule-badge').innerText()).toBe('up to date');
    expect(playground.host.getValues('Scheduled', 'B2:B2')[0]![0]).toBe('day');
    const days = playground.host.getValues('Scheduled', 'B3:B9').map((row) => row[0]);
    expect(days.every((d) => d instanceof Date)).toBe(true);
    await eventually(async () => expect(await page.locator('#sheet-tabs').innerText()).toContain('Scheduled'));
  });

  it('pauses it, which removes the hourly trigger, and resumes it', async () => {
    const { sidebar } = b;
    const item = sidebar.locator('article.schedule');
    await item.getByRole('button', { name: 'Pause' }).click();
    await eventually(async () => expect(await item.locator('.schedule-badge').innerText()).toBe('paused'));
    expect(await item.locator('.schedule-status').innerText()).toMatch(/Next run\s+paused/);
    expect(triggers()).toHaveLength(0);
    await item.getByRole('button', { name: 'Resume' }).click();
    await eventually(async () => expect(await item.getByRole('button', { name: 'Pause' }).count()).toBe(1));
    expect(triggers()).toHaveLength(1);
  });

  it('deletes it: the list is empty, the trigger gone, and the data stays in the sheet', async () => {
    const { sidebar, playground } = b;
    await sidebar.locator('article.schedule').getByRole('button', { name: 'Delete' }).click();
    await eventually(async () => expect(await sidebar.locator('#panel-schedules').innerText()).toContain('No saved reports yet'));
    expect(await sidebar.locator('article.schedule').count()).toBe(0);
    expect(savedDefinitions()).toEqual([]);
    expect(triggers()).toHaveLength(0);
    expect(playground.host.getValues('Scheduled', 'B2:B2')[0]![0]).toBe('day');
    expect(b.dialogs).toEqual([]);
  });
});
