/**
 * Append and upsert (write-modes.ts): how a run's rows meet the rows a saved report kept in its sheet.
 * The kept rows are read back from the sheet, so a merge works on sheet values: text as the cells
 * hold it, which is the API's text exactly (every string was written with a leading apostrophe,
 * sheets/sheet-output.ts), compared with the fetched rows' text as it is; days, hours and snapshot
 * times as the Dates the sheet holds. The whole block is written again the same way, and only once
 * every page of the run has arrived, so a failed page adds nothing and the kept rows stay.
 *
 * - Append: a first column snapshotAt (the run's time, a date-time the sheet shows on its clock),
 *   then the report's columns; each run's rows go below the earlier runs'. Past the cap whole
 *   snapshots go, oldest first; a run that alone brings more rows keeps its first ones, in the
 *   report's order.
 * - Upsert: a row's key is the report's breakdowns (an entity by its id, the publisher of several
 *   too) and its day, month or hour. A fetched row replaces the kept row of the same key; kept keys
 *   a run did not bring stay. With a day, month or hour, rows are ordered by it, then by the key,
 *   and the oldest go first past the cap. Without one (the external-ID reports, whose items carry
 *   no hour in the spec: each row sums the run's window), the keys a run did not bring come first,
 *   those unrefreshed longest at the top, then the run's rows in the report's order, and the top
 *   rows go first.
 * - Columns are never dropped from kept rows: a column the report no longer has stays, empty in
 *   later rows; a new one is added at the right, empty in earlier rows. Rows left blank in the sheet
 *   are not kept.
 */
import { isDate } from '../../util/dates';
import { ENTITY_BREAKDOWNS } from '../../spec';
import { PUBLISHER_BREAKDOWN } from '../../api/requests/publisher-list';
import { HOUR_COLUMNS } from '../../sheets/report-table';
import { numberFormatOf } from '../../sheets/sheet-output';
import type { Cell, ColumnKind, SheetBlock } from '../../ports';

/** The first column of an appended block: when the run that brought the row took place. */
export const SNAPSHOT_COLUMN = 'snapshotAt';
/** Columns that place a row in time: part of an upsert's key, and a row's age for the cap. */
const TIME_COLUMNS: ReadonlySet<string> = new Set(['day', 'month', ...HOUR_COLUMNS]);

export interface KeptRowsOptions {
  /** Data rows kept at most (Infinity: no cap). */
  cap: number;
  /** The report's breakdowns in column order (ReportQuery.breakdowns): the upsert key. */
  breakdowns: readonly string[];
  /** The kind and number format of a column only the kept rows have (the report no longer brings it). */
  kindOf(header: string): ColumnKind;
  formatOf(kind: ColumnKind): string | null;
}

