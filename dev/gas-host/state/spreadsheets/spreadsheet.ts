/**
 * The in-memory spreadsheet: its sheets and their grids within the 10,000,000-cell cap, cells with
 * values, formulas, formats and notes, named ranges, the active sheet and selection, and the formula
 * bookkeeping the host needs to recalculate (which formula cells are dirty, where array results
 * spilled). Input is interpreted as Sheets interprets typed text, in one of two readings (typed-input.ts).
 * spreadsheet-ops.ts serves it to scripts.
 */
import { formatA1, parseA1, resolveA1, type GridBox } from '../../cells/a1-notation';
import {
  type CellValue,
  type ChartRecord,
  type ChartSpec,
  type ClearScope,
  type DataExecutionPlan,
  type DataExecutionRecord,
  type DataSourceSpecRecord,
  type DeveloperMetadataRecord,
  type FindQuery,
  GasException,
  type RangeDescriptor,
} from '../../protocol/protocol';
import { type HostLocale, readAsTyped, readKindly } from '../../cells/typed-input';
import type { ReadingWitness } from '../../protocol/strict';

export interface CellRecord {
  value: CellValue;
  formula?: string;
  numberFormat?: string;
  fontWeight?: string;
  background?: string;
  note?: string;
  /** Key of the formula cell whose array result spilled here. */
  spillOf?: string;
  /** The message of a formula that failed (#ERROR!, #NAME?, #REF!). */
  error?: string;
  /** A formula whose text or referenced cells changed since its last evaluation. */
  dirty?: boolean;
  /** A custom function that may not run (a volatile argument): the cell shows "Loading..." for good. */
  loading?: boolean;
}

export interface SheetModel {
  id: number;
  name: string;
  cells: Map<string, CellRecord>;
  maxRows: number;
  maxColumns: number;
  frozenRows: number;
  frozenColumns: number;
  charts: ChartRecord[];
  /** hideSheet(): hidden from the tab bar, still readable and writable. */
  hidden?: boolean;
  /** A data source sheet (Connected Sheets, insertDataSourceSheet): the spec it is connected to. */
  dataSource?: DataSourceSpecRecord;
  /** A data source sheet's data execution, started when it was inserted. */
  dataExecution?: DataExecutionRecord;
}

/** A custom function's result as the cell takes it: a grid of values, or an error with its code. */
export interface FormulaOutcome {
  values?: CellValue[][];
  error?: string;
  errorCode?: string;
  /** The function never ran and never will: the cell shows LOADING_TEXT. */
  loading?: boolean;
}

/**
 * What a cell shows while its custom function has not returned, and for good when the function may
 * not run: Google's guide, "Custom functions in Google Sheets": built-in functions "that return a
 * different result each time they calculate — such as NOW() or RAND() — are not allowed as arguments
 * to a custom function. If a custom function tries to return a value based on one of these volatile
 * built-in functions, it will display Loading... indefinitely."
 */
export const LOADING_TEXT = 'Loading...';

/**
 * Cells a spreadsheet may hold, counted as every sheet's grid (rows times columns, empty cells too).
 * The platform notes give 10 million as an UNCONFIRMED official figure; the Sheets API refuses more
 * with the message below, seen in public issue threads (Apps Script's own wording is UNCONFIRMED).
 */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;
export const CELL_LIMIT_MESSAGE = `This action would increase the number of cells in the workbook above the limit of ${SPREADSHEET_CELL_LIMIT} cells.`;
/** A sheet a script or a user inserts has 1,000 rows and 26 columns (A to Z). */
export const NEW_SHEET_ROWS = 1000;
export const NEW_SHEET_COLUMNS = 26;
export const DEFAULT_NUMBER_FORMAT = '0.###############';

export function cellKey(row: number, column: number): string {
  return `${row}:${column}`;
}

export function cloneValue(value: CellValue): CellValue {
  return value instanceof Date ? new Date(value.getTime()) : value;
}

/** Normalises a value coming from a script (possibly another realm) into a cell value. */
export function toCellValue(value: unknown): CellValue {
  if (value === null || value === undefined) return '';
  if (Object.prototype.toString.call(value) === '[object Date]') return new Date((value as Date).getTime());
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return String(value);
}

