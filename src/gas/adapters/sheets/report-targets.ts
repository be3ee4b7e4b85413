/**
 * Where the report builder's output goes in the spreadsheet: the placement of "Run to sheet" (a new
 * sheet, an existing sheet at A1, or the active cell), the active cell for "Insert formula", and the
 * native chart of revenue and RPM by day placed beside a written block.
 */
import {
  type BlockPlacement,
  cellPosition,
  cellReference,
  checkRunTarget,
  isCompareFormula,
  isDate,
  MAIN_BREAKDOWNS,
  PUBLISHER_BREAKDOWN,
  quoted,
  type RunPlacement,
  ValidationError,
  type WrittenBlock,
} from '../../../core';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** The cell the user has selected (the current cell, else the top-left of the active range). */
function selectedCell(ss: Spreadsheet): GoogleAppsScript.Spreadsheet.Range {
  const cell = ss.getCurrentCell() ?? ss.getActiveRange();
  if (!cell) throw ValidationError.single('target', 'no cell is selected: click a cell first');
  return cell;
}

/** The name the server gives a new sheet when none is typed. */
const NEW_SHEET_NAME = 'Engage report';

export function resolvePlacement(ss: Spreadsheet, target: unknown): RunPlacement {
  const t = checkRunTarget(target);
  switch (t.type) {
    case 'newSheet': {
      // The name only: the writer inserts the sheet once every page has arrived, so a failed run
      // leaves no empty sheet behind. A name already taken is the core's question (run-placement.ts).
      return { sheetName: (t.sheetName ?? '').trim() || NEW_SHEET_NAME, row: 1, column: 1, newSheet: true };
    }
    case 'existingSheet': {
      const name = t.sheetName;
      if (!ss.getSheetByName(name))
        throw ValidationError.single('target', `the sheet ${quoted(name)} does not exist any more: pick another one`);
      const at = cellPosition(t.cell ?? 'A1')!;
      return { sheetName: name, row: at.row, column: at.column };
    }
    case 'activeCell': {
      const cell = selectedCell(ss);
      return { sheetName: cell.getSheet().getName(), row: cell.getRow(), column: cell.getColumn() };
    }
  }
}

/**
 * The active cell's formula when it is ENGAGE_COMPARE's, and how many columns its result shows on the
 * formula's row (up to the first empty cell): where ENGAGE_EXPLAIN goes beside it.
 */
function comparisonFormula(cell: GoogleAppsScript.Spreadsheet.Range): { formula: string; columns: number } | undefined {
  const formula = cell.getFormula();
  if (!isCompareFormula(formula)) return undefined;
  const sheet = cell.getSheet();
  const width = sheet.getMaxColumns() - cell.getColumn() + 1;
  const row = sheet.getRange(cell.getRow(), cell.getColumn(), 1, width).getValues()[0] ?? [];
  const empty = row.findIndex((value, c) => c > 0 && value === '');
  return { formula, columns: empty < 0 ? width : empty };
}

/**
 * Sheet names and the active cell, for the target picker; `at` is the active cell's place, when there
 * is one, and `comparison` its ENGAGE_COMPARE formula, when it holds one.
 */
export function sheetContext(ss: Spreadsheet): {
  sheets: string[];
  activeCell: string;
  at?: BlockPlacement;
  comparison?: { formula: string; columns: number };
} {
  const cell = ss.getCurrentCell() ?? ss.getActiveRange();
  const sheets = ss
    .getSheets()
    .filter((s) => !s.isSheetHidden?.())
    .map((s) => s.getName());
  if (!cell) return { sheets, activeCell: '' };
  const sheetName = cell.getSheet().getName();
  const comparison = comparisonFormula(cell);
  return {
    sheets,
    activeCell: cellReference(sheetName, cell.getA1Notation()),
    at: { sheetName, row: cell.getRow(), column: cell.getColumn() },
    ...(comparison ? { comparison } : {}),
  };
}

/**
 * Where Insert formula writes: the cell `at` names ({sheetName, cell}: ENGAGE_EXPLAIN beside the
 * comparison it explains), else the selected cell.
 */
export function formulaCell(ss: Spreadsheet, at?: unknown): GoogleAppsScript.Spreadsheet.Range {
  if (at === undefined || at === null) return selectedCell(ss);
  const a = (typeof at === 'object' ? at : {}) as Record<string, unknown>;
  const sheet = typeof a.sheetName === 'string' ? ss.getSheetByName(a.sheetName) : null;
  const position = typeof a.cell === 'string' ? cellPosition(a.cell) : undefined;
  if (!sheet || !position)
    throw ValidationError.single('target', 'the cell beside the comparison is not there any more: select the comparison again');
  return sheet.getRange(position.row, position.column);
}

/** Insert formula's cell as a place. */
export function placementOf(cell: GoogleAppsScript.Spreadsheet.Range): BlockPlacement {
  return { sheetName: cell.getSheet().getName(), row: cell.getRow(), column: cell.getColumn() };
}

/**
 * Writes a formula into `cell` (formulaCell's), after adding the columns its result of `columns`
 * columns needs (Sheets adds rows for a formula's result, never columns); returns where, and how many
 * columns were added. `beforeWrite` runs once the cell is known (creating the refresh cell the formula
 * takes, which inserts a sheet and so moves the selection): the formula still goes to `cell`, and the
 * cell the user had selected is selected again. `clear`: cells the user agreed to replace (the core's
 * question, run-placement.ts), emptied first so that the result can fill them.
 */
