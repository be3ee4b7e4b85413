/**
 * Range: reads and writes a box of cells through the host state. Writes are refused in custom
 * functions and wherever the AuthMode cannot write; grids must match the range's shape, with Sheets'
 * messages when they do not. Formatting the host does not model is accepted and only counted.
 */
import { formatA1 } from '../../cells/a1-notation';
import type { RangeDescriptor, RangeField, WritableRangeField } from '../../protocol/protocol';
import { fromRealm, type Facade, type FacadeKit } from '../kit';
import type { DocumentFacades } from './document-facades';
import { textFinderFacade } from './text-finder';

export function rangeFacades(kit: FacadeKit, document: DocumentFacades): Pick<DocumentFacades, 'range' | 'rangeAt'> {
  const { ops, guardWrite } = kit;

  const checkGrid = (desc: RangeDescriptor, grid: unknown): unknown[][] => {
    const rows = Array.isArray(grid) ? grid : [];
    if (rows.length !== desc.numRows) {
      throw kit.realmError(
        'Exception',
        `The number of rows in the data does not match the number of rows in the range. The data has ${rows.length} but the range has ${desc.numRows}.`,
      );
    }
    for (const row of rows) {
      const width = Array.isArray(row) ? row.length : 0;
      if (width !== desc.numColumns) {
        throw kit.realmError(
          'Exception',
          `The number of columns in the data does not match the number of columns in the range. The data has ${width} but the range has ${desc.numColumns}.`,
        );
      }
    }
    return fromRealm(rows) as unknown[][];
  };
  const fill = (desc: RangeDescriptor, value: unknown) =>
    Array.from({ length: desc.numRows }, () => Array.from({ length: desc.numColumns }, () => fromRealm(value)));

  const range = (desc: RangeDescriptor): Facade => {
    const read = (field: RangeField) => ops.rangeGet(desc, field);
    const write = (method: string, field: WritableRangeField, grid: unknown[][]) => {
      guardWrite(method);
      ops.rangeSet(desc, field, grid);
    };
    const self: Facade = kit.api('Range', {
      getValues: () => read('values'),
      getValue: () => read('values')[0]![0],
      getDisplayValues: () => read('displayValues'),
      getDisplayValue: () => read('displayValues')[0]![0],
      setValues: (values: unknown) => (guardWrite('setValues'), write('setValues', 'values', checkGrid(desc, values)), self),
      setValue: (value: unknown) => (write('setValue', 'values', fill(desc, value)), self),
      getFormulas: () => read('formulas'),
      getFormula: () => read('formulas')[0]![0],
      setFormula: (formula: string) => (write('setFormula', 'formulas', fill(desc, String(formula))), self),
      setFormulas: (formulas: unknown) => (guardWrite('setFormulas'), write('setFormulas', 'formulas', checkGrid(desc, formulas)), self),
      getNumberFormats: () => read('numberFormats'),
      getNumberFormat: () => read('numberFormats')[0]![0],
      setNumberFormat: (format: string) => (write('setNumberFormat', 'numberFormats', fill(desc, String(format))), self),
      setNumberFormats: (formats: unknown) => (
        guardWrite('setNumberFormats'), write('setNumberFormats', 'numberFormats', checkGrid(desc, formats)), self
      ),
      getFontWeight: () => read('fontWeights')[0]![0],
      getFontWeights: () => read('fontWeights'),
      setFontWeight: (weight: string | null) => (write('setFontWeight', 'fontWeights', fill(desc, weight)), self),
      setFontWeights: (weights: unknown) => (
        guardWrite('setFontWeights'), write('setFontWeights', 'fontWeights', checkGrid(desc, weights)), self
      ),
      getBackground: () => read('backgrounds')[0]![0],
      getBackgrounds: () => read('backgrounds'),
      setBackground: (color: string | null) => (write('setBackground', 'backgrounds', fill(desc, color)), self),
      getNote: () => read('notes')[0]![0],
      getNotes: () => read('notes'),
      setNote: (note: string) => (write('setNote', 'notes', fill(desc, note ?? '')), self),
      setNotes: (notes: unknown) => (guardWrite('setNotes'), write('setNotes', 'notes', checkGrid(desc, notes)), self),
      clearContent: () => (guardWrite('clearContent'), ops.rangeClear(desc, { contents: true, formats: false }), self),
      clearFormat: () => (guardWrite('clearFormat'), ops.rangeClear(desc, { contents: false, formats: true }), self),
      clearNote: () => (guardWrite('clearNote'), ops.rangeClear(desc, { contents: false, formats: false, notes: true }), self),
      clear: (options?: { contentsOnly?: boolean; formatOnly?: boolean }) => {
        guardWrite('clear');
        const o = (fromRealm(options) ?? {}) as { contentsOnly?: boolean; formatOnly?: boolean };
        ops.rangeClear(desc, { contents: !o.formatOnly, formats: !o.contentsOnly, notes: !o.contentsOnly && !o.formatOnly });
        return self;
      },
      createTextFinder: (findText: string) => textFinderFacade(kit, document, String(findText), desc),
      isBlank: () => read('values').every((row) => row.every((v) => v === '')),
      getA1Notation: () => formatA1(desc),
      getRow: () => desc.row,
      getColumn: () => desc.column,
      getRowIndex: () => desc.row,
      getLastRow: () => desc.row + desc.numRows - 1,
      getLastColumn: () => desc.column + desc.numColumns - 1,
      getNumRows: () => desc.numRows,
      getNumColumns: () => desc.numColumns,
      getHeight: () => desc.numRows,
      getWidth: () => desc.numColumns,
      getSheet: () => document.sheet(desc.sheetId),
      getGridId: () => desc.sheetId,
      offset: (rowOffset: number, columnOffset: number, numRows?: number, numColumns?: number) =>
        rangeAt(
          desc.sheetId,
          desc.row + Number(rowOffset),
          desc.column + Number(columnOffset),
          numRows ?? desc.numRows,
          numColumns ?? desc.numColumns,
        ),
      getCell: (row: number, column: number) => rangeAt(desc.sheetId, desc.row + Number(row) - 1, desc.column + Number(column) - 1, 1, 1),
      // Selects the range as a user would: the active sheet, getActiveRange and getCurrentCell follow.
      activate: () => (guardWrite('activate'), ops.spreadsheetSetActiveRange(desc), self),
      // Formatting the host does not model: allowed where writes are, recorded only as calls.
      setHorizontalAlignment: () => (guardWrite('setHorizontalAlignment'), self),
      setVerticalAlignment: () => (guardWrite('setVerticalAlignment'), self),
      setWrap: () => (guardWrite('setWrap'), self),
      setFontColor: () => (guardWrite('setFontColor'), self),
      setFontSize: () => (guardWrite('setFontSize'), self),
      setFontFamily: () => (guardWrite('setFontFamily'), self),
      setBorder: () => (guardWrite('setBorder'), self),
    });
    return self;
  };

  const rangeAt = (sheetId: number, row: number, column: number, numRows: number, numColumns: number): Facade => {
    const desc: RangeDescriptor = {
      sheetId,
      row: Number(row),
      column: Number(column),
      numRows: Number(numRows),
      numColumns: Number(numColumns),
    };
    ops.sheetCheckBox(sheetId, { row: desc.row, column: desc.column, numRows: desc.numRows, numColumns: desc.numColumns });
    return range(desc);
  };

  return { range, rangeAt };
}
