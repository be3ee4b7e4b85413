/**
 * Contract: the BigQuery stand-in reached as a script reaches BigQuery, through the local Apps Script
 * host's UrlFetchApp (synchronous, in this test process, against the emulator's own process): a
 * multipart/related payload built as a string with `contentType` set, a Bearer header, jobs.get
 * polled until DONE, and non-ASCII text carried in UTF-8 both ways. A failing row is answered 200
 * with the job's errorResult, so a script must read the job, not only the HTTP code.
 */
import { createGasHost } from '../../dev/gas-host';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { newEmulator, type EmulatorHandle } from '../support/emulator';

const SCRIPT = `
var SCHEMA = { fields: [
  { name: 'day', type: 'DATE', mode: 'REQUIRED' },
  { name: 'country_name', type: 'STRING' },
  { name: 'page_views', type: 'INT64' },
] };
function loadDay(root, project, dataset, table, day, rows) {
  var job = { configuration: { load: {
    destinationTable: { projectId: project, datasetId: dataset, tableId: table + '$' + day.replace(/-/g, '') },
    sourceFormat: 'NEWLINE_DELIMITED_JSON', writeDisposition: 'WRITE_TRUNCATE', schema: SCHEMA,
    timePartitioning: { type: 'DAY', field: 'day' } } } };
  var data = rows.map(function (r) { return JSON.stringify(r); }).join('\\n');
  var payload = '--engage_part\\r\\nContent-Type: application/json; charset=UTF-8\\r\\n\\r\\n' + JSON.stringify(job) +
    '\\r\\n--engage_part\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n' + data + '\\r\\n--engage_part--';
  var auth = { Authorization: 'Bearer ya29.from-the-host' };
  var inserted = UrlFetchApp.fetch(root + '/upload/bigquery/v2/projects/' + project + '/jobs?uploadType=multipart',
    { method: 'post', contentType: 'multipart/related; boundary=engage_part', payload: payload, headers: auth, muteHttpExceptions: true });
  var job = JSON.parse(inserted.getContentText());
  var states = [job.status.state];
  while (job.status.state !== 'DONE' && states.length < 10) {
    var ref = job.jobReference;
    job = JSON.parse(UrlFetchApp.fetch(root + '/bigquery/v2/projects/' + ref.projectId + '/jobs/' + ref.jobId + '?location=' + ref.location,
      { headers: auth }).getContentText());
    states.push(job.status.state);
  }
  return { code: inserted.getResponseCode(), states: states, errorResult: job.status.errorResult || null };
}
`;

let emulator: EmulatorHandle;
let bq: BigQueryHandle;

beforeAll(async () => {
  emulator = await newEmulator();
  bq = bigQueryOf(emulator);
  await bq.createDataset('engage-analytics', 'engage_eu', 'EU');
  await bq.setJobPolls(1, 1);
});
afterAll(async () => {
  await emulator.close();
});

it('takes a load from UrlFetchApp, answers PENDING, RUNNING, DONE to the polls, and keeps UTF-8 text as sent', async () => {
  const host = createGasHost();
  host.load(SCRIPT);
  const rows = [
    { day: '2026-11-01', country_name: 'Côte d’Ivoire', page_views: 12 },
    { day: '2026-11-01', country_name: 'Ελλάδα', page_views: 7 },
  ];
  const outcome = host.call('loadDay', [bq.rootUrl, 'engage-analytics', 'engage_eu', 'daily', '2026-11-01', rows]);
  expect(outcome).toEqual({ code: 200, states: ['PENDING', 'PENDING', 'RUNNING', 'DONE'], errorResult: null });
  const stored = await bq.table('engage-analytics', 'engage_eu', 'daily');
  expect(stored!.rows).toEqual(rows.map((row) => ({ ...row, page_views: String(row.page_views) })));
  const [upload] = (await bq.requests()).filter((r) => r.path.startsWith('/upload/'));
  expect(upload).toEqual(
    expect.objectContaining({ contentType: 'multipart/related; boundary=engage_part', authorization: 'Bearer ya29.from-the-host' }),
  );

  const refused = host.call('loadDay', [
    bq.rootUrl,
    'engage-analytics',
    'engage_eu',
    'daily',
    '2026-11-01',
    [{ day: '2026-11-01', clicks: 1 }],
  ]);
  expect(refused).toEqual({
    code: 200,
    states: ['PENDING', 'PENDING', 'RUNNING', 'DONE'],
    errorResult: expect.objectContaining({ reason: 'invalid' }),
  });
  expect((await bq.table('engage-analytics', 'engage_eu', 'daily'))!.rows).toHaveLength(2);
});
