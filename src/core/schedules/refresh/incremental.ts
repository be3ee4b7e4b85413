/**
 * Incremental refresh of a daily general report, an upsert of its recent days: instead of
 * downloading the whole range again, fetch only the days since the last refresh plus the 3 before
 * them (the current day is partial and data arrives 2 to 4 hours late, so recent days still change),
 * then merge with the rows already in the sheet by day and breakdown keys (kept-rows.ts): refetched
 * days replace their old rows, days that left a moving window are dropped, so the sheet holds the
 * period. Rows of an incremental report are ordered by day, then by the breakdown keys, whether
 * fetched in full or merged, so both ways give the same sheet.
 */
import { dayAfter } from '../../util/dates';
import { periodStartMs } from '../../sheets/report-table';
import { columnKind, numberFormatOf } from '../../sheets/sheet-output';
import type { SheetBlock, Cell } from '../../ports';
import { resolvePeriod, type Period } from '../saved/period';
import { type DayWindow, upsertRows } from './kept-rows';

export { keyColumns, sortByKeys } from './kept-rows';

/** Days before the last fetched one that are fetched again: late data still changes them. */
export const INCREMENTAL_OVERLAP_DAYS = 3;

export interface IncrementalRange {
  fromDate: string;
  toDate: string;
  /** True when the whole period must be fetched (first run, or the sheet holds nothing to merge with). */
  full: boolean;
}

/** What to fetch now, given the last day fetched before (yyyyMMdd) and the period. */
export function incrementalRange(period: Period, fetchedThrough: string | undefined, nowMs: number): IncrementalRange {
  const whole = resolvePeriod(period, nowMs);
  if (!fetchedThrough) return { ...whole, full: true };
  const from = dayAfter(fetchedThrough, -INCREMENTAL_OVERLAP_DAYS);
  if (from <= whole.fromDate) return { ...whole, full: true };
  return { fromDate: from, toDate: whole.toDate, full: false };
}

export interface MergeOptions {
  breakdowns: readonly string[];
  timeZone: string;
  /** Old rows of this day (yyyyMMdd) and later are replaced by the fetched ones. */
  replaceFrom: string;
  /** Old rows before this day left the period and are dropped. */
  keepFrom: string;
  /** Data rows kept at most (the report's maxStoredRows); default every row of the period. */
  cap?: number;
}

/** The days of the sheet an incremental refresh keeps: from the period's first day up to the first day fetched again. */
export function incrementalWindow(keepFrom: string, replaceFrom: string, timeZone: string): DayWindow | null {
  const replaceFromMs = periodStartMs('day', replaceFrom, timeZone);
  const keepFromMs = periodStartMs('day', keepFrom, timeZone);
  return replaceFromMs === null || keepFromMs === null ? null : { keepFromMs, replaceFromMs };
}

/** Kind and format of a column of the general report, for the kept rows' own columns. */
const generalColumns = { kindOf: columnKind, formatOf: (kind: ReturnType<typeof columnKind>) => numberFormatOf(kind) };

/**
 * The merged block, or null when the old values cannot be merged with the new block (another header,
 * no day column): the caller then fetches the whole period.
 */
export function mergeIncremental(previous: Cell[][], fresh: SheetBlock, options: MergeOptions): SheetBlock | null {
  const window = incrementalWindow(options.keepFrom, options.replaceFrom, options.timeZone);
  if (!window || !previous[0]) return null;
  return upsertRows(previous, fresh, {
    ...generalColumns,
    cap: options.cap ?? Number.POSITIVE_INFINITY,
    breakdowns: options.breakdowns,
    window,
  });
}
