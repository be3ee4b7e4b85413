/**
 * Executions at once per user and automatic recalculation. Apps Script's quotas page: "Simultaneous
 * executions per user: 30", and past it "There are too many scripts running simultaneously for this
 * Google user account" (https://developers.google.com/apps-script/guides/services/quotas). Under the
 * strict reading (`executionsPerUserLimit`) the host refuses the 31st at its start; under the kind one
 * it refuses none. A recalculation starts every dirty formula at the same moment, as Sheets does, and
 * automatic recalculation lets a script that changes a cell, flushes and waits see its formulas end.
 */
import { createDeployment, createGasHost, type GasHost } from '../../../dev/gas-host';

const TOO_MANY = 'There are too many scripts running simultaneously for this Google user account.';

const BUNDLE = `
/** @customfunction */
function SLOW(ms, refresh) { Utilities.sleep(ms); return 'done:' + refresh; }
/** @customfunction */
function TOUCH_DONE(refresh) { CacheService.getDocumentCache().put('done:' + refresh, '1', 600); return 'seen:' + refresh; }
function nap(ms) { Utilities.sleep(ms); return 'rested'; }
function hello() { return 'hello'; }
function nameCell(name, a1) { var ss = SpreadsheetApp.getActiveSpreadsheet(); ss.setNamedRange(name, ss.getActiveSheet().getRange(a1)); }
function write(a1, value) { SpreadsheetApp.getActiveSpreadsheet().getActiveSheet().getRange(a1).setValue(value); }
/** Changes the refresh cell, flushes, then waits (at most waitMs) until the formula has put its mark. */
function touchAndWait(value, waitMs) {
  SpreadsheetApp.getActiveSpreadsheet().getRangeByName('Go').setValue(value);
  SpreadsheetApp.flush();
  var cache = CacheService.getDocumentCache();
  for (var waited = 0; waited < waitMs; waited += 50) {
    if (cache.get('done:' + value)) return 'seen after flush';
    Utilities.sleep(50);
  }
  return 'never seen';
}
function findCells(text, regex, formulaText, sheet) {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var finder = (sheet ? ss.getSheetByName(sheet) : ss).createTextFinder(text).useRegularExpression(regex).matchFormulaText(formulaText);
  return finder.findAll().map(function (r) { return r.getSheet().getName() + '!' + r.getA1Notation(); });
}
function namedRanges() {
  return SpreadsheetApp.getActiveSpreadsheet().getNamedRanges().map(function (n) {
    var r = n.getRange();
    return n.getName() + '=' + r.getSheet().getName() + '!' + r.getA1Notation();
  });
}
`;

const hosts: GasHost[] = [];
function newHost(options: Parameters<typeof createGasHost>[0] = {}): GasHost {
  const host = createGasHost({ concurrency: 4, ...options });
  host.load(BUNDLE);
  hosts.push(host);
  return host;
}
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

describe('30 executions at once per user (strict reading)', () => {
  it('refuses the 31st execution of a user at its start, counting those that wait for a worker as running', async () => {
    const host = newHost({ strict: { executionsPerUserLimit: true } });
    const calls = Array.from({ length: 31 }, () => ({ functionName: 'nap', args: [50] }));
    const outcomes = await host.callConcurrently(calls);
    // Four workers: 26 of the 30 admitted waited for one, and still counted.
    expect(outcomes.filter((o) => o.ok)).toHaveLength(30);
    expect(outcomes.filter((o) => !o.ok).map((o) => o.error?.message)).toEqual([TOO_MANY]);
    expect(host.executionsAtOnce()).toEqual({ running: 0, peak: 30, refused: 1 });
  });

  it('refuses none under the kind reading: the 31st waits for a worker like the others', async () => {
    const host = newHost({ strict: { executionsPerUserLimit: false } });
    const outcomes = await host.callConcurrently(Array.from({ length: 31 }, () => ({ functionName: 'nap', args: [10] })));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(host.executionsAtOnce()).toEqual({ running: 0, peak: 31, refused: 0 });
  });

  it('starts every dirty formula at once: 30 compute, the other 10 show #ERROR! with Google message', async () => {
    const host = newHost({ strict: { executionsPerUserLimit: true } });
    for (let row = 1; row <= 40; row++) host.setCell(undefined, `A${row}`, '=SLOW(20, 1)');
    const results = await host.recalculate();
    expect(results.filter((r) => r.value === 'done:1')).toHaveLength(30);
    const refused = results.filter((r) => r.error !== undefined);
    expect(refused.map((r) => [r.value, r.error])).toEqual(Array.from({ length: 10 }, () => ['#ERROR!', TOO_MANY]));
    expect(host.formulaRuns.filter((r) => r.refused)).toHaveLength(10);
    expect(host.formulaRuns.filter((r) => r.refused).every((r) => r.startedAtMs === undefined)).toBe(true);
  });

  it('refuses a call of the same user while 30 formulas run, and counts a formula against the owner whoever recalculates', async () => {
    const host = newHost({ owner: 'owner@example.com', strict: { executionsPerUserLimit: true } });
    for (let row = 1; row <= 30; row++) host.setCell(undefined, `A${row}`, '=SLOW(300, 1)');
    const running = host.recalculate(undefined, { user: 'editor@example.com' });
    // The formulas count against the owner (UNCONFIRMED: no page says which user): the owner's 31st is refused, the editor's is not.
    expect(host.executionsAtOnce('owner@example.com').running).toBe(30);
    expect(host.run('hello', [], { user: 'owner@example.com' }).error?.message).toBe(TOO_MANY);
    expect(host.run('hello', [], { user: 'editor@example.com' }).value).toBe('hello');
    expect(host.evaluateFormula(undefined, 'B1', '=SLOW(0, 2)').error).toBe(TOO_MANY);
    await running;
    expect(host.run('hello', [], { user: 'owner@example.com' }).value).toBe('hello');
  });

  it("adds up one user's executions in every document of the add-on", async () => {
    const deployment = createDeployment({ clock: 'real' });
    const strict = { executionsPerUserLimit: true };
    const a = newHost({ deployment, documentId: 'doc-a', owner: 'ann@example.com', strict });
    const b = newHost({ deployment, documentId: 'doc-b', owner: 'ann@example.com', strict });
    for (let row = 1; row <= 20; row++) {
      a.setCell(undefined, `A${row}`, '=SLOW(200, 1)');
      b.setCell(undefined, `A${row}`, '=SLOW(200, 1)');
    }
    const [inA, inB] = await Promise.all([a.recalculate(), b.recalculate()]);
    expect(inA!.filter((r) => r.error === undefined)).toHaveLength(20);
    expect(inB!.filter((r) => r.error === TOO_MANY)).toHaveLength(10);
    expect(a.executionsAtOnce('ann@example.com')).toMatchObject({ peak: 30, refused: 10 });
  });
});

