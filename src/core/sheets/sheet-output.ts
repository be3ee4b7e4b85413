/**
 * How a fetched report becomes a block of cells: the values (header, rows, optional totals) as the
 * cells are to hold them, a number format for each column, and a note on each metric's header cell;
 * and how those values are given to setValues so that the cells hold exactly them.
 *
 * Text stays text: setValues reads a string as Sheets reads typed text (the Sheets API's USER_ENTERED),
 * so in real Sheets `1/2`, `March 2024`, `12:30`, `$5`, `(7)`, `50%` or `1 1/2` would become dates,
 * times or numbers, `TRUE` a boolean and `=1+2` a formula; which strings turn, and how, depends on the
 * spreadsheet's locale. No pattern can know them all, so every string is written with a leading
 * apostrophe, the documented typed-input rule that keeps the rest as text (and not part of the value),
 * whatever it looks like: API text lands as text, `=HYPERLINK(...)` never runs, "00123" keeps its zeros.
 * Numbers, booleans and dates are written as such. What Sheets does with an apostrophe in a cell of
 * plain-text format (`@`) is not documented, so a block's cells are given a number format first
 * (WRITE_NUMBER_FORMAT): the apostrophe then always meets the documented rule. This happens here
 * and only here (asTypedInput); the writers in src/gas call it. Formats are per column, so writing
 * costs a constant number of spreadsheet calls whatever the number of rows.
 */
import { ValidationError } from '../errors';
import { formatCount } from '../util/text';
import type { ReportResult } from '../api/paging/paging';
import { metricNote } from '../api/requests/report-metrics';
import { reportResultToTable, tableToValues } from './report-table';
import type { BlockPlacement, Cell, CellsFound, ColumnKind, SheetBlock, WrittenBlock } from '../ports';
import { COUNT_METRICS, MONEY_METRICS } from '../spec';

export interface SheetBlockOptions {
  /** IANA zone of the spreadsheet: day and month cells show that calendar day there. */
  timeZone: string;
  /** Currency the money columns are in (the report's currencyCode; USD by default). */
  currencyCode?: string;
  /** Decimal places of money columns (the report's decDigits; 2 by default). */
  decDigits?: number;
  totals?: boolean;
}

/** The kind of a column from its header name. */
export function columnKind(header: string): ColumnKind {
  if (header === 'day') return 'day';
  if (header === 'month') return 'month';
  // The hourly reports' hour columns are headed with their zone (report-table.ts: 'hour (UTC)').
  if (header === 'hour' || header === 'dateHour' || header === 'hour (UTC)' || header === 'dateHour (UTC)') return 'hour';
  if (MONEY_METRICS.has(header)) return 'money';
  if (COUNT_METRICS.has(header)) return 'count';
  // Every other metric is a percentage or a ratio.
  if (/Ctr|Rate/.test(header)) return 'percent';
  return 'text';
}

/** Sheets number format of a column kind. Percent metrics arrive already multiplied by 100. */
export function numberFormatOf(kind: ColumnKind, currencyCode = 'USD', decDigits = 2): string | null {
  const decimals = decDigits > 0 ? `.${'0'.repeat(decDigits)}` : '';
  switch (kind) {
    case 'day':
      return 'yyyy-mm-dd';
    case 'month':
      return 'yyyy-mm';
    case 'hour':
      return 'yyyy-mm-dd hh:mm';
    case 'dateTime':
      return 'yyyy-mm-dd hh:mm:ss';
    case 'money':
      return `#,##0${decimals} "${currencyCode.replace(/"/g, '')}"`;
    case 'count':
      return '#,##0';
    case 'percent':
      return '0.00"%"';
    case 'text':
      return null;
  }
}

/**
 * A number as a cell of this number format shows it, for the formats numberFormatOf gives numbers:
 * "#,##0.00 \"USD\"" shows 386.9 as "386.90 USD", "0.00\"%\"" 0.6543 as "0.65%", "#,##0" 1234 as
 * "1,234". The sidebar's preview of a run shows its rows with the formats the sheet got. A format
 * outside that set (or none) shows the number plainly, up to 4 decimals.
 */
export function formatNumberAs(value: number, format: string | null | undefined): string {
  const parts = format ? /^([#,]*0)(?:\.(0+))?((?:\s*"[^"]*")*)$/.exec(format) : null;
  if (!parts) return value.toLocaleString('en-US', { maximumFractionDigits: 4 });
  const decimals = parts[2]?.length ?? 0;
  const shown = value.toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: parts[1]!.includes(','),
  });
  return `${shown}${parts[3]!.replace(/"/g, '')}`;
}

/**
 * The number format a block's cells get before its values are written: not plain text (`@`), so a
 * leading apostrophe keeps the text by the documented rule. It is what Apps Script reports for a cell
 * of Sheets' automatic format, and shows numbers as that format does; data columns get theirs after.
 */
