/**
 * Sheet: one sheet of the document by id. Reads its name, grid size, last row and column and frozen
 * panes from the host state on every call, so a sheet object sees changes other executions made;
 * writes are refused in custom functions and wherever the AuthMode cannot write.
 */
import type { ChartSpec } from '../../protocol/protocol';
import type { ChartFacades } from './charts';
import { fromRealm, type Facade, type FacadeKit } from '../kit';
import type { DocumentFacades } from './document-facades';
import { textFinderFacade } from './text-finder';

export function sheetFacade(kit: FacadeKit, document: DocumentFacades, charts: ChartFacades): DocumentFacades['sheet'] {
  const { ops, guardWrite } = kit;
  return (sheetId: number): Facade => {
    const info = () => ops.sheetInfo(sheetId);
    const self: Facade = kit.api('Sheet', {
      getName: () => info().name,
      setName: (name: string) => (guardWrite('setName'), ops.sheetUpdate(sheetId, { name: String(name) }), self),
      getSheetId: () => sheetId,
      getIndex: () => info().index,
      getParent: () => document.spreadsheet(),
      getRange: (a: unknown, column?: number, numRows?: number, numColumns?: number) => {
        if (typeof a === 'string') return document.range(ops.spreadsheetResolve(a, sheetId));
        return document.rangeAt(sheetId, Number(a), Number(column), numRows ?? 1, numColumns ?? 1);
      },
      getDataRange: () => {
        const e = ops.sheetExtent(sheetId);
        return document.rangeAt(sheetId, 1, 1, Math.max(1, e.lastRow), Math.max(1, e.lastColumn));
      },
      getLastRow: () => ops.sheetExtent(sheetId).lastRow,
      getLastColumn: () => ops.sheetExtent(sheetId).lastColumn,
      getMaxRows: () => info().maxRows,
      getMaxColumns: () => info().maxColumns,
      insertRowsAfter: (after: number, howMany: number) => (
        guardWrite('insertRowsAfter'), ops.sheetUpdate(sheetId, { maxRows: info().maxRows + Number(howMany) }), void after, self
      ),
      insertColumnsAfter: (after: number, howMany: number) => (
        guardWrite('insertColumnsAfter'), ops.sheetUpdate(sheetId, { maxColumns: info().maxColumns + Number(howMany) }), void after, self
      ),
      deleteRows: (rowPosition: number, howMany: number) => {
        guardWrite('deleteRows');
        ops.sheetDeleteRows(sheetId, Number(rowPosition), Number(howMany));
      },
      deleteColumns: (columnPosition: number, howMany: number) => {
        guardWrite('deleteColumns');
        ops.sheetDeleteColumns(sheetId, Number(columnPosition), Number(howMany));
      },
      appendRow: (values: unknown[]) => (guardWrite('appendRow'), ops.sheetAppendRow(sheetId, fromRealm(values) as unknown[]), self),
      clear: () => (guardWrite('clear'), ops.sheetClear(sheetId, { contents: true, formats: true }), self),
      clearContents: () => (guardWrite('clearContents'), ops.sheetClear(sheetId, { contents: true, formats: false }), self),
      clearFormats: () => (guardWrite('clearFormats'), ops.sheetClear(sheetId, { contents: false, formats: true }), self),
      getFrozenRows: () => info().frozenRows,
      setFrozenRows: (rows: number) => (guardWrite('setFrozenRows'), ops.sheetUpdate(sheetId, { frozenRows: Number(rows) }), self),
      getFrozenColumns: () => info().frozenColumns,
      hideSheet: () => (guardWrite('hideSheet'), ops.sheetUpdate(sheetId, { hidden: true }), self),
      showSheet: () => (guardWrite('showSheet'), ops.sheetUpdate(sheetId, { hidden: false }), self),
      isSheetHidden: () => info().hidden === true,
      setFrozenColumns: (columns: number) => (
        guardWrite('setFrozenColumns'), ops.sheetUpdate(sheetId, { frozenColumns: Number(columns) }), self
      ),
      autoResizeColumns: () => (guardWrite('autoResizeColumns'), self),
      autoResizeColumn: () => (guardWrite('autoResizeColumn'), self),
      setColumnWidth: () => (guardWrite('setColumnWidth'), self),
      activate: () => (guardWrite('activate'), ops.spreadsheetSetActiveSheet(sheetId), self),
      createTextFinder: (findText: string) => textFinderFacade(kit, document, String(findText), { sheetId }),
      newChart: () => charts.builder(),
      insertChart: (chart: { __spec: ChartSpec }) => {
        guardWrite('insertChart');
        ops.sheetInsertChart(sheetId, chart.__spec);
      },
      getCharts: () => ops.sheetCharts(sheetId).map(charts.chart),
      removeChart: (chart: { getChartId(): number }) => {
        guardWrite('removeChart');
        ops.sheetRemoveChart(sheetId, chart.getChartId());
      },
    });
    return self;
  };
}
