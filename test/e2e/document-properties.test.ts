/**
 * The document's properties stay within Apps Script's 500 KB (the local host enforces it): Run to
 * sheet's `engage.block.*` records go when their block is replaced or their sheet deleted, and saving a
 * schedule checks the room left first, refusing with one sentence and saving nothing.
 */
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';

const NOW = '2026-11-20T12:00:00Z';
let h: AddonHarness;

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const documentProperties = () => h.host.properties('document');
const blockKeys = () => [...documentProperties().keys()].filter((k) => k.startsWith('engage.block.')).sort();
const REQUEST = { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: ['day'] };

beforeAll(async () => {
  h = await startAddon({ sheets: ['Sheet1', 'Data'], maxColumns: 40 });
  await h.emulator.setClock(NOW);
  h.signIn();
});
afterAll(async () => {
  await h.close();
});

describe('Run to sheet block records', () => {
  it('keeps one record per block on the sheet, dropping those a new block replaced or whose sheet was deleted', () => {
    h.host.setActiveRange('Data', 'A1');
    call('runReportToSheet', REQUEST, { type: 'activeCell' }, 'block-a1');
    h.host.setActiveRange('Data', 'A30');
    call('runReportToSheet', REQUEST, { type: 'activeCell' }, 'block-a30');
    call('runReportToSheet', REQUEST, { type: 'newSheet', sheetName: 'Weekly' }, 'block-new');
    expect(blockKeys()).toEqual(['engage.block.Data!R1C1', 'engage.block.Data!R30C1', 'engage.block.Weekly!R1C1']);

    // A block at C5 covers cells of the one at A1 (9 rows from row 1): asked first, then written on the
    // user's word, and that record goes, A30's stays.
    h.host.setActiveRange('Data', 'C5');
    expect(call<{ question: { range: string } }>('runReportToSheet', REQUEST, { type: 'activeCell' }, 'block-c5').question.range).toBe(
      'Data!C5:J13',
    );
    call('runReportToSheet', REQUEST, { type: 'activeCell' }, 'block-c5', { choice: 'replace' });
    expect(blockKeys()).toEqual(['engage.block.Data!R30C1', 'engage.block.Data!R5C3', 'engage.block.Weekly!R1C1']);

    // The sheet "Weekly" is deleted: its record goes with the next run.
    h.host.state.spreadsheet.sheets.splice(
      h.host.state.spreadsheet.sheets.findIndex((s) => s.name === 'Weekly'),
      1,
    );
    h.host.setActiveRange('Data', 'C5');
    call('runReportToSheet', REQUEST, { type: 'activeCell' }, 'block-c5-again');
    expect(blockKeys()).toEqual(['engage.block.Data!R30C1', 'engage.block.Data!R5C3']);
  });
});

describe('saving a schedule', () => {
  const definition = (name: string) => ({
    name,
    kind: 'main',
    entityId: MEDIUM_PUBLISHER_ID,
    period: { type: 'lastDays', days: 7 },
    breakdowns: ['day'],
    target: { sheetName: 'Data', cell: 'A100' },
    schedule: { every: 'day', hour: 6 },
  });

  it("checks the room left in the document's properties first, and saves nothing when there is none", () => {
    expect(call<{ reports: unknown[] }>('saveSchedule', definition('First')).reports).toHaveLength(1);
    // Other properties fill the store to 3,000 bytes short of its 500 KB, read as 500,000 bytes (the stricter of 500,000 and 512,000).
    const used = [...documentProperties()].reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
    const filler = 500_000 - 3000 - used;
    for (let i = 0; filler - i * 9000 > 0; i++)
      documentProperties().set(`legacy.${i}`, 'x'.repeat(Math.min(9000, filler - i * 9000) - `legacy.${i}`.length));
    const before = Object.fromEntries(documentProperties());

    // A definition of a few hundred bytes would fit the 3,000, but not with room for its status.
    expect(() => call('saveSchedule', definition('Second'))).toThrow(
      /^savedReport: there is no room for it: this spreadsheet's properties would take 50\d KB of the 500 KB Apps Script keeps per document: delete a saved report first$/,
    );
    expect(Object.fromEntries(documentProperties())).toEqual(before);
    expect(call<{ reports: Array<{ name: string }> }>('listSchedules').reports.map((r) => r.name)).toEqual(['First']);
  });
});
