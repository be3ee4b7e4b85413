import { createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
/** @customfunction */
function DESCRIBE(a, b) {
  function kind(v) { return v === undefined ? 'undefined' : Array.isArray(v) ? 'grid:' + v.length + 'x' + v[0].length : typeof v + ':' + v; }
  return [[kind(a), kind(b)]];
}
/** @customfunction */
function ECHO(v, refresh) { return v + ':' + refresh; }
function nameRange(name, a1) { var ss = SpreadsheetApp.getActiveSpreadsheet(); ss.setNamedRange(name, ss.getActiveSheet().getRange(a1)); }
function touch(name, value) { SpreadsheetApp.getActiveSpreadsheet().getRangeByName(name).setValue(value); }
function selection() {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var r = ss.getActiveRange(), c = ss.getActiveCell(), cur = ss.getCurrentCell();
  return [ss.getActiveSheet().getName(), r.getSheet().getName() + '!' + r.getA1Notation(), c.getA1Notation(), cur.getA1Notation(), SpreadsheetApp.getActiveRange().getA1Notation()];
}
function select(sheet, a1) { SpreadsheetApp.getActiveSpreadsheet().getSheetByName(sheet).getRange(a1).activate(); }
/** @customfunction */
function SELECT_IN_FORMULA() { SpreadsheetApp.getActiveSpreadsheet().getRange('B2').activate(); return 1; }
`;

describe('named ranges as formula arguments', () => {
  it('passes a one-cell named range as its value and a larger one as a 2D array, as Sheets does', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('nameRange', ['Refresh', 'Z1']);
    host.call('nameRange', ['Block', 'A5:B7']);
    host.setCell(undefined, 'Z1', 42);
    expect(host.evaluateFormula(undefined, 'A1', '=DESCRIBE(Refresh, Block)').values).toEqual([['number:42', 'grid:3x2']]);
  });

  it('passes the text #NAME? for an argument that names no range (Sheets would show #NAME? in the cell)', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    const cell = host.evaluateFormula(undefined, 'A1', '=ECHO(1, NoSuchName)');
    expect(cell.value).toBe('1:#NAME?');
  });

  it('recalculates a formula when the cell behind its named argument changes (the refresh-cell pattern)', async () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('nameRange', ['EngageRefresh', 'Z1']);
    host.setCell(undefined, 'Z1', 1);
    host.setCell(undefined, 'A1', '=ECHO("x", EngageRefresh)');
    await host.recalculate();
    expect(host.getCell(undefined, 'A1').value).toBe('x:1');
    host.call('touch', ['EngageRefresh', 2]);
    await host.recalculate();
    expect(host.getCell(undefined, 'A1').value).toBe('x:2');
  });

  it('recalculates a formula whose named argument comes to exist (#NAME? before), as Sheets does', async () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.setCell(undefined, 'Z1', 5);
    host.setCell(undefined, 'A1', '=ECHO("x", Later)');
    await host.recalculate();
    expect(host.getCell(undefined, 'A1').value).toBe('x:#NAME?');
    host.call('nameRange', ['Later', 'Z1']);
    expect((await host.recalculate()).map((r) => [r.a1, r.value])).toEqual([['A1', 'x:5']]);
  });
});

describe('the active cell', () => {
  it('is A1 of the active sheet until something is selected', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.call('selection', [])).toEqual(['Sheet1', 'Sheet1!A1', 'A1', 'A1', 'A1']);
  });

  it('follows a selection made with setActiveRange: the range, its top-left cell and its sheet', () => {
    const host = createGasHost({ sheets: ['Sheet1', 'Data'] });
    host.load(BUNDLE);
    host.setActiveRange('Data', 'C4:E9');
    expect(host.call('selection', [])).toEqual(['Data', 'Data!C4:E9', 'C4', 'C4', 'C4:E9']);
    host.setActiveRange('Sheet1', 'B2');
    expect(host.call('selection', [])).toEqual(['Sheet1', 'Sheet1!B2', 'B2', 'B2', 'B2']);
  });

  it('follows Range.activate in a script, which a custom function may not call', () => {
    const host = createGasHost({ sheets: ['Sheet1', 'Data'] });
    host.load(BUNDLE);
    host.call('select', ['Data', 'D7']);
    expect(host.call('selection', [])).toEqual(['Data', 'Data!D7', 'D7', 'D7', 'D7']);
    expect(host.evaluateFormula('Sheet1', 'A1', '=SELECT_IN_FORMULA()').error).toBe('You do not have permission to call activate');
    expect((host.call('selection', []) as string[])[1]).toBe('Data!D7');
  });
});
