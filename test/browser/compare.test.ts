/**
 * Browser test of the report builder's "Compare with" in the playground: Debian's chromium shows the
 * real dist/sidebar.html, whose calls run the built bundle in the local host against the emulator.
 * The choice says which days the earlier period covers, Run to sheet writes the comparison (each day
 * beside the day a week before, formats per column), Insert formula writes the ENGAGE_COMPARE formula
 * that gives the same cells, Add chart is off with the reason, Save to schedule keeps the comparison
 * with the saved report, a custom period that is not earlier is refused before anything is sent, the
 * hourly reports offer no comparison, and a comparison reopened from its block shows the metric picker
 * of a comparison. Last, at 300 px, the same weekdays last year: the line says which weekday lines up
 * with which, the month breakdown is refused with what to choose instead, and the comparison is saved
 * to a monthly schedule, whose day and hour fit the section and the Schedules tab describes.
 * Run `npm run build` first.
 */
import type { FrameLocator, Page } from 'playwright-core';
import type { Playground } from '../../dev/playground/playground';
import { chooseBreakdowns, eventually, measureControl, openPlayground, type BrowserPlayground, selectCell } from '../support/browser';

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
  await eventually(async () => expect(await sidebar.locator('#report-publisher option').count()).toBe(3 + 2)); // and All, Several
});

afterAll(async () => {
  await env?.close();
});

const reportRequests = () => playground.host.fetchLog.filter((r) => r.url.includes('/reports/main'));
const period = (url: string) => {
  const q = new URL(url).searchParams;
  return `${q.get('fromDate')}-${q.get('toDate')}`;
};
/** yyyyMMdd of a yyyy-MM-dd day moved by `days`. */
const shifted = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
const comparable = (values: unknown[][]) => values.map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : String(v))));

