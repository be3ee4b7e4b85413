/**
 * SpreadsheetApp and Spreadsheet: the one document an execution is bound to (other documents cannot
 * be opened), its sheets, named ranges and selection. Also where the document's facades are tied
 * together, since they build each other (a Range's getSheet, a Sheet's getRange and getParent).
 */
import type { RangeDescriptor } from '../protocol';
import { chartFacades, type ChartFacades } from './charts';
import type { Facade, FacadeKit } from './kit';
import { rangeFacades } from './range';
import type { UserFacade } from './session';
import { sheetFacade } from './sheet';
import { textFinderFacade } from './text-finder';

/** The document's facades, which build each other. */
export interface DocumentFacades {
  spreadsheet(): Facade;
  sheet(sheetId: number): Facade;
  range(range: RangeDescriptor): Facade;
  /** A range by position, checked against the sheet's grid first. */
  rangeAt(sheetId: number, row: number, column: number, numRows: number, numColumns: number): Facade;
}

/** Names `setNamedRange` accepts: a letter or underscore first, and nothing that reads as a cell (A1, XFD9). */
const isNamedRangeName = (name: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name);

type RangeLike = { getGridId(): number; getRow(): number; getColumn(): number; getNumRows(): number; getNumColumns(): number };

export function spreadsheetServices(
  kit: FacadeKit,
  ui: Facade,
  user: UserFacade,
): { SpreadsheetApp: Facade; Charts: ChartFacades['Charts'] } {
  const { ops, guard, guardWrite } = kit;
  const charts = chartFacades(kit);
  // Late-bound: each factory below is handed this object before the others exist.
  const document: DocumentFacades = {
    spreadsheet: () => spreadsheet(),
    sheet: (sheetId) => sheet(sheetId),
    range: (desc) => ranges.range(desc),
    rangeAt: (...box) => ranges.rangeAt(...box),
  };
  const ranges = rangeFacades(kit, document);
  const sheet = sheetFacade(kit, document, charts);
  const cellOf = (range: RangeDescriptor) => ranges.range({ ...range, numRows: 1, numColumns: 1 });

  const spreadsheet = (): Facade => {
    const info = () => ops.spreadsheetInfo();
    return kit.api('Spreadsheet', {
      getId: () => info().id,
      getName: () => info().name,
      getUrl: () => `https://docs.google.com/spreadsheets/d/${info().id}/edit`,
      getSpreadsheetTimeZone: () => info().timeZone,
      setSpreadsheetTimeZone: (tz: string) => (guardWrite('setSpreadsheetTimeZone'), ops.spreadsheetSetTimeZone(String(tz))),
      getOwner: () => user(info().owner),
      getSheets: () => ops.spreadsheetSheets().map((s) => sheet(s.id)),
      getNumSheets: () => ops.spreadsheetSheets().length,
      getSheetByName: (name: string) => {
        const found = ops.spreadsheetSheets().find((s) => s.name === String(name));
        return found ? sheet(found.id) : null;
      },
      getActiveSheet: () => sheet(ops.spreadsheetActiveSheet()),
      setActiveSheet: (target: { getSheetId(): number }) => {
        guardWrite('setActiveSheet');
        ops.spreadsheetSetActiveSheet(target.getSheetId());
        return sheet(target.getSheetId());
      },
      insertSheet: (a?: unknown, b?: unknown) => {
        guardWrite('insertSheet');
        const name = typeof a === 'string' ? a : undefined;
        const index = typeof a === 'number' ? a : typeof b === 'number' ? b : undefined;
        return sheet(ops.spreadsheetInsertSheet(name, index));
      },
      deleteSheet: (target: { getSheetId(): number }) => {
        guardWrite('deleteSheet');
        ops.spreadsheetDeleteSheet(target.getSheetId());
      },
      getRange: (a1: string) => ranges.range(ops.spreadsheetResolve(String(a1), undefined)),
      getRangeByName: (name: string) => {
        const desc = ops.spreadsheetNamedRange(String(name));
        return desc ? ranges.range(desc) : null;
      },
      setNamedRange: (name: string, range: RangeLike) => {
        guardWrite('setNamedRange');
        if (!isNamedRangeName(String(name))) throw kit.realmError('Exception', 'The name of the named range is invalid.');
        ops.spreadsheetSetNamedRange(String(name), {
          sheetId: range.getGridId(),
          row: range.getRow(),
          column: range.getColumn(),
          numRows: range.getNumRows(),
          numColumns: range.getNumColumns(),
        });
      },
      getNamedRanges: () =>
        ops
          .spreadsheetNamedRanges()
          .map(({ name, range }) => kit.api('NamedRange', { getName: () => name, getRange: () => ranges.range(range) })),
      createTextFinder: (findText: string) => textFinderFacade(kit, document, String(findText)),
      getActiveRange: () => ranges.range(ops.spreadsheetActiveRange()),
      getActiveCell: () => cellOf(ops.spreadsheetActiveRange()),
      getCurrentCell: () => cellOf(ops.spreadsheetActiveRange()),
      toast: (message: string, title?: string) => {
        guard('ui', 'Spreadsheet.toast');
        ops.uiToast(String(message), title === undefined ? undefined : String(title));
      },
    });
  };

  const SpreadsheetApp = kit.api('SpreadsheetApp', {
    getActiveSpreadsheet: () => (guard('docRead', 'SpreadsheetApp.getActiveSpreadsheet'), spreadsheet()),
    getActive: () => (guard('docRead', 'SpreadsheetApp.getActive'), spreadsheet()),
    getActiveSheet: () => (guard('docRead', 'SpreadsheetApp.getActiveSheet'), sheet(ops.spreadsheetActiveSheet())),
    getActiveRange: () => (guard('docRead', 'SpreadsheetApp.getActiveRange'), ranges.range(ops.spreadsheetActiveRange())),
    getUi: () => (guard('menu', 'SpreadsheetApp.getUi'), ui),
    flush: () => ops.spreadsheetFlush(),
    openById: () => kit.deny('SpreadsheetApp.openById'),
    openByUrl: () => kit.deny('SpreadsheetApp.openByUrl'),
    create: () => kit.deny('SpreadsheetApp.create'),
  });
  return { SpreadsheetApp, Charts: charts.Charts };
}
