/**
 * The facades of one document, which build each other (a Range's getSheet, a Sheet's getRange and
 * getParent): spreadsheet.ts ties them together late, and range.ts, sheet.ts and text-finder.ts are
 * each handed this registry. It lives apart from spreadsheet.ts so that they need not import the file
 * that imports them.
 */
import type { RangeDescriptor } from '../../protocol/protocol';
import type { Facade } from '../kit';

/** The document's facades, which build each other. */
export interface DocumentFacades {
  spreadsheet(): Facade;
  sheet(sheetId: number): Facade;
  range(range: RangeDescriptor): Facade;
  /** A range by position, checked against the sheet's grid first. */
  rangeAt(sheetId: number, row: number, column: number, numRows: number, numColumns: number): Facade;
}
