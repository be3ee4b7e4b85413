/**
 * Contract: the BigQuery stand-in's load jobs over real HTTP (dev/bigquery/README.md): the multipart
 * upload, WRITE_APPEND / WRITE_TRUNCATE / WRITE_EMPTY, a partition replaced through `table$yyyymmdd`
 * with the others untouched, CREATE_IF_NEEDED / CREATE_NEVER, atomicity (a job with one bad row, or
 * failed by a fault, changes nothing), the refusals BigQuery makes (a row off the schema, a row over
 * the 100 MB JSON row limit, a decorator outside the DAY range or a row outside its partition, a
 * table name, a dataset in another location, an unknown configuration name), and jobs.get with
 * PENDING and RUNNING polls.
 */
import {
  BEARER,
  bigQueryError,
  bqGet,
  bqPost,
  DAILY_SCHEMA,
  dailyTable,
  DATASET,
  loadJob,
  ndjson,
  PROJECT,
  uploadJob,
} from './bigquery-client';
import { request } from './contract-client';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { newEmulator, type EmulatorHandle } from '../support/emulator';

let emulator: EmulatorHandle;
let bq: BigQueryHandle;
let tableNumber = 0;

beforeAll(async () => {
  emulator = await newEmulator();
  bq = bigQueryOf(emulator);
  await bq.createDataset(PROJECT, DATASET, 'EU');
  // These tests load many jobs into one table within seconds; the 5-in-10-s rate limit has its own tests (bigquery-quotas-and-copies).
  await bq.setTableRateLimit(null);
});
afterAll(async () => {
  await emulator.close();
});
afterEach(async () => {
  await bq.clearFaults();
  await bq.setJobPolls(0, 0);
});

const row = (day: string, publisher: string, pageViews: number, revenue = '1.50') => ({
  day,
  publisher_id: publisher,
  country: 'DE',
  page_views: pageViews,
  revenue,
  ctr: 0.0125,
});

/** A fresh partitioned, clustered table; returns its name. */
async function freshTable(): Promise<string> {
  tableNumber += 1;
  const tableId = `daily_${tableNumber}`;
  expect((await bqPost(bq, `/projects/${PROJECT}/datasets/${DATASET}/tables`, dailyTable(tableId))).status).toBe(200);
  return tableId;
}

async function pageViewsOf(tableId: string): Promise<Record<string, number[]>> {
  const contents = await bq.table(PROJECT, DATASET, tableId);
  const byDay: Record<string, number[]> = {};
  for (const r of contents!.rows) (byDay[r.day as string] ??= []).push(Number(r.page_views));
  return byDay;
}

it('loads newline-delimited JSON through the multipart upload and answers the Job DONE', async () => {
  const tableId = await freshTable();
  const result = await uploadJob(bq, loadJob(tableId), ndjson([row('2026-11-01', 'p1', 10), row('2026-11-02', 'p1', 20)]));
  expect(result.status).toBe(200);
  expect(result.body).toEqual(
    expect.objectContaining({
      kind: 'bigquery#job',
      jobReference: expect.objectContaining({ projectId: PROJECT, location: 'EU' }),
      status: { state: 'DONE' },
    }),
  );
  expect(result.body.configuration.jobType).toBe('LOAD');
  expect(result.body.statistics.load.outputRows).toBe('2');
  const contents = await bq.table(PROJECT, DATASET, tableId);
  // INT64 values are stored (and answered) as decimal strings; the partitions follow the day field.
  expect(contents!.rows).toEqual([
    { ...row('2026-11-01', 'p1', 10), page_views: '10' },
    { ...row('2026-11-02', 'p1', 20), page_views: '20' },
  ]);
  expect(contents!.partitions).toEqual({ '20261101': 1, '20261102': 1 });
  expect((await bqGet(bq, `/projects/${PROJECT}/datasets/${DATASET}/tables/${tableId}`)).body.numRows).toBe('2');
  const [logged] = (await bq.requests()).filter((r) => r.path.startsWith('/upload/'));
  expect(logged).toEqual(
    expect.objectContaining({ method: 'POST', authorization: BEARER.Authorization, status: 200, query: { uploadType: 'multipart' } }),
  );
});

