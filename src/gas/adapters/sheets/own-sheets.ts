/**
 * The add-on's own sheets of a spreadsheet (core OwnSheets: the run log, the revisions, the hidden
 * first figures) over SpreadsheetApp, for one run: the spreadsheet the execution runs in or one opened
 * by ID, which is all a run without a document has. Each sheet is looked up once per run; rows are
 * written in one setNumberFormats and one setValues whatever their number (each string through
 * asTypedInput, on cells given a number format first), and the oldest rows past a cap go in one
 * deleteRows. A sheet the add-on remembers making carries a marker in the spreadsheet's developer
 * metadata, which outlives the sheet ("If the associated object is deleted then its metadata is
 * deleted too": only a sheet's own metadata goes with it), so a sheet a user deleted stays deleted.
 *
 * Two executions appending to one sheet at the same moment (two users' runs in one spreadsheet) may
 * both write below the same last row: one's rows are then lost. No lock spans them (a run by ID has
 * no document lock); docs/shared-state.md says so.
 */
import {
  asTypedInput,
  type Cell,
  type OwnRows,
  type OwnSheet,
  type OwnSheets,
  type OwnSheetState,
  WRITE_NUMBER_FORMAT,
} from '../../../core';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** Developer metadata key of the marker left on the spreadsheet when the add-on makes a remembered sheet; its value is the sheet's name. */
export const OWN_SHEET_MARKER_KEY = 'engage.ownSheet';

const HEADER_BACKGROUND = '#f1f3f4';

export class SpreadsheetOwnSheets implements OwnSheets {
  /** Sheets looked up in this run, and their last row with content once known (null: not found). */
  private readonly found = new Map<string, { sheet: Sheet; lastRow?: number } | null>();
  private markers: string[] | undefined;

  constructor(private readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet) {}

  state(own: OwnSheet): OwnSheetState {
    if (this.lookUp(own)) return 'present';
    return own.remembered && this.marked(own.name) ? 'deleted' : 'new';
  }

  read(own: OwnSheet): Cell[][] {
    const found = this.lookUp(own);
    if (!found) return [];
    const last = this.lastRow(found);
    if (last < 2) return [];
    return found.sheet.getRange(2, 1, last - 1, own.header.length).getValues() as Cell[][];
  }

  append(own: OwnSheet, rows: OwnRows, keepRows: number): void {
    const kept = rows.values.length > keepRows ? rows.values.length - keepRows : 0;
    const values = rows.values.slice(kept);
    if (values.length === 0) return;
    const found = this.lookUp(own) ?? this.make(own);
    const start = Math.max(2, this.lastRow(found) + 1);
    this.write(own, found, start, { values, formats: rows.formats.slice(kept) });
    // Only after the new rows are in: the rows left below the header are never all deleted at once.
    const excess = found.lastRow! - 1 - keepRows;
    if (excess > 0) {
      found.sheet.deleteRows(2, excess);
      found.lastRow! -= excess;
    }
  }

  replace(own: OwnSheet, rows: OwnRows): void {
    const found = this.lookUp(own) ?? this.make(own);
    const before = this.lastRow(found);
    if (rows.values.length > 0) this.write(own, found, 2, rows);
    const end = 1 + rows.values.length;
    if (before > end) found.sheet.getRange(end + 1, 1, before - end, own.header.length).clearContent();
    if (rows.values.length > 0 || before > 0) found.lastRow = end;
  }

  private lookUp(own: OwnSheet): { sheet: Sheet; lastRow?: number } | null {
    if (!this.found.has(own.name)) {
      const sheet = this.spreadsheet.getSheetByName(own.name);
      this.found.set(own.name, sheet ? { sheet } : null);
    }
    return this.found.get(own.name)!;
  }

  private lastRow(found: { sheet: Sheet; lastRow?: number }): number {
    found.lastRow ??= found.sheet.getLastRow();
    return found.lastRow;
  }

  private marked(name: string): boolean {
    this.markers ??= this.spreadsheet
      .getDeveloperMetadata()
      .filter((m) => m.getKey() === OWN_SHEET_MARKER_KEY)
      .map((m) => m.getValue() ?? '');
    return this.markers.includes(name);
  }

  /** Makes the sheet at the end of the tabs, with its header, leaving the sheet the user is on active. */
  private make(own: OwnSheet): { sheet: Sheet; lastRow?: number } {
    const active = this.spreadsheet.getActiveSheet();
    const sheet = this.spreadsheet.insertSheet(own.name, this.spreadsheet.getNumSheets());
    if (active) this.spreadsheet.setActiveSheet(active);
    if (own.hidden) sheet.hideSheet();
    // As wide as its header, not the 26 columns of a new sheet: its rows count against the spreadsheet's cells.
    const columns = sheet.getMaxColumns();
    if (columns > own.header.length) sheet.deleteColumns(own.header.length + 1, columns - own.header.length);
    const found = { sheet, lastRow: 0 };
    this.writeHeader(own, found);
    if (own.remembered && !this.marked(own.name)) {
      this.spreadsheet.addDeveloperMetadata(OWN_SHEET_MARKER_KEY, own.name);
      this.markers!.push(own.name);
    }
    this.found.set(own.name, found);
    return found;
  }

  private writeHeader(own: OwnSheet, found: { sheet: Sheet; lastRow?: number }): void {
    found.sheet
      .getRange(1, 1, 1, own.header.length)
      .setNumberFormat(WRITE_NUMBER_FORMAT)
      .setValues(asTypedInput([own.header]) as unknown[][])
      .setFontWeight('bold')
      .setBackground(HEADER_BACKGROUND);
    found.sheet.setFrozenRows(1);
    found.lastRow = Math.max(found.lastRow ?? 0, 1);
  }

  /** Rows from `start`, the grid grown first when they do not fit, the header written first on an empty sheet. */
  private write(own: OwnSheet, found: { sheet: Sheet; lastRow?: number }, start: number, rows: OwnRows): void {
    if (this.lastRow(found) === 0) this.writeHeader(own, found);
    const { sheet } = found;
    const end = start + rows.values.length - 1;
    const maxRows = sheet.getMaxRows();
    if (maxRows < end) sheet.insertRowsAfter(maxRows, end - maxRows);
    sheet
      .getRange(start, 1, rows.values.length, own.header.length)
      .setNumberFormats(rows.formats.map((row) => own.header.map((_, c) => row[c] ?? WRITE_NUMBER_FORMAT)))
      .setValues(asTypedInput(rows.values) as unknown[][]);
    found.lastRow = Math.max(this.lastRow(found), end);
  }
}
