/**
 * "Open in Sheets" in the core: a BigQuery report's data source sheet asked of the port with the
 * report's project (billing it too), dataset and table, under a name no sheet has; any failure of the
 * port answered with the table's address, the ready query and a sentence pointing at it; a report
 * without BigQuery and a deployment without it refused before the port is asked; the Schedules view
 * carrying the address and query of a BigQuery report only.
 */
import type { ConnectedSheets, DataSourceTable } from '../../../../src/core/ports';
import { openInSheets, uniqueSheetName } from '../../../../src/core/schedules/service/open-in-sheets';
import { scheduleView } from '../../../../src/core/schedules/service/schedule-view';
import type { RefreshStatus, SavedReport } from '../../../../src/core/schedules/saved/saved-reports';
import { readyQuery } from '../../../../src/core/warehouse/report-load';

const BIGQUERY = { projectId: 'news-data-42', datasetId: 'engage', tableId: 'daily rows', location: 'EU' };
const REPORT = {
  id: 'r1',
  ownerId: 'u1',
  createdAtMs: 0,
  updatedAtMs: 0,
  name: 'Ledger',
  kind: 'main',
  entityId: '1001',
  period: { type: 'lastDays', days: 30, endingYesterday: true },
  breakdowns: ['day', 'doc'],
  metrics: ['totalReqs'],
  schedule: { every: 'day', hour: 6 },
  target: { sheetName: 'Ledger status', cell: 'A1' },
  bigquery: BIGQUERY,
} as unknown as SavedReport;
const SHEET_REPORT = { ...REPORT, id: 'r2', name: 'Plain', bigquery: undefined } as unknown as SavedReport;

function fakeSheets(names: string[], refusal?: string) {
  const inserted: Array<{ table: DataSourceTable; name: string }> = [];
  const sheets: ConnectedSheets = {
    sheetNames: () => [...names],
    insertDataSourceSheet: (table, name) => {
      if (refusal !== undefined) throw new Error(`Exception: ${refusal}`);
      inserted.push({ table, name });
      names.push(name);
      return name;
    },
  };
  return { sheets, inserted };
}

/** The report has loaded its first day of two (its table exists). */
const FIRST_DAY_LOADED: RefreshStatus = { backfill: { fromDay: '20261118', toDay: '20261119', nextDay: '20261119' } };
let status = FIRST_DAY_LOADED;
const reports = { findOrThrow: (id: unknown) => [REPORT, SHEET_REPORT].find((r) => r.id === id)!, status: () => status };
const ON = { bigquery: true };
const QUERY = readyQuery(BIGQUERY, { kind: 'main', breakdowns: ['day', 'doc'], metrics: ['totalReqs'] });

describe('openInSheets', () => {
  it("asks for a data source sheet on the report's table, billed to its project, named after the report and unique", () => {
    const { sheets, inserted } = fakeSheets(['Sheet1', 'ledger']);
    const answer = openInSheets({ deployment: ON, reports, sheets }, 'r1');
    expect(inserted).toEqual([
      {
        table: { billingProjectId: 'news-data-42', projectId: 'news-data-42', datasetId: 'engage', tableId: 'daily rows' },
        name: 'Ledger (2)',
      },
    ]);
    expect(answer).toEqual({
      opened: true,
      sheetName: 'Ledger (2)',
      address: 'news-data-42.engage.daily rows',
      query: QUERY,
      message:
        "Added the sheet 'Ledger (2)', connected to the BigQuery table news-data-42.engage.daily rows (Connected Sheets): it shows a preview of the rows, " +
        'and its queries run in BigQuery, billed to the project news-data-42.',
    });
    expect(openInSheets({ deployment: ON, reports, sheets }, 'r1')).toMatchObject({ sheetName: 'Ledger (3)' });
  });

  it('answers any failure with the address, the query and what to do, quoting what Sheets said', () => {
    const { sheets } = fakeSheets(['Sheet1'], 'Something\nunexpected');
    const answer = openInSheets({ deployment: ON, reports, sheets }, 'r1');
    expect(answer).toEqual({
      opened: false,
      address: 'news-data-42.engage.daily rows',
      query: QUERY,
      message:
        'Sheets could not connect a sheet to news-data-42.engage.daily rows: Connected Sheets may not be allowed for your account or your domain ' +
        "(your administrator must turn Google Cloud on for you, and you need BigQuery's Job User and Data Viewer roles on the project). " +
        'Use the ready query below in BigQuery\'s console (console.cloud.google.com/bigquery) instead. Sheets said: "Something unexpected"',
    });
    // A report that has loaded no day yet: its table may not be there, which the sentence says too.
    status = {};
    try {
      expect(openInSheets({ deployment: ON, reports, sheets }, 'r1').message).toContain(
        "Data Viewer roles on the project), or the table is not there yet (the report's first run makes it: choose Run now). Use the ready query below",
      );
    } finally {
      status = FIRST_DAY_LOADED;
    }
  });

  it('refuses a report without BigQuery, and a deployment without it, before asking Sheets', () => {
    const { sheets, inserted } = fakeSheets(['Sheet1']);
    expect(() => openInSheets({ deployment: ON, reports, sheets }, 'r2')).toThrow(
      "id: 'Plain' writes to a sheet, not to BigQuery: only a report saved with a BigQuery table opens in Sheets through Connected Sheets",
    );
    expect(() => openInSheets({ deployment: {}, reports, sheets }, 'r1')).toThrow(
      /^bigquery: this installation of Engage does not load into BigQuery/,
    );
    expect(inserted).toEqual([]);
  });

  it('names sheets uniquely ignoring case, keeping the name short enough for Sheets', () => {
    expect(uniqueSheetName('  Ledger ', ['LEDGER', 'ledger (2)'])).toBe('Ledger (3)');
    expect(uniqueSheetName('', [])).toBe('BigQuery table');
    expect(uniqueSheetName('x'.repeat(150), ['x'.repeat(94)])).toBe(`${'x'.repeat(94)} (2)`);
  });
});

describe('the Schedules view of a BigQuery report', () => {
  it("carries the table's address and ready query, and a sheet report carries neither", () => {
    const context = { me: 'u1', signedIn: true, timeZone: 'Europe/Berlin', nowMs: 1 };
    expect(scheduleView(REPORT, {}, context).warehouse).toEqual({ address: 'news-data-42.engage.daily rows', query: QUERY });
    expect(scheduleView(SHEET_REPORT, {}, context).warehouse).toBeUndefined();
  });
});