describe('"Compare with" in the report builder', () => {
  it('runs last 7 days against the previous 7 to a sheet, day 1 beside day 1, and inserts the same comparison as a formula', async () => {
    await sidebar.locator('#report-preset').selectOption('last7');
    await chooseBreakdowns(sidebar, ['day']);
    await sidebar.locator('#report-compare').selectOption('previous');
    const range = (await sidebar.locator('#report-period').innerText()).match(/(\d{4}-\d{2}-\d{2})/)![1]!;
    // The line names the earlier days, and the metric picker switched to the comparison's four default metrics.
    await eventually(async () =>
      expect(await sidebar.locator('#report-compare-period').innerText()).toContain(
        `Compared with ${shifted(range, -7)} to ${shifted(range, -1)} (7 days)`,
      ),
    );
    await eventually(async () => expect(await sidebar.locator('#metrics-summary').innerText()).toBe('4, the default set'));
    await eventually(async () => expect(await sidebar.locator('#metrics-width').innerText()).toContain('Up to 18 columns'));
    await eventually(async () => expect(await sidebar.locator('#formula-preview').textContent()).toContain('"previous","day"'));

    const before = reportRequests().length;
    await sidebar.locator('#report-target').selectOption('newSheet');
    await sidebar.locator('#report-target-name').fill('Week on week');
    await sidebar.locator('#run-report').click();
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome .notice-success').first().innerText()).toMatch(
        /Wrote 7 rows to 'Week on week'!A1:R9 from 2 pages/,
      ),
    );
    const sent = reportRequests().slice(before);
    expect(sent.map((r) => period(r.url))).toEqual([
      `${range.replace(/-/g, '')}-${shifted(range, 6).replace(/-/g, '')}`,
      `${shifted(range, -7).replace(/-/g, '')}-${shifted(range, -1).replace(/-/g, '')}`,
    ]);

    const grid = playground.host.getValues('Week on week', 'A1:R9');
    const header = grid[0]!.map(String);
    expect(header.slice(0, 6)).toEqual(['day', 'day.previous', 'totalPvs', 'totalPvs.previous', 'totalPvs.change', 'totalPvs.change%']);
    expect(header).toHaveLength(18);
    // Each day beside the day a week before it, and the Total row last.
    for (const row of grid.slice(1, 8)) expect((row[0] as Date).getTime() - (row[1] as Date).getTime()).toBe(7 * 86_400_000);
    expect(grid[8]![0]).toBe('Total');
    const cellOf = (name: string) => `${String.fromCharCode(65 + header.indexOf(name))}2`;
    expect(playground.host.getCell('Week on week', cellOf('day.previous')).numberFormat).toBe('yyyy-mm-dd');
    expect(playground.host.getCell('Week on week', cellOf('revenue.previous')).numberFormat).toBe('#,##0.00 "USD"');
    expect(playground.host.getCell('Week on week', cellOf('revenue.change%')).numberFormat).toBe('0.00"%"');
    await eventually(async () => expect(await page.locator('#grid td[data-a1="B1"]').innerText()).toBe('day.previous'));
    await eventually(async () => expect(await sidebar.locator('#run-preview-table thead th').allTextContents()).toEqual(header));
    // Add chart draws plain reports only, and says so.
    expect(await sidebar.locator('#add-chart').isDisabled()).toBe(true);
    expect(await sidebar.locator('#add-chart').getAttribute('title')).toContain('the last run compared two periods');

    await selectCell(env, 'Sheet1', 'A1');
    await sidebar.locator('#insert-formula').click();
    await eventually(async () => expect(await sidebar.locator('#inserted-formula').innerText()).toContain('=ENGAGE_COMPARE('));
    const formula = playground.host.getCell('Sheet1', 'A1');
    expect(formula.formula).toMatch(/^=ENGAGE_COMPARE\("[0-9a-f]+","7daysAgo","yesterday","previous","day".*,EngageRefresh\)$/);
    expect(formula.error).toBeUndefined();
    expect(comparable(playground.host.getValues('Sheet1', 'A1:R9'))).toEqual(comparable(grid));
  });

  it('saves the comparison with the schedule: the period line says what it is compared with, and no incremental option', async () => {
    await sidebar.locator('#save-schedule').click();
    await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
    expect(await sidebar.locator('#schedule-period').innerText()).toBe(
      'the 7 days before today (UTC days), compared with the period just before (as many days, or as many whole months).',
    );
    expect(await sidebar.locator('#schedule-incremental').count()).toBe(0);
    await sidebar.locator('#schedule-name').fill('Week on week');
    await sidebar.locator('#schedule-sheet').fill('Scheduled comparison');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved “Week on week”'),
    );
    const list = playground.host.call('listSchedules', [], { user: playground.user }) as {
      reports: Array<{ name: string; definition: Record<string, unknown> }>;
    };
    expect(list.reports.find((r) => r.name === 'Week on week')!.definition).toMatchObject({
      compareWith: 'previous',
      breakdowns: ['day'],
      metrics: ['totalPvs', 'revenue', 'rpmByPvs', 'paidCtrByPvs'],
      period: { type: 'lastDays', days: 7, endingYesterday: true },
    });
  });

  it('refuses a custom earlier period that does not end before the report, sending nothing', async () => {
    await sidebar.locator('#report-compare').selectOption('custom');
    const range = (await sidebar.locator('#report-period').innerText()).match(/(\d{4}-\d{2}-\d{2})/)![1]!;
    await sidebar.locator('#report-compare-from').fill(shifted(range, -3));
    await sidebar.locator('#report-compare-to').fill(range);
    await sidebar.locator('#report-compare-to').dispatchEvent('change');
    await eventually(async () =>
      expect(await sidebar.locator('#report-compare-period').innerText()).toBe(
        'The earlier period must end before the report’s first day.',
      ),
    );
    const before = reportRequests().length;
    await sidebar.locator('#run-report').click();
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome .notice-error').innerText()).toContain('The earlier period must end before'),
    );
    expect(reportRequests().length).toBe(before);
    // A custom period that ends the day before is the comparison asked for.
    await sidebar.locator('#report-compare-from').fill(shifted(range, -10));
    await sidebar.locator('#report-compare-to').fill(shifted(range, -1));
    await sidebar.locator('#report-compare-to').dispatchEvent('change');
    await eventually(async () =>
      expect(await sidebar.locator('#formula-preview').textContent()).toContain(`"${shifted(range, -10)}..${shifted(range, -1)}"`),
    );
    await eventually(async () => expect(await sidebar.locator('#report-compare-period').innerText()).toContain('(10 days)'));
  });

  it('offers no comparison for the hourly reports, saying why', async () => {
    await sidebar.locator('#report-kind-externalId').check({ force: true });
    await eventually(async () => expect(await sidebar.locator('#report-compare').isDisabled()).toBe(true));
    expect(await sidebar.locator('#report-compare').inputValue()).toBe('');
    expect(await sidebar.locator('#report-compare-period').innerText()).toBe(
      'Only the general report can be compared with an earlier period.',
    );
    expect(await sidebar.locator('#formula-preview').textContent()).toContain('=ENGAGE_EXTERNALID_REPORT(');
  });

  it('reopens the comparison from its block with the metric picker of a comparison: its default set, four columns a metric', async () => {
    // The builder holds another report now (the external-ID one); a cell of the comparison's block leads back to it.
    await page.locator('#sheet-tabs button', { hasText: 'Week on week' }).click();
    await page.locator('#grid td[data-a1="C3"]').click();
    const spreadsheet = playground.host.state.spreadsheet;
    await eventually(() =>
      expect([
        spreadsheet.sheetById(spreadsheet.activeSheetId).name,
        spreadsheet.activeRange?.row,
        spreadsheet.activeRange?.column,
      ]).toEqual(['Week on week', 3, 3]),
    );
    await sidebar.locator('#report-kind-label').click();
    const found = sidebar.locator('#report-found');
    await eventually(async () => expect(await found.innerText()).toContain("the report in 'Week on week'!A1:R9"));
    await found.getByRole('button', { name: 'Edit this report' }).click();
    await eventually(async () => expect(await sidebar.locator('#report-compare').inputValue()).toBe('previous'));
    expect(await sidebar.locator('#metrics-summary').innerText()).toBe('4, the default set');
    expect(await sidebar.locator('#metrics-width').innerText()).toBe('Up to 18 columns from the first cell.');
    expect(await sidebar.locator('#formula-preview').textContent()).toContain('"previous","day"');
  });

  it('compares with the same weekdays last year at 300 px, refuses it by month, and saves it to a monthly schedule', async () => {
    expect(await sidebar.locator('html').evaluate((html) => html.clientWidth)).toBeLessThanOrEqual(300);
    await sidebar.locator('#report-compare').selectOption('yearWeekday');
    const range = (await sidebar.locator('#report-period').innerText()).match(/(\d{4}-\d{2}-\d{2})/)![1]!;
    const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${range}T00:00:00Z`));
    const line = sidebar.locator('#report-compare-period');
    await eventually(async () =>
      expect(await line.innerText()).toBe(
        `Compared with ${shifted(range, -364)} to ${shifted(range, -358)} (7 days), the same weekdays 52 weeks earlier, by position ` +
          `with day: ${weekday} ${range} beside ${weekday} ${shifted(range, -364)}, and so on; each metric beside its earlier value, ` +
          'the change and the change in %.',
      ),
    );
    const choice = await measureControl(sidebar.locator('#report-compare'));
    expect(choice.text).toBe('Same weekdays last year');
    expect(choice.textWidth).toBeLessThanOrEqual(choice.room);
    // The line wraps inside the sidebar: nothing of it is cut off or beyond the edge.
    const box = await line.evaluate((node) => ({ fits: node.scrollWidth <= node.clientWidth, right: node.getBoundingClientRect().right }));
    expect(box.fits).toBe(true);
    expect(box.right).toBeLessThanOrEqual(choice.viewport);
    await eventually(async () => expect(await sidebar.locator('#formula-preview').textContent()).toContain('"yearWeekday","day"'));

    // Without day the rows are not lined up by day: the line says how they are, as the form is now.
    await chooseBreakdowns(sidebar, ['country']);
    await eventually(async () =>
      expect(await line.innerText()).toBe(
        `Compared with ${shifted(range, -364)} to ${shifted(range, -358)} (7 days), the same weekdays 52 weeks earlier, row by row ` +
          'by country: each metric beside its earlier value, the change and the change in %.',
      ),
    );
    await chooseBreakdowns(sidebar, ['day']);
    await eventually(async () => expect(await line.innerText()).toContain('by position with day:'));

    // By month there are no days to line up: the line says what to choose, and nothing is sent.
    await chooseBreakdowns(sidebar, ['month']);
    const byMonth =
      'Same weekdays last year lines up each day with the same weekday, which the month breakdown does not show: ' +
      'choose Same period last year, or break down by day.';
    await eventually(async () => expect(await line.innerText()).toBe(byMonth));
    const before = reportRequests().length;
    await sidebar.locator('#run-report').click();
    await eventually(async () => expect(await sidebar.locator('#report-outcome .notice-error').innerText()).toContain(byMonth));
    expect(reportRequests().length).toBe(before);
    await chooseBreakdowns(sidebar, ['day']);

    // Saved to a monthly schedule: the 30th, or the last day of a shorter month, at 06:00.
    await sidebar.locator('#save-schedule').click();
    await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
    expect(await sidebar.locator('#schedule-period').innerText()).toBe(
      'the 7 days before today (UTC days), compared with the same weekdays a year earlier (52 weeks before).',
    );
    await sidebar.locator('#schedule-every').selectOption('month');
    expect(await sidebar.locator('#schedule-day option').allTextContents()).toHaveLength(31);
    expect(await sidebar.locator('#schedule-day option[value="31"]').textContent()).toBe('on the last day');
    await sidebar.locator('#schedule-day').selectOption('30');
    await sidebar.locator('#schedule-hour').selectOption('6');
    for (const id of ['#schedule-every', '#schedule-day', '#schedule-hour']) {
      const shown = await measureControl(sidebar.locator(id));
      expect([shown.text, shown.textWidth <= shown.room, shown.right <= shown.viewport]).toEqual([shown.text, true, true]);
    }
    expect((await measureControl(sidebar.locator('#schedule-day'))).text).toBe('on the 30th (or the last day)');
    await sidebar.locator('#schedule-name').fill('Weekdays at month end');
    await sidebar.locator('#schedule-sheet').fill('Monthly weekdays');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain(
        'Saved “Weekdays at month end”: monthly on the 30th (or the last day) at 06:00 (Europe/Berlin)',
      ),
    );
    const list = playground.host.call('listSchedules', [], { user: playground.user }) as {
      reports: Array<{ id: string; name: string; definition: Record<string, unknown> }>;
    };
    const saved = list.reports.find((r) => r.name === 'Weekdays at month end')!;
    expect(saved.definition).toMatchObject({ compareWith: 'yearWeekday', schedule: { every: 'month', day: 30, hour: 6 } });
    await sidebar.locator('#schedule-open-list').click();
    const item = sidebar.locator(`article.schedule[data-id="${saved.id}"]`);
    await eventually(async () =>
      expect(await item.locator('.schedule-summary').innerText()).toMatch(
        /^monthly on the 30th \(or the last day\) at 06:00 \(Europe\/Berlin\) → 'Monthly weekdays'!A\d+, the 7 days before today \(UTC days\), compared with the same weekdays a year earlier \(52 weeks before\)$/,
      ),
    );
  });
});
