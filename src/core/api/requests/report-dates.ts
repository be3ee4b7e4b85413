/**
 * The dates of a report request: fromDate and toDate as a user gives them (date cells, yyyyMMdd,
 * yyyy-MM-dd, a day relative to today such as "7daysAgo" (util/relative-days.ts), and for the hourly
 * reports yyyyMMddHH in UTC) checked against the spec's rules (order, the 24-hour range of the hourly
 * reports, the realtime window of 48 hours, the doc breakdown's 12 months) and written as the API
 * expects them. A relative day is the calendar day it names on the spreadsheet's clock, then taken as
 * a date cell of that day is by the general report (its calendar day, the API's UTC day) and as day
 * text by the hourly reports (that UTC day, whole). So the request, and every cache keyed by it, moves
 * with the day. Problems go to the caller's `add`, named by argument, with dates as users write them
 * ("2026-11-22", "2026-11-20 13:00 UTC"; a date cell as the day it shows, a relative day with the day
 * it names), never in the API's compact form.
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
} from '../../util/dates';
import { parseRelativeDay, RELATIVE_DAY_FORMS, relativeDayProblem, resolveRelativeDay } from '../../util/relative-days';
import { showValue } from '../../util/text';
import { DOC_BREAKDOWN_WINDOW_MONTHS, HOURLY_REPORT_MAX_RANGE_HOURS, REALTIME_WINDOW_HOURS, type ReportSpec } from '../../spec';

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

/** What a general report's date argument is not, and what to write instead. */
export const DAY_RULE = `is not a date: write yyyy-MM-dd, yyyyMMdd, a date cell, ${RELATIVE_DAY_FORMS}`;
/** The same for the hourly reports, which also take a UTC hour. */
export const HOUR_RULE = `is not a date or hour: write yyyyMMddHH in UTC, yyyy-MM-dd, yyyyMMdd, a date cell, ${RELATIVE_DAY_FORMS}`;

/**
 * A date argument as messages show it: text as given, a date cell as the day (or UTC hour) it is
 * taken as, a relative day with the day it names ("'7daysAgo' (2026-11-13)").
 */
function shownDate(raw: unknown, resolved: string): string {
  if (isDate(raw)) return showValue(resolved);
  if (parseRelativeDay(raw)) return `${showValue(raw)} (${resolved})`;
  return showValue(raw);
}

/**
 * A relative day's calendar day on the spreadsheet's clock; undefined, with the problem added, for
 * one that cannot be used; null when `value` is no relative day (the caller reads it as a date).
 */
function relativeDay(argument: string, value: unknown, context: ReportDatesContext): CalendarDay | undefined | null {
  const relative = parseRelativeDay(value);
  if (!relative) return null;
  const problem = relativeDayProblem(relative);
  if (problem) {
    context.add(argument, value, problem);
    return undefined;
  }
  return isValidTimeZone(context.timeZone) ? resolveRelativeDay(relative, context.nowMs, context.timeZone) : undefined;
}

/** fromDate and toDate as the API takes them ('' where a problem was added); `fromRaw`/`toRaw` undefined when not given. */
export function reportDates(
  spec: ReportSpec,
  fromRaw: unknown,
  toRaw: unknown,
  context: ReportDatesContext,
): { fromDate: string; toDate: string } {
  return spec.hourly ? hourlyReportDates(spec, fromRaw, toRaw, context) : generalReportDates(fromRaw, toRaw, context);
}

/** A general report's date argument as its calendar day; undefined when not given or wrong (the problem added). */
function readDay(argument: string, value: unknown, context: ReportDatesContext): CalendarDay | undefined {
  if (value === undefined) return undefined;
  if (isDate(value)) {
    if (Number.isNaN(value.getTime())) {
      context.add(argument, value, 'is not a valid date');
      return undefined;
    }
    return isValidTimeZone(context.timeZone) ? calendarDayInZone(value.getTime(), context.timeZone) : undefined;
  }
  const relative = relativeDay(argument, value, context);
  if (relative !== null) return relative;
  const p = typeof value === 'string' || typeof value === 'number' ? parseDateText(value, false) : null;
  if (!p) {
    context.add(argument, value, DAY_RULE);
    return undefined;
  }
  return p.day;
}

