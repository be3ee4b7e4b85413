/**
 * The dates of a report request: fromDate and toDate as a user gives them (date cells, yyyyMMdd,
 * yyyy-MM-dd, and for the hourly reports yyyyMMddHH in UTC) checked against the spec's rules (order,
 * the 24-hour range of the hourly reports, the realtime window of 48 hours, the doc breakdown's 12
 * months) and written as the API expects them. Problems go to the caller's `add`, named by argument,
 * with dates as users write them ("2026-11-22", "2026-11-20 13:00 UTC"; a date cell as the day it
 * shows), never in the API's compact form.
 */
import {
  calendarDayInZone,
  floorToHourMs,
  formatDay,
  formatUtcHour,
  hourBoundMs,
  isDate,
  isValidTimeZone,
  MS_PER_HOUR,
  parseDateText,
  readableDay,
  readableUtcHour,
  subtractMonths,
  utcDayOf,
  utcMidnightMs,
  type CalendarDay,
} from '../util/dates';
import { showValue } from '../util/text';
import { DOC_BREAKDOWN_WINDOW_MONTHS, HOURLY_REPORT_MAX_RANGE_HOURS, REALTIME_WINDOW_HOURS, type ReportSpec } from '../spec';

/** Records one problem: the argument, its value, the rule, and whether the message shows the value. */
export type AddProblem = (argument: string, value: unknown, rule: string, showTheValue?: boolean) => void;

export interface ReportDatesContext {
  nowMs: number;
  /** The spreadsheet's zone: a date cell of the general report is its calendar day there. */
  timeZone: string;
  /** The effective breakdowns (the doc breakdown limits how far back fromDate may go). */
  breakdowns: readonly string[];
  add: AddProblem;
}

/** fromDate and toDate as the API takes them ('' where a problem was added); `fromRaw`/`toRaw` undefined when not given. */
export function reportDates(
  spec: ReportSpec,
  fromRaw: unknown,
  toRaw: unknown,
  context: ReportDatesContext,
): { fromDate: string; toDate: string } {
  const { add } = context;
  let fromDate = '';
  let toDate = '';
  if (!spec.hourly) {
    const readDay = (argument: string, value: unknown): CalendarDay | undefined => {
      if (value === undefined) return undefined;
      if (isDate(value)) {
        if (Number.isNaN(value.getTime())) {
          add(argument, value, 'is not a valid date');
          return undefined;
        }
        return isValidTimeZone(context.timeZone) ? calendarDayInZone(value.getTime(), context.timeZone) : undefined;
      }
      const p = typeof value === 'string' || typeof value === 'number' ? parseDateText(value, false) : null;
      if (!p) {
        add(argument, value, 'is not a date (use yyyyMMdd, yyyy-MM-dd or a date cell)');
        return undefined;
      }
      return p.day;
    };
    const from = readDay('fromDate', fromRaw);
    const to = readDay('toDate', toRaw);
    if (from) fromDate = formatDay(from);
    if (to) toDate = formatDay(to);
    // A date cell is shown as the day it shows in the spreadsheet.
    const shown = (raw: unknown, day: CalendarDay) => (isDate(raw) ? readableDay(day) : raw);
    if (from && to && utcMidnightMs(to) < utcMidnightMs(from)) {
      add('toDate', shown(toRaw, to), `is before fromDate ${showValue(shown(fromRaw, from))}`);
    }
    if (from && context.breakdowns.includes('doc')) {
      const earliest = subtractMonths(utcDayOf(context.nowMs), DOC_BREAKDOWN_WINDOW_MONTHS);
      if (utcMidnightMs(from) < utcMidnightMs(earliest)) {
        const months = DOC_BREAKDOWN_WINDOW_MONTHS;
        add(
          'fromDate',
          shown(fromRaw, from),
          `is more than ${months} months ago, and the 'doc' breakdown only covers the last ${months} months (earliest ${readableDay(earliest)})`,
        );
      }
    }
  } else {
    const readHour = (argument: string, value: unknown, isEnd: boolean): number | undefined => {
      if (value === undefined) return undefined;
      if (isDate(value)) {
        if (Number.isNaN(value.getTime())) {
          add(argument, value, 'is not a valid date');
          return undefined;
        }
        return floorToHourMs(value.getTime()); // field notes: a date cell is taken at its UTC hour
      }
      const p = typeof value === 'string' || typeof value === 'number' ? parseDateText(value, true) : null;
      if (!p) {
        add(argument, value, 'is not a date or hour (use yyyyMMddHH in UTC, yyyyMMdd, yyyy-MM-dd or a date cell)');
        return undefined;
      }
      return hourBoundMs(p, isEnd);
    };
    const fromMs = readHour('fromDate', fromRaw, false);
    const toMs = readHour('toDate', toRaw, true);
    if (fromMs !== undefined) fromDate = formatUtcHour(fromMs);
    if (toMs !== undefined) toDate = formatUtcHour(toMs);
    // A date cell is shown as the UTC hour it is taken at.
    const shown = (raw: unknown, ms: number) => (isDate(raw) ? readableUtcHour(ms) : raw);
    if (fromMs !== undefined && toMs !== undefined) {
      const hours = (toMs - fromMs) / MS_PER_HOUR;
      const from = showValue(shown(fromRaw, fromMs));
      if (hours <= 0) {
        add(
          'toDate',
          shown(toRaw, toMs),
          `must be after fromDate ${from} (toDate is exclusive: ${readableUtcHour(toMs)} is not after ${readableUtcHour(fromMs)})`,
        );
      } else if (hours > HOURLY_REPORT_MAX_RANGE_HOURS) {
        add(
          'toDate',
          shown(toRaw, toMs),
          `is ${hours} hours after fromDate ${from}; the ${spec.title} covers at most ${HOURLY_REPORT_MAX_RANGE_HOURS} hours (toDate is exclusive)`,
        );
      }
    }
    if (spec.kind === 'realtime' && fromMs !== undefined) {
      const earliestMs = floorToHourMs(context.nowMs) - REALTIME_WINDOW_HOURS * MS_PER_HOUR;
      if (fromMs < earliestMs) {
        add(
          'fromDate',
          shown(fromRaw, fromMs),
          `is older than the realtime window of the last ${REALTIME_WINDOW_HOURS} hours (earliest ${readableUtcHour(earliestMs)})`,
        );
      } else if (fromMs > context.nowMs) {
        add('fromDate', shown(fromRaw, fromMs), `is in the future (now is ${readableUtcHour(context.nowMs)})`);
      }
    }
  }
  return { fromDate, toDate };
}
