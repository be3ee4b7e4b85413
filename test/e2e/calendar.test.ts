/**
 * End to end, the calendar's two additions in the built bundle against the emulator, on a virtual
 * clock (scheduled-host.ts): a monthly schedule on the 31st refreshed by the hourly trigger through
 * a 31-, a 28-, a 31- and a 30-day month, on each month's last day at the hour of the spreadsheet's
 * clock and on no other day; and `compareWith: "yearWeekday"`, whose rows line up each day with the
 * same weekday 364 days before, in ENGAGE_COMPARE, Run to sheet and a saved report whose earlier
 * period moves with its period. Each day's figures are the emulator's own for that day.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, DEMO_USER, MEDIUM_PUBLISHER_ID, TOKEN_HEADER } from '../support/emulator';
import { useScheduledAddon } from '../support/scheduled-host';

// A Saturday, 13:00 in Berlin, the day before January's last.
const START = '2027-01-30T12:00:00.000Z';
const ZONE = 'Europe/Berlin';
let h: AddonHarness;

useScheduledAddon(START, {}, (harness) => {
  h = harness;
});

interface View {
  id: string;
  name: string;
  scheduleText: string;
  status: { lastSuccess?: string; nextRun?: string; rows?: number };
}
interface List {
  reports: View[];
}

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;

/** "2027-02-28 06" for an instant: its day and hour on the spreadsheet's clock. */
function berlinHour(iso: string | number | Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}`;
}

/** The calendar day a date cell shows on the spreadsheet's clock, "" for a blank. */
const shownDay = (cell: unknown) => (cell instanceof Date ? new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(cell) : cell);
/** "Monday" for a date cell, on the spreadsheet's clock. */
const weekdayOf = (cell: unknown) => new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, weekday: 'long' }).format(cell as Date);
/** yyyy-MM-dd `days` days after a yyyy-MM-dd day. */
function shifted(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
const compact = (day: string) => day.replace(/-/g, '');

let runsOfTrigger = 0;

/** The hourly trigger runs at every hour it falls due until `iso`. */
function runHourlyUntil(iso: string): void {
  runsOfTrigger += h.host.advanceTime(Date.parse(iso) - h.host.now().getTime()).length;
}

/** Time moves to `iso` and Apps Script runs no trigger meanwhile (it promises no run at a given hour). */
function skipTriggerRunsUntil(iso: string): void {
  const until = Date.parse(iso);
  for (const trigger of h.host.triggers) {
    while (trigger.intervalMs && trigger.nextRunAt !== undefined && trigger.nextRunAt <= until) trigger.nextRunAt += trigger.intervalMs;
  }
  expect(h.host.advanceTime(until - h.host.now().getTime())).toEqual([]);
}

describe('a monthly schedule', () => {
  it('refreshes on the last day of a 31-, a 28-, a 31- and a 30-day month at 06:00 on the sheet’s clock, and on no other day it ran', async () => {
    const saved = call<List>('saveSchedule', {
      name: 'Month close',
      kind: 'main',
      entityId: MEDIUM_PUBLISHER_ID,
      period: { type: 'lastDays', days: 1, endingYesterday: true },
      breakdowns: ['day'],
      metrics: ['revenue'],
      target: { sheetName: 'Month close', cell: 'A1' },
      schedule: { every: 'month', day: 31, hour: 6 },
    }).reports.find((r) => r.name === 'Month close')!;
    expect(saved.scheduleText).toBe('monthly on the last day at 06:00 (Europe/Berlin)');

    // The hourly trigger runs every hour over each month's end, from the 27th to the 1st (the 30th
    // of January to the 1st of May), where a wrong last day would show; the middle of each month is
    // skipped to keep the test quick (nextRunAfter's unit tests cover every day). Engage's sign-in
    // lasts 30 days, so its owner signs in again before each month's end, as the Account tab asks.
    const started = Date.now();
    runHourlyUntil('2027-02-01T12:00:00Z');
    for (const [from, to] of [
      ['2027-02-27', '2027-03-01'],
      ['2027-03-28', '2027-04-01'],
      ['2027-04-27', '2027-05-01'],
    ] as const) {
      skipTriggerRunsUntil(`${from}T00:00:00Z`);
      h.signIn();
      runHourlyUntil(`${to}T12:00:00Z`);
    }
    const seconds = (Date.now() - started) / 1000;

    const runs = (await h.emulator.reportRequests()).map((r) => `${berlinHour(r.time)} for ${r.query.fromDate}`);
    expect(runs).toEqual([
      // A new report is refreshed by the first hourly run after it was saved, then by its schedule.
      '2027-01-30 14 for 20270129',
      '2027-01-31 06 for 20270130',
      '2027-02-28 06 for 20270227',
      '2027-03-31 06 for 20270330',
      '2027-04-30 06 for 20270429',
    ]);
    const view = call<List>('listSchedules').reports.find((r) => r.id === saved.id)!;
    expect(berlinHour(view.status.lastSuccess!)).toBe('2027-04-30 06');
    expect(berlinHour(view.status.nextRun!)).toBe('2027-05-31 06');
    expect(view.status.rows).toBe(1);
    // The sheet holds the last refresh: the day before April's last.
    const [header, row] = h.host.getValues('Month close', 'A1:B2');
    expect(header).toEqual(['day', 'revenue']);
    expect(shownDay(row![0])).toBe('2027-04-29');
    console.log(`monthly schedule: ${runsOfTrigger} hourly runs in ${seconds.toFixed(1)} s`);
    call('deleteSchedule', saved.id);
  });
});

describe('compareWith "yearWeekday"', () => {
  interface ApiReport {
    items: Array<Record<string, unknown> & { day: string }>;
    metricsSums: Record<string, number>;
  }
  let token = '';
  beforeAll(async () => {
    token = await h.emulator.login(DEMO_USER.username, DEMO_USER.password);
  });

  /** The emulator's own answer for one period by day, by its yyyy-MM-dd days. */
  async function byDay(
    entityId: string,
    fromDate: string,
    toDate: string,
  ): Promise<{ days: Map<string, Record<string, unknown>>; sums: Record<string, number> }> {
    const query = new URLSearchParams({ entityId, fromDate, toDate, breakdowns: 'day', limit: '10000' });
    const response = await fetch(`${h.emulator.baseUrl}/reports/main?${query}`, { headers: { [TOKEN_HEADER]: token } });
    expect(response.status).toBe(200);
    const report = (await response.json()) as ApiReport;
    return { days: new Map(report.items.map((i) => [i.day.replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3'), i])), sums: report.metricsSums };
  }
  const sentPeriods = async () => (await h.emulator.reportRequests()).map((r) => `${r.query.fromDate}-${r.query.toDate}`);

  /**
   * A comparison by day as the sheet shows it: each row's day and day.previous are the same weekday,
   * 364 days apart, the first a Monday beside a Monday when `monday` is given, and every figure is the
   * emulator's for that day; the Total row is each period's own sums.
   */
  async function expectWeekdaysLinedUp(values: unknown[][], entityId: string, from: string, to: string, metric: string) {
    const header = values[0] as string[];
    expect(header.slice(0, 6)).toEqual(['day', 'day.previous', metric, `${metric}.previous`, `${metric}.change`, `${metric}.change%`]);
    const body = values.slice(1, -1);
    const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
    expect(body.map((r) => [shownDay(r[0]), shownDay(r[1])])).toEqual(
      Array.from({ length: days }, (_, i) => [shifted(from, i), shifted(from, i - 364)]),
    );
    for (const row of body) expect(weekdayOf(row[1])).toBe(weekdayOf(row[0]));
    const now = await byDay(entityId, compact(from), compact(to));
    const before = await byDay(entityId, compact(shifted(from, -364)), compact(shifted(to, -364)));
    for (const row of body) {
      expect([row[2], row[3]]).toEqual([
        now.days.get(shownDay(row[0]) as string)![metric],
        before.days.get(shownDay(row[1]) as string)![metric],
      ]);
    }
    expect(values.at(-1)!.slice(0, 4)).toEqual(['Total', '', now.sums[metric], before.sums[metric]]);
  }

  it('lines up Monday with Monday in ENGAGE_COMPARE: two weeks against the 14 days 52 weeks earlier', async () => {
    // 2027-04-05 is a Monday, and so is 2026-04-06, 364 days before.
    const result = h.host.evaluateFormula(
      'Sheet1',
      'A1',
      `=ENGAGE_COMPARE("${BIG_PUBLISHER_ID}", "2027-04-05", "2027-04-18", "yearWeekday", "day", "revenue,rpmByPvs")`,
      { user: OWNER },
    );
    expect(result.error).toBeUndefined();
    expect(await sentPeriods()).toEqual(['20270405-20270418', '20260406-20260419']);
    const values = result.values as unknown[][];
    expect([weekdayOf(values[1]![0]), weekdayOf(values[1]![1])]).toEqual(['Monday', 'Monday']);
    await expectWeekdaysLinedUp(values, BIG_PUBLISHER_ID, '2027-04-05', '2027-04-18', 'revenue');
  });

  it('writes the same in Run to sheet, and Insert formula gives the same cells', async () => {
    const request = {
      kind: 'main',
      entityId: MEDIUM_PUBLISHER_ID,
      fromDate: '2027-03-31',
      toDate: '2027-04-06',
      breakdowns: ['day'],
      metrics: ['revenue'],
      compareWith: 'yearWeekday',
    };
    const summary = h.host.call('runReportToSheet', [request, { type: 'newSheet', sheetName: 'Weekdays' }, 'calendar-run-1'], {
      user: OWNER,
    }) as { dataRows: number };
    expect(summary.dataRows).toBe(7);
    expect(await sentPeriods()).toEqual(['20270331-20270406', '20260401-20260407']);
    const written = h.host.getValues('Weekdays', 'A1:F9');
    // 2027-03-31 is a Wednesday, and so is 2026-04-01.
    expect([weekdayOf(written[1]![0]), weekdayOf(written[1]![1])]).toEqual(['Wednesday', 'Wednesday']);
    await expectWeekdaysLinedUp(written, MEDIUM_PUBLISHER_ID, '2027-03-31', '2027-04-06', 'revenue');

    h.host.setActiveRange('Weekdays', 'H1');
    const inserted = h.host.call('insertFormula', [request], { user: OWNER }) as { formula: string };
    expect(inserted.formula).toBe(
      `=ENGAGE_COMPARE("${MEDIUM_PUBLISHER_ID}","2027-03-31","2027-04-06","yearWeekday","day","revenue","","","","","",EngageRefresh)`,
    );
    const result = h.host.evaluateFormula('Weekdays', 'H1', undefined, { user: OWNER });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual(written);
  });

  it('keeps it in a saved report, whose earlier period moves with its period: each refresh 364 days before its own days', async () => {
    const list = h.host.call(
      'saveSchedule',
      [
        {
          name: 'Week against the year before',
          kind: 'main',
          entityId: MEDIUM_PUBLISHER_ID,
          period: { type: 'lastDays', days: 7, endingYesterday: true },
          breakdowns: ['day'],
          metrics: ['revenue'],
          compareWith: 'yearWeekday',
          target: { sheetName: 'Saved weekdays', cell: 'A1' },
          schedule: { every: 'day', hour: 6 },
        },
      ],
      { user: OWNER },
    ) as List;
    const id = list.reports.find((r) => r.name === 'Week against the year before')!.id;
    // The first hourly run refreshes it, and the next day's 06:00 run again, a day later.
    const today = shownDay(h.host.now()) as string;
    runHourlyUntil(`${shifted(today, 1)}T12:00:00Z`);
    const periods = (from: string) => `${compact(from)}-${compact(shifted(from, 6))}`;
    expect(await sentPeriods()).toEqual([
      periods(shifted(today, -7)),
      periods(shifted(today, -7 - 364)),
      periods(shifted(today, -6)),
      periods(shifted(today, -6 - 364)),
    ]);
    await expectWeekdaysLinedUp(
      h.host.getValues('Saved weekdays', 'A1:F9'),
      MEDIUM_PUBLISHER_ID,
      shifted(today, -6),
      shifted(today, 0),
      'revenue',
    );
    h.host.call('deleteSchedule', [id], { user: OWNER });
  });
});
