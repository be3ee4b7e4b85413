/**
 * End to end, a BigQuery report viewed from Sheets: the built bundle with "bigquery": true (its
 * BigQuery calls sent to the emulator's stand-in) in the local host, a small report loaded into its
 * table by Run now, then "Open in Sheets" (the sidebar's openReportInSheets). Where the account allows
 * Connected Sheets, one data source sheet is added, named after the report, whose spec names the saved
 * report's project (billing and table), dataset and table, once its first data execution has ended in
 * SUCCESS (the add-on waited for it on the virtual clock); where that execution ends in ERROR
 * DATA_NOT_FOUND (a report saved but never run: its table is not there), the sheet is removed again and
 * the answer carries the address, the ready query and "choose Run now"; where the account does not allow
 * Connected Sheets (the host's `connectedSheets` option, with words the add-on has never seen), nothing
 * is added and the answer carries the table's address and the ready query the Schedules tab shows. A
 * sheet report, and a build without BigQuery, are refused with one sentence before Sheets is asked.
 */
import { createGasHost, DATA_EXECUTION_MS } from '../../dev/gas-host';
import { OWNER, type AddonHarness } from '../support/addon-host';
import { bigQueryOf } from '../support/bigquery';
import { bigQueryBundle, distBundle } from '../support/bundles';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(120_000);

const PROJECT = 'engage-tests-1';
const DATASET = 'engage_reports';
const TABLE = 'daily_totals';

interface Answer {
  opened: boolean;
  sheetName?: string;
  message: string;
  address: string;
  query: string;
}
interface Listed {
  reports: Array<{ id: string; name: string; status: { progress?: string }; warehouse?: { address: string; query: string } }>;
}

const report = (name: string, bigquery: boolean) => ({
  name,
  kind: 'main',
  entityId: MEDIUM_PUBLISHER_ID,
  period: { type: 'lastDays', days: 2, endingYesterday: true },
  breakdowns: ['day'],
  metrics: ['revenue', 'rpmByPvs'],
  target: { sheetName: name, cell: 'A1' },
  schedule: { every: 'day', hour: 6 },
  ...(bigquery ? { bigquery: { projectId: PROJECT, datasetId: DATASET, tableId: TABLE, location: 'EU' } } : {}),
});

let h: AddonHarness;
let id = '';
let sheetReportId = '';
const list = () => h.host.call('listSchedules', [], { user: OWNER }) as Listed;
const sheetNames = () => h.host.state.spreadsheet.sheets.map((s) => s.name);

beforeAll(async () => {
  h = await startScheduledAddon('2026-11-20T05:30:00.000Z', {}, undefined, (emulator) => bigQueryBundle(bigQueryOf(emulator).rootUrl));
  await bigQueryOf(h.emulator).createDataset(PROJECT, DATASET, 'EU');
  h.signIn();
  id = (h.host.call('saveSchedule', [report('Ledger', true)], { user: OWNER }) as Listed).reports[0]!.id;
  h.host.call('runScheduleNow', [id], { user: OWNER });
  sheetReportId = (h.host.call('saveSchedule', [report('Plain', false)], { user: OWNER }) as Listed).reports.find(
    (r) => r.name === 'Plain',
  )!.id;
});
afterAll(async () => {
  await h?.close();
});

it('adds one data source sheet named after the report, whose spec names the saved project, dataset and table', async () => {
  const loaded = await bigQueryOf(h.emulator).table(PROJECT, DATASET, TABLE);
  expect(Object.keys(loaded!.partitions)).toHaveLength(2);
  const before = sheetNames();
  const startedAtMs = h.host.clock.now();
  const answer = h.host.call('openReportInSheets', [id], { user: OWNER }) as Answer;
  // The add-on waited for the sheet's first data execution, which the host runs for DATA_EXECUTION_MS.
  expect(h.host.clock.now() - startedAtMs).toBe(DATA_EXECUTION_MS);
  expect(answer).toMatchObject({ opened: true, sheetName: 'Ledger (2)', address: `${PROJECT}.${DATASET}.${TABLE}` });
  expect(answer.message).toBe(
    `Added the sheet 'Ledger (2)', connected to the BigQuery table ${PROJECT}.${DATASET}.${TABLE} (Connected Sheets): it shows a preview of the rows, ` +
      `and its queries run in BigQuery, billed to the project ${PROJECT}.`,
  );
  // "Ledger" is the report's status sheet, so the new one takes the next free name; exactly one sheet came.
  expect(sheetNames()).toEqual([...before, 'Ledger (2)']);
  const connected = h.host.state.spreadsheet.sheets.filter((s) => s.dataSource);
  expect(connected.map((s) => [s.name, s.dataSource])).toEqual([
    [
      'Ledger (2)',
      { type: 'BIGQUERY', projectId: PROJECT, tableProjectId: PROJECT, datasetId: DATASET, tableId: TABLE, rawQuery: '', parameters: [] },
    ],
  ]);
  // The Schedules tab's view of the report carries the same address and query.
  const view = list().reports.find((r) => r.id === id)!;
  expect(view.warehouse).toEqual({ address: answer.address, query: answer.query });
  expect(view.status.progress).toMatch(/^BigQuery: 2 of 2 days loaded/);
});