/** Rows of an incremental report kept from the sheet: days from keepFromMs up to, not including, replaceFromMs. */
export interface DayWindow {
  keepFromMs: number;
  replaceFromMs: number;
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

export function cellKey(cell: Cell | undefined): string {
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

/** Data rows ordered by their time column, then by the other key columns. */
export function sortByKeys(rows: Cell[][], timeColumn: number, keys: readonly number[]): Cell[][] {
  const order = [timeColumn, ...keys.filter((k) => k !== timeColumn)];
  return rows.sort((x, y) => {
    for (const c of order) {
      const d = compareCells(x[c], y[c]);
      if (d !== 0) return d;
    }
    return 0;
  });
}

/** The columns of the written block, the kept rows and the run's rows, all in those columns. */
interface Aligned {
  header: string[];
  kinds: ColumnKind[];
  numberFormats: (string | null)[];
  headerNotes: string[];
  kept: Cell[][];
  fresh: Cell[][];
  /** The sheet held a header, and it is exactly the run's. */
  sameColumns: boolean;
}

/** The kept header followed by the run's columns it lacks; every row mapped onto it. */
function align(kept: Cell[][] | null, fresh: SheetBlock, options: KeptRowsOptions): Aligned {
  const freshHeader = (fresh.values[0] ?? []).map((h) => String(h));
  const keptHeader = (kept?.[0] ?? []).map((h) => (typeof h === 'string' ? h : String(h ?? '')));
  const keeps = keptHeader.some((h) => h !== '');
  const header = keeps ? [...keptHeader] : [];
  for (const h of freshHeader) if (!header.includes(h)) header.push(h);
  const from = header.map((h) => freshHeader.indexOf(h));
  const kinds = header.map((h, i) => (from[i]! >= 0 ? fresh.kinds[from[i]!]! : options.kindOf(h)));
  const keptRows = keeps
    ? kept!
        .slice(1)
        .filter((row) => row.some((cell) => cell !== ''))
        .map((row) => header.map((_, i) => (i < row.length ? row[i]! : '')))
    : [];
  return {
    header,
    kinds,
    numberFormats: header.map((_, i) => (from[i]! >= 0 ? (fresh.numberFormats[from[i]!] ?? null) : options.formatOf(kinds[i]!))),
    headerNotes: header.map((_, i) => (from[i]! >= 0 ? (fresh.headerNotes?.[from[i]!] ?? '') : '')),
    kept: keptRows,
    fresh: fresh.values.slice(1, 1 + fresh.dataRows).map((row) => from.map((j) => (j >= 0 ? (row[j] ?? '') : ''))),
    sameColumns: keeps && header.length === freshHeader.length && header.every((h, i) => h === freshHeader[i]),
  };
}

function blockOf(aligned: Aligned, rows: Cell[][]): SheetBlock {
  return {
    values: [aligned.header, ...rows],
    kinds: aligned.kinds,
    numberFormats: aligned.numberFormats,
    headerNotes: aligned.headerNotes,
    dataRows: rows.length,
    hasTotals: false,
  };
}

/** The run's block with its time in a first column snapshotAt, shown on the sheet's clock (`timeZone` names it in the note). */
export function stampSnapshot(fresh: SheetBlock, snapshotAtMs: number, timeZone: string): SheetBlock {
  const at = new Date(snapshotAtMs);
  const rows = fresh.values.slice(1, 1 + fresh.dataRows).map((row) => [at, ...row]);
  return {
    values: [[SNAPSHOT_COLUMN, ...(fresh.values[0] ?? [])], ...rows],
    kinds: ['dateTime', ...fresh.kinds],
    numberFormats: [numberFormatOf('dateTime'), ...fresh.numberFormats],
    headerNotes: [`When the run that brought these rows took place (${timeZone})`, ...(fresh.headerNotes ?? fresh.kinds.map(() => ''))],
    dataRows: rows.length,
    hasTotals: false,
  };
}

/** Append: the kept rows, then the run's (stamped with stampSnapshot), whole oldest snapshots going first past the cap. */
export function appendRows(kept: Cell[][] | null, stamped: SheetBlock, options: KeptRowsOptions): SheetBlock {
  const aligned = align(kept, stamped, options);
  const { cap } = options;
  if (aligned.fresh.length >= cap) return blockOf(aligned, aligned.fresh.slice(0, cap));
  const at = aligned.header.indexOf(SNAPSHOT_COLUMN);
  const rows = aligned.kept;
  let start = 0;
  while (rows.length - start + aligned.fresh.length > cap) {
    const snapshot = cellKey(rows[start]![at]);
    while (start < rows.length && cellKey(rows[start]![at]) === snapshot) start++;
  }
  return blockOf(aligned, [...rows.slice(start), ...aligned.fresh]);
}

/**
 * Upsert: the run's rows merged into the kept ones by key. With `window` (an incremental report, which
 * fetched only its recent days) kept rows outside it go, and null says the kept rows cannot be merged
 * (other columns, no day column, a day that is no date: not this report's block any more): the
 * caller then fetches the whole period.
 */
export function upsertRows(kept: Cell[][] | null, fresh: SheetBlock, options: KeptRowsOptions & { window?: DayWindow }): SheetBlock | null {
  if (fresh.hasTotals) return null;
  const aligned = align(kept, fresh, options);
  if (options.window && !aligned.sameColumns) return null;
  const { header } = aligned;
  const time = header.findIndex((h) => TIME_COLUMNS.has(h));
  const keys = keyColumns(header, options.breakdowns);
  if (time >= 0 && !keys.includes(time)) keys.push(time);
  let keptRows = aligned.kept;
  const { window } = options;
  if (window) {
    if (header[time] !== 'day') return null;
    if (keptRows.some((row) => !isDate(row[time]))) return null;
    keptRows = keptRows.filter((row) => {
      const ms = (row[time] as Date).getTime();
      return ms >= window.keepFromMs && ms < window.replaceFromMs;
    });
  }
  const keyOf = (row: Cell[]) => keys.map((k) => cellKey(row[k])).join('|');
  // A key fetched again replaces its kept row.
  const fetched = new Set(aligned.fresh.map(keyOf));
  const stay = keptRows.filter((row) => !fetched.has(keyOf(row)));
  const { cap } = options;
  if (time >= 0) {
    const rows = sortByKeys([...stay, ...aligned.fresh], time, keys);
    return blockOf(aligned, rows.length > cap ? rows.slice(rows.length - cap) : rows);
  }
  if (aligned.fresh.length >= cap) return blockOf(aligned, aligned.fresh.slice(0, cap));
  return blockOf(aligned, [...stay.slice(Math.max(0, stay.length - (cap - aligned.fresh.length))), ...aligned.fresh]);
}
