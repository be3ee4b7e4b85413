/**
 * What the report builder flags about a custom period as it is chosen, before any run: a period that
 * starts after today (or an hourly window that starts after the current hour) has no data yet, and a
 * first day before the doc breakdown's 12 months is outside that breakdown's data. The spec bounds
 * the data in no other way (how far back the general report goes is not shown), so nothing else is
 * flagged; the request rules of api/requests/report-dates.ts still apply when the report runs.
 */
import { DOC_BREAKDOWN_WINDOW_MONTHS } from '../spec';
import { calendarDayInZone, floorToHourMs, readableDay, subtractMonths, utcDayOf, utcHourText } from '../util/dates';

export interface PeriodCheck {
  /** Why the period cannot be run as it is. */
  problem?: string;
  /** Something true of the period that the user should know (part of it has no data yet). */
  note?: string;
}

/**
 * A custom range of the general report ("yyyy-MM-dd", both ends included). Today is the spreadsheet's
 * day, or the UTC day when that is later (the API's days are UTC days), so no day with data is refused.
 */
export function customDaysCheck(
  fromDate: string,
  toDate: string,
  breakdowns: readonly string[],
  nowMs: number,
  timeZone: string,
): PeriodCheck {
  const today = readableDay(calendarDayInZone(nowMs, timeZone));
  const utcToday = readableDay(utcDayOf(nowMs));
  const latest = [today, utcToday].sort()[1]!; // the later day (yyyy-MM-dd sorts as dates)
  if (fromDate > latest)
    return { problem: `The period starts after today (${today}), so it has no data yet: choose an earlier first day.` };
  if (breakdowns.includes('doc')) {
    const earliest = readableDay(subtractMonths(utcDayOf(nowMs), DOC_BREAKDOWN_WINDOW_MONTHS));
    if (fromDate < earliest) {
      return {
        problem: `The doc breakdown covers only the last ${DOC_BREAKDOWN_WINDOW_MONTHS} months: choose a first day from ${earliest} on.`,
      };
    }
  }
  if (toDate > latest) return { note: `Days after today (${today}) have no data yet.` };
  return {};
}

/** A custom window of the hourly reports, starting at `fromDate` ("yyyy-MM-dd HH:00", UTC). */
export function hourWindowCheck(fromDate: string, nowMs: number): PeriodCheck {
  const fromMs = Date.parse(`${fromDate.replace(' ', 'T')}:00Z`);
  const currentHourMs = floorToHourMs(nowMs);
  if (fromMs > currentHourMs) {
    return {
      problem: `The window starts after the current hour (${utcHourText(currentHourMs)} UTC), so it has no data yet: choose an earlier first hour.`,
    };
  }
  return {};
}
