/**
 * "Open in Sheets" in the core: a BigQuery report's data source sheet asked of the port with the
 * report's project (billing it too), dataset and table, under a name no sheet has, then its first data
 * execution waited for OPEN_IN_SHEETS_WAIT_SECONDS; the answer decided by the execution's status
 * (SUCCESS: the sheet; ERROR: the sheet removed again, the address, the ready query and a sentence by
 * error code; still RUNNING: the sheet, said to be loading); an insert that throws answered with the
 * address, the query and a sentence pointing at it; a report without BigQuery and a deployment without
 * it refused before the port is asked; the Schedules view carrying the address and query of a BigQuery
 * report only.
 */
import type { ConnectedSheets, DataExecution, DataSourceTable } from '../../../../../src/core/ports';
import { OPEN_IN_SHEETS_WAIT_SECONDS, openInSheets, uniqueSheetName } from '../../../../../src/core/destinations/bigquery/open-in-sheets';
import { scheduleView } from '../../../../../src/core/schedules/service/schedule-view';
import type { SavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { readyQuery } from '../../../../../src/core/warehouse/report-load';
import { Destinations } from '../../../../../src/core/schedules/refresh/destination';
import { sheetDestination } from '../../../../../src/core/destinations/sheet/sheet-destination';
import { bigQueryDestination } from '../../../../../src/core/destinations/bigquery/bigquery-destination';

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
  destination: { kind: 'bigquery', target: { sheetName: 'Ledger status', cell: 'A1' }, table: BIGQUERY },
} as unknown as SavedReport;
const SHEET_REPORT = {
  ...REPORT,
  id: 'r2',
  name: 'Plain',
  destination: { kind: 'sheet', target: REPORT.destination.target },
} as unknown as SavedReport;

const SUCCESS: DataExecution = { state: 'SUCCESS', errorCode: 'NONE', errorMessage: '' };

/**
 * The port over a list of sheet names: an insert adds the name (or throws `refusal`), and its first
 * execution's wait gives `execution` (or throws it when it is an Error); remove takes the name away.
 */
function fakeSheets(names: string[], options: { refusal?: string; execution?: DataExecution | Error; removal?: Error } = {}) {
  const inserted: Array<{ table: DataSourceTable; name: string }> = [];
  const waits: number[] = [];
  const removed: string[] = [];
  const sheets: ConnectedSheets = {
    sheetNames: () => [...names],
    insertDataSourceSheet: (table, name) => {
      if (options.refusal !== undefined) throw new Error(`Exception: ${options.refusal}`);
      inserted.push({ table, name });
      names.push(name);
      return {
        name,
        waitForCompletion: (seconds) => {
          waits.push(seconds);
          const execution = options.execution ?? SUCCESS;
          if (execution instanceof Error) throw execution;
          return execution;
        },
        remove: () => {
          if (options.removal) throw options.removal;
          names.splice(names.indexOf(name), 1);
          removed.push(name);
        },
      };
    },
  };
  return { sheets, inserted, waits, removed, names };
}

const reports = { findOrThrow: (id: unknown) => [REPORT, SHEET_REPORT].find((r) => r.id === id)! };
const ON = { bigquery: true };
const QUERY = readyQuery(BIGQUERY, { kind: 'main', breakdowns: ['day', 'doc'], metrics: ['totalReqs'] });
const ADDRESS = 'news-data-42.engage.daily rows';
const failed = (errorCode: string, errorMessage = ''): DataExecution => ({ state: 'ERROR', errorCode, errorMessage });

