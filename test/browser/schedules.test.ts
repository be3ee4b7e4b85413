/**
 * Browser test of scheduled refresh from the sidebar in the playground (its sidebar is 300 px wide): a
 * report built in the Report tab is saved to a schedule through its Schedule section, the Schedules
 * tab lists it with its status (every time on the spreadsheet's clock, named, and a next run never in
 * the past), its schedule is edited, and so is the report itself (publisher, period, breakdowns,
 * filters, metrics) in the builder, which keeps a saved period no preset matches until the period is
 * changed there, and months of it are closed; it is run now (the data lands in the grid), a cell of its block
 * leads back to it, it is paused, and deleted after an in-page confirmation; the user's hourly
 * trigger comes and goes with it. Last, another spreadsheet of the user's is deleted: after a run
 * (without a document, the strict reading) the tab shows a notice naming it, why and since when,
 * whole at 300 px, and its button removes its schedules.
 */
import fs from 'node:fs';
import { BIG_PUBLISHER_ID } from '../../dev/emulator/model/seed';
import { createGasHost } from '../../dev/gas-host';
import { distCode, distManifest } from '../support/paths';
import { chooseBreakdowns, eventually, openPlayground, type BrowserPlayground, signInAsDemo } from '../support/browser';

jest.setTimeout(90_000);

let b: BrowserPlayground;

beforeAll(async () => {
  b = await openPlayground();
});
afterAll(async () => {
  await b?.close();
});

