/**
 * Connected Sheets in the local host: a BigQuery data source spec built as Google's reference gives it
 * (SpreadsheetApp.newDataSourceSpec().asBigQuery() ... build()), inserted with
 * Spreadsheet.insertDataSourceSheet as a new sheet whose spec a script reads back through
 * getDataSource().getSpec().asBigQuery() and a test through the state; the builder refusing a spec
 * without its project or without a table or query; BigQuery data execution enabled in the execution;
 * the bigquery.readonly (or bigquery) scope the manifest must hold; an account without Connected
 * Sheets refused with the host's option; and the data execution the insert starts, on a virtual clock:
 * RUNNING until its modelled time has passed, then SUCCESS or the ERROR (code and message) the host's
 * plan gives, read through getStatus() and waitForCompletion(timeoutInSeconds), which moves the clock
 * to the execution's end, throws when the timeout comes first (the execution goes on), and refuses a
 * timeout over Google's 300 seconds; the sheet deleted again through deleteSheet(asSheet()).
 */
import { CONNECTED_SHEETS_REFUSAL, createGasHost, DATA_EXECUTION_MS, type GasHostOptions } from '../../../dev/gas-host';
import {
  NOT_ENABLED_MESSAGE,
  WAIT_FOR_COMPLETION_MAX_SECONDS,
  WAIT_TIMEOUT_REFUSAL,
  waitTimedOutMessage,
} from '../../../dev/gas-host/services/spreadsheets/data-sources';

const BUNDLE = `
function spec(project, tableProject, dataset, table, query) {
  var b = SpreadsheetApp.newDataSourceSpec().asBigQuery();
  if (project) b.setProjectId(project);
  if (tableProject) b.setTableProjectId(tableProject);
  if (dataset) b.setDatasetId(dataset);
  if (table) b.setTableId(table);
  if (query) b.setRawQuery(query);
  return b.build();
}
function open(project, tableProject, dataset, table, query) {
  SpreadsheetApp.enableBigQueryExecution();
  var sheet = SpreadsheetApp.getActiveSpreadsheet().insertDataSourceSheet(spec(project, tableProject, dataset, table, query));
  sheet.asSheet().setName('Ledger');
  var s = sheet.getDataSource().getSpec();
  var bq = s.asBigQuery();
  return [s.getType(), bq.getProjectId(), bq.getTableProjectId(), bq.getDatasetId(), bq.getTableId(), bq.getRawQuery(),
    SpreadsheetApp.getActiveSheet().getName(), SpreadsheetApp.getActiveSpreadsheet().getDataSourceSheets().length];
}
function status(s) {
  return [String(s.getExecutionState()), String(s.getErrorCode()), s.getErrorMessage(), s.isTruncated(),
    s.getLastExecutionTime() && s.getLastExecutionTime().getTime(), s.getLastRefreshedTime() && s.getLastRefreshedTime().getTime()];
}
/** Inserts a sheet, reads its status, waits \`seconds\`; the clock before and after, and the statuses (or the wait's error). */
function openAndWait(seconds) {
  SpreadsheetApp.enableBigQueryExecution();
  var t0 = Date.now();
  var sheet = SpreadsheetApp.getActiveSpreadsheet().insertDataSourceSheet(spec('billing-1', 'data-2', 'engage', 't'));
  var before = status(sheet.getStatus());
  var after;
  try { after = status(sheet.waitForCompletion(seconds)); } catch (e) { after = String(e); }
  var s = SpreadsheetApp.DataExecutionState, c = SpreadsheetApp.DataExecutionErrorCode;
  return { t0: t0, waitedMs: Date.now() - t0, before: before, after: after, now: status(sheet.getStatus()),
    enums: [s.SUCCESS, s.ERROR, s.RUNNING, c.DATA_NOT_FOUND, c.PERMISSION_DENIED] };
}
/** Waits again on the only data source sheet, after another execution's timeout. */
function waitAgain(seconds) {
  SpreadsheetApp.enableBigQueryExecution();
  return status(SpreadsheetApp.getActiveSpreadsheet().getDataSourceSheets()[0].waitForCompletion(seconds));
}
function removeFailed() {
  SpreadsheetApp.enableBigQueryExecution();
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var sheet = ss.insertDataSourceSheet(spec('billing-1', 'data-2', 'engage', 't'));
  var state = String(sheet.waitForCompletion(30).getExecutionState());
  ss.deleteSheet(sheet.asSheet());
  return [state, ss.getDataSourceSheets().length, ss.getSheets().length];
}
function untyped() { return SpreadsheetApp.newDataSourceSpec().build(); }
function notEnabled() { SpreadsheetApp.getActiveSpreadsheet().insertDataSourceSheet(spec('billing-1', 'data-2', 'engage', 't')); }
`;