export interface SpreadsheetShape {
  sheetNames: string[];
  /** The grid of the initial sheets. */
  maxRows: number;
  maxColumns: number;
  timeZone: string;
  /** The spreadsheet's locale (getSpreadsheetLocale): the rules text is read by in the strict reading. */
  locale: HostLocale;
  /** The strict switch `textParsedAsTyped`: strings are read as Sheets reads typed text (typed-input.ts). */
  textParsedAsTyped: boolean;
  /** Told when text written would be read differently under the other reading of `textParsedAsTyped`. */
  readings?: ReadingWitness;
  /** The host's clock: a date typed without its year is in the current one. */
  now: () => number;
  /** Undefined: Connected Sheets allowed; else the words insertDataSourceSheet throws. */
  connectedSheetsRefusal?: string | undefined;
  /** How the data execution of a data source sheet inserted from now on goes. */
  dataExecutionPlan: DataExecutionPlan;
}

export class SpreadsheetModel {
  readonly sheets: SheetModel[] = [];
  readonly namedRanges = new Map<string, RangeDescriptor>();
  /** Developer metadata of the spreadsheet itself: it stays when a sheet is deleted (a sheet's own would go with it). */
  readonly developerMetadata: DeveloperMetadataRecord[] = [];
  timeZone: string;
  readonly locale: HostLocale;
  private readonly textParsedAsTyped: boolean;
  private readonly readings: ReadingWitness | undefined;
  private readonly now: () => number;
  activeSheetId: number;
  /**
   * Undefined: the account allows Connected Sheets. Else the words insertDataSourceSheet throws: the
   * account or its domain does not allow it (the host's `connectedSheets` option; tests may change it).
   */
  connectedSheetsRefusal: string | undefined;
  /**
   * How the data execution of each data source sheet inserted from now on goes: how long it runs and
   * whether it ends in SUCCESS or ERROR with which code (the host's `dataExecution` option; tests may change it).
   */
  dataExecutionPlan: DataExecutionPlan;
  /** The selected cell or range of the active sheet (A1 until a user or script selects another). */
  activeRange: RangeDescriptor | undefined;
  private nextSheetId = 0;
  private nextChartId = 1;
  private nextMetadataId = 1;
  /** Every cell holding a formula, with its sheet: a write marks dependents dirty without scanning every cell. */
  private readonly formulaCells = new Map<CellRecord, SheetModel>();
  /**
   * Each sheet's spills, by anchor key: the keys its result was written to. Clearing a spill reads
   * these, not every cell of the sheet (a sheet of hundreds of formulas has tens of thousands of
   * cells). A key may be stale: a cell counts only while its record's spillOf still names the anchor.
   * Built from the cells when first needed, and again after rows or columns are deleted.
   */
  private readonly spills = new WeakMap<SheetModel, Map<string, Set<string>>>();
  private readonly initialGrid: { rows: number; columns: number };
  private dayFormat: { timeZone: string; format: Intl.DateTimeFormat } | undefined;

  constructor(shape: SpreadsheetShape) {
    this.connectedSheetsRefusal = shape.connectedSheetsRefusal;
    this.dataExecutionPlan = shape.dataExecutionPlan;
    this.timeZone = shape.timeZone;
    this.locale = shape.locale;
    this.textParsedAsTyped = shape.textParsedAsTyped;
    this.readings = shape.readings;
    this.now = shape.now;
    this.initialGrid = { rows: shape.maxRows, columns: shape.maxColumns };
    for (const name of shape.sheetNames) this.addSheet(name);
    this.activeSheetId = this.sheets[0]!.id;
  }

  // ---------------------------------------------------------------- sheets and the cell cap

  /** Starts the data execution of data source sheet `sheet` now, as the current plan says. */
  startDataExecution(sheet: SheetModel): void {
    const { durationMs, outcome } = this.dataExecutionPlan;
    sheet.dataExecution = { startedAtMs: this.now(), durationMs, outcome: { ...outcome } };
  }

  /** A sheet of the host's initial grid (the `maxRows`/`maxColumns` options), or of `size`. */
  addSheet(name: string, index?: number, size: { rows: number; columns: number } = this.initialGrid): SheetModel {
    this.checkCellLimit(size.rows * size.columns);
    const sheet: SheetModel = {
      id: this.nextSheetId++,
      name,
      cells: new Map(),
      maxRows: size.rows,
      maxColumns: size.columns,
      frozenRows: 0,
      frozenColumns: 0,
      charts: [],
    };
    if (index === undefined) this.sheets.push(sheet);
    else this.sheets.splice(index, 0, sheet);
    return sheet;
  }

