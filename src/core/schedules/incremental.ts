/**
 * Incremental refresh of a daily general report: instead of downloading the whole range again, fetch
 * only the days since the last refresh plus the 3 before them (the current day is partial and data
 * arrives 2 to 4 hours late, so recent days still change), then merge with the rows already in the
 * sheet by day and breakdown keys: refetched days replace their old rows, days that left a moving
 * window are dropped. Rows of an incremental report are ordered by day, then by the breakdown keys,
 * whether fetched in full or merged, so both ways give the same sheet.
 *
 * The previous rows are read back from the sheet, so a merge works on sheet values: text as the cells
 * hold it, which is the API's text exactly (every string was written with a leading apostrophe,
 * sheets/sheet-output.ts), compared with the fetched rows' text as it is, and days as the Dates the
 * sheet holds. The merged rows are written the same way again.
 */
import { dayAfter, isDate } from '../util/dates';
import { periodStartMs } from '../sheets/report-table';
import { ENTITY_BREAKDOWNS } from '../spec';
import { PUBLISHER_BREAKDOWN } from '../api/publisher-list';
import type { SheetBlock, Cell } from '../ports';
import { resolvePeriod, type Period } from './period';

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

/**
 * Columns that identify a row: the day and each breakdown's key (an entity's id, else its value; the
 * publisher of a report of several publishers is an entity too).
 */
export function keyColumns(header: readonly Cell[], breakdowns: readonly string[]): number[] {
  const columns: number[] = [];
  for (const b of breakdowns) {
    const names = ENTITY_BREAKDOWNS.has(b) || b === PUBLISHER_BREAKDOWN ? [`${b}.id`, b] : [b];
    const index = names.map((n) => header.indexOf(n)).find((i) => i >= 0);
    if (index !== undefined) columns.push(index);
  }
  return columns;
}

function cellKey(cell: Cell | undefined): string {
  if (isDate(cell)) return `d${cell.getTime()}`;
  return `${typeof cell}:${String(cell ?? '')}`;
}

function compareCells(a: Cell | undefined, b: Cell | undefined): number {
  if (isDate(a) && isDate(b)) return a.getTime() - b.getTime();
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a ?? '');
  const sb = String(b ?? '');
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Data rows ordered by day, then by the other key columns: the order of every incremental report. */
export function sortByKeys(rows: Cell[][], dayColumn: number, keys: readonly number[]): Cell[][] {
  const order = [dayColumn, ...keys.filter((k) => k !== dayColumn)];
  return rows.sort((x, y) => {
    for (const c of order) {
      const d = compareCells(x[c], y[c]);
      if (d !== 0) return d;
    }
    return 0;
  });
}

export interface MergeOptions {
  breakdowns: readonly string[];
  timeZone: string;
  /** Old rows of this day (yyyyMMdd) and later are replaced by the fetched ones. */
  replaceFrom: string;
  /** Old rows before this day left the period and are dropped. */
  keepFrom: string;
}

/**
 * The merged block, or null when the old values cannot be merged with the new block (another header,
 * no day column): the caller then fetches the whole period.
 */
export function mergeIncremental(previous: Cell[][], fresh: SheetBlock, options: MergeOptions): SheetBlock | null {
  const header = fresh.values[0];
  const oldHeader = previous[0];
  if (!header || !oldHeader || fresh.hasTotals) return null;
  if (oldHeader.length !== header.length || oldHeader.some((h, i) => h !== header[i])) return null;
  const dayColumn = header.indexOf('day');
  if (dayColumn < 0) return null;
  const replaceFromMs = periodStartMs('day', options.replaceFrom, options.timeZone);
  const keepFromMs = periodStartMs('day', options.keepFrom, options.timeZone);
  if (replaceFromMs === null || keepFromMs === null) return null;
  const keys = keyColumns(header, options.breakdowns);
  const kept: Cell[][] = [];
  for (const row of previous.slice(1)) {
    const day = row[dayColumn];
    if (!isDate(day)) return null; // not our data any more
    const ms = day.getTime();
    if (ms >= keepFromMs && ms < replaceFromMs) kept.push(row);
  }
  const fetched = fresh.values.slice(1);
  // A key fetched again wins over a kept row of the same key (cannot happen for clean data, but a sheet may have been edited).
  const fetchedKeys = new Set(fetched.map((row) => keys.map((k) => cellKey(row[k])).join('|')));
  const rows = [...kept.filter((row) => !fetchedKeys.has(keys.map((k) => cellKey(row[k])).join('|'))), ...fetched];
  sortByKeys(rows, dayColumn, keys);
  return { ...fresh, values: [header, ...rows], dataRows: rows.length };
}

/** A freshly fetched block of an incremental report in its canonical order (by day and keys). */
export function orderIncrementalBlock(block: SheetBlock, breakdowns: readonly string[]): SheetBlock {
  const header = block.values[0];
  if (!header) return block;
  const dayColumn = header.indexOf('day');
  if (dayColumn < 0) return block;
  const rows = block.values.slice(1, 1 + block.dataRows);
  sortByKeys(rows, dayColumn, keyColumns(header, breakdowns));
  return { ...block, values: [header, ...rows, ...block.values.slice(1 + block.dataRows)] };
}