const SCOPES = {
  sheets: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
  bigquery: 'https://www.googleapis.com/auth/bigquery',
  readonly: 'https://www.googleapis.com/auth/bigquery.readonly',
};

describe('Connected Sheets', () => {
  it('inserts a data source sheet whose spec reads back in the script and in the state', () => {
    const host = createGasHost({ manifest: { oauthScopes: [SCOPES.sheets, SCOPES.readonly] } });
    host.load(BUNDLE);
    expect(host.call('open', ['billing-1', 'data-2', 'engage', 'daily rows'])).toEqual([
      'BIGQUERY',
      'billing-1',
      'data-2',
      'engage',
      'daily rows',
      '',
      'Ledger',
      1,
    ]);
    const inserted = host.state.spreadsheet.sheets.filter((s) => s.dataSource);
    expect(inserted.map((s) => [s.name, s.dataSource])).toEqual([
      [
        'Ledger',
        {
          type: 'BIGQUERY',
          projectId: 'billing-1',
          tableProjectId: 'data-2',
          datasetId: 'engage',
          tableId: 'daily rows',
          rawQuery: '',
          parameters: [],
        },
      ],
    ]);
    expect(host.counters['SpreadsheetApp.enableBigQueryExecution']).toBe(1);
  });

  it('refuses to build a spec without its type, its billing project, or a whole table or a query', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.run('untyped').error?.message).toMatch(/specify the data source type with as\.\.\.\(\)/);
    expect(host.run('spec', ['', 'p-2', 'd', 't']).error?.message).toMatch(/no billing project/);
    expect(host.run('spec', ['billing-1']).error?.message).toMatch(/neither a table nor a raw query/);
    expect(host.run('spec', ['billing-1', '', 'd', 't']).error?.message).toMatch(/part of a table/);
    expect(host.run('spec', ['billing-1', 'p', 'd', 't', 'SELECT 1']).error?.message).toMatch(/both a table and a raw query/);
    expect(host.run('spec', ['billing-1', '', '', '', 'SELECT 1']).ok).toBe(true);
  });

  it('needs BigQuery data execution enabled in the execution, as the DataSource reference says', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    // Enabled in an earlier execution counts for nothing: each execution enables its own.
    expect(host.run('open', ['billing-1', 'data-2', 'engage', 't']).ok).toBe(true);
    expect(host.run('notEnabled').error?.message).toBe(NOT_ENABLED_MESSAGE);
    expect(host.state.spreadsheet.sheets.filter((s) => s.dataSource)).toHaveLength(1);
  });

  it('needs a BigQuery scope in a manifest that lists scopes', () => {
    const host = createGasHost({ manifest: { oauthScopes: [SCOPES.sheets] } });
    host.load(BUNDLE);
    expect(host.run('open', ['billing-1', 'data-2', 'engage', 't']).error?.message).toBe(
      `You do not have permission to call Spreadsheet.insertDataSourceSheet. Required permissions: ${SCOPES.readonly}`,
    );
    expect(host.state.spreadsheet.sheets.map((s) => s.name)).toEqual(['Sheet1']);
    // The full bigquery scope alone is not taken for it (the stricter reading: no page says it is).
    const full = createGasHost({ manifest: { oauthScopes: [SCOPES.sheets, SCOPES.bigquery] } });
    full.load(BUNDLE);
    expect(full.run('open', ['billing-1', 'data-2', 'engage', 't']).ok).toBe(false);
    const both = createGasHost({ manifest: { oauthScopes: [SCOPES.sheets, SCOPES.bigquery, SCOPES.readonly] } });
    both.load(BUNDLE);
    expect(both.run('open', ['billing-1', 'data-2', 'engage', 't']).ok).toBe(true);
  });

  it('refuses an account without Connected Sheets with the words the option gives, adding no sheet', () => {
    for (const [option, words] of [
      [false, CONNECTED_SHEETS_REFUSAL],
      ['Data connectors are turned off by your administrator.', 'Data connectors are turned off by your administrator.'],
    ] as const) {
      const host = createGasHost({ connectedSheets: option });
      host.load(BUNDLE);
      expect(host.run('open', ['billing-1', 'data-2', 'engage', 't']).error?.message).toBe(words);
      expect(host.state.spreadsheet.sheets.map((s) => s.name)).toEqual(['Sheet1']);
    }
  });
});