/** The general report's days: in order, and within the doc breakdown's months when it is asked for. */
function generalReportDates(fromRaw: unknown, toRaw: unknown, context: ReportDatesContext): { fromDate: string; toDate: string } {
  const { add } = context;
  const from = readDay('fromDate', fromRaw, context);
  const to = readDay('toDate', toRaw, context);
  // A date cell is shown as the day it shows in the spreadsheet, a relative day with the day it names.
  const shown = (raw: unknown, day: CalendarDay) => shownDate(raw, readableDay(day));
  if (from && to && utcMidnightMs(to) < utcMidnightMs(from)) {
    add('toDate', undefined, `${shown(toRaw, to)} is before fromDate ${shown(fromRaw, from)}`, false);
  }
  if (from && context.breakdowns.includes('doc')) {
    const earliest = subtractMonths(utcDayOf(context.nowMs), DOC_BREAKDOWN_WINDOW_MONTHS);
    if (utcMidnightMs(from) < utcMidnightMs(earliest)) {
      const months = DOC_BREAKDOWN_WINDOW_MONTHS;
      add(
        'fromDate',
        undefined,
        `${shown(fromRaw, from)} is more than ${months} months ago, and the 'doc' breakdown only covers the last ${months} months (earliest ${readableDay(earliest)})`,
        false,
      );
    }
  }
  return { fromDate: from ? formatDay(from) : '', toDate: to ? formatDay(to) : '' };
}

/** An hourly report's date argument as the epoch ms of its UTC hour bound; undefined when not given or wrong. */
function readHour(argument: string, value: unknown, isEnd: boolean, context: ReportDatesContext): number | undefined {
  if (value === undefined) return undefined;
  if (isDate(value)) {
    if (Number.isNaN(value.getTime())) {
      context.add(argument, value, 'is not a valid date');
      return undefined;
    }
    return floorToHourMs(value.getTime()); // field notes: a date cell is taken at its UTC hour
  }
  // A relative day is that UTC day, as its yyyyMMdd would be: from its 00:00, or as the end up to the next day's.
  const relative = relativeDay(argument, value, context);
  if (relative !== null) return relative && hourBoundMs({ kind: 'day', day: relative }, isEnd);
  const p = typeof value === 'string' || typeof value === 'number' ? parseDateText(value, true) : null;
  if (!p) {
    context.add(argument, value, HOUR_RULE);
    return undefined;
  }
  return hourBoundMs(p, isEnd);
}

/** The hourly reports' hours: toDate after fromDate within the range, and the realtime report's window. */
function hourlyReportDates(
  spec: ReportSpec,
  fromRaw: unknown,
  toRaw: unknown,
  context: ReportDatesContext,
): { fromDate: string; toDate: string } {
  const { add } = context;
  const fromMs = readHour('fromDate', fromRaw, false, context);
  const toMs = readHour('toDate', toRaw, true, context);
  // A date cell is shown as the UTC hour it is taken at, a relative day with the hour it names.
  const shown = (raw: unknown, ms: number) => shownDate(raw, readableUtcHour(ms));
  if (fromMs !== undefined && toMs !== undefined) {
    const hours = (toMs - fromMs) / MS_PER_HOUR;
    const from = shown(fromRaw, fromMs);
    if (hours <= 0) {
      add(
        'toDate',
        undefined,
        `${shown(toRaw, toMs)} must be after fromDate ${from} (toDate is exclusive: ${readableUtcHour(toMs)} is not after ${readableUtcHour(fromMs)})`,
        false,
      );
    } else if (hours > HOURLY_REPORT_MAX_RANGE_HOURS) {
      add(
        'toDate',
        undefined,
        `${shown(toRaw, toMs)} is ${hours} hours after fromDate ${from}; the ${spec.title} covers at most ${HOURLY_REPORT_MAX_RANGE_HOURS} hours (toDate is exclusive)`,
        false,
      );
    }
  }
  if (spec.kind === 'realtime' && fromMs !== undefined) {
    const earliestMs = floorToHourMs(context.nowMs) - REALTIME_WINDOW_HOURS * MS_PER_HOUR;
    if (fromMs < earliestMs) {
      add(
        'fromDate',
        undefined,
        `${shown(fromRaw, fromMs)} is older than the realtime window of the last ${REALTIME_WINDOW_HOURS} hours (earliest ${readableUtcHour(earliestMs)})`,
        false,
      );
    } else if (fromMs > context.nowMs) {
      add('fromDate', undefined, `${shown(fromRaw, fromMs)} is in the future (now is ${readableUtcHour(context.nowMs)})`, false);
    }
  }
  return { fromDate: fromMs !== undefined ? formatUtcHour(fromMs) : '', toDate: toMs !== undefined ? formatUtcHour(toMs) : '' };
}