it('replaces one partition with WRITE_TRUNCATE on table$yyyymmdd and leaves the other partitions untouched', async () => {
  const tableId = await freshTable();
  await uploadJob(bq, loadJob(tableId), ndjson([row('2026-11-01', 'p1', 1), row('2026-11-01', 'p2', 2), row('2026-11-02', 'p1', 3)]));
  const truncate = loadJob(`${tableId}$20261101`, { writeDisposition: 'WRITE_TRUNCATE' });
  const replaced = await uploadJob(bq, truncate, ndjson([row('2026-11-01', 'p1', 100), row('2026-11-01', 'p2', 200)]));
  expect(replaced.body.status).toEqual({ state: 'DONE' });
  expect(await pageViewsOf(tableId)).toEqual({ '2026-11-01': [100, 200], '2026-11-02': [3] });
  // The same load again gives the same table: a refreshed day replaces its own partition.
  await uploadJob(bq, truncate, ndjson([row('2026-11-01', 'p1', 100), row('2026-11-01', 'p2', 200)]));
  expect(await pageViewsOf(tableId)).toEqual({ '2026-11-01': [100, 200], '2026-11-02': [3] });
  // WRITE_APPEND adds; WRITE_EMPTY refuses a partition that has rows (duplicate) and accepts an empty one.
  await uploadJob(bq, loadJob(`${tableId}$20261102`, { writeDisposition: 'WRITE_APPEND' }), ndjson([row('2026-11-02', 'p2', 4)]));
  expect(await pageViewsOf(tableId)).toEqual({ '2026-11-01': [100, 200], '2026-11-02': [3, 4] });
  const notEmpty = await uploadJob(
    bq,
    loadJob(`${tableId}$20261102`, { writeDisposition: 'WRITE_EMPTY' }),
    ndjson([row('2026-11-02', 'p3', 5)]),
  );
  expect(notEmpty.body.status.errorResult).toEqual({
    reason: 'duplicate',
    message: `Already Exists: Table ${PROJECT}:${DATASET}.${tableId}$20261102`,
  });
  const empty = await uploadJob(
    bq,
    loadJob(`${tableId}$20261103`, { writeDisposition: 'WRITE_EMPTY' }),
    ndjson([row('2026-11-03', 'p3', 6)]),
  );
  expect(empty.body.status).toEqual({ state: 'DONE' });
  expect((await bq.table(PROJECT, DATASET, tableId, '20261103'))!.rows.map((r) => r.page_views)).toEqual(['6']);
});

it('fails a job whose rows do not fit the schema with errorResult invalid, and loads none of its rows', async () => {
  const tableId = await freshTable();
  await uploadJob(bq, loadJob(tableId), ndjson([row('2026-11-01', 'p1', 1)]));
  const bad: [Record<string, unknown>, string][] = [
    [{ ...row('2026-11-01', 'p1', 2), clicks: 3 }, 'No such field: clicks.'],
    [{ ...row('2026-11-01', 'p1', 2), page_views: 'many' }, 'Field: page_views'],
    [{ ...row('2026-11-01', 'p1', 2), page_views: 1.5 }, 'Field: page_views'],
    [{ ...row('2026-11-01', 'p1', 2), revenue: '1.1234567891' }, 'Field: revenue'],
    [{ ...row('2026-11-31', 'p1', 2) }, 'Field: day'],
    [{ day: '2026-11-01', country: 'DE' }, 'Missing required field: publisher_id.'],
    [{ ...row('2026-11-01', 'p1', 2), publisher_id: null }, 'Missing required field: publisher_id.'],
  ];
  for (const [badRow, detail] of bad) {
    // Valid rows before and after the bad one: the job is atomic, so none of them is loaded.
    const result = await uploadJob(
      bq,
      loadJob(`${tableId}$20261101`, { writeDisposition: 'WRITE_TRUNCATE' }),
      ndjson([row('2026-11-01', 'p9', 9), badRow, row('2026-11-01', 'p8', 8)]),
    );
    expect(result.status).toBe(200);
    expect(result.body.status.state).toBe('DONE');
    expect(result.body.status.errorResult.reason).toBe('invalid');
    expect(result.body.status.errorResult.message).toMatch(/JSON table encountered too many errors, giving up. Rows: 3; errors: 1/);
    expect(result.body.status.errors[1].message).toContain(detail);
    expect(await pageViewsOf(tableId)).toEqual({ '2026-11-01': [1] });
  }
  // ignoreUnknownValues drops names the schema lacks; maxBadRecords lets that many bad rows be skipped.
  const lenient = loadJob(tableId, { ignoreUnknownValues: true, maxBadRecords: 1 });
  const loaded = await uploadJob(
    bq,
    lenient,
    ndjson([
      { ...row('2026-11-02', 'p1', 2), clicks: 3 },
      { ...row('2026-11-02', 'p1', 3), page_views: 'x' },
    ]),
  );
  expect(loaded.body.status.state).toBe('DONE');
  expect(loaded.body.statistics.load).toEqual(expect.objectContaining({ outputRows: '1', badRecords: '1' }));
  expect(loaded.body.status.errorResult).toBeUndefined();
  expect(loaded.body.status.errors[0].message).toContain('Field: page_views');
  expect((await bq.table(PROJECT, DATASET, tableId, '20261102'))!.rows).toEqual([{ ...row('2026-11-02', 'p1', 2), page_views: '2' }]);
});