  /** Cells of every sheet's grid. */
  cellCount(): number {
    return this.sheets.reduce((sum, s) => sum + s.maxRows * s.maxColumns, 0);
  }

  /** Throws as Sheets does when growing the grids by `addedCells` would pass the spreadsheet's limit. */
  checkCellLimit(addedCells: number): void {
    if (addedCells > 0 && this.cellCount() + addedCells > SPREADSHEET_CELL_LIMIT) throw new GasException(CELL_LIMIT_MESSAGE);
  }

  /** Resizes a sheet's grid, within the spreadsheet's cell limit. */
  resizeSheet(sheet: SheetModel, rows: number, columns: number): void {
    this.checkCellLimit(rows * columns - sheet.maxRows * sheet.maxColumns);
    sheet.maxRows = rows;
    sheet.maxColumns = columns;
  }

  sheetById(id: number): SheetModel {
    const sheet = this.sheets.find((s) => s.id === id);
    if (!sheet) throw new GasException('The sheet has been deleted.', 'Exception');
    return sheet;
  }

  /** The sheet of exactly this name, as getSheetByName finds it (case counts there). */
  sheetByName(name: string): SheetModel | undefined {
    return this.sheets.find((s) => s.name === name);
  }

  /**
   * The sheet whose name equals `name` ignoring case: Sheets refuses to insert or rename a sheet to
   * such a name ("A sheet with the name ... already exists").
   */
  sheetNamedIgnoringCase(name: string): SheetModel | undefined {
    const folded = name.toLowerCase();
    return this.sheets.find((s) => s.name.toLowerCase() === folded);
  }

  /** Spreadsheet.addDeveloperMetadata: its id, unique in the spreadsheet. */
  addDeveloperMetadata(key: string, value: string | null): number {
    const id = this.nextMetadataId++;
    this.developerMetadata.push({ id, key, value });
    return id;
  }

  /**
   * Sheet.deleteRows: the rows go with their cells, the cells below move up, and the grid shrinks.
   * Sheets refuses rows outside the grid and leaving no row that is not frozen (the words users report:
   * UNCONFIRMED). References in formulas are not moved: the host does not model it.
   */
  deleteRows(sheet: SheetModel, row: number, howMany: number): void {
    this.deleteLines(sheet, 'rows', row, howMany);
  }

  /** Sheet.deleteColumns, as deleteRows for columns. */
  deleteColumns(sheet: SheetModel, column: number, howMany: number): void {
    this.deleteLines(sheet, 'columns', column, howMany);
  }

  private deleteLines(sheet: SheetModel, lines: 'rows' | 'columns', first: number, howMany: number): void {
    const rows = lines === 'rows';
    const size = rows ? sheet.maxRows : sheet.maxColumns;
    if (!Number.isInteger(first) || !Number.isInteger(howMany) || first < 1 || howMany < 1 || first + howMany - 1 > size)
      throw new GasException(`Those ${lines} are out of bounds.`);
    if (size - howMany <= (rows ? sheet.frozenRows : sheet.frozenColumns))
      throw new GasException(`Sorry, it is not possible to delete all non-frozen ${lines}.`);
    const moved = (key: string): string | undefined => {
      const [r, c] = key.split(':').map(Number) as [number, number];
      const at = rows ? r : c;
      if (at < first) return key;
      if (at < first + howMany) return undefined;
      return rows ? cellKey(r - howMany, c) : cellKey(r, c - howMany);
    };
    const cells = new Map<string, CellRecord>();
    for (const [key, record] of sheet.cells) {
      const to = moved(key);
      if (to === undefined) {
        this.formulaCells.delete(record);
        continue;
      }
      if (record.spillOf !== undefined) {
        const anchor = moved(record.spillOf);
        if (anchor === undefined) delete record.spillOf;
        else record.spillOf = anchor;
      }
      cells.set(to, record);
    }
    sheet.cells = cells;
    this.spills.delete(sheet);
    if (rows) sheet.maxRows -= howMany;
    else sheet.maxColumns -= howMany;
  }

