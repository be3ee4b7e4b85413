/**
 * The host's Sheet.deleteRows and deleteColumns and the spreadsheet's developer metadata, which the add-on's own sheets
 * (the run log, revisions) rely on: deleted rows take their cells with them and the rows below move up,
 * the grid shrinks, and Sheets' refusals hold; metadata of the spreadsheet outlives a deleted sheet
 * (the Sheets API's DeveloperMetadata reference: "If the associated object is deleted then its metadata
 * is deleted too", and the spreadsheet is not deleted with a sheet), reaches a document opened by ID,
 * and a custom function may not add any.
 */
import { createDeployment, createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
function fill(name, rows) {
  var s = SpreadsheetApp.getActiveSpreadsheet().insertSheet(name);
  var values = [];
  for (var r = 1; r <= rows; r++) values.push(['row ' + r, r]);
  s.getRange(1, 1, rows, 2).setValues(values);
  s.getRange(3, 1).setNote('third');
  return s.getMaxRows();
}
function remove(name, row, howMany) {
  var s = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name);
  s.deleteRows(row, howMany);
  return [s.getMaxRows(), s.getLastRow(), s.getRange(1, 1, 3, 2).getValues(), s.getRange(1, 1).getNote()];
}
function dropRows(name, row, howMany) { SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name).deleteRows(row, howMany); }
function narrow(name, column, howMany) {
  var s = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name);
  s.deleteColumns(column, howMany);
  return [s.getMaxColumns(), s.getRange(1, 1, 1, s.getMaxColumns()).getValues()[0]];
}
function freeze(name, rows) { SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name).setFrozenRows(rows); }
function mark(key, value) { SpreadsheetApp.getActiveSpreadsheet().addDeveloperMetadata(key, value); }
function marks(id) {
  var ss = id ? SpreadsheetApp.openById(id) : SpreadsheetApp.getActiveSpreadsheet();
  return ss.getDeveloperMetadata().map(function (m) { return [m.getKey(), m.getValue()]; });
}
function markById(id, key, value) { SpreadsheetApp.openById(id).addDeveloperMetadata(key, value); }
function unmark(key) {
  SpreadsheetApp.getActiveSpreadsheet().getDeveloperMetadata().forEach(function (m) { if (m.getKey() === key) m.remove(); });
}
function dropSheet(name) { var ss = SpreadsheetApp.getActiveSpreadsheet(); ss.deleteSheet(ss.getSheetByName(name)); }
`;

describe('Sheet.deleteRows', () => {
  it('removes the rows with their cells, moves the rows below up and shrinks the grid', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.call('fill', ['Log', 10])).toBe(1000);
    // Rows 1 and 2 go: row 3 (with its note) is now row 1.
    expect(host.call('remove', ['Log', 1, 2])).toEqual([
      998,
      8,
      [
        ['row 3', 3],
        ['row 4', 4],
        ['row 5', 5],
      ],
      'third',
    ]);
    expect(host.getValues('Log', 'A8:B9')).toEqual([
      ['row 10', 10],
      ['', ''],
    ]);
    expect(host.counters['Sheet.deleteRows']).toBe(1);
  });

  it("refuses rows outside the grid and leaving no row that is not frozen, with Sheets' words", () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('fill', ['Small', 3]);
    expect(() => host.call('remove', ['Small', 999, 5])).toThrow('Those rows are out of bounds.');
    host.call('freeze', ['Small', 1]);
    expect(() => host.call('remove', ['Small', 2, 999])).toThrow('Sorry, it is not possible to delete all non-frozen rows.');
    // Nothing was removed by the refusals; one row that is not frozen may stay.
    expect(host.getValues('Small', 'A1:A3')).toEqual([['row 1'], ['row 2'], ['row 3']]);
    host.call('dropRows', ['Small', 2, 998]);
    expect(host.getValues('Small').map((row) => row.slice(0, 2))).toEqual([
      ['row 1', 1],
      ['', ''],
    ]);
  });
});

describe('Sheet.deleteColumns', () => {
  it('removes the columns with their cells, moves those to the right left and narrows the grid', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('fill', ['Wide', 2]);
    host.setCell('Wide', 'D1', 'd');
    expect(host.call('narrow', ['Wide', 2, 2])).toEqual([24, ['row 1', 'd', ...Array(22).fill('')]]);
    expect(() => host.call('narrow', ['Wide', 1, 24])).toThrow('Sorry, it is not possible to delete all non-frozen columns.');
    expect(() => host.call('narrow', ['Wide', 20, 10])).toThrow('Those columns are out of bounds.');
  });
});

describe("the spreadsheet's developer metadata", () => {
  it('outlives a deleted sheet, can be removed, and a custom function may not add any', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('fill', ['Engage log', 2]);
    host.call('mark', ['engage.sheet', 'Engage log']);
    host.call('dropSheet', ['Engage log']);
    expect(host.call('marks', [])).toEqual([['engage.sheet', 'Engage log']]);
    host.call('unmark', ['engage.sheet']);
    expect(host.call('marks', [])).toEqual([]);
    expect(() => host.call('mark', ['k', 'v'], { authMode: 'CUSTOM_FUNCTION' })).toThrow(/permission/);
  });

  it("is the opened document's for a spreadsheet opened by ID", () => {
    const deployment = createDeployment();
    const a = createGasHost({ deployment, documentId: 'doc-a' });
    const b = createGasHost({ deployment, documentId: 'doc-b' });
    a.load(BUNDLE);
    b.load(BUNDLE);
    a.call('markById', ['doc-b', 'engage.sheet', 'Engage revisions']);
    expect(b.call('marks', [])).toEqual([['engage.sheet', 'Engage revisions']]);
    expect(a.call('marks', [])).toEqual([]);
    expect(a.call('marks', ['doc-b'])).toEqual([['engage.sheet', 'Engage revisions']]);
  });
});
