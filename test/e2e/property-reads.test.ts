/**
 * What the sidebar's report builder costs in reads of the document's properties, counted by the local
 * host per store as Apps Script's Properties quota counts them (50,000 reads and writes a day,
 * consumer). With 100 saved reports, asking which report holds the selected cell (every time the
 * sidebar gets the focus back) and a Run to sheet read the document's properties once per look at the
 * sheet (a run looks before fetching only for a new sheet's taken name, and again before writing): one
 * getProperties whatever the number of saved reports. Read key by key, one read per saved report's
 * definition and status, the same four cases took 202, 204, 309 and 304 reads.
 */
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';

const NOW = '2026-11-20T12:00:00Z';
const SAVED = 100;
let h: AddonHarness;

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const documentProperties = () => h.host.properties('document');
/** Another report than the saved ones (by country, theirs by day): their blocks are not its own. */
const REQUEST = { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: ['country'] };
/** Reads of the document's properties made by `work`. */
function documentReads(work: () => void): number {
  h.host.resetCounters();
  work();
  return h.host.counters['Properties.document.reads'] ?? 0;
}

beforeAll(async () => {
  h = await startAddon({ sheets: ['Sheet1', 'Data', 'Saved'] });
  await h.emulator.setClock(NOW);
  h.signIn();
  // One saved report through the sidebar's server, then 99 more like it, each with the block its last
  // refresh wrote on the sheet "Saved" (10 rows each, one under the other, the first row filled).
  call('saveSchedule', {
    name: 'Saved 0',
    kind: 'main',
    entityId: MEDIUM_PUBLISHER_ID,
    period: { type: 'lastDays', days: 7 },
    breakdowns: ['day'],
    target: { sheetName: 'Saved', cell: 'A1' },
    schedule: { every: 'day', hour: 6 },
  });
  const [first] = JSON.parse(documentProperties().get('engage.sr.index')!) as string[];
  const definition = JSON.parse(documentProperties().get(`engage.sr.def.${first}`)!) as Record<string, unknown>;
  const ids = Array.from({ length: SAVED }, (_, i) => (i === 0 ? first! : `${first}x${i}`));
  for (const [i, id] of ids.entries()) {
    const row = 1 + i * 10;
    documentProperties().set(
      `engage.sr.def.${id}`,
      JSON.stringify({ ...definition, id, name: `Saved ${i}`, target: { sheetName: 'Saved', cell: `A${row}` } }),
    );
    documentProperties().set(
      `engage.sr.status.${id}`,
      JSON.stringify({ lastSuccessAtMs: Date.parse(NOW), rows: 7, written: { sheetName: 'Saved', row, column: 1, rows: 9, columns: 8 } }),
    );
    for (const column of 'ABCDEFGH') h.host.setCell('Saved', `${column}${row}`, 'day');
  }
  documentProperties().set('engage.sr.index', JSON.stringify(ids));
  expect(call<{ reports: unknown[] }>('listSchedules').reports).toHaveLength(SAVED);
});
afterAll(async () => {
  await h.close();
});

describe(`reads of the document's properties with ${SAVED} saved reports`, () => {
  it('asks which report holds the selected cell with one read', () => {
    h.host.setActiveRange('Saved', 'B995');
    let context: { reportHere: { source: string; name: string } | null } | undefined;
    expect(documentReads(() => (context = call('getSheetContext')))).toBe(1);
    expect(context!.reportHere).toMatchObject({ source: 'schedule', name: 'Saved 99' });
  });

  it('runs a report to empty cells of an existing sheet with one read, before writing', () => {
    expect(documentReads(() => call('runReportToSheet', REQUEST, { type: 'existingSheet', sheetName: 'Data' }, 'reads-run-1'))).toBe(1);
    expect(h.host.getValues('Data', 'A1:A2')[0]).toEqual(['country.id']);
  });

  it("asks before writing over a saved report's block, naming it, with one read", () => {
    let outcome: { question?: { holder?: string } } | undefined;
    const target = { type: 'existingSheet', sheetName: 'Saved', cell: 'B45' };
    expect(documentReads(() => (outcome = call('runReportToSheet', REQUEST, target, 'reads-run-2')))).toBe(1);
    expect(outcome!.question?.holder).toBe('the saved report “Saved 5”');
  });

  it('asks about a new sheet whose name is taken with one read, before fetching', () => {
    let outcome: { question?: { reason: string; holder?: string } } | undefined;
    expect(
      documentReads(() => (outcome = call('runReportToSheet', REQUEST, { type: 'newSheet', sheetName: 'Saved' }, 'reads-run-3'))),
    ).toBe(1);
    expect(outcome!.question).toMatchObject({ reason: 'sheetTaken', holder: 'the saved report “Saved 0”' });
  });
});
