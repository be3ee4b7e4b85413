/**
 * The sheet of a saved report (core ReportSheet): the shared SpreadsheetWriter for the data, plus
 * reading back the block written last time (incremental refresh merges with it) and the status note
 * on the block's first cell. A note changes no value, so a failed refresh can say so beside data
 * that it left untouched.
 */
import { SpreadsheetWriter } from './sheet-writer';
import type { BlockPlacement, Cell, ReportSheet, SheetBlock, WrittenBlock } from '../../../core';

export class SavedReportSheet implements ReportSheet {
  private readonly writer: SpreadsheetWriter;

  constructor(private readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet) {
    this.writer = new SpreadsheetWriter(spreadsheet);
  }

  write(placement: BlockPlacement, block: SheetBlock, previous?: WrittenBlock): WrittenBlock {
    return this.writer.write(placement, block, previous);
  }

  sheetNames(): string[] {
    return this.writer.sheetNames();
  }

  read(block: WrittenBlock): Cell[][] | null {
    const sheet = this.spreadsheet.getSheetByName(block.sheetName);
    if (!sheet || block.rows < 1 || block.columns < 1) return null;
    if (sheet.getMaxRows() < block.row + block.rows - 1 || sheet.getMaxColumns() < block.column + block.columns - 1) return null;
    return sheet.getRange(block.row, block.column, block.rows, block.columns).getValues() as Cell[][];
  }

  note(placement: BlockPlacement, text: string): void {
    const sheet = this.spreadsheet.getSheetByName(placement.sheetName);
    if (sheet) sheet.getRange(placement.row, placement.column).setNote(text);
  }
}