  /** Gives a chart its id and puts it on the sheet. */
  insertChart(sheet: SheetModel, chart: ChartSpec): number {
    const record = { ...chart, id: this.nextChartId++ };
    sheet.charts.push(record);
    return record.id;
  }

  /** Resolves A1 text (optionally "Sheet!A1:B2") against a default sheet. */
  resolveRange(a1: string, defaultSheetId: number): RangeDescriptor {
    const parsed = parseA1(a1);
    if (!parsed) throw new GasException('Range not found');
    const sheet = parsed.sheetName !== undefined ? this.sheetByName(parsed.sheetName) : this.sheetById(defaultSheetId);
    if (!sheet) throw new GasException('Range not found');
    const box = resolveA1(parsed, sheet.maxRows, sheet.maxColumns);
    this.checkBox(sheet, box);
    return { sheetId: sheet.id, ...box };
  }

  checkBox(sheet: SheetModel, box: GridBox): void {
    if (box.row < 1) throw new GasException('The starting row of the range is too small.');
    if (box.column < 1) throw new GasException('The starting column of the range is too small.');
    if (box.numRows < 1) throw new GasException('The number of rows in the range must be at least 1.');
    if (box.numColumns < 1) throw new GasException('The number of columns in the range must be at least 1.');
    if (box.row + box.numRows - 1 > sheet.maxRows || box.column + box.numColumns - 1 > sheet.maxColumns) {
      throw new GasException('The coordinates of the range are outside the dimensions of the sheet.');
    }
  }

  // ---------------------------------------------------------------- cells

  cell(sheet: SheetModel, row: number, column: number): CellRecord | undefined {
    return sheet.cells.get(cellKey(row, column));
  }

  mutableCell(sheet: SheetModel, row: number, column: number): CellRecord {
    const key = cellKey(row, column);
    let record = sheet.cells.get(key);
    if (!record) sheet.cells.set(key, (record = { value: '' }));
    return record;
  }

  private isEmptyCell(record: CellRecord | undefined): boolean {
    return !record || (record.value === '' && record.formula === undefined && record.spillOf === undefined);
  }

  /**
   * The last row and column holding a value or a formula, in one pass over the sheet's cells without
   * allocating: a sheet of 100,000 rows has over a million cells, and scripts ask often.
   */
  extent(sheet: SheetModel): { lastRow: number; lastColumn: number } {
    let lastRow = 0;
    let lastColumn = 0;
    for (const [key, record] of sheet.cells) {
      if (record.formula === undefined && record.value === '') continue;
      let i = 0;
      let row = 0;
      for (; key.charCodeAt(i) !== 58 /* ':' */; i++) row = row * 10 + key.charCodeAt(i) - 48;
      let column = 0;
      for (i++; i < key.length; i++) column = column * 10 + key.charCodeAt(i) - 48;
      if (row > lastRow) lastRow = row;
      if (column > lastColumn) lastColumn = column;
    }
    return { lastRow, lastColumn };
  }

  lastRow(sheet: SheetModel): number {
    return this.extent(sheet).lastRow;
  }

  /** Interprets what a script or a user writes into a cell, as Sheets does for typed input. */
  writeInput(sheet: SheetModel, row: number, column: number, input: unknown): void {
    const record = this.mutableCell(sheet, row, column);
    const previousSpill = record.formula !== undefined ? cellKey(row, column) : undefined;
    if (previousSpill) this.clearSpill(sheet, previousSpill);
    delete record.formula;
    this.formulaCells.delete(record);
    delete record.error;
    delete record.loading;
    delete record.dirty;
    delete record.spillOf;
    const value = toCellValue(input);
    if (typeof value === 'string') this.writeText(sheet, record, value);
    else record.value = value;
    this.markDependentsDirty(sheet, row, column);
  }

  /** Whether `writeText` would store `text` differently under the other reading of `textParsedAsTyped`. */
  private readsTextByReading(record: CellRecord, text: string, plainText: boolean): boolean {
    if (text.startsWith('=') && text.length > 1) return false;
    if (plainText) return text.startsWith("'");
    if (text.startsWith("'")) return false;
    const typed = readAsTyped(text, { locale: this.locale, timeZone: this.timeZone, nowMs: this.now(), cellFormat: record.numberFormat });
    const kind = readKindly(text);
    const sameValue =
      typed.value instanceof Date && kind instanceof Date ? typed.value.getTime() === kind.getTime() : Object.is(typed.value, kind);
    return !sameValue || (typed.numberFormat !== undefined && record.numberFormat === undefined);
  }