describe('openInSheets', () => {
  it("asks for a data source sheet on the report's table, billed to its project, named after the report and unique", () => {
    const { sheets, inserted, waits, removed } = fakeSheets(['Sheet1', 'ledger']);
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
    // Each sheet's first execution was waited for, a bounded time far inside the 300 s Sheets allows, and none removed.
    expect(waits).toEqual([OPEN_IN_SHEETS_WAIT_SECONDS, OPEN_IN_SHEETS_WAIT_SECONDS]);
    expect(OPEN_IN_SHEETS_WAIT_SECONDS).toBeLessThanOrEqual(60);
    expect(removed).toEqual([]);
  });

  it("removes the sheet whose first execution found no table, and says the report's first run makes it", () => {
    const { sheets, names, removed } = fakeSheets(['Sheet1'], {
      execution: failed('DATA_NOT_FOUND', 'Not found: Table news-data-42:engage.daily rows'),
    });
    const answer = openInSheets({ deployment: ON, reports, sheets }, 'r1');
    expect(answer).toEqual({
      opened: false,
      address: ADDRESS,
      query: QUERY,
      message:
        `The BigQuery table ${ADDRESS} is not there yet: the report's first run makes it (choose Run now), then open it in Sheets again. ` +
        "The ready query below works in BigQuery's console (console.cloud.google.com/bigquery) once the table is there. " +
        'Sheets said: "Not found: Table news-data-42:engage.daily rows"',
    });
    expect(removed).toEqual(['Ledger']);
    expect(names).toEqual(['Sheet1']);
  });

  it('removes the sheet whose first execution was denied, naming the BigQuery roles and the project', () => {
    const { sheets, removed } = fakeSheets(['Sheet1'], { execution: failed('PERMISSION_DENIED') });
    const answer = openInSheets({ deployment: ON, reports, sheets }, 'r1');
    expect(answer).toMatchObject({ opened: false, address: ADDRESS, query: QUERY });
    expect(answer.message).toBe(
      `Your account may not read the BigQuery table ${ADDRESS}: you need BigQuery's Job User and Data Viewer roles on the project news-data-42 ` +
        "(ask its owner), which also pays for the sheet's queries. The ready query below runs in BigQuery's console (console.cloud.google.com/bigquery) once you have them. " +
        // Sheets gave no message: its code stands for it.
        'Sheets said: "PERMISSION_DENIED"',
    );
    expect(removed).toEqual(['Ledger']);
  });

  it("removes the sheet of any other failed execution, quoting Sheets' words as one line", () => {
    const { sheets, removed } = fakeSheets(['Sheet1'], { execution: failed('ENGINE', 'Billing has not been enabled\nfor this project.') });
    expect(openInSheets({ deployment: ON, reports, sheets }, 'r1')).toEqual({
      opened: false,
      address: ADDRESS,
      query: QUERY,
      message:
        `Sheets could not load the BigQuery table ${ADDRESS} into a sheet. Use the ready query below in BigQuery's console (console.cloud.google.com/bigquery) instead. ` +
        'Sheets said: "Billing has not been enabled for this project."',
    });
    expect(removed).toEqual(['Ledger']);
  });

  it('says so when Sheets would not remove the failed sheet', () => {
    const { sheets } = fakeSheets(['Sheet1'], {
      execution: failed('TIME_OUT', 'Timed out.'),
      removal: new Error('Exception: Service error'),
    });
    const answer = openInSheets({ deployment: ON, reports, sheets }, 'r1');
    expect(answer.opened).toBe(false);
    expect(answer.message).toMatch(
      /Sheets said: "Timed out\." \(Sheets did not remove the sheet 'Ledger': delete it yourself\. It said: "Service error"\)$/,
    );
  });

  it('keeps the sheet whose first execution still runs when the wait ends, and says it is loading', () => {
    for (const state of ['RUNNING', 'NOT_STARTED']) {
      const { sheets, removed } = fakeSheets(['Sheet1'], { execution: { state, errorCode: 'NONE', errorMessage: '' } });
      expect(openInSheets({ deployment: ON, reports, sheets }, 'r1')).toEqual({
        opened: true,
        sheetName: 'Ledger',
        address: ADDRESS,
        query: QUERY,
        message:
          `Added the sheet 'Ledger', connected to the BigQuery table ${ADDRESS} (Connected Sheets): its first query is still running in BigQuery, ` +
          'and the rows appear when it ends; its queries run in BigQuery, billed to the project news-data-42.',
      });
      expect(removed).toEqual([]);
    }
  });

  it('keeps the sheet when Sheets cannot tell how its first execution went, quoting what it said', () => {
    const { sheets, removed } = fakeSheets(['Sheet1'], { execution: new Error('Exception: Service Spreadsheets failed') });
    const answer = openInSheets({ deployment: ON, reports, sheets }, 'r1');
    expect(answer).toMatchObject({ opened: true, sheetName: 'Ledger' });
    expect(answer.message).toBe(
      `Added the sheet 'Ledger', connected to the BigQuery table ${ADDRESS} (Connected Sheets), but Sheets did not say how its first query went: ` +
        'see the sheet. Sheets said: "Service Spreadsheets failed"',
    );
    expect(removed).toEqual([]);
  });

  it('answers an insert that throws with the address, the query and what to do, quoting what Sheets said', () => {
    const { sheets, inserted } = fakeSheets(['Sheet1'], { refusal: 'Something\nunexpected' });
    const answer = openInSheets({ deployment: ON, reports, sheets }, 'r1');
    expect(answer).toEqual({
      opened: false,
      address: ADDRESS,
      query: QUERY,
      message:
        `Sheets could not connect a sheet to ${ADDRESS}: Connected Sheets may not be allowed for your account or your domain ` +
        "(your administrator must turn Google Cloud on for you, and you need BigQuery's Job User and Data Viewer roles on the project). " +
        'Use the ready query below in BigQuery\'s console (console.cloud.google.com/bigquery) instead. Sheets said: "Something unexpected"',
    });
    // No guess about the table: whether it is there only the execution's status says.
    expect(answer.message).not.toMatch(/not there yet/);
    expect(inserted).toEqual([]);
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
    const noClient = (): never => {
      throw new Error('no BigQuery call');
    };
    const destinations = new Destinations([sheetDestination(), bigQueryDestination({ client: noClient })]);
    const context = { me: 'u1', signedIn: true, timeZone: 'Europe/Berlin', nowMs: 1, destinations };
    expect(scheduleView(REPORT, {}, context).warehouse).toEqual({ address: 'news-data-42.engage.daily rows', query: QUERY });
    expect(scheduleView(SHEET_REPORT, {}, context).warehouse).toBeUndefined();
  });
});
