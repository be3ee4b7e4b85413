/**
 * Sheets' 10,000,000-cell limit (every sheet's grid, empty cells too; the local host enforces it).
 * Run to sheet and a scheduled refresh count the spreadsheet's cells, existing plus what the report
 * adds, before writing: over the limit they write nothing (no sheet inserted, no value, no block
 * record) and say in one sentence how many cells the report needs and how many are left.
 */
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID } from '../support/emulator';

const NOW = '2026-11-20T12:00:00Z';
let h: AddonHarness;

interface View {
  id: string;
  name: string;
  status: { rows?: number; failures: number; lastError?: { message: string } };
}
interface List {
  reports: View[];
}

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
/** 31 days by day and country: 1,240 rows and a Total under a header, 29 columns. */
const REQUEST = { kind: 'main', entityId: BIG_PUBLISHER_ID, fromDate: '2026-10-01', toDate: '2026-10-31', breakdowns: ['day', 'country'] };
const cells = () => h.host.state.spreadsheet.cellCount();
const documentProperties = () => Object.fromEntries(h.host.properties('document'));
const nonEmptyCells = () =>
  h.host.state.spreadsheet.sheets.map((s) => [s.name, [...s.cells.values()].filter((c) => c.value !== '' || c.formula).length]);

beforeAll(async () => {
  // 4,992,000 cells in Sheet1 and a report sheet of 1,000 x 40: 4,968,000 cells left.
  h = await startAddon({ sheets: ['Sheet1'], maxRows: 192_000, maxColumns: 26 });
  h.host.state.spreadsheet.addSheet('Report', undefined, { rows: 1000, columns: 40 });
  await h.emulator.setClock(NOW);
  h.signIn();
});
afterAll(async () => {
  await h.close();
});

describe('the 10,000,000-cell limit', () => {
  it('lets a scheduled report refresh while there is room, then refuses a refresh that would pass the limit and keeps the data', () => {
    const saved = call<List>('saveSchedule', {
      name: 'Daily',
      kind: 'main',
      entityId: BIG_PUBLISHER_ID,
      period: { type: 'fixed', fromDate: '20261101', toDate: '20261107' },
      breakdowns: ['day'],
      target: { sheetName: 'Report', cell: 'A1' },
      schedule: { every: 'hour' },
    });
    const id = saved.reports.find((r) => r.name === 'Daily')!.id;
    expect(call<{ list: List }>('runScheduleNow', id).list.reports[0]!.status.rows).toBe(7);
    const before = h.host.getValues('Report');
    expect(before[0]![0]).toBe('day');

    // Another sheet now takes all but 2,000 of the cells left.
    h.host.state.spreadsheet.addSheet('Filler', undefined, { rows: Math.floor((10_000_000 - cells() - 2000) / 26), columns: 26 });
    const left = 10_000_000 - cells();
    expect(left).toBeGreaterThanOrEqual(2000);
    expect(left).toBeLessThan(2026);
    const cellsBefore = cells();

    // The same target, now 31 days by country: 1,242 rows need 242 more rows of 40 columns.
    call('updateSchedule', id, {
      name: 'Daily',
      kind: 'main',
      entityId: BIG_PUBLISHER_ID,
      period: { type: 'fixed', fromDate: '20261001', toDate: '20261031' },
      breakdowns: ['day', 'country'],
      target: { sheetName: 'Report', cell: 'A1' },
      schedule: { every: 'hour' },
    });
    const failed = call<{ list: List }>('runScheduleNow', id).list.reports[0]!;
    expect(failed.status.failures).toBe(1);
    expect(failed.status.lastError!.message).toBe(
      `target: the report needs 9,680 more cells, but this spreadsheet has only ${left.toLocaleString('en-US')} left of the 10,000,000 a Google spreadsheet holds: delete sheets, rows or columns you do not need, or ask for fewer rows`,
    );
    expect(h.host.getValues('Report')).toEqual(before);
    expect(cells()).toBe(cellsBefore);
  });

  it('refuses Run to sheet into a new sheet, inserting and writing nothing', () => {
    const sheetsBefore = h.host.state.spreadsheet.sheets.map((s) => s.name);
    const filledBefore = nonEmptyCells();
    const propertiesBefore = documentProperties();
    const left = 10_000_000 - cells();
    // A new sheet for 1,242 rows of the default metrics' 10 columns, as wide as a new sheet: 1,242 x 26 cells.
    expect(() => call('runReportToSheet', REQUEST, { type: 'newSheet', sheetName: 'Engage report' }, 'run-over-limit')).toThrow(
      // The sidebar names the field by its label there.
      `Write to: the report needs 32,292 more cells, but this spreadsheet has only ${left.toLocaleString('en-US')} left of the 10,000,000 a Google spreadsheet holds: delete sheets, rows or columns you do not need, or ask for fewer rows`,
    );
    expect(h.host.state.spreadsheet.sheets.map((s) => s.name)).toEqual(sheetsBefore);
    expect(nonEmptyCells()).toEqual(filledBefore);
    expect(documentProperties()).toEqual(propertiesBefore);
    expect(call<{ state: string; message: string }>('getRunProgress', 'run-over-limit')).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/^target: the report needs 32,292 more cells/),
    });
  });

  it('writes once the cells are freed', () => {
    h.host.state.spreadsheet.sheets.splice(
      h.host.state.spreadsheet.sheets.findIndex((s) => s.name === 'Filler'),
      1,
    );
    const summary = call<{ dataRows: number; block: { sheetName: string } }>(
      'runReportToSheet',
      REQUEST,
      { type: 'newSheet', sheetName: 'Engage report' },
      'run-with-room',
    );
    expect(summary.dataRows).toBe(1240);
    expect(h.host.getValues('Engage report', 'A1:A1')).toEqual([['day']]);
  });
});
