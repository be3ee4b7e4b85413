/**
 * Connected Sheets in the local host: a BigQuery data source spec built as Google's reference gives it
 * (SpreadsheetApp.newDataSourceSpec().asBigQuery() ... build()), inserted with
 * Spreadsheet.insertDataSourceSheet as a new sheet whose spec a script reads back through
 * getDataSource().getSpec().asBigQuery() and a test through the state; the builder refusing a spec
 * without its project or without a table or query; BigQuery data execution enabled in the execution;
 * the bigquery.readonly (or bigquery) scope the manifest must hold; and an account without Connected
 * Sheets refused with the host's option.
 */
import { CONNECTED_SHEETS_REFUSAL, createGasHost } from '../../../dev/gas-host';
import { NOT_ENABLED_MESSAGE } from '../../../dev/gas-host/services/data-sources';

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
      `You do not have permission to call Spreadsheet.insertDataSourceSheet. Required permissions: (${SCOPES.readonly} || ${SCOPES.bigquery})`,
    );
    expect(host.state.spreadsheet.sheets.map((s) => s.name)).toEqual(['Sheet1']);
    const full = createGasHost({ manifest: { oauthScopes: [SCOPES.sheets, SCOPES.bigquery] } });
    full.load(BUNDLE);
    expect(full.run('open', ['billing-1', 'data-2', 'engage', 't']).ok).toBe(true);
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
