/**
 * The dates of a report request: fromDate and toDate as a user gives them (date cells, yyyyMMdd,
 * yyyy-MM-dd, and for the hourly reports yyyyMMddHH in UTC) checked against the spec's rules (order,
 * the 24-hour range of the hourly reports, the realtime window of 48 hours, the doc breakdown's 12
 * months) and written as the API expects them. Problems go to the caller's `add`, named by argument.
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
    if (from && to && utcMidnightMs(to) < utcMidnightMs(from)) {
      add('toDate', toRaw, `is before fromDate ${showValue(fromRaw)} (${toDate} < ${fromDate})`);
    }
    if (from && context.breakdowns.includes('doc')) {
      const earliest = subtractMonths(utcDayOf(context.nowMs), DOC_BREAKDOWN_WINDOW_MONTHS);
      if (utcMidnightMs(from) < utcMidnightMs(earliest)) {
        const months = DOC_BREAKDOWN_WINDOW_MONTHS;
        add(
          'fromDate',
          fromRaw,
          `is more than ${months} months ago, and the 'doc' breakdown only covers the last ${months} months (earliest ${formatDay(earliest)})`,
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
    if (fromMs !== undefined && toMs !== undefined) {
      const hours = (toMs - fromMs) / MS_PER_HOUR;
      if (hours <= 0) {
        add(
          'toDate',
          toRaw,
          `must be after fromDate ${showValue(fromRaw)} (toDate is exclusive: ${toDate} UTC is not after ${fromDate} UTC)`,
        );
      } else if (hours > HOURLY_REPORT_MAX_RANGE_HOURS) {
        add(
          'toDate',
          toRaw,
          `is ${hours} hours after fromDate ${showValue(fromRaw)}; the ${spec.title} covers at most ${HOURLY_REPORT_MAX_RANGE_HOURS} hours (toDate is exclusive)`,
        );
      }
    }
    if (spec.kind === 'realtime' && fromMs !== undefined) {
      const earliestMs = floorToHourMs(context.nowMs) - REALTIME_WINDOW_HOURS * MS_PER_HOUR;
      if (fromMs < earliestMs) {
        add(
          'fromDate',
          fromRaw,
          `is older than the realtime window of the last ${REALTIME_WINDOW_HOURS} hours (earliest ${formatUtcHour(earliestMs)} UTC)`,
        );
      } else if (fromMs > context.nowMs) {
        add('fromDate', fromRaw, `is in the future (now is ${formatUtcHour(context.nowMs)} UTC)`);
      }
    }
  }
  return { fromDate, toDate };
}
