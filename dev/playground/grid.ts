/**
 * What the playground page shows of a sheet, in two parts so that a sheet of any size opens at once:
 * the view (sheet tabs, the grid's size, the frozen rows, the active cell, the charts with the data
 * they draw) and blocks of rows the page asks for as they scroll into sight. A cell carries the text Sheets would display for
 * its value and number format, its formula, its style and its error.
 */
import type { CellValue, GasHost } from '../gas-host';

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

/** A row of cells from column A, null where a cell is empty, without the empty cells at its end. */
export type GridRow = Array<GridCell | null>;

export interface SheetView {
  sheet: string;
  /** The tabs: every sheet not hidden. */
  sheets: string[];
  timeZone: string;
  /** The grid's size, as Sheets draws it: every row and column of the sheet, empty ones too. */
  rowCount: number;
  columnCount: number;
  frozenRows: number;
  /** Rows 1 to frozenRows (at most MAX_FROZEN_ROWS), shown above the scrolling rows. */
  frozen: GridRow[];
  active: string;
  /** The active cell, for the formula bar wherever the cell is. */
  activeCell: GridCell | null;
  charts: ChartView[];
  /** A sheet connected to BigQuery (Open in Sheets): what it is connected to. */
  connectedTo?: string;
}

/** A chart as the page draws it: the first range's cells are the labels, each other range a series (its first cell the name). */
export interface ChartView {
  type: string;
  ranges: string[];
  title: string;
  /** The cell its top-left corner sits on. */
  row: number;
  column: number;
  widthPx: number;
  heightPx: number;
  labels: string[];
  /** `axis` 0 is the left axis, 1 the right one (the chart's `series` option, targetAxisIndex). */
  series: Array<{ name: string; axis: number; values: Array<number | null> }>;
  axisTitles: string[];
}

export interface RowBlock {
  sheet: string;
  /** Row number of rows[0]. */
  from: number;
  rows: GridRow[];
}

/** Rows one request may ask for: a few screens, so scrolling never waits on a large answer. */
const MAX_BLOCK_ROWS = 500;
const MAX_FROZEN_ROWS = 50;

function columnName(column: number): string {
  let name = '';
  for (let c = column; c > 0; c = Math.floor((c - 1) / 26)) name = String.fromCharCode(65 + ((c - 1) % 26)) + name;
  return name;
}

function dateParts(date: Date, timeZone: string): Record<string, string> {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  return Object.fromEntries(parts.map((p) => [p.type, p.value]));
}