it('refuses rows outside the decorator’s partition and decorators outside the DAY range (1960-01-01 to 2159-12-31)', async () => {
  const tableId = await freshTable();
  const stray = await uploadJob(
    bq,
    loadJob(`${tableId}$20261101`, { writeDisposition: 'WRITE_TRUNCATE' }),
    ndjson([row('2026-11-01', 'p1', 1), row('2026-11-02', 'p1', 2)]),
  );
  expect(stray.body.status.errorResult).toEqual({
    reason: 'invalid',
    message: 'Some rows belong to different partitions rather than destination partition 20261101',
  });
  for (const decorator of ['19591231', '21600101', '20261301', '2026110']) {
    const day = `${decorator.slice(0, 4)}-${decorator.slice(4, 6)}-${decorator.slice(6, 8)}`;
    const result = await uploadJob(
      bq,
      loadJob(`${tableId}$${decorator}`, { writeDisposition: 'WRITE_TRUNCATE' }),
      ndjson([row(day, 'p1', 1)]),
    );
    expect(result.body.status.errorResult.reason).toBe('invalid');
    expect(result.body.status.errorResult.message).toMatch(/partition decorator/i);
  }
  for (const decorator of ['19600101', '21591231']) {
    const day = `${decorator.slice(0, 4)}-${decorator.slice(4, 6)}-${decorator.slice(6, 8)}`;
    const result = await uploadJob(
      bq,
      loadJob(`${tableId}$${decorator}`, { writeDisposition: 'WRITE_TRUNCATE' }),
      ndjson([row(day, 'p1', 1)]),
    );
    expect(result.body.status).toEqual({ state: 'DONE' });
  }
  expect((await bq.table(PROJECT, DATASET, tableId))!.partitions).toEqual({ '19600101': 1, '21591231': 1 });
});

it('refuses a row over the 100 MB JSON row limit (quotas page, load jobs) and takes one just under it', async () => {
  // Past the 10 MB a multipart upload carries here (the stricter reading), raised for this test alone.
  const raised = await fetch(`${bq.adminUrl}/upload-limit`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ multipartMaxBytes: 128 * 1024 * 1024 }),
  });
  expect(raised.status).toBe(200);
  const tableId = await freshTable();
  const overhead = JSON.stringify({ ...row('2026-11-01', 'p1', 1), country: '' }).length;
  const rowOf = (bytes: number) => JSON.stringify({ ...row('2026-11-01', 'p1', 1), country: 'x'.repeat(bytes - overhead) });
  const over = await uploadJob(bq, loadJob(tableId), `${rowOf(100_000_001)}\n${JSON.stringify(row('2026-11-01', 'p2', 2))}`);
  expect(over.body.status.errorResult.reason).toBe('invalid');
  expect(over.body.status.errors[1].message).toContain('Row size is larger than: 100000000');
  expect((await bq.table(PROJECT, DATASET, tableId))!.rows).toEqual([]);
  const at = await uploadJob(bq, loadJob(tableId), rowOf(100_000_000));
  expect(at.body.status).toEqual({ state: 'DONE' });
  await fetch(`${bq.adminUrl}/upload-limit`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ multipartMaxBytes: 10_000_000 }),
  });
}, 60_000);

