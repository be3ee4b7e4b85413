/**
 * End to end: the menu's Refresh all changes the named refresh cell, which makes every ENGAGE_*
 * formula that takes it as its refresh argument fetch again, and leaves the user on their sheet.
 */
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID } from '../support/emulator';

let h: AddonHarness;
beforeAll(async () => {
  h = await startAddon({ sheets: ['Data'], maxColumns: 40 });
  h.signIn();
});
afterAll(async () => {
  await h.close();
});

it('creates the hidden refresh cell, keeps the user on their sheet, and makes referencing formulas fetch again', async () => {
  h.host.setActiveRange('Data', 'B2');
  h.host.call('refreshAll', [], { user: OWNER });
  expect(h.host.state.spreadsheet.sheetById(h.host.state.spreadsheet.activeSheetId)?.name).toBe('Data');

  const formula = `=ENGAGE_REPORT("${BIG_PUBLISHER_ID}", "2026-11-01", "2026-11-02", , , , , , , , EngageRefresh)`;
  const first = h.host.evaluateFormula('Data', 'A1', formula, { user: OWNER });
  expect(first.error).toBeUndefined();
  await h.emulator.clearRequests();
  h.host.call('refreshAll', [], { user: OWNER });
  const recalculated = await h.host.recalculate(undefined, { user: OWNER });
  expect(recalculated.map((r) => r.a1)).toEqual(['A1']);
  expect((await h.apiRequests()).filter((r) => r.path.endsWith('/reports/main'))).toHaveLength(1);
});

it('puts the refresh cell on a sheet of its own when a sheet of the user is named "Engage refresh" in another case', async () => {
  const other = await startAddon({ sheets: ['Data', 'ENGAGE REFRESH'] });
  try {
    other.signIn();
    other.host.setCell('ENGAGE REFRESH', 'A1', 'notes of the user');
    other.host.setActiveRange('Data', 'B2');
    other.host.call('refreshAll', [], { user: OWNER });
    expect(other.host.state.spreadsheet.sheets.map((s) => [s.name, s.hidden === true])).toEqual([
      ['Data', false],
      ['ENGAGE REFRESH', false],
      ['Engage refresh (2)', true],
    ]);
    expect(other.host.getValues('ENGAGE REFRESH', 'A1')).toEqual([['notes of the user']]);
    expect(other.host.getValues('Engage refresh (2)', 'A1')[0]![0]).toBeInstanceOf(Date);
    expect(other.host.state.spreadsheet.sheetById(other.host.state.spreadsheet.activeSheetId)?.name).toBe('Data');
  } finally {
    await other.close();
  }
});

it('signed out, says so first and changes nothing: no refresh cell moves, no formula fetches', async () => {
  h.host.setActiveRange('Data', 'B2');
  const formula = `=ENGAGE_REPORT("${BIG_PUBLISHER_ID}", "2026-11-01", "2026-11-02", , , , , , , , EngageRefresh)`;
  expect(h.host.evaluateFormula('Data', 'A1', formula, { user: OWNER }).error).toBeUndefined();
  h.host.call('signOut', [], { user: OWNER });
  const refreshCell = h.host.getValues('Engage refresh', 'A1')[0]![0];
  const shown = h.host.getValues('Data', 'A1:C3');
  const toastsBefore = h.host.state.ui.toasts.length;
  await h.emulator.clearRequests();

  h.host.call('refreshAll', [], { user: OWNER });
  expect(h.host.state.ui.toasts.slice(toastsBefore).map((t) => t.message)).toEqual([
    'Nobody is signed in to Engage, so Refresh all changed nothing: open the sidebar (Extensions › Engage for Sheets › Open sidebar), sign in, then Refresh all again.',
  ]);
  expect(h.host.getValues('Engage refresh', 'A1')[0]![0]).toEqual(refreshCell);
  expect(await h.host.recalculate(undefined, { user: OWNER })).toEqual([]);
  expect(h.host.getValues('Data', 'A1:C3')).toEqual(shown);
  expect(await h.apiRequests()).toEqual([]);
  h.signIn();
});
