/**
 * Days relative to today, written as text: the convention of Google's own reporting APIs ("today",
 * "yesterday", "NdaysAgo": the Analytics Data API's DateRange), and in its style three forms for
 * calendar months, which days alone cannot say: "startOfMonth", "startOfLastMonth" and
 * "endOfLastMonth". A formula written with them rolls without TODAY(), which Google does not promise
 * a custom function may take as an argument (it forbids the volatile NOW() and RAND()). Each form is
 * read on the spreadsheet's clock, the day it is in the spreadsheet's time zone, as TODAY() would be;
 * the caller then uses that calendar day as it uses a date cell's.
 */
import { addDays, calendarDayInZone, type CalendarDay } from './dates';

/** A day counted back from today on the spreadsheet's clock, or a bound of this or last calendar month. */
export type RelativeDay =
  | { kind: 'daysAgo'; days: number }
  | { kind: 'startOfMonth' }
  | { kind: 'startOfLastMonth' }
  | { kind: 'endOfLastMonth' };

/** The forms as they are written (any case is read; surrounding spaces are ignored, none inside). */
export const RELATIVE_TODAY = 'today';
export const RELATIVE_YESTERDAY = 'yesterday';
export const RELATIVE_START_OF_MONTH = 'startOfMonth';
export const RELATIVE_START_OF_LAST_MONTH = 'startOfLastMonth';
export const RELATIVE_END_OF_LAST_MONTH = 'endOfLastMonth';

/** "7daysAgo": the day N days before today. */
export function daysAgoText(days: number): string {
  return `${days}daysAgo`;
}

/** NdaysAgo counts back at most this many days (some 100 years): further back is no report's period. */
export const DAYS_AGO_MAX = 36_500;

/** The forms, listed for messages after the fixed ones ("write yyyy-MM-dd, a date cell, ..."). */
export const RELATIVE_DAY_FORMS = `${RELATIVE_TODAY}, ${RELATIVE_YESTERDAY}, NdaysAgo such as ${daysAgoText(7)}, ${RELATIVE_START_OF_MONTH}, ${RELATIVE_START_OF_LAST_MONTH} or ${RELATIVE_END_OF_LAST_MONTH}`;

const DAYS_AGO = /^(\d+)daysago$/;

/**
 * The relative day `value` names, or undefined when it is no such text. Case does not matter and
 * surrounding spaces are ignored ("7DaysAgo", " today "); N is a whole number of digits ("0daysAgo"
 * is today), and "7 daysAgo", "7dayAgo" or "-1daysAgo" name nothing. N past DAYS_AGO_MAX is returned
 * as it is: relativeDayProblem says what is wrong with it.
 */
export function parseRelativeDay(value: unknown): RelativeDay | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (text === RELATIVE_TODAY) return { kind: 'daysAgo', days: 0 };
  if (text === RELATIVE_YESTERDAY) return { kind: 'daysAgo', days: 1 };
  if (text === RELATIVE_START_OF_MONTH.toLowerCase()) return { kind: 'startOfMonth' };
  if (text === RELATIVE_START_OF_LAST_MONTH.toLowerCase()) return { kind: 'startOfLastMonth' };
  if (text === RELATIVE_END_OF_LAST_MONTH.toLowerCase()) return { kind: 'endOfLastMonth' };
  const m = DAYS_AGO.exec(text);
  return m ? { kind: 'daysAgo', days: Number(m[1]) } : undefined;
}

/** Why a relative day cannot be used (the rule, after the value in a message), or undefined. */
export function relativeDayProblem(day: RelativeDay): string | undefined {
  if (day.kind === 'daysAgo' && !(day.days <= DAYS_AGO_MAX))
    return `counts back more than ${DAYS_AGO_MAX.toLocaleString('en-US')} days (NdaysAgo takes N from 0 to ${DAYS_AGO_MAX})`;
  return undefined;
}

/** The calendar day a relative day names at `nowMs`, today being the day it is in `timeZone`. */
export function resolveRelativeDay(day: RelativeDay, nowMs: number, timeZone: string): CalendarDay {
  const today = calendarDayInZone(nowMs, timeZone);
  const firstOfMonth = { ...today, day: 1 };
  switch (day.kind) {
    case 'daysAgo':
      return addDays(today, -day.days);
    case 'startOfMonth':
      return firstOfMonth;
    case 'startOfLastMonth':
      return { ...addDays(firstOfMonth, -1), day: 1 };
    case 'endOfLastMonth':
      return addDays(firstOfMonth, -1);
  }
}

/** True when `nowMs` falls on another calendar day than `earlierMs` in `timeZone` (the day changed since). */
export function isAnotherDay(earlierMs: number, nowMs: number, timeZone: string): boolean {
  const a = calendarDayInZone(earlierMs, timeZone);
  const b = calendarDayInZone(nowMs, timeZone);
  return a.year !== b.year || a.month !== b.month || a.day !== b.day;
}
