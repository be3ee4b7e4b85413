/**
 * The spreadsheet as scripts reach it: the Spreadsheet, Sheet and Range operations served over the
 * in-memory model (spreadsheet.ts), with Sheets' messages for what a script may not do.
 */
import {
  type CellValue,
  type ExecutionInfo,
  GasException,
  type RangeField,
  type RangeOps,
  type ServedOps,
  type SheetOps,
  type SpreadsheetOps,
  type WritableRangeField,
} from '../../protocol/protocol';
import {
  cloneValue,
  DEFAULT_NUMBER_FORMAT,
  NEW_SHEET_COLUMNS,
  NEW_SHEET_ROWS,
  type CellRecord,
  type SpreadsheetModel,
} from './spreadsheet';

export interface SpreadsheetFile {
  documentId: string;
  spreadsheetName: string;
  owner: string;
  scriptTimeZone: string;
}

/** How each Range getter reads one cell (no record: an empty cell). */
function cellReaders(model: SpreadsheetModel): Record<RangeField, (record: CellRecord | undefined) => CellValue> {
  return {
    values: (record) => (record ? cloneValue(record.value) : ''),
    displayValues: (record) => model.displayValue(record),
    formulas: (record) => record?.formula ?? '',
    numberFormats: (record) => record?.numberFormat ?? DEFAULT_NUMBER_FORMAT,
    notes: (record) => record?.note ?? '',
    fontWeights: (record) => record?.fontWeight ?? 'normal',
    backgrounds: (record) => record?.background ?? '#ffffff',
  };
}

/** How each Range setter writes one cell's attribute (values and formulas are typed input). */
const attributeWriters: Record<Exclude<WritableRangeField, 'values' | 'formulas'>, (record: CellRecord, value: unknown) => void> = {
  numberFormats: (record, value) => {
    record.numberFormat = String(value);
  },
  notes: (record, value) => {
    record.note = String(value ?? '');
  },
  fontWeights: (record, value) => {
    record.fontWeight = value === null ? undefined : String(value);
  },
  backgrounds: (record, value) => {
    record.background = value === null ? undefined : String(value);
  },
};

type DataSourceOpName = 'spreadsheetInsertDataSourceSheet' | 'spreadsheetDataSourceSheets' | 'spreadsheetDataExecution';

export function spreadsheetOps(
  model: SpreadsheetModel,
  file: SpreadsheetFile,
  /** Told of every SpreadsheetApp.flush, by the execution that flushed (automatic recalculation starts formulas there). */
  flushed: (execution: ExecutionInfo) => void,
): ServedOps<keyof SpreadsheetOps | keyof SheetOps | keyof RangeOps> {
  return { ...documentOps(model, file, flushed), ...dataSourceOps(model), ...sheetOps(model), ...rangeOps(model) };
}

function nameTaken(name: string): GasException {
  return new GasException(`A sheet with the name "${name}" already exists. Please enter another name.`);
}

