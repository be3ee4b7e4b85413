/**
 * compareWith and the earlier period (compare-periods.ts): the words and custom periods it takes, the
 * days each choice covers (29 February and whole months included), and the problems it reports with
 * the report's own, before anything is sent.
 */
import {
  buildComparison,
  compareDefaultMetrics,
  earlierPeriod,
  readCompareWith,
} from '../../../../../src/core/api/requests/compare-periods';
import { buildReportQuery, type ReportInput } from '../../../../../src/core/api/requests/report-request';
import { ValidationError } from '../../../../../src/core/errors';

const NOW = Date.UTC(2026, 10, 20, 12);
const build = (input: ReportInput) => buildReportQuery('main', input, { nowMs: NOW, timeZone: 'Europe/Berlin' });
const input: ReportInput = { entityId: 'abc123', fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: 'day' };

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (e) {
    if (e instanceof ValidationError) return e.problems.map((p) => p.message);
    throw e;
  }
  throw new Error('no problem was reported');
}

describe('readCompareWith', () => {
  it.each([
    ['previous', { type: 'previous' }],
    [' Previous ', { type: 'previous' }],
    ['YEAR', { type: 'year' }],
    ['yearWeekday', { type: 'yearWeekday' }],
    [' YEARWEEKDAY ', { type: 'yearWeekday' }],
    ['2026-10-01..2026-10-07', { type: 'custom', fromDate: '20261001', toDate: '20261007' }],
    ['20261001 .. 20261003', { type: 'custom', fromDate: '20261001', toDate: '20261003' }],
    [['2026-10-01', '2026-10-02'], { type: 'custom', fromDate: '20261001', toDate: '20261002' }],
    [[['2026-10-01'], ['']], undefined],
  ])('reads %j', (value, expected) => {
    const read = readCompareWith(value, 'UTC');
    if (expected) expect(read).toEqual(expected);
    else expect(read).toMatchObject({ argument: 'compareWith' });
  });

  it('reads a range of two date cells as the calendar days they show in the spreadsheet zone', () => {
    // Midnight in Berlin is 23:00 UTC the day before.
    const cells = [[new Date('2026-09-30T22:00:00Z')], [new Date('2026-10-06T22:00:00Z')]];
    expect(readCompareWith(cells, 'Europe/Berlin')).toEqual({ type: 'custom', fromDate: '20261001', toDate: '20261007' });
  });

  it.each([
    ['', /compareWith: is required/],
    ['last week', /compareWith: 'last week' must be "previous", "year", "yearWeekday", or an earlier period as "2026-10-01\.\.2026-10-07"/],
    ['year weekday', /compareWith: 'year weekday' must be "previous", "year", "yearWeekday", or an earlier period/],
    [7, /compareWith: 7 must be "previous"/],
    [true, /compareWith: true must be "previous"/],
    [new Date('2026-10-01T00:00:00Z'), /compareWith: is one date: give two/],
    [['2026-10-01', '2026-10-02', '2026-10-03'], /compareWith: is a range of 3 cells/],
    ['2026-10-01..', /the last day of the earlier period, is not a date/],
    ['2026-02-30..2026-03-01', /'2026-02-30', the first day of the earlier period, is not a date/],
    ['2026-10-07..2026-10-01', /the earlier period's last day 2026-10-01 is before its first day 2026-10-07/],
    ['2026-10-01..2026-10-03..2026-10-05', /must be "previous"/],
  ])('refuses %j, naming compareWith and the rule', (value, rule) => {
    const read = readCompareWith(value, 'UTC');
    expect(read).toMatchObject({ argument: 'compareWith' });
    expect((read as { message: string }).message).toMatch(rule);
  });
});

describe('earlierPeriod', () => {
  it.each([
    ['previous, 7 days', '20261101', '20261107', { type: 'previous' }, '20261025', '20261031'],
    ['previous, one day', '20261120', '20261120', { type: 'previous' }, '20261119', '20261119'],
    ['previous, days across a year end', '20260101', '20260110', { type: 'previous' }, '20251222', '20251231'],
    ['previous, a part of a month', '20261101', '20261120', { type: 'previous' }, '20261012', '20261031'],
    ['previous, a whole month: the month before', '20261001', '20261031', { type: 'previous' }, '20260901', '20260930'],
    ['previous, whole March: whole February', '20240301', '20240331', { type: 'previous' }, '20240201', '20240229'],
    ['previous, a whole quarter: the quarter before', '20260701', '20260930', { type: 'previous' }, '20260401', '20260630'],
    ['year', '20261101', '20261107', { type: 'year' }, '20251101', '20251107'],
    ['year, from 29 February', '20240229', '20240306', { type: 'year' }, '20230228', '20230306'],
    ['year, to 29 February: a day shorter', '20240201', '20240229', { type: 'year' }, '20230201', '20230228'],
    // 364 days: 2026-11-02 is a Monday, and so is 2025-11-03.
    ['yearWeekday', '20261102', '20261108', { type: 'yearWeekday' }, '20251103', '20251109'],
    ['yearWeekday, across 29 February', '20250301', '20250307', { type: 'yearWeekday' }, '20240302', '20240308'],
    ['yearWeekday, a year end', '20270101', '20270107', { type: 'yearWeekday' }, '20260102', '20260108'],
    ['custom', '20261101', '20261107', { type: 'custom', fromDate: '20261001', toDate: '20261003' }, '20261001', '20261003'],
  ] as const)('%s', (_what, fromDate, toDate, compareWith, earlierFrom, earlierTo) => {
    expect(earlierPeriod({ fromDate, toDate }, compareWith)).toEqual({ fromDate: earlierFrom, toDate: earlierTo });
  });
});

describe('buildComparison', () => {
  it('builds the two requests, the same but for their dates', () => {
    const c = buildComparison(input, 'previous', 'Europe/Berlin', build);
    expect(c.current.params).toMatchObject({ fromDate: '20261101', toDate: '20261107', breakdowns: 'day' });
    expect(c.earlier.params).toEqual({ ...c.current.params, fromDate: '20261025', toDate: '20261031' });
    expect(c.metrics).toEqual(['totalPvs', 'revenue', 'rpmByPvs', 'paidCtrByPvs']);
  });

  it('takes four default metrics, the request twins by widget, chosen metrics as given and "all" as every metric', () => {
    expect(compareDefaultMetrics(['widget'])).toEqual(['totalReqs', 'revenue', 'reqsRpm', 'reqsPaidCtr']);
    expect(buildComparison({ ...input, metrics: 'revenue,paidClicks' }, 'year', 'UTC', build).metrics).toEqual(['revenue', 'paidClicks']);
    expect(buildComparison({ ...input, metrics: 'all' }, 'year', 'UTC', build).metrics.length).toBeGreaterThan(20);
  });

  it("reports compareWith's problem with the report's own, all at once", () => {
    expect(problemsOf(() => buildComparison({ ...input, breakdowns: 'day,month' }, 'last week', 'UTC', build))).toEqual([
      "breakdowns: 'day' and 'month' cannot be combined",
      expect.stringMatching(/^compareWith: 'last week' must be/),
    ]);
  });

  it('refuses an earlier period that shares a day with the report', () => {
    expect(problemsOf(() => buildComparison(input, '2026-10-30..2026-11-01', 'UTC', build))).toEqual([
      "compareWith: the earlier period (2026-10-30 to 2026-11-01) must end before the report's first day 2026-11-01: the two periods may not share a day",
    ]);
    expect(problemsOf(() => buildComparison(input, '2026-11-08..2026-11-14', 'UTC', build))[0]).toMatch(
      /must end before the report's first day/,
    );
    expect(problemsOf(() => buildComparison({ ...input, fromDate: '2025-01-01' }, 'year', 'UTC', build))[0]).toMatch(
      /the earlier period \(2024-01-01 to 2025-11-07\) must end before/,
    );
  });

  it('names compareWith when only the earlier dates break a rule: the doc breakdown covers 12 months', () => {
    const doc = { ...input, breakdowns: 'doc' };
    expect(problemsOf(() => buildComparison(doc, 'year', 'UTC', build))).toEqual([
      expect.stringMatching(
        /^compareWith: the earlier period \(2025-11-01 to 2025-11-07\) cannot be asked for: .*more than 12 months ago, and the 'doc' breakdown only covers the last 12 months/,
      ),
    ]);
    expect(buildComparison(doc, 'previous', 'UTC', build).earlier.fromDate).toBe('20261025');
  });

  it('compares yearWeekday day by day with the same weekdays 52 weeks earlier', () => {
    // 364 days, the longest period whose earlier one ends before it starts.
    const c = buildComparison({ ...input, fromDate: '2025-01-01', toDate: '2025-12-30' }, 'yearWeekday', 'UTC', build);
    expect(c.earlierRange).toEqual({ fromDate: '20240103', toDate: '20241231' });
    // Every day of a whole year and its earlier day share a weekday.
    const weekday = (compact: string) =>
      new Date(`${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6)}T00:00:00Z`).getUTCDay();
    for (let d = Date.UTC(2026, 0, 1); d <= Date.UTC(2026, 11, 31); d += 86_400_000) {
      const day = new Date(d).toISOString().slice(0, 10).replace(/-/g, '');
      const earlier = earlierPeriod({ fromDate: day, toDate: day }, { type: 'yearWeekday' }).fromDate;
      expect(weekday(earlier)).toBe(weekday(day));
    }
  });

  it('refuses yearWeekday where its rules do: the month breakdown, a period over 364 days, and the doc breakdown past 12 months', () => {
    expect(problemsOf(() => buildComparison({ ...input, breakdowns: 'month,country' }, 'yearWeekday', 'UTC', build))).toEqual([
      'compareWith: "yearWeekday" lines up each day with the same weekday a year earlier, which the month breakdown does not show: ' +
        'use "year" to compare months with the same months a year earlier, or break down by day',
    ]);
    expect(buildComparison({ ...input, breakdowns: 'month' }, 'year', 'UTC', build).earlierRange.fromDate).toBe('20251101');
    // 365 days: the earlier period would end on the report's first day.
    expect(problemsOf(() => buildComparison({ ...input, fromDate: '2025-11-07' }, 'yearWeekday', 'UTC', build))).toEqual([
      "compareWith: the earlier period (2024-11-08 to 2025-11-08) must end before the report's first day 2025-11-07: the two periods may not share a day",
    ]);
    expect(buildComparison({ ...input, fromDate: '2025-11-09' }, 'yearWeekday', 'UTC', build).earlierRange.toDate).toBe('20251108');
    // The doc breakdown covers the 12 months before 2026-11-20 (from 2025-11-20): 364 days before
    // yesterday is inside them, where the same date a year earlier is not.
    const doc = { ...input, breakdowns: 'doc', fromDate: '2026-11-19', toDate: '2026-11-19' };
    expect(buildComparison(doc, 'yearWeekday', 'UTC', build).earlier.fromDate).toBe('20251120');
    expect(problemsOf(() => buildComparison(doc, 'year', 'UTC', build))[0]).toMatch(/2025-11-19 .*cannot be asked for/);
    expect(problemsOf(() => buildComparison({ ...doc, fromDate: '2026-11-18' }, 'yearWeekday', 'UTC', build))).toEqual([
      expect.stringMatching(
        /^compareWith: the earlier period \(2025-11-19 to 2025-11-20\) cannot be asked for: .*the 'doc' breakdown only covers the last 12 months \(earliest 2025-11-20\)/,
      ),
    ]);
  });
});