describe('automatic recalculation', () => {
  it('starts the formulas an execution in a worker made dirty when it flushes, so the execution can wait for them', async () => {
    const host = newHost({ autoRecalculate: true });
    host.call('nameCell', ['Go', 'Z1']);
    host.setCell(undefined, 'A1', '=TOUCH_DONE(Go)');
    await host.recalculate();
    const [outcome] = await host.callConcurrently([{ functionName: 'touchAndWait', args: [7, 5000] }]);
    expect(outcome!.value).toBe('seen after flush');
    await host.whenRecalculated();
    expect(host.getCell(undefined, 'A1').value).toBe('seen:7');
  });

  it('without it, nothing computes until asked, and the waiting execution never sees its formula', async () => {
    const host = newHost();
    host.call('nameCell', ['Go', 'Z1']);
    host.setCell(undefined, 'A1', '=TOUCH_DONE(Go)');
    await host.recalculate();
    const [outcome] = await host.callConcurrently([{ functionName: 'touchAndWait', args: [7, 300] }]);
    expect(outcome!.value).toBe('never seen');
    expect(host.getCell(undefined, 'A1').value).toBe('seen:');
  });

  it('starts them when an execution on the calling thread ends (it cannot overlap them), and runs again a formula changed while it computed', async () => {
    const host = newHost({ autoRecalculate: true });
    host.setCell(undefined, 'A1', '=SLOW(300, B1)');
    host.call('write', ['B1', 1]);
    // The write's end started A1 with 1; change B1 while A1 computes.
    await new Promise((resolve) => setTimeout(resolve, 100));
    host.call('write', ['B1', 2]);
    await host.whenRecalculated();
    expect(host.getCell(undefined, 'A1').value).toBe('done:2');
    expect(host.formulaRuns.map((r) => r.a1)).toEqual(['A1', 'A1']);
  });
});

describe('TextFinder and named ranges', () => {
  it('finds formula cells by their formula text, with a regular expression, sheet by sheet and row by row', () => {
    const host = newHost({ sheets: ['One', 'Two'] });
    host.setCell('Two', 'B2', '=SLOW(1, Refresh)');
    host.setCell('One', 'C5', '=slow(1, refresh2)');
    host.setCell('One', 'A9', '=SLOW(1, Refresh)');
    host.setCell('One', 'A1', 'SLOW(1, Refresh) typed as text');
    const pattern = 'SLOW\\(\\d+, Refresh\\)';
    // By what the cells show, the formulas (not computed yet) show nothing: only the text matches.
    expect(host.call('findCells', [pattern, true, false])).toEqual(['One!A1']);
    expect(host.call('findCells', [pattern, true, true])).toEqual(['One!A1', 'One!A9', 'Two!B2']);
    expect(host.call('findCells', ['=SLOW(1, Refresh)', false, true, 'One'])).toEqual(['One!A9']);
    expect(host.call('findCells', ['refresh2)', false, true])).toEqual(['One!C5']);
    expect(host.call('namedRanges')).toEqual([]);
    host.call('nameCell', ['Go', 'Z1']);
    expect(host.call('namedRanges')).toEqual(['Go=One!Z1']);
  });
});
