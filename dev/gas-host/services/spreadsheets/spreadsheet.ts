/**
 * SpreadsheetApp and Spreadsheet: the document an execution is bound to, its sheets, named ranges and
 * selection, and other documents of the add-on opened by ID or URL (state/spreadsheets/documents.ts has the rules).
 * Also where a document's facades are tied together, since they build each other (a Range's getSheet,
 * a Sheet's getRange and getParent). In the strict reading a time-driven trigger's run has no bound
 * document: getActiveSpreadsheet and getActive return null, and getUi throws.
 */
import type { DocumentOpRequest, HostOps, RangeDescriptor } from '../../protocol/protocol';
import { chartFacades, type ChartFacades } from './charts';
import { dataSourceFacades } from './data-sources';
import type { DocumentFacades } from './document-facades';
import type { Facade, FacadeKit } from '../kit';
import { rangeFacades } from './range';
import type { UserFacade } from '../session';
import { sharingMembers } from './sharing';
import { sheetFacade } from './sheet';
import { textFinderFacade } from './text-finder';

/** Names `setNamedRange` accepts: a letter or underscore first, and nothing that reads as a cell (A1, XFD9). */
const isNamedRangeName = (name: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name);

type RangeLike = { getGridId(): number; getRow(): number; getColumn(): number; getNumRows(): number; getNumColumns(): number };

type Ranges = ReturnType<typeof rangeFacades>;

/** The Spreadsheet's file (id, name, URL, time zone, locale) and its sheets. */
function fileAndSheetMembers(kit: FacadeKit, sheet: (sheetId: number) => Facade) {
  const { ops, guardWrite } = kit;
  const info = () => ops.spreadsheetInfo();
  return {
    getId: () => info().id,
    getName: () => info().name,
    getUrl: () => `https://docs.google.com/spreadsheets/d/${info().id}/edit`,
    getSpreadsheetTimeZone: () => info().timeZone,
    getSpreadsheetLocale: () => info().locale,
    setSpreadsheetTimeZone: (tz: string) => (guardWrite('setSpreadsheetTimeZone'), ops.spreadsheetSetTimeZone(String(tz))),
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
  };
}

/** The Spreadsheet's ranges: by A1 notation or name, named ranges, its developer metadata, find, the selection, and toast. */
function rangeMembers(kit: FacadeKit, document: DocumentFacades, ranges: Ranges, self: () => Facade) {
  const { ops, guard, guardWrite } = kit;
  const cellOf = (range: RangeDescriptor) => ranges.range({ ...range, numRows: 1, numColumns: 1 });
  return {
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
    // Metadata of the spreadsheet itself, which outlives its sheets; DOCUMENT visibility (the default of this form).
    addDeveloperMetadata: (key: string, value?: string) => {
      guardWrite('addDeveloperMetadata');
      ops.spreadsheetAddDeveloperMetadata(String(key), value === undefined || value === null ? null : String(value));
      return self();
    },
    getDeveloperMetadata: () =>
      ops.spreadsheetDeveloperMetadata().map(({ id, key, value }) =>
        kit.api('DeveloperMetadata', {
          getId: () => id,
          getKey: () => key,
          getValue: () => value,
          remove: () => {
            guardWrite('remove');
            ops.spreadsheetRemoveDeveloperMetadata(id);
          },
        }),
      ),
    createTextFinder: (findText: string) => textFinderFacade(kit, document, String(findText)),
    getActiveRange: () => ranges.range(ops.spreadsheetActiveRange()),
    getActiveCell: () => cellOf(ops.spreadsheetActiveRange()),
    getCurrentCell: () => cellOf(ops.spreadsheetActiveRange()),
    toast: (message: string, title?: string) => {
      guard('ui', 'Spreadsheet.toast');
      ops.uiToast(String(message), title === undefined ? undefined : String(title));
    },
  };
}

/**
 * One document's facades for a kit: the bound document's with the execution's own kit, another's
 * (opened by ID) with a kit whose Spreadsheet, Sheet and Range operations go to that document.
 */