const triggers = () => b.playground.host.triggers.filter((t) => t.user === b.playground.user);
/** "2026-11-20 14:05 (Europe/Berlin)": an ISO time on the playground spreadsheet's clock, as the sidebar must show it. */
function berlin(iso: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} (Europe/Berlin)`;
}
type Listed = {
  reports: Array<{ id: string; status: { lastSuccess?: string; lastAttempt?: string; nextRun?: string; slotAfter?: string } }>;
};
const listed = () => b.playground.host.call('listSchedules', [], { user: b.playground.user }) as Listed;
const savedDefinitions = () =>
  [...b.playground.host.properties('document').entries()]
    .filter(([key]) => key.startsWith('engage.sr.def.'))
    .map(([, value]) => JSON.parse(value) as Record<string, unknown>);

describe('scheduled refresh from the sidebar', () => {
  it('saves the report built in the Report tab to a schedule', async () => {
    const { sidebar } = b;
    await signInAsDemo(sidebar);
    await sidebar.locator('#report-preset').selectOption('last7');
    await sidebar.locator('#report-sort').selectOption('day');
    await sidebar.locator('#report-order').selectOption('asc');

    // The Schedule section appears only when asked for.
    expect(await sidebar.locator('#schedule-form').isHidden()).toBe(true);
    await sidebar.locator('#save-schedule').click();
    await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
    expect(await sidebar.locator('#schedule-name').inputValue()).toBe('Daily Planet: General last 7 days by day, into Engage report');
    expect(await sidebar.locator('#schedule-period').innerText()).toContain('the 7 days before today (UTC days)');
    // Replace by default, without a cap; upsert merges by the report's key and offers incremental.
    expect(await sidebar.locator('#schedule-write-mode').inputValue()).toBe('replace');
    expect(await sidebar.locator('#schedule-write-mode-hint').innerText()).toBe("Each run replaces the last run's rows.");
    expect(await sidebar.locator('#schedule-max-stored-rows').isVisible()).toBe(false);
    expect(await sidebar.locator('#schedule-incremental').count()).toBe(0);
    await sidebar.locator('#schedule-write-mode').selectOption('upsert');
    expect(await sidebar.locator('#schedule-write-mode-hint').innerText()).toBe('Same day: newest figures win.');
    expect(await sidebar.locator('#schedule-incremental').count()).toBe(1);
    await sidebar.locator('#schedule-write-mode').selectOption('replace');

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
        destination: { kind: 'sheet', target: { sheetName: 'Scheduled', cell: 'B2' } },
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
    // Never refreshed: the next hourly run fills it (never a "next run" already past), then its own
    // slot follows: the next 06:00 on the spreadsheet's clock, within a day.
    const slotAfter = listed().reports[0]!.status.slotAfter!;
    expect(Date.parse(slotAfter) - Date.now()).toBeGreaterThan(0);
    expect(Date.parse(slotAfter) - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    expect(berlin(slotAfter)).toMatch(/ 06:00 \(Europe\/Berlin\)$/);
    expect(status).toContain(`Next run\nthe next hourly run fills it first, then in the hour from ${berlin(slotAfter)}`);
    expect(await sidebar.locator('#schedule-edit-hint, .schedule-summary').first().innerText()).toContain('(Europe/Berlin)');
    // The day's trigger runtime: nothing run yet, 90 minutes on a consumer account.
    expect(await sidebar.locator('#schedule-runtime .quota-text').innerText()).toBe(
      '0 min of 90 min used, 90 min left. Nothing was counted in the last 24 hours.',
    );
  });

  it('edits its name, schedule and write mode: an incremental upsert', async () => {
    const { sidebar } = b;
    const item = sidebar.locator('article.schedule');
    await item.getByRole('button', { name: 'Edit' }).click();
    const form = item.locator('form.schedule-edit');
    await eventually(async () => expect(await form.isVisible()).toBe(true));
    expect(await form.locator('.edit-name').inputValue()).toBe('Daily revenue');
    await form.locator('.edit-name').fill('Revenue every 6 hours');
    await form.locator('select[id$="-every"]').selectOption('hours');
    await form.locator('select[id$="-hours"]').selectOption('6');
    await form.locator('select.write-mode').selectOption('upsert');
    await form.locator('input.incremental').check();
    // Incremental holds the report's period: no cap to set.
    expect(await form.locator('input.max-stored-rows').isVisible()).toBe(false);
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
        destination: { kind: 'sheet', target: { sheetName: 'Scheduled', cell: 'B2' }, writeMode: 'upsert', incremental: true },
        breakdowns: ['day'],
      }),
    ]);
  });

  it('changes the report itself from Edit: the builder opens with it, and saving keeps the changes for its refreshes', async () => {
    const { sidebar } = b;
    const item = sidebar.locator('article.schedule');
    await item.getByRole('button', { name: 'Edit' }).click();
    await item.getByRole('button', { name: 'Change the report (publisher, period, breakdowns, filters, metrics)' }).click();

    // The Report tab holds the saved report: its publisher, period, breakdowns, sort and metrics.
    await eventually(async () => expect(await sidebar.locator('#tab-report').getAttribute('aria-selected')).toBe('true'));
    await eventually(async () =>
      expect(await sidebar.locator('#report-editing').innerText()).toBe(
        'Editing the saved report “Revenue every 6 hours”. Run to sheet writes it again from Scheduled!B2; Save to schedule keeps the changes for its refreshes. Stop editing',
      ),
    );
    expect(await sidebar.locator('#report-publisher').inputValue()).toBe(BIG_PUBLISHER_ID);
    expect(await sidebar.locator('#report-preset').inputValue()).toBe('last7');
    expect(await sidebar.locator('#report-sort').inputValue()).toBe('day');
    expect(await sidebar.locator('#report-order').inputValue()).toBe('asc');
    expect(await sidebar.locator('#metrics-summary').innerText()).toBe('7, the default set');

    // Another period, a second breakdown, a filter and fewer metrics.
    await sidebar.locator('#report-preset').selectOption('last14');
    await chooseBreakdowns(sidebar, ['day', 'country']);
    await sidebar.locator('#filter-add').click();
    await sidebar.locator('.filter-row .filter-field').selectOption('revenue');
    await sidebar.locator('.filter-row .filter-operator').selectOption('gt');
    await sidebar.locator('.filter-row .filter-value').fill('1');
    await sidebar.locator('#metrics-picker summary').click();
    await sidebar.locator('input[name=metric][value=viewabilityRate]').uncheck();

    await sidebar.locator('#save-schedule').click();
    await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
    expect(await sidebar.locator('#schedule-name').inputValue()).toBe('Revenue every 6 hours');
    expect(await sidebar.locator('#schedule-every').inputValue()).toBe('hours');
    expect(await sidebar.locator('#schedule-sheet').inputValue()).toBe('Scheduled');
    expect(await sidebar.locator('#schedule-cell').inputValue()).toBe('B2');
    expect(await sidebar.locator('#schedule-period').innerText()).toBe('the 14 days before today (UTC days).');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved “Revenue every 6 hours”'),
    );
    // The same saved report, changed: one definition, its schedule kept.
    expect(savedDefinitions()).toEqual([
      expect.objectContaining({
        name: 'Revenue every 6 hours',
        entityId: BIG_PUBLISHER_ID,
        breakdowns: ['day', 'country'],
        filter: 'revenue:gt:1',
        period: { type: 'lastDays', days: 14, endingYesterday: true },
        metrics: ['paidPvs', 'totalPvs', 'revenue', 'rpmByPvs', 'paidClicks', 'paidCtrByPvs'],
        schedule: { every: 'hours', hours: 6 },
        destination: expect.objectContaining({ kind: 'sheet', target: { sheetName: 'Scheduled', cell: 'B2' } }),
      }),
    ]);
    await sidebar.locator('#report-stop-editing').click();
    await sidebar.locator('#tab-schedules').click();
  });

  it('keeps a saved period no preset matches when the report is changed in the builder, until the period is changed there', async () => {
    const { sidebar } = b;
    // A period the builder offers no preset for: the 10 days before today (saved through the server, as an older sidebar or a script might).
    const view = (listed() as unknown as { reports: Array<{ id: string; definition: Record<string, unknown> }> }).reports[0]!;
    const tenDays = { type: 'lastDays', days: 10, endingYesterday: true };
    b.playground.host.call('updateSchedule', [view.id, { ...view.definition, period: tenDays }], { user: b.playground.user });
    await sidebar.locator('#tab-report').click();
    await sidebar.locator('#tab-schedules').click();
    const item = sidebar.locator('article.schedule');
    await eventually(async () =>
      expect(await item.locator('.schedule-summary').innerText()).toContain('the 10 days before today (UTC days)'),
    );
    await item.getByRole('button', { name: 'Edit' }).click();
    await item.getByRole('button', { name: 'Change the report (publisher, period, breakdowns, filters, metrics)' }).click();
    await eventually(async () => expect(await sidebar.locator('#tab-report').getAttribute('aria-selected')).toBe('true'));
    // The builder shows its days now as a custom range; the Schedule section still says it rolls.
    await eventually(async () => expect(await sidebar.locator('#report-preset').inputValue()).toBe('custom'));
    // Another change to the report, not to its period: the order of the rows.
    expect(await sidebar.locator('#report-order').inputValue()).toBe('asc');
    await sidebar.locator('#report-order').selectOption('desc');
    await sidebar.locator('#save-schedule').click();
    await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
    expect(await sidebar.locator('#schedule-period').innerText()).toBe('the 10 days before today (UTC days).');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain(
        'Saved “Revenue every 6 hours”: every 6 hours (Europe/Berlin), the 10 days before today (UTC days), into Scheduled!B2.',
      ),
    );
    expect(savedDefinitions()).toEqual([expect.objectContaining({ sort: 'day desc', period: tenDays })]);

    // A period changed in the builder is the builder's: other custom days (the last 4 of the 10) are saved as those days.
    const to = await sidebar.locator('#report-to').inputValue();
    const from = new Date(Date.parse(`${to}T00:00:00Z`) - 3 * 86_400_000).toISOString().slice(0, 10);
    await sidebar.locator('#report-from').fill(from);
    await sidebar.locator('#report-from').dispatchEvent('change');
    await sidebar.locator('#save-schedule').click();
    await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
    expect(await sidebar.locator('#schedule-period').innerText()).toBe(`${from} to ${to}, always the same days.`);
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(savedDefinitions()).toEqual([
        expect.objectContaining({ period: { type: 'fixed', fromDate: from.replace(/-/g, ''), toDate: to.replace(/-/g, '') } }),
      ]),
    );
    await sidebar.locator('#report-stop-editing').click();
    await sidebar.locator('#tab-schedules').click();
  });

  it('closes months of the daily report in its Schedule section, refusing what is not a month before saving anything', async () => {
    const { sidebar } = b;
    const item = sidebar.locator('article.schedule');
    await item.getByRole('button', { name: 'Edit' }).click();
    await item.getByRole('button', { name: 'Change the report (publisher, period, breakdowns, filters, metrics)' }).click();
    await eventually(async () => expect(await sidebar.locator('#tab-report').getAttribute('aria-selected')).toBe('true'));
    await sidebar.locator('#save-schedule').click();
    await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
    expect(await sidebar.locator('#schedule-closed').isVisible()).toBe(true);
    expect(await sidebar.locator('#schedule-closed').inputValue()).toBe('');
    const before = savedDefinitions();
    await sidebar.locator('#schedule-closed').fill('2026-13');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-closed-problem').innerText()).toBe(
        'Months closed through: write a month as yyyy-mm, such as 2026-10, or leave it empty.',
      ),
    );
    // Under its field, which is outlined, and not beside the button as well.
    expect(await sidebar.locator('#schedule-closed').getAttribute('aria-invalid')).toBe('true');
    expect(await sidebar.locator('#schedule-outcome').innerText()).toBe('');
    expect(savedDefinitions()).toEqual(before);
    await sidebar.locator('#schedule-closed').fill('2026-10');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved “Revenue every 6 hours”'),
    );
    expect(savedDefinitions()).toEqual([
      expect.objectContaining({ destination: expect.objectContaining({ closedThrough: '2026-10' }), breakdowns: ['day', 'country'] }),
    ]);
    await sidebar.locator('#report-stop-editing').click();
    await sidebar.locator('#tab-schedules').click();
    await eventually(async () => expect(await item.locator('.schedule-summary').innerText()).toContain(', months closed through 2026-10'));
  });

  it('runs it now: the rows land in the grid and the status shows them, on the spreadsheet’s clock', async () => {
    const { sidebar, page, playground } = b;
    const item = sidebar.locator('article.schedule');
    await item.getByRole('button', { name: 'Run now' }).click();
    // "160 rows in 0.3 s", or "in under 0.1 s" for a refresh quicker than a twentieth of a second.
    await eventually(
      async () =>
        expect(await item.locator('.schedule-status').innerText()).toMatch(/Last success\s+\S.*, [\d,]+ rows in (\d+\.\d s|under 0\.1 s)/),
      60_000,
    );
    expect(await sidebar.locator('#schedules-message').innerText()).toMatch(/^Refreshed “.+”: [\d,]+ rows in (\d+\.\d s|under 0\.1 s)\.$/);
    expect(await item.locator('.schedule-badge').innerText()).toBe('up to date');
    expect(playground.host.getValues('Scheduled', 'B2:D2')[0]).toEqual(['day', 'country.id', 'country.name']);
    const days = playground.host.getValues('Scheduled', 'B3:B9').map((row) => row[0]);
    expect(days.every((d) => d instanceof Date)).toBe(true);
    await eventually(async () => expect(await page.locator('#sheet-tabs').innerText()).toContain('Scheduled'));
    // Every time in the spreadsheet's zone with its name, and the next run ahead.
    const status = listed().reports[0]!.status;
    const text = await item.locator('.schedule-status').innerText();
    expect(text).toContain(`Last success\n${berlin(status.lastSuccess!)}, `);
    expect(text).toContain(`Last attempt\n${berlin(status.lastAttempt!)}`);
    expect(Date.parse(status.nextRun!)).toBeGreaterThan(Date.now());
    expect(text).toContain(`Next run\nin the hour from ${berlin(status.nextRun!)}`);
  });

  it('a cell of its block leads back to it in the builder', async () => {
    const { sidebar, page, playground } = b;
    await page.locator('#sheet-tabs button', { hasText: 'Scheduled' }).click();
    await page.locator('#grid td[data-a1="C5"]').click();
    await eventually(() => expect(playground.host.state.spreadsheet.activeRange).toMatchObject({ row: 5, column: 3 }));
    await sidebar.locator('#tab-report').click();
    await sidebar.locator('#report-kind-label').click();
    const found = sidebar.locator('#report-found');
    await eventually(async () =>
      expect(await found.innerText()).toMatch(
        /^The selected cell is in the saved report “Revenue every 6 hours” \(Scheduled!B2:[A-Z]+\d+\)\. Edit this report$/,
      ),
    );
    await found.getByRole('button', { name: 'Edit this report' }).click();
    await eventually(async () =>
      expect(await sidebar.locator('#report-editing').innerText()).toContain(
        'Editing the saved report “Revenue every 6 hours” (Scheduled!B2:',
      ),
    );
    expect(await sidebar.locator('.filter-row .filter-value').inputValue()).toBe('1');
    await sidebar.locator('#report-stop-editing').click();
    await sidebar.locator('#tab-schedules').click();

    // Change the report, with the selected cell still in its block: the tab names it once, as the one edited.
    const item = sidebar.locator('article.schedule');
    await item.getByRole('button', { name: 'Edit' }).click();
    await item.getByRole('button', { name: 'Change the report (publisher, period, breakdowns, filters, metrics)' }).click();
    await eventually(async () => expect(await sidebar.locator('#report-editing').count()).toBe(1));
    await sidebar.locator('#report-kind-label').click();
    await eventually(async () => expect(await sidebar.locator('#report-here .notice').count()).toBe(1));
    expect(await sidebar.locator('#report-found').count()).toBe(0);
    await sidebar.locator('#report-stop-editing').click();
    await sidebar.locator('#tab-schedules').click();
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

  it('asks before deleting it, in the page; Keep it keeps it', async () => {
    const { sidebar } = b;
    const item = sidebar.locator('article.schedule');
    await item.getByRole('button', { name: 'Delete' }).click();
    const confirm = item.locator('.delete-confirm');
    await eventually(async () =>
      expect(await confirm.innerText()).toBe(
        'Delete “Revenue every 6 hours”? It will no longer refresh; the data it wrote stays in the sheet.\nDelete\nKeep it',
      ),
    );
    expect(savedDefinitions()).toHaveLength(1);
    expect(b.dialogs).toEqual([]);
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    expect(await item.locator('.delete-confirm').count()).toBe(0);
    expect(await item.getByRole('button', { name: 'Run now' }).count()).toBe(1);
    expect(savedDefinitions()).toHaveLength(1);
  });

  it('deletes it once confirmed: the list is empty, the trigger gone, and the data stays in the sheet', async () => {
    const { sidebar, playground } = b;
    // The Report tab still says it was saved, until it is deleted.
    expect(await sidebar.locator('#schedule-outcome').textContent()).toContain('Saved “Revenue every 6 hours”');
    await sidebar.locator('article.schedule').getByRole('button', { name: 'Delete' }).click();
    await sidebar.locator('article.schedule .delete-confirm').getByRole('button', { name: 'Delete' }).click();
    await eventually(async () => expect(await sidebar.locator('#panel-schedules').innerText()).toContain('No saved reports yet'));
    expect(await sidebar.locator('#panel-schedules [role="status"]').first().innerText()).toBe('Deleted “Revenue every 6 hours”.');
    expect(await sidebar.locator('article.schedule').count()).toBe(0);
    expect(savedDefinitions()).toEqual([]);
    expect(triggers()).toHaveLength(0);
    expect(playground.host.getValues('Scheduled', 'B2:B2')[0]![0]).toBe('day');
    expect(b.dialogs).toEqual([]);
    // What the Report tab said of it went with it.
    expect(await sidebar.locator('#schedule-outcome').textContent()).toBe('');
  });
});

describe('a spreadsheet the hourly run could not reach', () => {
  it('is named in a notice with why and since when, whole at 300 px, and its schedules can be removed', async () => {
    const { sidebar, playground } = b;
    // Another spreadsheet of the same user (a document of the same add-on), with a schedule, then deleted.
    const costs = createGasHost({
      deployment: playground.host.deployment,
      documentId: 'costs-spreadsheet',
      spreadsheetName: 'Costs 2026 (shared with the finance team)',
      owner: playground.user,
      timeZone: 'Europe/Berlin',
      manifest: JSON.parse(fs.readFileSync(distManifest, 'utf8')) as Record<string, unknown>,
    });
    costs.load(fs.readFileSync(distCode, 'utf8'));
    costs.call(
      'saveSchedule',
      [
        {
          name: 'Costs daily',
          kind: 'main',
          entityId: BIG_PUBLISHER_ID,
          period: { type: 'lastDays', days: 7 },
          breakdowns: ['day'],
          target: { sheetName: 'Costs', cell: 'A1' },
          schedule: { every: 'day', hour: 6 },
        },
      ],
      { user: playground.user },
    );
    costs.deleteDocument();
    // The user's hourly run, as Apps Script may start it: without a document.
    const run = playground.host.run('onScheduledRefresh', [{ triggerUid: 'any' }], { user: playground.user, withoutDocument: true });
    expect(run.ok).toBe(true);
    await costs.close();

    await sidebar.locator('#tab-report').click();
    await sidebar.locator('#tab-schedules').click();
    const notice = sidebar.locator('.schedule-unreachable');
    await eventually(async () => expect(await notice.count()).toBe(1));
    const text = await notice.innerText();
    expect(text).toContain('“Costs 2026 (shared with the finance team)” is not being refreshed');
    expect(text).toMatch(
      /Since \d{4}-\d\d-\d\d \d\d:\d\d \(Europe\/Berlin\), the hourly run could not reach it \(1 saved report of yours there\): it is in the trash or was deleted\. Last tried /,
    );
    // Whole at 300 px: nothing wider than the sidebar, nothing cut off.
    const box = await notice.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(300);
    expect(await notice.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
    const button = notice.getByRole('button', { name: 'Remove its schedules' });
    const buttonBox = await button.boundingBox();
    expect(buttonBox!.x + buttonBox!.width).toBeLessThanOrEqual(box!.x + box!.width);

    await button.click();
    await eventually(async () => expect(await sidebar.locator('.schedule-unreachable').count()).toBe(0));
    expect(await sidebar.locator('#panel-schedules [role="status"]').first().innerText()).toBe(
      'Removed the schedules of “Costs 2026 (shared with the finance team)” from yours: no run tries it any more.',
    );
    expect([...playground.host.properties('user', playground.user).keys()].filter((k) => k.startsWith('engage.reg.'))).toEqual([]);
    expect(b.dialogs).toEqual([]);
  });
});