it('puts TIMESTAMP rows in their UTC day’s partition, and refuses a decorator on a table that is not partitioned', async () => {
  const hourly = {
    schema: {
      fields: [
        { name: 'hour', type: 'TIMESTAMP', mode: 'REQUIRED' },
        { name: 'page_views', type: 'INTEGER' },
      ],
    },
    timePartitioning: { type: 'DAY', field: 'hour' },
  };
  const rows = [
    { hour: '2026-11-01 23:00:00+00:00', page_views: 1 },
    { hour: '2026-11-01T23:30:00-03:00', page_views: 2 },
    { hour: '2026-11-02T00:00:00Z', page_views: 3 },
  ];
  expect((await uploadJob(bq, loadJob('hourly', hourly), ndjson(rows))).body.status).toEqual({ state: 'DONE' });
  expect((await bq.table(PROJECT, DATASET, 'hourly'))!.partitions).toEqual({ '20261101': 1, '20261102': 2 });
  const flat = { schema: { fields: [{ name: 'page_views', type: 'INTEGER' }] } };
  expect((await uploadJob(bq, loadJob('flat', flat), ndjson([{ page_views: 1 }]))).body.status).toEqual({ state: 'DONE' });
  const decorated = await uploadJob(bq, loadJob('flat$20261101', { writeDisposition: 'WRITE_TRUNCATE' }), ndjson([{ page_views: 2 }]));
  expect(decorated.body.status.errorResult.reason).toBe('invalid');
  expect((await bq.table(PROJECT, DATASET, 'flat'))!.rows).toEqual([{ page_views: '1' }]);
});

it('creates a missing table from the job (CREATE_IF_NEEDED), refuses it with CREATE_NEVER, and refuses a bad table name', async () => {
  const create = { schema: DAILY_SCHEMA, timePartitioning: { type: 'DAY', field: 'day' }, clustering: { fields: ['publisher_id'] } };
  const never = await uploadJob(
    bq,
    loadJob('made_by_job', { ...create, createDisposition: 'CREATE_NEVER' }),
    ndjson([row('2026-11-01', 'p1', 1)]),
  );
  expect(never.body.status.errorResult).toEqual({ reason: 'notFound', message: `Not found: Table ${PROJECT}:${DATASET}.made_by_job` });
  expect(await bq.table(PROJECT, DATASET, 'made_by_job')).toBeNull();
  const noSchema = await uploadJob(bq, loadJob('made_without_schema'), ndjson([row('2026-11-01', 'p1', 1)]));
  expect(noSchema.body.status.errorResult).toEqual({ reason: 'invalid', message: 'No schema specified on job or table.' });
  const made = await uploadJob(
    bq,
    loadJob('made_by_job$20261101', { ...create, writeDisposition: 'WRITE_TRUNCATE' }),
    ndjson([row('2026-11-01', 'p1', 1)]),
  );
  expect(made.body.status).toEqual({ state: 'DONE' });
  const table = await bqGet(bq, `/projects/${PROJECT}/datasets/${DATASET}/tables/made_by_job`);
  expect(table.body).toEqual(
    expect.objectContaining({ numRows: '1', timePartitioning: { type: 'DAY', field: 'day' }, clustering: { fields: ['publisher_id'] } }),
  );
  const badName = await uploadJob(bq, loadJob('daily.report', create), ndjson([row('2026-11-01', 'p1', 1)]));
  expect(badName.body.status.errorResult.reason).toBe('invalid');
  expect(badName.body.status.errorResult.message).toContain('Invalid table ID "daily.report"');
});

