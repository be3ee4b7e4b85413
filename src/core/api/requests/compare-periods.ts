/**
 * Comparing a general report with an earlier period: what `compareWith` may say, which days the
 * earlier period covers, and the two requests, checked before anything is sent. `compareWith` is
 * "previous" (as many days just before; whole calendar months: as many whole months before, so that
 * October is compared with September), "year" (the same dates a year earlier; 29 February becomes
 * 28 February, so that period is a day shorter), "yearWeekday" (the same weekdays a year earlier: 364
 * days, 52 weeks, before, so that a Monday is compared with a Monday; page-view-driven revenue
 * follows the weekday, and the same dates a year earlier mix them) or a custom earlier period ("2026-10-01..2026-10-07",
 * or two dates: a two-cell range or a list). A custom period may be longer or shorter than the
 * report's, and must end before the report's first day, so that no day is in both. The earlier
 * request is the report's with other dates: a rule its dates break (the doc breakdown's 12 months)
 * is reported under compareWith. Problems are collected with the report's own, so a user fixing a
 * formula sees all of them at once.
 */
import { ValidationError, type ValidationProblem } from '../../errors';
import {
  calendarDayInZone,
  compactDayOf,
  dashedDay,
  dayAfter,
  daysBetween,
  daysInMonth,
  formatDay,
  isDate,
  isValidTimeZone,
  parseDateText,
  subtractMonths,
} from '../../util/dates';
import { showValue } from '../../util/text';
import { ALL_METRICS, availableMetrics } from './report-metrics';
import type { ReportInput, ReportQuery } from './report-request';

/** The argument's name in messages, formulas and saved reports. */
export const COMPARE_WITH = 'compareWith';
/** The words compareWith takes besides a custom period, as written in formulas. */
export const COMPARE_PREVIOUS = 'previous';
export const COMPARE_YEAR = 'year';
export const COMPARE_YEAR_WEEKDAY = 'yearWeekday';
/** How far back "yearWeekday" looks: 52 weeks, so every day is compared with the same weekday. */
export const YEAR_WEEKDAY_DAYS = 364;
/** Between the first and last day of a custom period written as text: "2026-10-01..2026-10-07". */
export const PERIOD_SEPARATOR = '..';

/** What the report is compared with; a custom period's days as yyyyMMdd, both included. */
export type CompareWith =
  | { type: 'previous' }
  | { type: 'year' }
  | { type: 'yearWeekday' }
  | { type: 'custom'; fromDate: string; toDate: string };

/** A period of the general report: yyyyMMdd, both days included. */
export interface DayRange {
  fromDate: string;
  toDate: string;
}

/**
 * The metrics of a comparison when none are chosen. Each metric takes four columns (this period, the
 * earlier one, the change and the change in %), so the set is four: with four breakdowns (at most
 * eight columns) a comparison is at most 24 columns wide and fits a new sheet's 26. By widget the
 * request twins, as in the report's own default set.
 */
const COMPARE_DEFAULT_METRICS = ['totalPvs', 'revenue', 'rpmByPvs', 'paidCtrByPvs'];
const COMPARE_DEFAULT_METRICS_BY_WIDGET = ['totalReqs', 'revenue', 'reqsRpm', 'reqsPaidCtr'];

/** The default metrics of a comparison for these (effective) breakdowns, in the spec's order. */
export function compareDefaultMetrics(breakdowns: readonly string[]): string[] {
  const wanted = new Set(breakdowns.includes('widget') ? COMPARE_DEFAULT_METRICS_BY_WIDGET : COMPARE_DEFAULT_METRICS);
  return availableMetrics('main', breakdowns).filter((m) => wanted.has(m));
}

const RULE = `must be "${COMPARE_PREVIOUS}", "${COMPARE_YEAR}", "${COMPARE_YEAR_WEEKDAY}", or an earlier period as "2026-10-01${PERIOD_SEPARATOR}2026-10-07" or two date cells`;

