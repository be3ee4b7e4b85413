/**
 * touchRefreshCell where it cannot watch the formulas: a run whose document cache is out of reach (a
 * trigger run without the document: `getActiveSpreadsheet()` null, `getDocumentCache()` null) cannot
 * read how many formulas of a wave have ended, so it waits a wave's whole time (35 s: a custom
 * function's 30 s and the moment Sheets takes to start them) before the next, and never after the
 * last. Apps Script here is a small stand-in (a spreadsheet of cells and named ranges, a TextFinder
 * over formula text) on jest's clock, which only Utilities.sleep moves.
 */
import { touchRefreshCell } from '../../../../../src/gas/adapters/sheets/refresh-cell';

type Cell = { value: unknown; formula?: string };
const scope = globalThis as Record<string, unknown>;
let flushes: Array<{ atMs: number; changed: string[] }>;
let changed: string[];
let startMs: number;

function fakeSpreadsheet(formulas: number) {
  const cells = new Map<string, Cell>();
  const named = new Map<string, string>();
  const sheets = [{ name: 'Data', hidden: false }];
  const range = (key: string) => {
    const sheetName = key.split('!')[0]!;
    const cell = () => cells.get(key) ?? { value: '' };
    return {
      key,
      getValue: () => cell().value,
      setValue: (value: unknown) => {
        cells.set(key, { value });
        // Named by the row: the named range of a new cell is made just after its value.
        const row = Number(/R(\d+)C/.exec(key)![1]);
        changed.push(`${row === 1 ? 'EngageRefresh' : `EngageRefresh${row}`} = ${(value as Date).toISOString().slice(11, 19)}`);
      },
      getFormula: () => cell().formula ?? '',
      setFormula: (formula: string) => {
        cells.set(key, { value: '', formula });
        changed.push(`${key} -> ${/(\w+)\)$/.exec(formula)?.[1]}`);
      },
      getSheet: () => sheet(sheetName),
    };
  };
  const sheet = (name: string) => ({
    getName: () => name,
    getMaxRows: () => 1000,
    getRange: (row: number, column: number) => range(`${name}!R${row}C${column}`),
    hideSheet: () => {
      sheets.find((s) => s.name === name)!.hidden = true;
    },
  });
  for (let i = 1; i <= formulas; i++) cells.set(`Data!R${i}C1`, { value: 1, formula: `=ENGAGE_COUNTRIES(EngageRefresh)` });
  const spreadsheet = {
    getId: () => 'doc-1',
    getNamedRanges: () => [...named].map(([name, key]) => ({ getName: () => name, getRange: () => range(key) })),
    getRangeByName: (name: string) => (named.has(name) ? range(named.get(name)!) : null),
    setNamedRange: (name: string, target: { key: string }) => named.set(name, target.key),
    getSheetByName: (name: string) => (sheets.some((s) => s.name === name) ? sheet(name) : null),
    getSheets: () => sheets.map((s) => sheet(s.name)),
    getActiveSheet: () => sheet('Data'),
    setActiveSheet: () => undefined,
    insertSheet: (name: string) => {
      sheets.push({ name, hidden: false });
      return sheet(name);
    },
    createTextFinder: (pattern: string) => {
      const finder = {
        useRegularExpression: () => finder,
        matchFormulaText: () => finder,
        findAll: () => [...cells].filter(([, c]) => c.formula && new RegExp(pattern, 'i').test(c.formula)).map(([key]) => range(key)),
      };
      return finder;
    },
  };
  // The first refresh cell exists, as Refresh all made it; all the formulas were typed on it.
  spreadsheet.insertSheet('Engage refresh');
  cells.set('Engage refresh!R1C1', { value: new Date(startMs - 86_400_000) });
  named.set('EngageRefresh', 'Engage refresh!R1C1');
  return spreadsheet as unknown as GoogleAppsScript.Spreadsheet.Spreadsheet;
}

beforeEach(() => {
  startMs = Date.UTC(2026, 10, 20, 12);
  jest.useFakeTimers({ now: startMs });
  flushes = [];
  changed = [];
  // A trigger run without the document: no active spreadsheet, no document cache or lock.
  scope.SpreadsheetApp = {
    getActiveSpreadsheet: () => null,
    flush: () => {
      flushes.push({ atMs: Date.now() - startMs, changed });
      changed = [];
    },
  };
  scope.CacheService = { getDocumentCache: () => null };
  scope.LockService = { getDocumentLock: () => null };
  scope.Utilities = { sleep: (ms: number) => jest.setSystemTime(Date.now() + ms) };
});
afterEach(() => {
  jest.useRealTimers();
  for (const name of ['SpreadsheetApp', 'CacheService', 'LockService', 'Utilities']) delete scope[name];
});

it('waits a wave’s whole 35 s between waves when it cannot count the formulas, and not after the last', () => {
  const outcome = touchRefreshCell(fakeSpreadsheet(60), { deadlineAtMs: startMs + 6 * 60_000 - 15_000 });
  expect(outcome).toEqual({ formulas: 60, waves: 3, refreshedFormulas: 60, startedWaves: 3, busy: false });
  expect(flushes.map((f) => f.atMs)).toEqual([0, 35_000, 70_000]);
  // The moves first, 25 then 10 formulas, then EngageRefresh's own cell, which serves 25 by then.
  expect(flushes.map((f) => f.changed.filter((c) => c.includes('->')).length)).toEqual([25, 10, 0]);
  expect(flushes.map((f) => f.changed.filter((c) => !c.includes('->')))).toEqual([
    ['EngageRefresh2 = 12:00:00'],
    ['EngageRefresh3 = 12:00:00'],
    ['EngageRefresh = 12:00:00'],
  ]);
  // It returns as soon as the last wave started: its formulas compute after the run.
  expect(Date.now() - startMs).toBe(70_000);
});

it('leaves the waves it has no time to wait for, when given only the spreadsheet (25 s, an open’s simple trigger)', () => {
  const spreadsheet = fakeSpreadsheet(60);
  const outcome = touchRefreshCell(spreadsheet);
  expect(outcome).toEqual({ formulas: 60, waves: 3, refreshedFormulas: 25, startedWaves: 1, busy: false });
  expect(flushes.map((f) => f.atMs)).toEqual([0]);
  expect(Date.now() - startMs).toBe(25_000);
  // The next refresh takes up the rest: the other move, then the group left unchanged the longest.
  const next = touchRefreshCell(spreadsheet, { deadlineAtMs: Date.now() + 120_000 });
  expect(next).toEqual({ formulas: 60, waves: 3, refreshedFormulas: 60, startedWaves: 3, busy: false });
  expect(flushes.slice(1).map((f) => f.changed.filter((c) => !c.includes('->')))).toEqual([
    ['EngageRefresh3 = 12:00:25'],
    ['EngageRefresh = 12:00:25'],
    ['EngageRefresh2 = 12:00:25'],
  ]);
});