it("where the sheet's first execution finds no table, removes the sheet and answers the address, the query and Run now", () => {
  // A report saved but never run: BigQuery has no such table, and Sheets says so in the execution's status.
  const fresh = (
    h.host.call(
      'saveSchedule',
      [{ ...report('Fresh', true), bigquery: { projectId: PROJECT, datasetId: DATASET, tableId: 'fresh_totals', location: 'EU' } }],
      {
        user: OWNER,
      },
    ) as Listed
  ).reports.find((r) => r.name === 'Fresh')!;
  h.host.state.spreadsheet.dataExecutionPlan = {
    durationMs: 2_000,
    outcome: {
      state: 'ERROR',
      errorCode: 'DATA_NOT_FOUND',
      errorMessage: `Not found: Table ${PROJECT}:${DATASET}.fresh_totals was not found in location EU`,
    },
  };
  try {
    const before = sheetNames();
    const answer = h.host.call('openReportInSheets', [fresh.id], { user: OWNER }) as Answer;
    expect(answer.opened).toBe(false);
    expect(answer.sheetName).toBeUndefined();
    expect(answer.address).toBe(`${PROJECT}.${DATASET}.fresh_totals`);
    expect(answer.query).toBe(fresh.warehouse!.query);
    expect(answer.query).toContain(`FROM \`${PROJECT}.${DATASET}.fresh_totals\``);
    expect(answer.message).toBe(
      `The BigQuery table ${PROJECT}.${DATASET}.fresh_totals is not there yet: the report's first run makes it (choose Run now), then open it in Sheets again. ` +
        "The ready query below works in BigQuery's console (console.cloud.google.com/bigquery) once the table is there. " +
        `Sheets said: "Not found: Table ${PROJECT}:${DATASET}.fresh_totals was not found in location EU"`,
    );
    // Nothing half-made is left: the sheet Sheets added is gone again, and no other data source sheet came.
    expect(sheetNames()).toEqual(before);
    expect(h.host.state.spreadsheet.sheets.filter((s) => s.dataSource).map((s) => s.dataSource!.tableId)).toEqual([TABLE]);
  } finally {
    h.host.state.spreadsheet.dataExecutionPlan = { durationMs: DATA_EXECUTION_MS, outcome: { state: 'SUCCESS' } };
  }
});

it('where the account does not allow Connected Sheets, adds nothing and answers the address and the ready query', () => {
  h.host.state.spreadsheet.connectedSheetsRefusal = 'Ihr Administrator hat verbundene Tabellenblätter deaktiviert.';
  try {
    const before = sheetNames();
    const answer = h.host.call('openReportInSheets', [id], { user: OWNER }) as Answer;
    expect(answer.opened).toBe(false);
    expect(answer.sheetName).toBeUndefined();
    expect(answer.address).toBe(`${PROJECT}.${DATASET}.${TABLE}`);
    expect(answer.query).toBe(
      [
        'SELECT *',
        `FROM \`${PROJECT}.${DATASET}.${TABLE}\``,
        'WHERE day >= DATE_SUB(CURRENT_DATE(), INTERVAL 30 DAY)',
        'ORDER BY day DESC',
      ].join('\n'),
    );
    expect(answer.message).toMatch(
      new RegExp(
        `^Sheets could not connect a sheet to ${PROJECT}\\.${DATASET}\\.${TABLE}: Connected Sheets may not be allowed for your account or your domain .*` +
          'Use the ready query below in BigQuery\'s console .* Sheets said: "Ihr Administrator hat verbundene Tabellenblätter deaktiviert\\."$',
      ),
    );
    expect(sheetNames()).toEqual(before);
    expect(list().reports.find((r) => r.id === id)!.warehouse).toEqual({ address: answer.address, query: answer.query });
  } finally {
    h.host.state.spreadsheet.connectedSheetsRefusal = undefined;
  }
});

it('refuses a report that writes to a sheet, and a build without BigQuery, before Sheets is asked', async () => {
  const before = sheetNames();
  expect(h.host.run('openReportInSheets', [sheetReportId], { user: OWNER }).error?.message).toBe(
    "id: 'Plain' writes to a sheet, not to BigQuery: only a report saved with a BigQuery table opens in Sheets through Connected Sheets",
  );
  expect(sheetNames()).toEqual(before);
  const plain = createGasHost({ owner: OWNER, manifest: distBundle().manifest });
  plain.load(distBundle().code);
  expect(plain.run('openReportInSheets', ['any-id'], { user: OWNER }).error?.message).toMatch(
    /^bigquery: this installation of Engage does not load into BigQuery/,
  );
  expect(plain.state.spreadsheet.sheets.map((s) => s.name)).toEqual(['Sheet1']);
  await plain.close();
});