/** The text a cell shows, for the number formats the add-on writes. */
export function displayText(value: CellValue, format: string | undefined, timeZone: string): string {
  if (value instanceof Date || Object.prototype.toString.call(value) === '[object Date]') {
    const p = dateParts(value as Date, timeZone);
    if (format === 'yyyy-mm') return `${p.year}-${p.month}`;
    // An append's snapshotAt keeps its seconds (yyyy-mm-dd hh:mm:ss): two runs in one minute differ.
    const seconds = format && /:ss/.test(format) ? `:${p.second}` : '';
    if (format && /hh/.test(format)) return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}${seconds}`;
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

type HostSheet = NonNullable<ReturnType<GasHost['state']['spreadsheet']['sheetByName']>>;

function sheetNamed(host: GasHost, sheetName: string | undefined): HostSheet {
  const state = host.state.spreadsheet;
  return (sheetName && state.sheetByName(sheetName)) || state.sheetById(state.activeSheetId);
}

function cellOf(host: GasHost, sheet: HostSheet, row: number, column: number): GridCell | null {
  const record = host.state.spreadsheet.cell(sheet, row, column);
  // A cell with nothing to show is sent as null: most of a sheet's grid is empty.
  if (!record || (record.value === '' && record.formula === undefined && !record.error && !record.background)) return null;
  const value = record.value;
  const cell: GridCell = {
    d: record.error
      ? /^#/.test(String(value))
        ? String(value)
        : '#ERROR!'
      : displayText(value, record.numberFormat, host.state.spreadsheet.timeZone),
    v: value instanceof Date ? value.toISOString() : ((value as string | number | boolean) ?? ''),
  };
  if (record.formula) cell.f = record.formula;
  if (record.fontWeight === 'bold') cell.bold = true;
  if (record.background) cell.bg = record.background;
  if (record.error) cell.err = record.error;
  if (typeof value === 'number' || value instanceof Date) cell.num = true;
  return cell;
}

function rowOf(host: GasHost, sheet: HostSheet, row: number): GridRow {
  const cells: GridRow = [];
  for (let c = 1; c <= sheet.maxColumns; c++) cells.push(cellOf(host, sheet, row, c));
  while (cells.length > 0 && cells[cells.length - 1] === null) cells.pop();
  return cells;
}

/** Rows `from` to `from + count - 1` of a sheet (the active one when no name is given), within its grid. */
export function rowsOf(host: GasHost, sheetName: string | undefined, from: number, count: number): RowBlock {
  const sheet = sheetNamed(host, sheetName);
  const first = Math.max(1, Math.floor(from));
  const last = Math.min(sheet.maxRows, first + Math.min(MAX_BLOCK_ROWS, Math.max(0, Math.floor(count))) - 1);
  const rows: GridRow[] = [];
  for (let r = first; r <= last; r++) rows.push(rowOf(host, sheet, r));
  return { sheet: sheet.name, from: first, rows };
}

/** The view of a sheet (the active one when no name is given); its rows come with rowsOf. */
export function sheetView(host: GasHost, sheetName?: string): SheetView {
  const state = host.state.spreadsheet;
  const sheet = sheetNamed(host, sheetName);
  const active = state.activeRange && state.activeRange.sheetId === sheet.id ? state.activeRange : { row: 1, column: 1 };
  const frozen: GridRow[] = [];
  for (let r = 1; r <= Math.min(sheet.frozenRows, MAX_FROZEN_ROWS, sheet.maxRows); r++) frozen.push(rowOf(host, sheet, r));
  return {
    sheet: sheet.name,
    // A hidden sheet (Refresh all keeps its refresh cell in one) has no tab, as in Sheets.
    sheets: state.sheets.filter((s) => !s.hidden).map((s) => s.name),
    timeZone: state.timeZone,
    rowCount: sheet.maxRows,
    columnCount: sheet.maxColumns,
    frozenRows: frozen.length,
    frozen,
    active: `${columnName(active.column)}${active.row}`,
    activeCell: cellOf(host, sheet, active.row, active.column),
    charts: sheet.charts.map((chart) => chartView(host, sheet, chart)),
    ...(sheet.dataSource ? { connectedTo: connectedTo(sheet.dataSource) } : {}),
  };
}

function connectedTo(spec: NonNullable<HostSheet['dataSource']>): string {
  return spec.rawQuery
    ? `a BigQuery query billed to ${spec.projectId}`
    : `the BigQuery table ${spec.tableProjectId}.${spec.datasetId}.${spec.tableId}`;
}

type HostChart = HostSheet['charts'][number];

/** What a chart shows: its ranges' values now (a chart follows its cells, as in Sheets), and its options. */
function chartView(host: GasHost, sheet: HostSheet, chart: HostChart): ChartView {
  const state = host.state.spreadsheet;
  const columns = chart.ranges.map((a1) => {
    try {
      return state.readValues(state.resolveRange(a1, sheet.id)).map((row) => row[0] ?? '');
    } catch {
      return [];
    }
  });
  const [domain = [], ...rest] = columns;
  const options = (chart.options ?? {}) as Record<string, unknown>;
  const seriesOptions = (options.series ?? {}) as Record<string, { targetAxisIndex?: number }>;
  const axes = (options.vAxes ?? {}) as Record<string, { title?: string }>;
  return {
    type: chart.type,
    ranges: chart.ranges,
    title: String(options.title ?? ''),
    row: chart.position?.row ?? 1,
    column: chart.position?.column ?? 1,
    widthPx: Number(options.width ?? 600),
    heightPx: Number(options.height ?? 371),
    // The first row of each range is its header; the rest are the points.
    labels: domain.slice(1).map((v) => displayText(v, 'yyyy-mm-dd', state.timeZone)),
    series: rest.map((values, i) => ({
      name: String(values[0] ?? ''),
      axis: Number(seriesOptions[String(i)]?.targetAxisIndex ?? 0),
      values: values.slice(1).map((v) => (typeof v === 'number' && Number.isFinite(v) ? v : null)),
    })),
    axisTitles: [0, 1].map((i) => String(axes[String(i)]?.title ?? '')),
  };
}
