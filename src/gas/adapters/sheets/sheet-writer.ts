/**
 * The core's SheetWriter over SpreadsheetApp. One setNumberFormat over the block before its values
 * (no cell stays plain text, where an apostrophe's fate is undocumented), one setValues for the header,
 * rows and totals, each string with the leading apostrophe that keeps it text (the core's
 * asTypedInput); one setNumberFormat per formatted column; the header bold on a grey band, with the metrics' notes, and
 * frozen when the block starts at the top of the sheet. Before anything is inserted or written, the
 * spreadsheet's cells (every sheet's grid, plus what this block adds) are checked against Sheets'
 * limit. The grid grows first when the block does not fit. Leftover cells of the previous block (a
 * longer or wider earlier result) are cleared only after the new values are in.
 */
import {
  type BlockPlacement,
  type CellsFound,
  cellsAdded,
  cellsFound,
  checkCellRoom,
  type GridSize,
  type SheetBlock,
  type SheetContents,
  type SheetWriter,
  WRITE_NUMBER_FORMAT,
  type WrittenBlock,
  asTypedInput,
} from '../../../core';

const HEADER_BACKGROUND = '#f1f3f4';

export class SpreadsheetWriter implements SheetWriter, SheetContents {
  constructor(private readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet) {}

  write(placement: BlockPlacement, block: SheetBlock, previous?: WrittenBlock): WrittenBlock {
    const rows = block.values.length;
    const columns = rows > 0 ? block.values[0]!.length : 0;
    const target = this.checkRoom(placement, rows, columns);
    const sheet = target?.sheet ?? this.spreadsheet.insertSheet(placement.sheetName);
    const grid = target?.grid ?? { rows: sheet.getMaxRows(), columns: sheet.getMaxColumns() };
    const lastRow = placement.row + rows - 1;
    const lastColumn = placement.column + columns - 1;
    if (grid.rows < lastRow) sheet.insertRowsAfter(grid.rows, lastRow - grid.rows);
    if (grid.columns < lastColumn) sheet.insertColumnsAfter(grid.columns, lastColumn - grid.columns);

    if (rows > 0 && columns > 0) {
      sheet
        .getRange(placement.row, placement.column, rows, columns)
        .setNumberFormat(WRITE_NUMBER_FORMAT)
        .setValues(asTypedInput(block.values) as unknown[][]);
      const bodyRows = rows - 1;
      if (bodyRows > 0) {
        block.numberFormats.forEach((format, c) => {
          if (format !== null) sheet.getRange(placement.row + 1, placement.column + c, bodyRows, 1).setNumberFormat(format);
        });
      }
      const header = sheet.getRange(placement.row, placement.column, 1, columns).setFontWeight('bold').setBackground(HEADER_BACKGROUND);
      if (block.headerNotes) header.setNotes([block.headerNotes]);
      if (block.hasTotals) sheet.getRange(lastRow, placement.column, 1, columns).setFontWeight('bold');
      if (placement.row === 1) sheet.setFrozenRows(1);
    }

    if (previous && previous.sheetName === placement.sheetName && previous.row === placement.row && previous.column === placement.column) {
      // Clear what the previous result covered beyond the new one: rows below, then columns to the right.
      if (previous.rows > rows) {
        sheet
          .getRange(placement.row + rows, placement.column, previous.rows - rows, Math.max(previous.columns, columns))
          .clearContent()
          .setFontWeight(null);
      }
      if (previous.columns > columns && rows > 0) {
        sheet
          .getRange(placement.row, placement.column + columns, Math.min(previous.rows, rows), previous.columns - columns)
          .clearContent()
          .clearNote()
          .setFontWeight(null)
          .setBackground(null);
      }
    }
    return { ...placement, rows, columns };
  }

  sheetNames(): string[] {
    return this.spreadsheet.getSheets().map((sheet) => sheet.getName());
  }

  /**
   * The cells of `area` holding a value or a formula, outside `except`, read in one call (values and
   * formulas of the part of `area` up to the sheet's last row and column with content).
   */
  contentIn(area: WrittenBlock, except?: WrittenBlock): CellsFound | null {
    const sheet = this.spreadsheet.getSheetByName(area.sheetName);
    if (!sheet) return null;
    const rows = Math.min(area.row + area.rows - 1, sheet.getLastRow()) - area.row + 1;
    const columns = Math.min(area.column + area.columns - 1, sheet.getLastColumn()) - area.column + 1;
    if (rows < 1 || columns < 1) return null;
    const range = sheet.getRange(area.row, area.column, rows, columns);
    return cellsFound(range.getValues(), range.getFormulas(), area, except);
  }

  /**
   * Throws, writing nothing, when the block would take the spreadsheet past its cell limit; returns the
   * target sheet and its grid when it exists.
   */
  private checkRoom(
    placement: BlockPlacement,
    rows: number,
    columns: number,
  ): { sheet: GoogleAppsScript.Spreadsheet.Sheet; grid: GridSize } | undefined {
    let inUse = 0;
    let target: { sheet: GoogleAppsScript.Spreadsheet.Sheet; grid: GridSize } | undefined;
    for (const sheet of this.spreadsheet.getSheets()) {
      const grid = { rows: sheet.getMaxRows(), columns: sheet.getMaxColumns() };
      inUse += grid.rows * grid.columns;
      if (sheet.getName() === placement.sheetName) target = { sheet, grid };
    }
    checkCellRoom(inUse, cellsAdded(placement, rows, columns, target?.grid ?? null));
    return target;
  }
}