it('refuses a schema in the job that differs from the table’s, and a dataset in another location', async () => {
  const tableId = await freshTable();
  const otherSchema = { fields: DAILY_SCHEMA.fields.filter((f) => f.name !== 'ctr') };
  const mismatch = await uploadJob(bq, loadJob(tableId, { schema: otherSchema }), ndjson([row('2026-11-01', 'p1', 1)]));
  expect(mismatch.body.status.errorResult.message).toBe(
    `Provided Schema does not match Table ${PROJECT}:${DATASET}.${tableId}. Field ctr is missing in new schema.`,
  );
  const elsewhere = await uploadJob(
    bq,
    loadJob(tableId, {}, { projectId: PROJECT, jobId: 'in_us', location: 'US' }),
    ndjson([row('2026-11-01', 'p1', 1)]),
  );
  expect(elsewhere.body.status.errorResult).toEqual({
    reason: 'notFound',
    message: `Not found: Dataset ${PROJECT}:${DATASET} was not found in location US`,
  });
  expect((await bq.table(PROJECT, DATASET, tableId))!.rows).toEqual([]);
});

it('answers jobs.insert 400 for a bad configuration and 409 for a job ID in use; jobs.get 404 in another location', async () => {
  const tableId = await freshTable();
  const unknown = await uploadJob(bq, loadJob(tableId, { writeMode: 'WRITE_APPEND' }), ndjson([row('2026-11-01', 'p1', 1)]));
  expect(bigQueryError(unknown)).toEqual(expect.objectContaining({ code: 400, reason: 'invalid' }));
  expect(unknown.body.error.message).toBe(
    `Invalid JSON payload received. Unknown name "writeMode" at 'job.configuration.load': Cannot find field.`,
  );
  const csv = await uploadJob(bq, loadJob(tableId, { sourceFormat: 'CSV' }), 'a,b');
  expect(bigQueryError(csv).reason).toBe('invalid');
  const badDisposition = await uploadJob(bq, loadJob(tableId, { writeDisposition: 'WRITE_OVER' }), '');
  expect(bigQueryError(badDisposition).message).toContain('writeDisposition');
  const reference = { projectId: PROJECT, jobId: 'engage_load_1', location: 'EU' };
  expect((await uploadJob(bq, loadJob(tableId, {}, reference), ndjson([row('2026-11-01', 'p1', 1)]))).status).toBe(200);
  const again = await uploadJob(bq, loadJob(tableId, {}, reference), ndjson([row('2026-11-01', 'p1', 1)]));
  expect(bigQueryError(again)).toEqual(expect.objectContaining({ code: 409, reason: 'duplicate' }));
  expect((await bqGet(bq, `/projects/${PROJECT}/jobs/engage_load_1?location=EU`)).body.status).toEqual({ state: 'DONE' });
  expect(bigQueryError(await bqGet(bq, `/projects/${PROJECT}/jobs/engage_load_1?location=US`)).reason).toBe('notFound');
  const onePart = await request(`${bq.rootUrl}/upload/bigquery/v2/projects/${PROJECT}/jobs?uploadType=multipart`, {
    method: 'POST',
    headers: { ...BEARER, 'Content-Type': 'multipart/related; boundary=b' },
    body: `--b\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(loadJob(tableId))}\r\n--b--\r\n`,
  });
  expect(bigQueryError(onePart)).toEqual(
    expect.objectContaining({ code: 400, reason: 'badRequest', message: 'Invalid multipart request with 1 mime parts.' }),
  );
  const noAuth = await uploadJob(bq, loadJob(tableId), ndjson([row('2026-11-01', 'p1', 1)]), {});
  expect(bigQueryError(noAuth).code).toBe(401);
  expect((await bq.table(PROJECT, DATASET, tableId))!.rows).toHaveLength(1);
});