describe('the data execution an inserted data source sheet starts', () => {
  const START = Date.UTC(2026, 10, 20, 9, 0, 0);
  const virtualHost = (options: GasHostOptions = {}) => {
    const host = createGasHost({ clock: 'virtual', startTime: START, ...options });
    host.load(BUNDLE);
    return host;
  };
  interface Waited {
    t0: number;
    waitedMs: number;
    before: unknown[];
    after: unknown[] | string;
    now: unknown[];
    enums: string[];
  }

  it('runs for its modelled time, then succeeds: waitForCompletion moves the clock to its end and gives SUCCESS', () => {
    const host = virtualHost();
    const got = host.call('openAndWait', [30]) as Waited;
    expect(got.before).toEqual(['RUNNING', 'NONE', '', false, null, null]);
    expect(got.waitedMs).toBe(DATA_EXECUTION_MS);
    const end = got.t0 + DATA_EXECUTION_MS;
    expect(got.after).toEqual(['SUCCESS', 'NONE', '', false, end, end]);
    expect(got.now).toEqual(got.after);
    expect(got.enums).toEqual(['SUCCESS', 'ERROR', 'RUNNING', 'DATA_NOT_FOUND', 'PERMISSION_DENIED']);
    expect(host.state.spreadsheet.sheets.filter((s) => s.dataSource)).toHaveLength(1);
  });

  it('ends in the ERROR the plan gives, with its code and message, and the sheet stays until deleted', () => {
    const host = virtualHost({
      dataExecution: {
        durationMs: 1500,
        outcome: { state: 'ERROR', errorCode: 'DATA_NOT_FOUND', errorMessage: 'Not found: Table data-2:engage.t' },
      },
    });
    const got = host.call('openAndWait', [30]) as Waited;
    expect(got.waitedMs).toBe(1500);
    // getLastExecutionTime is when it completed "regardless of the execution state"; it never refreshed.
    expect(got.after).toEqual(['ERROR', 'DATA_NOT_FOUND', 'Not found: Table data-2:engage.t', false, got.t0 + 1500, null]);
    expect(host.state.spreadsheet.sheets.filter((s) => s.dataSource)).toHaveLength(1);
    // A test may change the plan later: the next sheet's execution follows the new one.
    host.state.spreadsheet.dataExecutionPlan = {
      durationMs: 500,
      outcome: { state: 'ERROR', errorCode: 'PERMISSION_DENIED', errorMessage: '' },
    };
    expect(host.call('removeFailed')).toEqual(['ERROR', 1, 2]);
    expect(host.state.spreadsheet.sheets.filter((s) => s.dataSource)).toHaveLength(1);
  });

  it('throws when the timeout comes first, the execution going on until its own end', () => {
    const host = virtualHost({ dataExecution: { durationMs: 45_000 } });
    const got = host.call('openAndWait', [10]) as Waited;
    expect(got.after).toBe(`Exception: ${waitTimedOutMessage(10)}`);
    expect(got.waitedMs).toBe(10_000);
    expect(got.now).toEqual(['RUNNING', 'NONE', '', false, null, null]);
    // Another execution waits out the rest: 35 s more, then SUCCESS.
    const before = host.clock.now();
    expect(host.call('waitAgain', [60])).toEqual(['SUCCESS', 'NONE', '', false, got.t0 + 45_000, got.t0 + 45_000]);
    expect(host.clock.now() - before).toBe(35_000);
  });

  it("refuses a timeout over Google's 300 seconds, and (the stricter reading) one not a whole number from 1", () => {
    const host = virtualHost();
    expect(WAIT_FOR_COMPLETION_MAX_SECONDS).toBe(300);
    for (const seconds of [301, 0, -5, 1.5]) {
      expect((host.call('openAndWait', [seconds]) as Waited).after).toBe(`Exception: ${WAIT_TIMEOUT_REFUSAL}`);
    }
    expect((host.call('openAndWait', [300]) as Waited).after).toEqual(expect.arrayContaining(['SUCCESS']));
  });

  it('deletes a data source sheet through Spreadsheet.deleteSheet(dataSourceSheet.asSheet())', () => {
    const host = virtualHost();
    expect(host.call('removeFailed')).toEqual(['SUCCESS', 0, 1]);
    expect(host.state.spreadsheet.sheets.map((s) => s.name)).toEqual(['Sheet1']);
  });
});