  /**
   * A string as typed input. Both readings: `=...` is a formula, also in a plain-text (`@`) cell (what
   * Sheets does with `=...` written into such a cell by a script is UNCONFIRMED: the stricter reading);
   * a leading apostrophe keeps the rest as text and is not part of the value (the documented rule).
   * A plain-text cell keeps the string; in the strict reading it keeps a leading apostrophe too
   * (UNCONFIRMED, the stricter reading), in the kind one the apostrophe goes as elsewhere. What is left
   * is read as a value or stays text, by the reading's rules (typed-input.ts).
   */
  private writeText(sheet: SheetModel, record: CellRecord, text: string): void {
    const plainText = record.numberFormat === '@';
    if (this.readings?.listens('textParsedAsTyped') && this.readsTextByReading(record, text, plainText)) {
      this.readings.differs('textParsedAsTyped');
    }
    if (text.startsWith('=') && text.length > 1) {
      record.formula = text;
      this.formulaCells.set(record, sheet);
      record.value = '';
      record.dirty = true;
    } else if (plainText && this.textParsedAsTyped) {
      record.value = text;
    } else if (text.startsWith("'")) {
      record.value = text.slice(1);
    } else if (plainText) {
      record.value = text;
    } else if (!this.textParsedAsTyped) {
      record.value = readKindly(text);
    } else {
      const typed = readAsTyped(text, { locale: this.locale, timeZone: this.timeZone, nowMs: this.now(), cellFormat: record.numberFormat });
      record.value = typed.value;
      // A cell of automatic format takes the format of what was typed ("$5" shows as money); an explicit one stays.
      if (typed.numberFormat !== undefined && record.numberFormat === undefined) record.numberFormat = typed.numberFormat;
    }
  }

  writeFormula(sheet: SheetModel, row: number, column: number, formula: string): void {
    const text = formula === '' ? '' : formula.startsWith('=') ? formula : `=${formula}`;
    this.writeInput(sheet, row, column, text);
  }

  private spillIndex(sheet: SheetModel): Map<string, Set<string>> {
    let index = this.spills.get(sheet);
    if (!index) {
      index = new Map();
      for (const [key, record] of sheet.cells) {
        if (record.spillOf === undefined) continue;
        let keys = index.get(record.spillOf);
        if (!keys) index.set(record.spillOf, (keys = new Set()));
        keys.add(key);
      }
      this.spills.set(sheet, index);
    }
    return index;
  }

  private clearSpill(sheet: SheetModel, anchorKey: string): void {
    const index = this.spillIndex(sheet);
    const keys = index.get(anchorKey);
    if (!keys) return;
    index.delete(anchorKey);
    for (const key of keys) {
      const record = sheet.cells.get(key);
      if (record?.spillOf === anchorKey) {
        delete record.spillOf;
        record.value = '';
        if (key !== anchorKey && this.isEmptyCell(record) && !record.numberFormat && !record.note) sheet.cells.delete(key);
      }
    }
  }

  /** Sheet.clear, clearContents, clearFormats: every cell of the sheet, without re-reading input. */
  clearSheet(sheet: SheetModel, scope: ClearScope): void {
    for (const [key, record] of [...sheet.cells]) {
      if (scope.contents) {
        record.value = '';
        delete record.formula;
        this.formulaCells.delete(record);
        delete record.spillOf;
        delete record.error;
        delete record.loading;
      }
      if (scope.formats) {
        delete record.numberFormat;
        delete record.fontWeight;
        delete record.background;
      }
      if (this.isEmptyCell(record) && !record.numberFormat && !record.note && !record.fontWeight && !record.background)
        sheet.cells.delete(key);
    }
  }

