import { createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
function write(a1, rows) { SpreadsheetApp.getActiveSheet().getRange(a1).setValues(rows); }
function writeAt(r, c, nr, nc, rows) { SpreadsheetApp.getActiveSheet().getRange(r, c, nr, nc).setValues(rows); }
function writeSameRow(a1, row, times) { var rows = []; for (var i = 0; i < times; i++) rows.push(row); SpreadsheetApp.getActiveSheet().getRange(a1).setValues(rows); }
function read(a1) { return SpreadsheetApp.getActiveSheet().getRange(a1).getValues(); }
function formulas(a1) { return SpreadsheetApp.getActiveSheet().getRange(a1).getFormulas(); }
function format(a1, f) { var r = SpreadsheetApp.getActiveSheet().getRange(a1); r.setNumberFormat(f).setFontWeight('bold').setBackground('#eeeeee').setNote('n'); return [r.getNumberFormat(), r.getNote(), r.getA1Notation(), r.getRow(), r.getColumn(), r.getNumRows(), r.getNumColumns()]; }
function dims() { var s = SpreadsheetApp.getActiveSheet(); return [s.getLastRow(), s.getLastColumn(), s.getMaxRows(), s.getDataRange().getA1Notation()]; }
function sheets() {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var report = ss.insertSheet('Report');
  report.setFrozenRows(1);
  ss.setNamedRange('Totals', report.getRange('B2:C3'));
  var chart = report.newChart().setChartType(Charts.ChartType.LINE).addRange(report.getRange('A1:B5')).setPosition(1, 5, 0, 0).setOption('title', 'Revenue').build();
  report.insertChart(chart);
  return [ss.getSheets().map(function (s) { return s.getName(); }), ss.getSheetByName('Report').getFrozenRows(), ss.getRangeByName('Totals').getA1Notation(), report.getCharts().length, ss.getSpreadsheetTimeZone(), ss.getOwner().getEmail()];
}
function hideAndShow() { var s = SpreadsheetApp.getActiveSpreadsheet().insertSheet('Hidden'); s.hideSheet(); var hidden = s.isSheetHidden(); s.getRange(1, 1).setValue(5); s.showSheet(); return [hidden, s.isSheetHidden(), s.getRange(1, 1).getValue()]; }
function badRange() { SpreadsheetApp.getActiveSheet().getRange(0, 1); }
function outside() { SpreadsheetApp.getActiveSheet().getRange(1001, 1); }
function writeInCustomFunction() { SpreadsheetApp.getActiveSheet().getRange('A1').setValue(1); }
function clearIt() { var s = SpreadsheetApp.getActiveSheet(); s.clearContents(); return s.getLastRow(); }
function insertNamed(name) { var s = SpreadsheetApp.getActiveSpreadsheet().insertSheet(name); return [s.getMaxRows(), s.getMaxColumns()]; }
function grow(name, rows, columns) { var s = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name); if (rows) s.insertRowsAfter(s.getMaxRows(), rows); if (columns) s.insertColumnsAfter(s.getMaxColumns(), columns); return [s.getMaxRows(), s.getMaxColumns()]; }
function appendTo(name, values) { SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name).appendRow(values); }
function rename(from, to) { SpreadsheetApp.getActiveSpreadsheet().getSheetByName(from).setName(to); return SpreadsheetApp.getActiveSpreadsheet().getSheets().map(function (s) { return s.getName(); }); }
function byName(name) { var s = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name); return s ? s.getName() : null; }
function insertUnnamed() { return SpreadsheetApp.getActiveSpreadsheet().insertSheet().getName(); }
`;

describe('SpreadsheetApp', () => {
  it('rejects data whose size does not match the range with the real messages', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(() =>
      host.call('write', [
        'A1:B3',
        [
          [1, 2],
          [3, 4],
        ],
      ]),
    ).toThrow('The number of rows in the data does not match the number of rows in the range. The data has 2 but the range has 3.');
    expect(() => host.call('writeAt', [1, 1, 1, 2, [[1, 2, 3]]])).toThrow(
      'The number of columns in the data does not match the number of columns in the range. The data has 3 but the range has 2.',
    );
  });

  it('takes a grid whose rows are one array used several times as that many rows, as Apps Script does', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('writeSameRow', ['A1:B3', [1, 'x'], 3]);
    expect(host.call('read', ['A1:B3'])).toEqual([
      [1, 'x'],
      [1, 'x'],
      [1, 'x'],
    ]);
  });

  it('takes a string starting with "=" as a formula and one starting with an apostrophe as text', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('write', ['A1:C1', [['=HYPERLINK("x")', "'=not a formula", "'007"]]]);
    expect(host.call('formulas', ['A1:C1'])).toEqual([['=HYPERLINK("x")', '', '']]);
    expect(host.call('read', ['B1:C1'])).toEqual([['=not a formula', '007']]);
  });

  it('parses numeric text as Sheets does, unless the cell is formatted as plain text', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('format', ['B1', '@']);
    host.call('write', ['A1:B1', [['00123', '00123']]]);
    expect(host.call('read', ['A1:B1'])).toEqual([[123, '00123']]);
  });

  it('stores dates as dates', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    const when = new Date('2024-03-01T12:00:00Z');
    host.call('write', ['A1', [[when]]]);
    const value = (host.call('read', ['A1']) as Date[][])[0]![0];
    expect(value).toBeInstanceOf(Date);
    expect(value!.getTime()).toBe(when.getTime());
  });

  it('records formats, notes and geometry', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.call('format', ['B2:C4', '0.00'])).toEqual(['0.00', 'n', 'B2:C4', 2, 2, 3, 2]);
    host.call('write', [
      'A1:B2',
      [
        [1, 2],
        [3, 4],
      ],
    ]);
    expect(host.call('dims')).toEqual([2, 2, 1000, 'A1:B2']);
    expect(host.call('clearIt')).toBe(0);
  });

  it('manages sheets, named ranges and charts', () => {
    const host = createGasHost({ timeZone: 'Europe/Paris', owner: 'boss@example.com' });
    host.load(BUNDLE);
    expect(host.call('sheets')).toEqual([['Sheet1', 'Report'], 1, 'B2:C3', 1, 'Europe/Paris', 'boss@example.com']);
  });

  it('refuses a new or renamed sheet whose name another has in any case, as Sheets does; getSheetByName matches the exact name', () => {
    const host = createGasHost({ sheets: ['Sheet1', 'Report'] });
    host.load(BUNDLE);
    for (const name of ['Report', 'report', 'REPORT'])
      expect(() => host.call('insertNamed', [name])).toThrow(`A sheet with the name "${name}" already exists. Please enter another name.`);
    expect(() => host.call('rename', ['Sheet1', 'rePort'])).toThrow('A sheet with the name "rePort" already exists.');
    // A sheet may change the case of its own name.
    expect(host.call('rename', ['Report', 'REPORT'])).toEqual(['Sheet1', 'REPORT']);
    expect([host.call('byName', ['REPORT']), host.call('byName', ['Report'])]).toEqual(['REPORT', null]);
    // An unnamed sheet takes the next "SheetN" free in any case.
    host.call('rename', ['REPORT', 'sheet3']);
    expect(host.call('insertUnnamed')).toBe('Sheet4');
  });

  it('hides and shows sheets, which stay writable while hidden', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.call('hideAndShow')).toEqual([true, false, 5]);
  });

  it('throws the real messages for ranges outside the grid', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(() => host.call('badRange')).toThrow('The starting row of the range is too small.');
    expect(() => host.call('outside')).toThrow('The coordinates of the range are outside the dimensions of the sheet.');
  });

  it('forbids writes during a custom function', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(() => host.call('writeInCustomFunction', [], { authMode: 'CUSTOM_FUNCTION' })).toThrow(
      'You do not have permission to call setValue',
    );
    expect(() => host.call('write', ['A1', [[1]]], { authMode: 'CUSTOM_FUNCTION' })).toThrow(
      'You do not have permission to call setValues',
    );
  });

  it('writes large blocks in time linear in their size, and still marks formulas that read a written cell', () => {
    const host = createGasHost({ maxColumns: 30 });
    host.load(BUNDLE);
    host.setCell('Sheet1', 'Z1', '=ENGAGE_PUBLISHERS(A1)');
    // Evaluated once, the formula is clean: only the write below can mark it dirty again.
    host.evaluateFormula('Sheet1', 'Z1');
    const rows = Array.from({ length: 400 }, (_, r) => Array.from({ length: 25 }, (_, c) => r * 25 + c));
    const startedAt = Date.now();
    for (let i = 0; i < 4; i++) host.call('writeAt', [1 + i * 200, 1, 400, 25, rows]);
    expect(Date.now() - startedAt).toBeLessThan(3000);
    expect(host.getCell('Sheet1', 'A1').value).toBe(0);
    expect((host.state.spreadsheet.sheetByName('Sheet1')!.cells.get('1:26') as { dirty?: boolean }).dirty).toBe(true);
  });

  it('inserts sheets of 1,000 rows and 26 columns, as Sheets does', () => {
    const host = createGasHost({ maxRows: 5000, maxColumns: 40 });
    host.load(BUNDLE);
    expect(host.call('insertNamed', ['New'])).toEqual([1000, 26]);
    expect(host.state.spreadsheet.cellCount()).toBe(5000 * 40 + 1000 * 26);
  });

  it("refuses to pass 10,000,000 cells in the spreadsheet, counting every sheet's grid, empty cells too", () => {
    // Two sheets of 4,989,998 cells: 20,004 cells are left.
    const host = createGasHost({ sheets: ['A', 'B'], maxRows: 191_923, maxColumns: 26 });
    host.load(BUNDLE);
    const left = 10_000_000 - host.state.spreadsheet.cellCount();
    expect(left).toBe(20_004);
    const refusal = 'This action would increase the number of cells in the workbook above the limit of 10000000 cells.';
    expect(() => host.call('insertNamed', ['C'])).toThrow(refusal);
    expect(host.state.spreadsheet.sheets.map((s) => s.name)).toEqual(['A', 'B']);
    expect(() => host.call('grow', ['B', 770, 0])).toThrow(refusal);
    expect(() => host.call('grow', ['B', 0, 1])).toThrow(refusal);
    expect(host.call('grow', ['B', 769, 0])).toEqual([192_692, 26]);
    expect(host.state.spreadsheet.cellCount()).toBe(10_000_000 - 10);
    expect(() => host.call('appendTo', ['A', Array.from({ length: 27 }, () => 1)])).toThrow(refusal);
    // A formula result that would need rows past the limit is not expanded.
    host.setCell('A', 'A191923', '=ENGAGE_PUBLISHERS()');
    host.load(`${BUNDLE}\n/** @customfunction */\nfunction ENGAGE_PUBLISHERS() { return [[1], [2], [3]]; }`);
    expect(host.evaluateFormula('A', 'A191923')).toMatchObject({
      value: '#REF!',
      error: 'Result was not automatically expanded, please insert more rows.',
    });
    expect(host.state.spreadsheet.cellCount()).toBe(10_000_000 - 10);
  });

  it('counts every service call so benchmarks can measure calls per write', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.resetCounters();
    host.call('write', [
      'A1:B2',
      [
        [1, 2],
        [3, 4],
      ],
    ]);
    expect(host.counters).toEqual({ 'SpreadsheetApp.getActiveSheet': 1, 'Sheet.getRange': 1, 'Range.setValues': 1 });
  });
});