export function writeFormulaAtCell(
  ss: Spreadsheet,
  cell: GoogleAppsScript.Spreadsheet.Range,
  formula: string,
  columns: number,
  beforeWrite?: () => void,
  clear?: WrittenBlock,
): { cell: string; columnsAdded: number } {
  const selected = selectedCell(ss);
  const sheet = cell.getSheet();
  // The cells the user agreed to replace, so that the result can fill them.
  if (clear) sheet.getRange(clear.row, clear.column, clear.rows, clear.columns).clearContent();
  if (beforeWrite) {
    beforeWrite();
    const now = ss.getCurrentCell();
    const same = (a: GoogleAppsScript.Spreadsheet.Range, b: GoogleAppsScript.Spreadsheet.Range) =>
      a.getSheet().getName() === b.getSheet().getName() && a.getRow() === b.getRow() && a.getColumn() === b.getColumn();
    if (!now || !same(now, selected)) selected.activate();
  }
  const missing = cell.getColumn() + columns - 1 - sheet.getMaxColumns();
  if (missing > 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), missing);
  const one = sheet.getRange(cell.getRow(), cell.getColumn());
  one.setFormula(formula);
  return { cell: cellReference(sheet.getName(), one.getA1Notation()), columnsAdded: Math.max(0, missing) };
}

/** Why the chart cannot be drawn, as the sentence the user reads: the argument (`block`) is the sidebar's, never named. */
function chartProblem(sentence: string): ValidationError {
  return new ValidationError([{ argument: 'block', message: sentence }]);
}

/**
 * A line chart of revenue (left axis) and RPM (right axis) by day, anchored one column right of the
 * block. Only a block whose one breakdown is the day makes a readable daily line.
 */
export function addRevenueChart(ss: Spreadsheet, block: unknown): { chartTitle: string } {
  const b = (block && typeof block === 'object' ? block : {}) as Partial<WrittenBlock>;
  const sheet = typeof b.sheetName === 'string' ? ss.getSheetByName(b.sheetName) : null;
  if (!sheet) throw chartProblem('Run a report to the sheet first: the chart is drawn from its data.');
  const whole = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1;
  if (!whole(b.row) || !whole(b.column) || !whole(b.rows) || !whole(b.columns)) {
    throw chartProblem('The report written earlier is not where it was: run the report to the sheet again.');
  }
  const { row, column, rows, columns } = b as WrittenBlock;
  if (row + rows - 1 > sheet.getMaxRows() || column + columns - 1 > sheet.getMaxColumns()) {
    throw chartProblem(`The report no longer fits inside the sheet ${quoted(sheet.getName())}: run the report to the sheet again.`);
  }
  const header = sheet.getRange(row, column, 1, columns).getValues()[0]!.map(String);
  if (header.includes('day.previous') || header.includes('month.previous') || header.some((h) => h.endsWith('.change%'))) {
    throw chartProblem('The chart draws a plain report, and this one compares two periods: run it without "Compare with" for a chart.');
  }
  const dayColumn = header.indexOf('day');
  const revenueColumn = header.indexOf('revenue');
  const rpmColumn = header.includes('rpmByPvs') ? header.indexOf('rpmByPvs') : header.indexOf('reqsRpm');
  if (dayColumn < 0) {
    throw chartProblem(
      'The chart needs a general report broken down by day, with revenue and RPM: choose the day breakdown and run it again.',
    );
  }
  if (revenueColumn < 0 || rpmColumn < 0) {
    const missing = revenueColumn < 0 ? 'Revenue' : 'RPM';
    throw chartProblem(
      `The chart draws revenue and RPM, and this report has no ${missing} column: choose the Revenue and RPM metrics and run it again.`,
    );
  }
  // A report of several publishers starts with the publisher's columns: one line per day would mix them.
  const otherBreakdowns = [...MAIN_BREAKDOWNS.filter((b) => b !== 'day'), PUBLISHER_BREAKDOWN];
  const others = header.filter(
    (h, i) => i !== dayColumn && otherBreakdowns.some((k) => h === k || h.startsWith(`${k} `) || h.startsWith(`${k}.`)),
  );
  if (others.length > 0) {
    throw chartProblem(
      `The chart draws one line per day, but this report is also broken down by ${others[0]}: run it with the day breakdown alone.`,
    );
  }
  // Data rows are the ones whose day cell holds a date (the totals row does not).
  const days = sheet.getRange(row + 1, column + dayColumn, Math.max(1, rows - 1), 1).getValues();
  let dataRows = 0;
  while (dataRows < days.length && isDate(days[dataRows]![0])) dataRows++;
  if (dataRows === 0) throw chartProblem('The report has no daily rows to draw.');
  const columnRange = (offset: number) => sheet.getRange(row, column + offset, dataRows + 1, 1);
  const title = 'Revenue and RPM by day';
  const chart = sheet
    .newChart()
    .asLineChart()
    .addRange(columnRange(dayColumn))
    .addRange(columnRange(revenueColumn))
    .addRange(columnRange(rpmColumn))
    .setPosition(row, column + columns + 1, 0, 0)
    .setOption('title', title)
    .setOption('series', { 0: { targetAxisIndex: 0 }, 1: { targetAxisIndex: 1 } })
    .setOption('vAxes', { 0: { title: 'Revenue' }, 1: { title: 'RPM' } })
    .build();
  sheet.insertChart(chart);
  return { chartTitle: title };
}