  /** Marks formula cells whose arguments reference (row, column) of `sheet` for recalculation. */
  private markDependentsDirty(sheet: SheetModel, row: number, column: number): void {
    for (const [record, other] of this.formulaCells) {
      if (record.formula === undefined) {
        this.formulaCells.delete(record);
        continue;
      }
      if (record.dirty || !this.sheets.includes(other)) continue;
      for (const box of this.formulaReferences(record.formula, other)) {
        if (
          box.sheetId === sheet.id &&
          row >= box.row &&
          row < box.row + box.numRows &&
          column >= box.column &&
          column < box.column + box.numColumns
        ) {
          record.dirty = true;
        }
      }
    }
  }

  /**
   * Names a range (setNamedRange): formulas that take the name as an argument depend on its cell from
   * now on, and compute again, as Sheets recomputes a formula whose name comes to exist or moves.
   */
  setNamedRange(name: string, range: RangeDescriptor): void {
    this.namedRanges.set(name, range);
    for (const [record] of this.formulaCells) {
      const inner = /\(([\s\S]*)\)/.exec(record.formula ?? '')?.[1] ?? '';
      if (inner.split(',').some((piece) => piece.trim() === name)) record.dirty = true;
    }
  }

  private formulaReferences(formula: string, home: SheetModel): RangeDescriptor[] {
    const boxes: RangeDescriptor[] = [];
    const inner = /\(([\s\S]*)\)/.exec(formula)?.[1] ?? '';
    for (const piece of inner.split(',')) {
      const parsed = parseA1(piece.trim());
      if (!parsed) {
        // A named range argument (Refresh all's EngageRefresh) depends on the cells it names now.
        const named = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(piece.trim()) ? this.namedRanges.get(piece.trim()) : undefined;
        if (named) boxes.push(named);
        continue;
      }
      if (/^".*"$/.test(piece.trim())) continue;
      const sheet = parsed.sheetName !== undefined ? this.sheetByName(parsed.sheetName) : home;
      if (sheet) boxes.push({ sheetId: sheet.id, ...resolveA1(parsed, sheet.maxRows, sheet.maxColumns) });
    }
    return boxes;
  }