/** The Spreadsheet's own operations: its file, its sheets, the selection, named ranges, metadata, find and flush. */
function documentOps(
  model: SpreadsheetModel,
  file: SpreadsheetFile,
  flushed: (execution: ExecutionInfo) => void,
): ServedOps<Exclude<keyof SpreadsheetOps, DataSourceOpName>> {
  return {
    spreadsheetInfo: () => ({
      id: file.documentId,
      name: file.spreadsheetName,
      timeZone: model.timeZone,
      locale: model.locale,
      owner: file.owner,
      scriptTimeZone: file.scriptTimeZone,
    }),
    spreadsheetSetTimeZone: (_execution, timeZone) => {
      model.timeZone = timeZone;
    },
    spreadsheetSheets: () => model.sheets.map((s) => ({ id: s.id, name: s.name })),
    spreadsheetActiveSheet: () => model.sheetById(model.activeSheetId).id,
    spreadsheetSetActiveSheet: (_execution, sheetId) => {
      model.activeSheetId = model.sheetById(sheetId).id;
    },
    spreadsheetInsertSheet: (_execution, requestedName, index) => {
      let name = requestedName ?? `Sheet${model.sheets.length + 1}`;
      if (requestedName === undefined) for (let n = model.sheets.length + 1; model.sheetNamedIgnoringCase(name); n++) name = `Sheet${n}`;
      if (model.sheetNamedIgnoringCase(name)) throw nameTaken(name);
      const sheet = model.addSheet(name, index, { rows: NEW_SHEET_ROWS, columns: NEW_SHEET_COLUMNS });
      model.activeSheetId = sheet.id;
      return sheet.id;
    },
    spreadsheetDeleteSheet: (_execution, sheetId) => {
      if (model.sheets.length === 1) throw new GasException("You can't remove all the sheets in a document.");
      const index = model.sheets.findIndex((s) => s.id === sheetId);
      if (index >= 0) model.sheets.splice(index, 1);
      if (model.activeSheetId === sheetId) model.activeSheetId = model.sheets[0]!.id;
    },
    spreadsheetResolve: (_execution, a1, sheetId) => model.resolveRange(a1, sheetId ?? model.activeSheetId),
    spreadsheetActiveRange: () => {
      const active = model.activeRange;
      return active && active.sheetId === model.activeSheetId
        ? active
        : { sheetId: model.activeSheetId, row: 1, column: 1, numRows: 1, numColumns: 1 };
    },
    spreadsheetSetActiveRange: (_execution, range) => {
      model.activeRange = range;
      model.activeSheetId = model.sheetById(range.sheetId).id;
    },
    spreadsheetNamedRange: (_execution, name) => model.namedRanges.get(name) ?? null,
    spreadsheetSetNamedRange: (_execution, name, range) => model.setNamedRange(name, range),
    spreadsheetNamedRanges: () => [...model.namedRanges].map(([name, range]) => ({ name, range })),
    spreadsheetDeveloperMetadata: () => model.developerMetadata.map((m) => ({ ...m })),
    spreadsheetAddDeveloperMetadata: (_execution, key, value) => model.addDeveloperMetadata(key, value),
    spreadsheetRemoveDeveloperMetadata: (_execution, id) => {
      const index = model.developerMetadata.findIndex((m) => m.id === id);
      if (index >= 0) model.developerMetadata.splice(index, 1);
    },
    spreadsheetFind: (_execution, query) => model.find(query),
    spreadsheetFlush: (execution) => flushed(execution),
  };
}

/** Connected Sheets: a data source sheet inserted, listed, and its data execution read. */
function dataSourceOps(model: SpreadsheetModel): ServedOps<DataSourceOpName> {
  return {
    spreadsheetInsertDataSourceSheet: (_execution, spec) => {
      if (model.connectedSheetsRefusal !== undefined) throw new GasException(model.connectedSheetsRefusal);
      // Named as insertSheet() names a sheet: what Sheets calls a new data source sheet is UNCONFIRMED.
      let name = `Sheet${model.sheets.length + 1}`;
      for (let n = model.sheets.length + 1; model.sheetNamedIgnoringCase(name); n++) name = `Sheet${n}`;
      const sheet = model.addSheet(name, undefined, { rows: NEW_SHEET_ROWS, columns: NEW_SHEET_COLUMNS });
      sheet.dataSource = { ...spec, parameters: spec.parameters.map((p) => ({ ...p })) };
      model.startDataExecution(sheet);
      model.activeSheetId = sheet.id;
      return sheet.id;
    },
    spreadsheetDataSourceSheets: () =>
      model.sheets.flatMap((s) =>
        s.dataSource ? [{ sheetId: s.id, spec: { ...s.dataSource, parameters: [...s.dataSource.parameters] } }] : [],
      ),
    spreadsheetDataExecution: (_execution, sheetId) => {
      const execution = model.sheets.find((s) => s.id === sheetId)?.dataExecution;
      return execution ? { ...execution, outcome: { ...execution.outcome } } : null;
    },
  };
}

