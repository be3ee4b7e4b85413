/**
 * What the playground page shows of a sheet: every cell of the used range (at least 40 rows by 12
 * columns) with the text Sheets would display for its value and number format, its formula, its
 * style and its error, plus the sheet tabs, the frozen rows, the active cell and the charts.
 */
import type { GasHost } from '../gas-host';
import type { CellValue } from '../gas-host';

export interface GridCell {
  /** Displayed text. */
  d: string;
  /** Raw value, for tests: numbers as numbers, dates as ISO text. */
  v: string | number | boolean;
  f?: string;
  bold?: boolean;
  bg?: string;
  err?: string;
  num?: boolean;
}

export interface GridSnapshot {
  sheet: string;
  sheets: string[];
  timeZone: string;
  rows: GridCell[][];
  frozenRows: number;
  active: string;
  charts: Array<{ type: string; ranges: string[]; title: string; row: number; column: number }>;
}

const MIN_ROWS = 40;
const MIN_COLUMNS = 12;

function columnName(column: number): string {
  let name = '';
  for (let c = column; c > 0; c = Math.floor((c - 1) / 26)) name = String.fromCharCode(65 + ((c - 1) % 26)) + name;
  return name;
}

function dateParts(date: Date, timeZone: string): Record<string, string> {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(date);
  return Object.fromEntries(parts.map((p) => [p.type, p.value]));
}

/** The text a cell shows, for the number formats the add-on writes. */
export function displayText(value: CellValue, format: string | undefined, timeZone: string): string {
  if (value instanceof Date || Object.prototype.toString.call(value) === '[object Date]') {
    const p = dateParts(value as Date, timeZone);
    if (format === 'yyyy-mm') return `${p.year}-${p.month}`;
    if (format && /hh/.test(format)) return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
    return `${p.year}-${p.month}-${p.day}`;
  }
  if (typeof value === 'number') {
    if (!format) return String(value);
    const decimals = /0\.(0+)/.exec(format)?.[1]?.length ?? 0;
    const grouped = format.includes('#,##0');
    const text = value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: grouped });
    const suffix = /"([^"]*)"\s*$/.exec(format)?.[1];
    return suffix === '%' ? `${text}%` : suffix ? `${text} ${suffix}` : text;
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return value === null || value === undefined ? '' : String(value);
}

export function gridOf(host: GasHost, sheetName?: string): GridSnapshot {
  const spreadsheet = host.state.spreadsheet;
  const sheet = (sheetName && spreadsheet.sheetByName(sheetName)) || spreadsheet.sheetById(spreadsheet.activeSheetId);
  const zone = spreadsheet.timeZone;
  const rows = Math.max(MIN_ROWS, spreadsheet.lastRow(sheet) + 5);
  const columns = Math.max(MIN_COLUMNS, spreadsheet.lastColumn(sheet) + 2);
  const grid: GridCell[][] = [];
  for (let r = 1; r <= rows; r++) {
    const row: GridCell[] = [];
    for (let c = 1; c <= columns; c++) {
      const record = spreadsheet.cell(sheet, r, c);
      if (!record) {
        row.push({ d: '', v: '' });
        continue;
      }
      const value = record.value;
      const cell: GridCell = {
        d: record.error ? (/^#/.test(String(value)) ? String(value) : '#ERROR!') : displayText(value, record.numberFormat, zone),
        v: value instanceof Date ? value.toISOString() : (value as string | number | boolean) ?? '',
      };
      if (record.formula) cell.f = record.formula;
      if (record.fontWeight === 'bold') cell.bold = true;
      if (record.background) cell.bg = record.background;
      if (record.error) cell.err = record.error;
      if (typeof value === 'number' || value instanceof Date) cell.num = true;
      row.push(cell);
    }
    grid.push(row);
  }
  const active = spreadsheet.activeRange && spreadsheet.activeRange.sheetId === sheet.id ? spreadsheet.activeRange : { row: 1, column: 1 };
  return {
    sheet: sheet.name,
    sheets: spreadsheet.sheets.map((s) => s.name),
    timeZone: zone,
    rows: grid,
    frozenRows: sheet.frozenRows,
    active: `${columnName(active.column)}${active.row}`,
    charts: sheet.charts.map((chart) => ({ type: chart.type, ranges: chart.ranges, title: String(chart.options?.title ?? ''), row: chart.position?.row ?? 1, column: chart.position?.column ?? 1 })),
  };
}