export const WRITE_NUMBER_FORMAT = '0.###############';

/** Text as setValues must receive it to store exactly this text: every non-empty string prefixed with an apostrophe. */
export function neutraliseText(text: string): string {
  return text === '' ? '' : `'${text}`;
}

/** Values as setValues must receive them for the cells to hold exactly these values: strings neutralised, the rest as it is. */
export function asTypedInput(values: readonly (readonly Cell[])[]): Cell[][] {
  return values.map((row) => row.map((cell) => (typeof cell === 'string' ? neutraliseText(cell) : cell)));
}

/** The block of cells for a fetched report. */
export function reportToSheetBlock(result: ReportResult, options: SheetBlockOptions): SheetBlock {
  const table = reportResultToTable(result, { timeZone: options.timeZone, totals: options.totals !== false });
  const values = tableToValues(table);
  const kinds = table.header.map(columnKind);
  // Headers stay the API's names (as a formula's, stable for lookups); the note says it in words.
  const headerNotes = table.header.map(metricNote);
  return {
    values,
    kinds,
    headerNotes,
    numberFormats: kinds.map((k) => numberFormatOf(k, options.currencyCode, options.decDigits)),
    dataRows: table.rows.length,
    hasTotals: Boolean(table.totals),
  };
}

/**
 * Cells a spreadsheet may hold, counted as every sheet's grid (rows times columns, empty cells too).
 * The platform notes give 10 million as an UNCONFIRMED official figure; the Sheets API refuses more
 * ("This action would increase the number of cells in the workbook above the limit of 10000000 cells").
 */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;
/** A sheet Sheets inserts has 1,000 rows. */
export const NEW_SHEET_ROWS = 1000;
/**
 * A new Google Sheet has 26 columns, A to Z, and Sheets adds none for a formula's result: the width
 * the default metrics, the dashboard and the picker's warning keep to.
 */
export const NEW_SHEET_COLUMNS = 26;

export interface GridSize {
  rows: number;
  columns: number;
}

/**
 * Cells the spreadsheet gains when a block of `rows` x `columns` is written at `placement`: the sheet's
 * grid grows to hold it, and a sheet that does not exist yet is inserted first (`sheet` null).
 */
export function cellsAdded(placement: BlockPlacement, rows: number, columns: number, sheet: GridSize | null): number {
  const grid = sheet ?? { rows: NEW_SHEET_ROWS, columns: NEW_SHEET_COLUMNS };
  const grown = Math.max(grid.rows, placement.row + rows - 1) * Math.max(grid.columns, placement.column + columns - 1);
  return grown - (sheet ? sheet.rows * sheet.columns : 0);
}

/**
 * Refuses, before anything is written, a block the spreadsheet has no room for: one sentence with the
 * cells it needs and the cells left.
 */
export function checkCellRoom(cellsInUse: number, cellsNeeded: number): void {
  const left = Math.max(0, SPREADSHEET_CELL_LIMIT - cellsInUse);
  if (cellsNeeded <= left) return;
  throw ValidationError.single(
    'target',
    `the report needs ${formatCount(cellsNeeded)} more cells, but this spreadsheet has only ${formatCount(left)} left ` +
      `of the ${formatCount(SPREADSHEET_CELL_LIMIT)} a Google spreadsheet holds: delete sheets, rows or columns you do not need, or ask for fewer rows`,
  );
}

/**
 * The cells holding a value or a formula among `values` and `formulas` (as read from the top-left of
 * `area`, the same size), outside `except`, with the smallest rectangle around them; null when none.
 */
export function cellsFound(values: unknown[][], formulas: string[][], area: WrittenBlock, except?: WrittenBlock): CellsFound | null {
  const inside = (r: number, c: number) =>
    !!except &&
    except.sheetName === area.sheetName &&
    r >= except.row &&
    r < except.row + except.rows &&
    c >= except.column &&
    c < except.column + except.columns;
  let count = 0;
  let top = Infinity;
  let bottom = -1;
  let left = Infinity;
  let right = -1;
  for (let r = 0; r < values.length; r++) {
    for (let c = 0; c < values[r]!.length; c++) {
      if (values[r]![c] === '' && formulas[r]![c] === '') continue;
      if (inside(area.row + r, area.column + c)) continue;
      count++;
      top = Math.min(top, r);
      bottom = Math.max(bottom, r);
      left = Math.min(left, c);
      right = Math.max(right, c);
    }
  }
  if (count === 0) return null;
  const box = {
    sheetName: area.sheetName,
    row: area.row + top,
    column: area.column + left,
    rows: bottom - top + 1,
    columns: right - left + 1,
  };
  return { count, box };
}