it('keeps a job PENDING then RUNNING for the polls set, applies it only when DONE, and a fault then fails it changing nothing', async () => {
  const tableId = await freshTable();
  await uploadJob(bq, loadJob(tableId), ndjson([row('2026-11-01', 'p1', 1)]));
  await bq.setJobPolls(1, 2);
  const truncate = loadJob(
    `${tableId}$20261101`,
    { writeDisposition: 'WRITE_TRUNCATE' },
    { projectId: PROJECT, jobId: 'slow_1', location: 'EU' },
  );
  const inserted = await uploadJob(bq, truncate, ndjson([row('2026-11-01', 'p1', 50)]));
  expect(inserted.body.status).toEqual({ state: 'PENDING' });
  const states: string[] = [];
  for (let poll = 0; poll < 4; poll += 1) {
    const got = await bqGet(bq, `/projects/${PROJECT}/jobs/slow_1?location=EU`);
    states.push(got.body.status.state);
    // Until the job is DONE the table keeps its old rows.
    if (got.body.status.state !== 'DONE') expect(await pageViewsOf(tableId)).toEqual({ '2026-11-01': [1] });
  }
  expect(states).toEqual(['PENDING', 'RUNNING', 'RUNNING', 'DONE']);
  expect(await pageViewsOf(tableId)).toEqual({ '2026-11-01': [50] });
  // "Fail after this job starts": the job is seen RUNNING, then ends DONE with errorResult; the partition keeps its rows.
  await bq.setJobPolls(0, 1);
  await bq.failNextLoads(1);
  const failing = loadJob(
    `${tableId}$20261101`,
    { writeDisposition: 'WRITE_TRUNCATE' },
    { projectId: PROJECT, jobId: 'fails_1', location: 'EU' },
  );
  expect((await uploadJob(bq, failing, ndjson([row('2026-11-01', 'p1', 99)]))).body.status).toEqual({ state: 'RUNNING' });
  expect((await bqGet(bq, `/projects/${PROJECT}/jobs/fails_1?location=EU`)).body.status.state).toBe('RUNNING');
  const failed = await bqGet(bq, `/projects/${PROJECT}/jobs/fails_1?location=EU`);
  expect(failed.body.status.state).toBe('DONE');
  expect(failed.body.status.errorResult.reason).toBe('backendError');
  expect(await pageViewsOf(tableId)).toEqual({ '2026-11-01': [50] });
  // The next job (the fault used up) finishes the work.
  const retry = loadJob(
    `${tableId}$20261101`,
    { writeDisposition: 'WRITE_TRUNCATE' },
    { projectId: PROJECT, jobId: 'fails_1_retry', location: 'EU' },
  );
  await uploadJob(bq, retry, ndjson([row('2026-11-01', 'p1', 99)]));
  expect((await bqGet(bq, `/projects/${PROJECT}/jobs/fails_1_retry?location=EU`)).body.status.state).toBe('RUNNING');
  expect((await bqGet(bq, `/projects/${PROJECT}/jobs/fails_1_retry?location=EU`)).body.status).toEqual({ state: 'DONE' });
  expect(await pageViewsOf(tableId)).toEqual({ '2026-11-01': [99] });
  const jobs = await bq.jobs();
  expect(jobs.map((job) => job.jobReference.jobId)).toEqual(expect.arrayContaining(['slow_1', 'fails_1', 'fails_1_retry']));
});

it('answers injected 5xx and 403 rate-limit faults in BigQuery’s shape without touching the table', async () => {
  const tableId = await freshTable();
  await bq.failNextRequests(503, 1, '^POST /upload/');
  const refused = await uploadJob(bq, loadJob(tableId), ndjson([row('2026-11-01', 'p1', 1)]));
  expect(bigQueryError(refused)).toEqual(expect.objectContaining({ code: 503, reason: 'backendError', status: 'UNAVAILABLE' }));
  await bq.failNextRequests(403, 1, '^POST /upload/', 'rateLimitExceeded');
  const limited = await uploadJob(bq, loadJob(tableId), ndjson([row('2026-11-01', 'p1', 1)]));
  expect(bigQueryError(limited)).toEqual(expect.objectContaining({ code: 403, reason: 'rateLimitExceeded', status: 'PERMISSION_DENIED' }));
  expect((await bq.table(PROJECT, DATASET, tableId))!.rows).toEqual([]);
  expect((await bq.jobs()).filter((job) => job.configuration.load.destinationTable.tableId === tableId)).toEqual([]);
  expect((await uploadJob(bq, loadJob(tableId), ndjson([row('2026-11-01', 'p1', 1)]))).body.status).toEqual({ state: 'DONE' });
});
