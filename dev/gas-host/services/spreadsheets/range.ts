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

/** A grid written to a range must have its shape, with Sheets' messages when it has not. */
function checkGrid(kit: FacadeKit, desc: RangeDescriptor, grid: unknown): unknown[][] {
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
}

function fill(desc: RangeDescriptor, value: unknown): unknown[][] {
  return Array.from({ length: desc.numRows }, () => Array.from({ length: desc.numColumns }, () => fromRealm(value)));
}

type RangeAt = (sheetId: number, row: number, column: number, numRows: number, numColumns: number) => Facade;

/** A Range's getters and setters of its cells' values, formulas, number formats, weights, backgrounds and notes. */
function cellMembers(kit: FacadeKit, desc: RangeDescriptor, self: () => Facade) {
  const { ops, guardWrite } = kit;
  const read = (field: RangeField) => ops.rangeGet(desc, field);
  /** Every setter writes after the write guard; a grid setter guards before its grid's shape is checked too. */
  const write = (method: string, field: WritableRangeField, grid: unknown[][]) => {
    guardWrite(method);
    ops.rangeSet(desc, field, grid);
    return self();
  };
  const grid = (method: string, given: unknown) => (guardWrite(method), checkGrid(kit, desc, given));
  return {
    getValues: () => read('values'),
    getValue: () => read('values')[0]![0],
    getDisplayValues: () => read('displayValues'),
    getDisplayValue: () => read('displayValues')[0]![0],
    setValues: (values: unknown) => write('setValues', 'values', grid('setValues', values)),
    setValue: (value: unknown) => write('setValue', 'values', fill(desc, value)),
    getFormulas: () => read('formulas'),
    getFormula: () => read('formulas')[0]![0],
    setFormula: (formula: string) => write('setFormula', 'formulas', fill(desc, String(formula))),
    setFormulas: (formulas: unknown) => write('setFormulas', 'formulas', grid('setFormulas', formulas)),
    getNumberFormats: () => read('numberFormats'),
    getNumberFormat: () => read('numberFormats')[0]![0],
    setNumberFormat: (format: string) => write('setNumberFormat', 'numberFormats', fill(desc, String(format))),
    setNumberFormats: (formats: unknown) => write('setNumberFormats', 'numberFormats', grid('setNumberFormats', formats)),
    getFontWeight: () => read('fontWeights')[0]![0],
    getFontWeights: () => read('fontWeights'),
    setFontWeight: (weight: string | null) => write('setFontWeight', 'fontWeights', fill(desc, weight)),
    setFontWeights: (weights: unknown) => write('setFontWeights', 'fontWeights', grid('setFontWeights', weights)),
    getBackground: () => read('backgrounds')[0]![0],
    getBackgrounds: () => read('backgrounds'),
    setBackground: (color: string | null) => write('setBackground', 'backgrounds', fill(desc, color)),
    getNote: () => read('notes')[0]![0],
    getNotes: () => read('notes'),
    setNote: (note: string) => write('setNote', 'notes', fill(desc, note ?? '')),
    setNotes: (notes: unknown) => write('setNotes', 'notes', grid('setNotes', notes)),
  };
}

/** A Range's clearing, its place (A1 notation, position, offsets, its sheet), selection, and the formatting only counted. */
function otherMembers(kit: FacadeKit, document: DocumentFacades, desc: RangeDescriptor, rangeAt: RangeAt, self: () => Facade) {
  const { ops, guardWrite } = kit;
  const read = (field: RangeField) => ops.rangeGet(desc, field);
  return {
    clearContent: () => (guardWrite('clearContent'), ops.rangeClear(desc, { contents: true, formats: false }), self()),
    clearFormat: () => (guardWrite('clearFormat'), ops.rangeClear(desc, { contents: false, formats: true }), self()),
    clearNote: () => (guardWrite('clearNote'), ops.rangeClear(desc, { contents: false, formats: false, notes: true }), self()),
    clear: (options?: { contentsOnly?: boolean; formatOnly?: boolean }) => {
      guardWrite('clear');
      const o = (fromRealm(options) ?? {}) as { contentsOnly?: boolean; formatOnly?: boolean };
      ops.rangeClear(desc, { contents: !o.formatOnly, formats: !o.contentsOnly, notes: !o.contentsOnly && !o.formatOnly });
      return self();
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
    activate: () => (guardWrite('activate'), ops.spreadsheetSetActiveRange(desc), self()),
    // Formatting the host does not model: allowed where writes are, recorded only as calls.
    setHorizontalAlignment: () => (guardWrite('setHorizontalAlignment'), self()),
    setVerticalAlignment: () => (guardWrite('setVerticalAlignment'), self()),
    setWrap: () => (guardWrite('setWrap'), self()),
    setFontColor: () => (guardWrite('setFontColor'), self()),
    setFontSize: () => (guardWrite('setFontSize'), self()),
    setFontFamily: () => (guardWrite('setFontFamily'), self()),
    setBorder: () => (guardWrite('setBorder'), self()),
  };
}

export function rangeFacades(kit: FacadeKit, document: DocumentFacades): Pick<DocumentFacades, 'range' | 'rangeAt'> {
  const range = (desc: RangeDescriptor): Facade => {
    const self: Facade = kit.api('Range', {
      ...cellMembers(kit, desc, () => self),
      ...otherMembers(kit, document, desc, rangeAt, () => self),
    });
    return self;
  };

  const rangeAt: RangeAt = (sheetId, row, column, numRows, numColumns) => {
    const desc: RangeDescriptor = {
      sheetId,
      row: Number(row),
      column: Number(column),
      numRows: Number(numRows),
      numColumns: Number(numColumns),
    };
    kit.ops.sheetCheckBox(sheetId, { row: desc.row, column: desc.column, numRows: desc.numRows, numColumns: desc.numColumns });
    return range(desc);
  };

  return { range, rangeAt };
}