  /** Writes a custom function's result: a value, or a 2D array spilling into empty cells. */
  writeFormulaResult(sheet: SheetModel, row: number, column: number, result: FormulaOutcome): void {
    const anchorKey = cellKey(row, column);
    const anchor = this.mutableCell(sheet, row, column);
    this.clearSpill(sheet, anchorKey);
    delete anchor.error;
    delete anchor.loading;
    anchor.dirty = false;
    if (result.loading) {
      // What a script reading the cell gets is UNCONFIRMED (README): the text the cell shows.
      anchor.value = LOADING_TEXT;
      anchor.loading = true;
      return;
    }
    if (result.error !== undefined) {
      anchor.value = result.errorCode ?? '#ERROR!';
      anchor.error = result.error;
      return;
    }
    const values = result.values ?? [['']];
    const height = values.length;
    const width = Math.max(1, ...values.map((r) => r.length));
    if (row + height - 1 > sheet.maxRows || column + width - 1 > sheet.maxColumns) {
      // Sheets adds rows for a spill at the bottom; columns beyond the grid are an error.
      if (column + width - 1 > sheet.maxColumns) {
        anchor.value = '#REF!';
        anchor.error = 'Result was not automatically expanded, please insert more columns.';
        return;
      }
      try {
        this.resizeSheet(sheet, row + height - 1, sheet.maxColumns);
      } catch {
        anchor.value = '#REF!';
        anchor.error = 'Result was not automatically expanded, please insert more rows.';
        return;
      }
    }
    // Each cell's key made once, for the check and the write (a large result is hundreds of thousands of cells).
    const keys = new Array<string>(height * width);
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        if (r === 0 && c === 0) continue;
        const key = cellKey(row + r, column + c);
        keys[r * width + c] = key;
        if (!this.isEmptyCell(sheet.cells.get(key))) {
          anchor.value = '#REF!';
          anchor.error = `Array result was not expanded because it would overwrite data in ${formatA1({ row: row + r, column: column + c, numRows: 1, numColumns: 1 })}.`;
          return;
        }
      }
    }
    const spilled = new Set<string>();
    for (let r = 0; r < height; r++) {
      const line = values[r];
      for (let c = 0; c < width; c++) {
        const value = line?.[c] ?? '';
        if (r === 0 && c === 0) {
          anchor.value = cloneValue(value);
          continue;
        }
        const key = keys[r * width + c]!;
        let target = sheet.cells.get(key);
        if (!target) sheet.cells.set(key, (target = { value: '' }));
        target.value = cloneValue(value);
        target.spillOf = anchorKey;
        spilled.add(key);
      }
    }
    if (spilled.size > 0) this.spillIndex(sheet).set(anchorKey, spilled);
  }

  /** The formula cells needing evaluation, in sheet order. */
  dirtyFormulaCells(): Array<{ sheet: SheetModel; row: number; column: number }> {
    const out: Array<{ sheet: SheetModel; row: number; column: number }> = [];
    // Most of the time none is dirty: say so without reading every cell of every sheet.
    if (![...this.formulaCells.keys()].some((record) => record.dirty && record.formula !== undefined)) return out;
    for (const sheet of this.sheets) {
      for (const [key, record] of sheet.cells) {
        if (record.formula !== undefined && record.dirty) {
          const [row, column] = key.split(':').map(Number) as [number, number];
          out.push({ sheet, row, column });
        }
      }
    }
    return out;
  }

  /**
   * The cells a TextFinder finds, sheet by sheet, row by row: a formula cell by its formula text when
   * `matchFormulaText` (else by what it shows), any other cell by what it shows. Text compares
   * ignoring case unless `matchCase`; a regular expression is JavaScript's (Google does not say
   * which dialect it reads; the add-on uses only what they all share).
   */
  find(query: FindQuery): RangeDescriptor[] {
    let pattern: RegExp;
    try {
      const source = query.useRegularExpression ? query.text : query.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      pattern = new RegExp(query.matchEntireCell ? `^(?:${source})$` : source, query.matchCase ? '' : 'i');
    } catch {
      throw new GasException(`Invalid argument: ${query.text}`);
    }
    const within = query.within;
    const sheets = within ? [this.sheetById(within.sheetId)] : this.sheets;
    const box = within && 'row' in within ? within : undefined;
    const found: RangeDescriptor[] = [];
    for (const sheet of sheets) {
      const matches: RangeDescriptor[] = [];
      for (const [key, record] of sheet.cells) {
        if (record.formula === undefined && record.value === '') continue;
        const text = record.formula !== undefined && query.matchFormulaText ? record.formula : this.displayValue(record);
        if (!pattern.test(text)) continue;
        const [row, column] = key.split(':').map(Number) as [number, number];
        if (box && (row < box.row || row >= box.row + box.numRows || column < box.column || column >= box.column + box.numColumns))
          continue;
        matches.push({ sheetId: sheet.id, row, column, numRows: 1, numColumns: 1 });
      }
      // Only the matches are put in order, not every cell of a large sheet.
      found.push(...matches.sort((a, b) => a.row - b.row || a.column - b.column));
    }
    return found;
  }

  // ---------------------------------------------------------------- reading

  readGrid<T>(desc: RangeDescriptor, read: (record: CellRecord | undefined) => T): T[][] {
    const sheet = this.sheetById(desc.sheetId);
    const rows: T[][] = [];
    for (let r = 0; r < desc.numRows; r++) {
      const row: T[] = [];
      for (let c = 0; c < desc.numColumns; c++) row.push(read(this.cell(sheet, desc.row + r, desc.column + c)));
      rows.push(row);
    }
    return rows;
  }

  /** Values as a script sees them: formula results, spilled values, Dates as Dates, empty as "". */
  readValues(desc: RangeDescriptor): CellValue[][] {
    return this.readGrid(desc, (record) => (record ? cloneValue(record.value) : ''));
  }

  /** What the cell shows: dates as M/D/YYYY in the spreadsheet's time zone, booleans as TRUE/FALSE. */
  displayValue(record: CellRecord | undefined): string {
    if (!record) return '';
    const value = record.value;
    if (value instanceof Date) {
      // One formatter per zone: a TextFinder over a sheet of 100,000 dates shows every one.
      if (this.dayFormat?.timeZone !== this.timeZone) {
        this.dayFormat = {
          timeZone: this.timeZone,
          format: new Intl.DateTimeFormat('en-US', { timeZone: this.timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }),
        };
      }
      const parts = this.dayFormat.format.formatToParts(value);
      const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
      return `${get('month')}/${get('day')}/${get('year')}`;
    }
    if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
    return String(value);
  }
}
