/**
 * A backfill: the days of a long period ("the last 12 months") loaded into BigQuery oldest first, one
 * day at a time, across hourly runs. Its whole state is three days and two running averages, small
 * enough for the saved report's record. The cursor (`nextDay`) moves only past a day whose load
 * finished, and only by one day, so a resumed backfill never skips a day and never loads one it has
 * passed; should a run end between a day's load and the saving of the cursor, that day is loaded again
 * on the next run, which replaces its partition with the same rows (a load is a replacement, never an
 * addition). Each run takes as many days as its time and the report API's request budget allow, judged
 * by what the days before cost.
 */
import { ValidationError } from '../errors';
import { compactDayOf, dashedDay, dayAfter, daysBetween, isValidCalendarDay } from '../util/dates';

export interface Backfill {
  /** The first day, yyyyMMdd. */
  fromDay: string;
  /** The last day, yyyyMMdd (inclusive). */
  toDay: string;
  /** The next day to load; absent once every day is loaded. */
  nextDay?: string;
  /** What a day has cost so far, averaged: milliseconds (fetch and load) and report requests. */
  msPerDay?: number;
  requestsPerDay?: number;
}

/** How much the latest day counts in the running averages: recent days say most about the next. */
const AVERAGE_WEIGHT = 0.3;

function isDay(day: string): boolean {
  if (!/^\d{8}$/.test(day)) return false;
  const d = compactDayOf(day);
  return isValidCalendarDay(d.year, d.month, d.day);
}

/** A backfill of `fromDay` to `toDay` (yyyyMMdd, both included), with no day loaded yet. */
export function startBackfill(fromDay: string, toDay: string): Backfill {
  if (!isDay(fromDay)) throw ValidationError.single('fromDate', `'${fromDay}' is not a day written yyyyMMdd`);
  if (!isDay(toDay)) throw ValidationError.single('toDate', `'${toDay}' is not a day written yyyyMMdd`);
  if (toDay < fromDay) throw ValidationError.single('toDate', `${dashedDay(toDay)} is before the first day, ${dashedDay(fromDay)}`);
  return { fromDay, toDay, nextDay: fromDay };
}

export interface BackfillView {
  totalDays: number;
  loadedDays: number;
  leftDays: number;
  /** The next day to load, dashed; absent when done. */
  nextDay?: string;
  done: boolean;
}

/** What the Schedules tab shows: progress and what is left. */
export function backfillView(backfill: Backfill): BackfillView {
  const totalDays = daysBetween(backfill.fromDay, backfill.toDay) + 1;
  const loadedDays = backfill.nextDay === undefined ? totalDays : daysBetween(backfill.fromDay, backfill.nextDay);
  return {
    totalDays,
    loadedDays,
    leftDays: totalDays - loadedDays,
    ...(backfill.nextDay !== undefined ? { nextDay: dashedDay(backfill.nextDay) } : {}),
    done: backfill.nextDay === undefined,
  };
}

const average = (previous: number | undefined, latest: number) =>
  previous === undefined ? latest : previous * (1 - AVERAGE_WEIGHT) + latest * AVERAGE_WEIGHT;

/**
 * The backfill once `day` has loaded, with what it cost. Only the next day may be marked: any other is
 * a mistake of the caller, which would skip days or load one twice, and throws.
 */
export function dayLoaded(backfill: Backfill, day: string, cost: { ms: number; requests: number }): Backfill {
  if (backfill.nextDay === undefined || day !== backfill.nextDay) {
    throw new Error(`backfill: ${day} is not the next day to load (${backfill.nextDay ?? 'none is left'})`);
  }
  const next = dayAfter(day, 1);
  return {
    fromDay: backfill.fromDay,
    toDay: backfill.toDay,
    ...(next <= backfill.toDay ? { nextDay: next } : {}),
    msPerDay: average(backfill.msPerDay, cost.ms),
    requestsPerDay: average(backfill.requestsPerDay, cost.requests),
  };
}

/**
 * How many days this run may start: as many as are left and as fit in `msLeft` and `requestsLeft`
 * (the report API's budget for the run) at what a day has cost so far. A backfill that has loaded no
 * day yet takes one, to learn its cost; a run with less than one day's time or requests takes none.
 */
export function daysForRun(backfill: Backfill, budget: { msLeft: number; requestsLeft: number }): number {
  const left = backfillView(backfill).leftDays;
  if (left === 0) return 0;
  if (backfill.msPerDay === undefined || backfill.requestsPerDay === undefined) return budget.msLeft > 0 && budget.requestsLeft > 0 ? 1 : 0;
  const byTime = Math.floor(budget.msLeft / Math.max(backfill.msPerDay, 1));
  const byRequests = Math.floor(budget.requestsLeft / Math.max(backfill.requestsPerDay, 1));
  return Math.max(0, Math.min(left, byTime, byRequests));
}
