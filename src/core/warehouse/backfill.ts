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
  /** The loads into the table in the current fixed window of LOAD_WINDOW_MS (see LOADS_PER_WINDOW). */
  window?: LoadWindow;
  /**
   * What the days loaded hold (a hash of the report's table, publisher, breakdowns, metrics, filter,
   * currency and decimals): a pass for a report whose key differs starts again from its first day.
   */
  key?: string;
  /** When BigQuery deletes the table itself (epoch ms), as the run that last made it ready saw it: the Schedules tab says so. */
  tableExpiresAtMs?: number;
  /** The table's partition expiration as that run saw it (ms): no day whose partition would be gone is loaded. */
  partitionExpirationMs?: number;
  /** The pass's days before this one (yyyyMMdd) are not in the table: BigQuery had deleted, or would delete, their partitions. */
  expiredBefore?: string;
}

/** What a pass keeps of the table's expirations for the next pass. */
export function expirationsOf(backfill: Backfill): Pick<Backfill, 'tableExpiresAtMs' | 'partitionExpirationMs'> {
  return {
    ...(backfill.tableExpiresAtMs !== undefined ? { tableExpiresAtMs: backfill.tableExpiresAtMs } : {}),
    ...(backfill.partitionExpirationMs !== undefined ? { partitionExpirationMs: backfill.partitionExpirationMs } : {}),
  };
}

/**
 * The pass without the days before `firstKept`, whose partitions BigQuery has deleted (or deletes before
 * the run is over): they are neither loaded nor counted as loaded, those loaded earlier included (they
 * are gone). The pass then starts at `firstKept`; one whose every day is gone has none left.
 */
export function withoutExpiredDays(backfill: Backfill, firstKept: string): Backfill {
  if (backfill.fromDay >= firstKept) return backfill;
  const rest: Backfill = { ...backfill, fromDay: firstKept, expiredBefore: firstKept };
  if (firstKept > backfill.toDay) {
    // Nothing of the pass is kept: no day left, and none loaded.
    delete rest.nextDay;
    return { ...rest, toDay: dayAfter(firstKept, -1) };
  }
  if (rest.nextDay !== undefined && rest.nextDay < firstKept) rest.nextDay = firstKept;
  return rest;
}

/** Loads counted from the window's start (epoch ms). */
export interface LoadWindow {
  startMs: number;
  loads: number;
}

/** The window loads are counted over: a day. */
export const LOAD_WINDOW_MS = 86_400_000;
/**
 * The most loads a backfill sends into its table in one window. BigQuery's quotas page ("Quotas and
 * limits", Load jobs and Table operations per day) allows 1,500 load jobs, and 1,500 table operations,
 * per table per day, failed jobs included, given back over a rolling day. A rolling day overlaps at
 * most two fixed windows, so a backfill loads at most 1,400 in any 24 hours, leaving room for a retried
 * job and the report's later passes. A backfill longer than 700 days takes a day per 700.
 */
export const LOADS_PER_WINDOW = 700;

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
  const totalDays = Math.max(0, daysBetween(backfill.fromDay, backfill.toDay) + 1);
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
    ...(backfill.window ? { window: backfill.window } : {}),
    ...(backfill.key !== undefined ? { key: backfill.key } : {}),
    ...expirationsOf(backfill),
    ...(backfill.expiredBefore !== undefined ? { expiredBefore: backfill.expiredBefore } : {}),
  };
}

/** The window as it stands at `nowMs`: a new one once the last has run its LOAD_WINDOW_MS. */
function windowAt(backfill: Backfill, nowMs: number): LoadWindow | undefined {
  const w = backfill.window;
  return w && nowMs >= w.startMs && nowMs < w.startMs + LOAD_WINDOW_MS ? w : undefined;
}

/** How many more loads the window allows at `nowMs`. */
export function loadsLeft(backfill: Backfill, nowMs: number): number {
  return Math.max(0, LOADS_PER_WINDOW - (windowAt(backfill, nowMs)?.loads ?? 0));
}

/** When the next load is allowed, if none is now: the window's end. */
export function loadsFreeAtMs(backfill: Backfill, nowMs: number): number | undefined {
  const w = windowAt(backfill, nowMs);
  return w && w.loads >= LOADS_PER_WINDOW ? w.startMs + LOAD_WINDOW_MS : undefined;
}

/** The backfill with `loads` more loads (one unless told) counted at `nowMs`: counted as sent, since BigQuery counts a failed job too. */
export function loadCounted(backfill: Backfill, nowMs: number, loads = 1): Backfill {
  const w = windowAt(backfill, nowMs) ?? { startMs: nowMs, loads: 0 };
  return { ...backfill, window: { startMs: w.startMs, loads: w.loads + loads } };
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