function documentFacades(kit: FacadeKit, user: UserFacade, charts: ChartFacades) {
  // Late-bound: each factory below is handed this object before the others exist.
  const document: DocumentFacades = {
    spreadsheet: () => spreadsheet(),
    sheet: (sheetId) => sheet(sheetId),
    range: (desc) => ranges.range(desc),
    rangeAt: (...box) => ranges.rangeAt(...box),
  };
  const ranges = rangeFacades(kit, document);
  const sheet = sheetFacade(kit, document, charts);

  const spreadsheet = (): Facade => {
    const self: Facade = kit.api('Spreadsheet', {
      ...sharingMembers(kit, user, () => self),
      ...dataSourceFacades(kit).spreadsheetMembers(sheet),
      ...fileAndSheetMembers(kit, sheet),
      ...rangeMembers(kit, document, ranges, () => self),
    });
    return self;
  };
  return { spreadsheet, sheet, range: ranges.range };
}

/** A kit whose document operations reach the document `documentId` (opened by ID) instead of the bound one. */
function kitForDocument(kit: FacadeKit, documentId: string): FacadeKit {
  const ops = new Proxy(kit.ops, {
    get: (target, op) =>
      typeof op === 'string' && DOCUMENT_OP.test(op)
        ? (...args: unknown[]) => target.documentOp(documentId, { op, args } as DocumentOpRequest)
        : target[op as keyof HostOps],
  });
  return { ...kit, ops };
}

const DOCUMENT_OP = /^(spreadsheet|sheet|range|sharing)[A-Z]/;

/** What a script may not do without the document (Apps Script's words for getUi outside one). */
const NO_UI_MESSAGE = 'Cannot call SpreadsheetApp.getUi() from this context.';

export function spreadsheetServices(
  kit: FacadeKit,
  ui: Facade,
  user: UserFacade,
): { SpreadsheetApp: Facade; Charts: ChartFacades['Charts'] } {
  const { ops, guard } = kit;
  const charts = chartFacades(kit);
  const bound = documentFacades(kit, user, charts);
  // The strict reading: a trigger's run without a document sees none (strict.ts, triggerWithoutDocument).
  const noDocument = kit.request.withoutDocument === true;
  const opened = new Map<string, Facade>();
  const open = (target: unknown, how: 'id' | 'url'): Facade => {
    guard('docOpen', how === 'url' ? 'SpreadsheetApp.openByUrl' : 'SpreadsheetApp.openById');
    const documentId = ops.documentOpen(String(target), how);
    let found = opened.get(documentId);
    if (!found) {
      const scoped = kitForDocument(kit, documentId);
      opened.set(documentId, (found = documentFacades(scoped, user, chartFacades(scoped)).spreadsheet()));
    }
    return found;
  };

  const SpreadsheetApp = kit.api('SpreadsheetApp', {
    ...dataSourceFacades(kit).app,
    getActiveSpreadsheet: () => (guard('docRead', 'SpreadsheetApp.getActiveSpreadsheet'), noDocument ? null : bound.spreadsheet()),
    getActive: () => (guard('docRead', 'SpreadsheetApp.getActive'), noDocument ? null : bound.spreadsheet()),
    getActiveSheet: () => (
      guard('docRead', 'SpreadsheetApp.getActiveSheet'), noDocument ? null : bound.sheet(ops.spreadsheetActiveSheet())
    ),
    getActiveRange: () => (
      guard('docRead', 'SpreadsheetApp.getActiveRange'), noDocument ? null : bound.range(ops.spreadsheetActiveRange())
    ),
    getUi: () => {
      // A formula and a trigger's run have no editor UI to reach (public reports give these words; no official page lists them).
      if (kit.request.authMode === 'CUSTOM_FUNCTION' || kit.request.trigger || noDocument) throw kit.realmError('Exception', NO_UI_MESSAGE);
      guard('menu', 'SpreadsheetApp.getUi');
      return ui;
    },
    // Applies the pending changes of the bound document and of every document opened by ID: their formulas start.
    flush: () => {
      if (!noDocument) ops.spreadsheetFlush();
      for (const documentId of opened.keys()) kitForDocument(kit, documentId).ops.spreadsheetFlush();
    },
    openById: (id: string) => open(id, 'id'),
    openByUrl: (url: string) => open(url, 'url'),
    create: () => kit.deny('SpreadsheetApp.create'),
  });
  return { SpreadsheetApp, Charts: charts.Charts };
}