/** A Sheet's operations: its properties and extent, check boxes, clearing, rows and columns, charts. */
function sheetOps(model: SpreadsheetModel): ServedOps<keyof SheetOps> {
  return {
    sheetInfo: (_execution, sheetId) => {
      const sheet = model.sheetById(sheetId);
      return {
        id: sheet.id,
        name: sheet.name,
        maxRows: sheet.maxRows,
        maxColumns: sheet.maxColumns,
        frozenRows: sheet.frozenRows,
        frozenColumns: sheet.frozenColumns,
        hidden: sheet.hidden === true,
        index: model.sheets.indexOf(sheet) + 1,
      };
    },
    sheetExtent: (_execution, sheetId) => model.extent(model.sheetById(sheetId)),
    sheetUpdate: (_execution, sheetId, patch) => {
      const sheet = model.sheetById(sheetId);
      const holder = patch.name === undefined ? undefined : model.sheetNamedIgnoringCase(patch.name);
      // A sheet may change the case of its own name.
      if (holder && holder !== sheet) throw nameTaken(patch.name!);
      if (patch.maxRows !== undefined || patch.maxColumns !== undefined)
        model.resizeSheet(sheet, patch.maxRows ?? sheet.maxRows, patch.maxColumns ?? sheet.maxColumns);
      const { maxRows: _rows, maxColumns: _columns, ...rest } = patch;
      Object.assign(sheet, rest);
    },
    sheetCheckBox: (_execution, sheetId, box) => model.checkBox(model.sheetById(sheetId), box),
    sheetClear: (_execution, sheetId, scope) => model.clearSheet(model.sheetById(sheetId), scope),
    sheetAppendRow: (_execution, sheetId, values) => {
      const sheet = model.sheetById(sheetId);
      const row = model.lastRow(sheet) + 1;
      model.resizeSheet(sheet, Math.max(sheet.maxRows, row), Math.max(sheet.maxColumns, values.length));
      for (const [index, value] of values.entries()) model.writeInput(sheet, row, index + 1, value);
    },
    sheetDeleteRows: (_execution, sheetId, rowPosition, howMany) => model.deleteRows(model.sheetById(sheetId), rowPosition, howMany),
    sheetDeleteColumns: (_execution, sheetId, columnPosition, howMany) =>
      model.deleteColumns(model.sheetById(sheetId), columnPosition, howMany),
    sheetCharts: (_execution, sheetId) => model.sheetById(sheetId).charts.map((c) => ({ ...c })),
    sheetInsertChart: (_execution, sheetId, chart) => model.insertChart(model.sheetById(sheetId), chart),
    sheetRemoveChart: (_execution, sheetId, chartId) => {
      const sheet = model.sheetById(sheetId);
      sheet.charts = sheet.charts.filter((c) => c.id !== chartId);
    },
  };
}

/** A Range's operations: read and write a field of every cell, and clear. */
function rangeOps(model: SpreadsheetModel): ServedOps<keyof RangeOps> {
  const readers = cellReaders(model);
  return {
    rangeGet: (_execution, range, field) => model.readGrid(range, readers[field]),
    rangeSet: (_execution, range, field, grid) => {
      const sheet = model.sheetById(range.sheetId);
      for (let r = 0; r < range.numRows; r++) {
        for (let c = 0; c < range.numColumns; c++) {
          const value = grid[r]![c];
          const row = range.row + r;
          const column = range.column + c;
          if (field === 'values') model.writeInput(sheet, row, column, value);
          else if (field === 'formulas') model.writeFormula(sheet, row, column, String(value ?? ''));
          else attributeWriters[field](model.mutableCell(sheet, row, column), value);
        }
      }
    },
    rangeClear: (_execution, range, scope) => {
      const sheet = model.sheetById(range.sheetId);
      for (let r = 0; r < range.numRows; r++) {
        for (let c = 0; c < range.numColumns; c++) {
          const record = model.cell(sheet, range.row + r, range.column + c);
          if (!record) continue;
          if (scope.contents) model.writeInput(sheet, range.row + r, range.column + c, '');
          if (scope.formats) {
            delete record.numberFormat;
            delete record.fontWeight;
            delete record.background;
          }
          if (scope.notes) delete record.note;
        }
      }
    },
  };
}