function problem(rule: string): ValidationProblem {
  return { argument: COMPARE_WITH, message: `${COMPARE_WITH}: ${rule}` };
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** One end of a custom period: a date cell (its calendar day in the spreadsheet's zone) or date text. */
function readDay(value: unknown, timeZone: string, which: string): string | ValidationProblem {
  if (isDate(value)) {
    if (Number.isNaN(value.getTime())) return problem(`the ${which} day of the earlier period is not a valid date`);
    return formatDay(calendarDayInZone(value.getTime(), isValidTimeZone(timeZone) ? timeZone : 'UTC'));
  }
  const parsed = typeof value === 'string' || typeof value === 'number' ? parseDateText(value, false) : null;
  if (!parsed)
    return problem(`${showValue(value)}, the ${which} day of the earlier period, is not a date (use yyyy-MM-dd, yyyyMMdd or a date cell)`);
  return formatDay(parsed.day);
}

/**
 * Reads compareWith as a formula, the sidebar or a saved report gives it: "previous" or "year" in any
 * case, "first..last" text, or two dates (a range of two cells, or a list). Returns the problem
 * instead when it is none of these, or a custom period whose last day is before its first.
 */
export function readCompareWith(value: unknown, timeZone: string): CompareWith | ValidationProblem {
  const cells = Array.isArray(value) ? (value as unknown[]).flat().filter((v) => !blank(v)) : [value];
  if (cells.length === 0 || (cells.length === 1 && blank(cells[0]))) return problem(`is required: ${RULE.replace(/^must be /, '')}`);
  let ends: unknown[];
  if (cells.length === 2) ends = cells;
  else if (cells.length > 2) return problem(`is a range of ${cells.length} cells: give two dates, the earlier period's first and last day`);
  else {
    const only = cells[0];
    if (isDate(only))
      return problem('is one date: give two, the earlier period\'s first and last day, as a range of two cells or "first..last"');
    if (typeof only !== 'string') return problem(`${showValue(only)} ${RULE}`);
    const word = only.trim().toLowerCase();
    if (word === COMPARE_PREVIOUS) return { type: 'previous' };
    if (word === COMPARE_YEAR) return { type: 'year' };
    if (word === COMPARE_YEAR_WEEKDAY.toLowerCase()) return { type: 'yearWeekday' };
    const parts = only.split(PERIOD_SEPARATOR);
    if (parts.length !== 2) return problem(`${showValue(only)} ${RULE}`);
    ends = parts.map((p) => p.trim());
  }
  const fromDate = readDay(ends[0], timeZone, 'first');
  if (typeof fromDate !== 'string') return fromDate;
  const toDate = readDay(ends[1], timeZone, 'last');
  if (typeof toDate !== 'string') return toDate;
  if (toDate < fromDate)
    return problem(`the earlier period's last day ${dashedDay(toDate)} is before its first day ${dashedDay(fromDate)}`);
  return { type: 'custom', fromDate, toDate };
}

/**
 * What compareWith compares with, in words: "the period just before", "the same days a year earlier",
 * "the same weekdays a year earlier", or the custom days.
 */
export function describeCompareWith(text: string): string {
  const read = readCompareWith(text, 'UTC');
  if ('argument' in read) return text;
  if (read.type === 'previous') return 'the period just before (as many days, or as many whole months)';
  if (read.type === 'year') return 'the same days a year earlier';
  if (read.type === 'yearWeekday') return 'the same weekdays a year earlier (52 weeks before)';
  return `${dashedDay(read.fromDate)} to ${dashedDay(read.toDate)}`;
}

/** Months from a to b, of yyyyMM or yyyyMMdd text. */
export function monthsBetween(a: string, b: string): number {
  return Number(b.slice(0, 4)) * 12 + Number(b.slice(4, 6)) - (Number(a.slice(0, 4)) * 12 + Number(a.slice(4, 6)));
}

/** The first (or last) day of the month `months` months after that of `compact`. */
function monthBound(compact: string, months: number, end: boolean): string {
  const total = Number(compact.slice(0, 4)) * 12 + Number(compact.slice(4, 6)) - 1 + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  return formatDay({ year, month, day: end ? daysInMonth(year, month) : 1 });
}

/** The same day a year earlier; 29 February becomes 28 February. */
function yearEarlier(compact: string): string {
  return formatDay(subtractMonths(compactDayOf(compact), 12));
}

/**
 * What a comparison cannot do with these (effective) breakdowns, or undefined: "yearWeekday" lines up
 * days with the same weekdays, and the month breakdown has no days; its months would each be
 * compared with a month shifted by a day or two, split over two rows. "year" compares whole months.
 */
export function compareBreakdownProblem(compareWith: CompareWith, breakdowns: readonly string[]): string | undefined {
  if (compareWith.type !== 'yearWeekday' || !breakdowns.includes('month')) return undefined;
  return (
    `"${COMPARE_YEAR_WEEKDAY}" lines up each day with the same weekday a year earlier, which the month breakdown does not show: ` +
    `use "${COMPARE_YEAR}" to compare months with the same months a year earlier, or break down by day`
  );
}

/** The period the report is compared with. */
export function earlierPeriod(current: DayRange, compareWith: CompareWith): DayRange {
  switch (compareWith.type) {
    case 'custom':
      return { fromDate: compareWith.fromDate, toDate: compareWith.toDate };
    case 'year':
      return { fromDate: yearEarlier(current.fromDate), toDate: yearEarlier(current.toDate) };
    case 'yearWeekday':
      return { fromDate: dayAfter(current.fromDate, -YEAR_WEEKDAY_DAYS), toDate: dayAfter(current.toDate, -YEAR_WEEKDAY_DAYS) };
    case 'previous': {
      const to = compactDayOf(current.toDate);
      if (current.fromDate.endsWith('01') && to.day === daysInMonth(to.year, to.month)) {
        const months = monthsBetween(current.fromDate, current.toDate) + 1;
        return { fromDate: monthBound(current.fromDate, -months, false), toDate: monthBound(current.fromDate, -1, true) };
      }
      const days = daysBetween(current.fromDate, current.toDate) + 1;
      return { fromDate: dayAfter(current.fromDate, -days), toDate: dayAfter(current.fromDate, -1) };
    }
  }
}

/** A validated comparison: the report's request, the earlier period's, and the metric columns of both. */
export interface Comparison {
  current: ReportQuery;
  earlier: ReportQuery;
  compareWith: CompareWith;
  currentRange: DayRange;
  earlierRange: DayRange;
  /** The metrics compared, in column order: the chosen ones, the comparison's default set, or every metric for "all". */
  metrics: string[];
}

/**
 * Checks a comparison of the general report and builds its two requests; `build` validates one
 * request (the session's, which also checks the address length). Throws one ValidationError with
 * every problem of the report's arguments and of compareWith; nothing is sent before.
 */
export function buildComparison(
  input: ReportInput,
  compareWithValue: unknown,
  timeZone: string,
  build: (input: ReportInput) => ReportQuery,
): Comparison {
  const compareWith = readCompareWith(compareWithValue, timeZone);
  let current: ReportQuery;
  try {
    current = build(input);
  } catch (e) {
    if (e instanceof ValidationError && 'argument' in compareWith) throw new ValidationError([...e.problems, compareWith]);
    throw e;
  }
  if ('argument' in compareWith) throw new ValidationError([compareWith]);
  const unfit = compareBreakdownProblem(compareWith, current.breakdowns);
  if (unfit) throw new ValidationError([problem(unfit)]);
  const currentRange = { fromDate: current.fromDate, toDate: current.toDate };
  const earlierRange = earlierPeriod(currentRange, compareWith);
  const described = `${dashedDay(earlierRange.fromDate)} to ${dashedDay(earlierRange.toDate)}`;
  if (earlierRange.toDate >= currentRange.fromDate) {
    throw new ValidationError([
      problem(
        `the earlier period (${described}) must end before the report's first day ${dashedDay(currentRange.fromDate)}: ` +
          'the two periods may not share a day',
      ),
    ]);
  }
  let earlier: ReportQuery;
  try {
    earlier = build({ ...input, fromDate: earlierRange.fromDate, toDate: earlierRange.toDate });
  } catch (e) {
    // The same arguments passed for the report: what fails now is the earlier period's dates.
    if (e instanceof ValidationError) {
      throw new ValidationError(
        e.problems.map((p) => problem(`the earlier period (${described}) cannot be asked for: ${p.message.replace(/^\w+: /, '')}`)),
      );
    }
    throw e;
  }
  const metrics =
    input.metrics === undefined || input.metrics === null || input.metrics === ''
      ? compareDefaultMetrics(current.breakdowns)
      : current.metrics === ALL_METRICS
        ? availableMetrics('main', current.breakdowns)
        : current.metrics;
  current.metrics = metrics;
  earlier.metrics = metrics;
  return { current, earlier, compareWith, currentRange, earlierRange, metrics };
}
