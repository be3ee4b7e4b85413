/**
 * End to end, the refresh cells new formulas take: each refresh cell serves at most 25 ENGAGE_*
 * formulas (a wave of Refresh all), so Insert formula gives a new formula the fullest cell with room
 * and makes a new one (EngageRefresh2, on the hidden sheet) when all are full; a dashboard's five
 * formulas take one cell with room for all five. Nothing is made for a refused request.
 */
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';

let h: AddonHarness;
beforeEach(async () => {
  h = await startAddon({ sheets: ['Data', 'Typed'], maxColumns: 30 });
  h.signIn();
});
afterEach(async () => {
  await h.close();
});

const request = { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026-11-13', toDate: '2026-11-19', breakdowns: ['day'] };
const refreshOf = (formula: string) => /,(EngageRefresh\d*)\)$/.exec(formula)?.[1];

/** `count` formulas typed on the sheet 'Typed' with `refresh` as their refresh argument (not computed: they only need to exist). */
function typeFormulas(count: number, refresh: string, firstRow = 1): void {
  for (let i = 0; i < count; i++) h.host.setCell('Typed', `A${firstRow + i}`, `=ENGAGE_PUBLISHERS(${refresh})`);
}

function insertAt(a1: string): string {
  h.host.setActiveRange('Data', a1);
  return (h.host.call('insertFormula', [request], { user: OWNER }) as { formula: string }).formula;
}

it('gives a new formula the refresh cell while it serves fewer than 25, then a new cell on the hidden sheet', () => {
  // The first formula makes the first refresh cell: a formula always takes one (rolling days move with it).
  expect(h.host.state.spreadsheet.namedRanges.has('EngageRefresh')).toBe(false);
  expect(refreshOf(insertAt('A1'))).toBe('EngageRefresh');
  expect(h.host.state.spreadsheet.namedRanges.has('EngageRefresh')).toBe(true);
  typeFormulas(22, 'EngageRefresh');
  expect(refreshOf(insertAt('A20'))).toBe('EngageRefresh');
  expect(refreshOf(insertAt('A40'))).toBe('EngageRefresh');
  expect(h.host.state.spreadsheet.namedRanges.has('EngageRefresh2')).toBe(false);
  // EngageRefresh serves 25 now: the next formula takes a new cell, made in row 2 of the hidden sheet.
  expect(refreshOf(insertAt('A60'))).toBe('EngageRefresh2');
  const second = h.host.state.spreadsheet.namedRanges.get('EngageRefresh2')!;
  const first = h.host.state.spreadsheet.namedRanges.get('EngageRefresh')!;
  expect(second).toEqual({ ...first, row: 2 });
  expect(h.host.state.spreadsheet.sheetById(second.sheetId).hidden).toBe(true);
  expect(h.host.getCell('Data', 'A60').formula).toMatch(/,EngageRefresh2\)$/);
  expect(refreshOf(insertAt('A80'))).toBe('EngageRefresh2');
});

it('makes no new refresh cell for a request it refuses', () => {
  h.host.call('refreshAll', [], { user: OWNER });
  typeFormulas(25, 'EngageRefresh');
  h.host.setActiveRange('Data', 'A1');
  expect(() => h.host.call('insertFormula', [{ ...request, fromDate: 'soon' }], { user: OWNER })).toThrow(/fromDate|From/);
  expect(h.host.state.spreadsheet.namedRanges.has('EngageRefresh2')).toBe(false);
});

it("gives a dashboard's five formulas one refresh cell with room for all five", () => {
  h.host.call('refreshAll', [], { user: OWNER });
  typeFormulas(21, 'EngageRefresh');
  h.host.call('createDashboard', [MEDIUM_PUBLISHER_ID], { user: OWNER });
  const dashboard = h.host.state.spreadsheet.sheetByName('Engage dashboard')!;
  const refreshes = [...dashboard.cells.values()].filter((c) => c.formula?.startsWith('=ENGAGE_')).map((c) => refreshOf(c.formula!));
  expect(refreshes).toEqual(Array.from({ length: 5 }, () => 'EngageRefresh2'));
  // With 20 on EngageRefresh, five more fit there.
  h.host.setCell('Typed', 'A21', '');
  h.host.call('createDashboard', [MEDIUM_PUBLISHER_ID], { user: OWNER });
  const second = h.host.state.spreadsheet.sheetByName('Engage dashboard (2)')!;
  expect([...second.cells.values()].filter((c) => c.formula?.startsWith('=ENGAGE_')).map((c) => refreshOf(c.formula!))).toEqual(
    Array.from({ length: 5 }, () => 'EngageRefresh'),
  );
});
