/**
 * Contract: what the BigQuery stand-in deletes by itself, on the emulator's clock, and the readings no
 * page settles (dev/bigquery/README.md). A dataset's defaults (Dataset,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/datasets): `defaultPartitionExpirationMs`
 * "When new time-partitioned tables are created in a dataset where this property is set, the table will
 * inherit this value, propagated as the TimePartitioning.expirationMs property on the new table. If you
 * set TimePartitioning.expirationMs explicitly when creating a table, the defaultPartitionExpirationMs of
 * the containing dataset is ignored. When creating a partitioned table, if defaultPartitionExpirationMs
 * is set, the defaultTableExpirationMs value is ignored and the table will not inherit a table expiration
 * deadline"; `defaultTableExpirationMs` gives other new tables an expirationTime. A partition's storage
 * "will have an expiration time of its partition time plus this value" (TimePartitioning.expirationMs,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/tables), a DAY partition's time being its UTC
 * midnight (https://cloud.google.com/bigquery/docs/partitioned-tables). The sandbox sets 60 days for both
 * (https://cloud.google.com/bigquery/docs/sandbox). A partition is deleted with tables.delete of
 * `table$yyyymmdd` (https://cloud.google.com/bigquery/docs/managing-partitioned-tables#delete_a_partition).
 * The stricter readings: a load without data, and a multipart upload over 10 MB, are refused.
 */
import { request } from './contract-client';
import { BEARER, bigQueryError, bqGet, bqPost, dailyTable, DATASET, loadJob, ndjson, PROJECT, uploadJob } from './bigquery-client';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { newEmulator, type EmulatorHandle } from '../support/emulator';

const NOW = '2026-11-20T10:00:00.000Z';
const DAY_MS = 86_400_000;
const SIXTY_DAYS_MS = 60 * DAY_MS;
const SANDBOX = 'sandbox_eu';

let emulator: EmulatorHandle;
let bq: BigQueryHandle;

beforeAll(async () => {
  emulator = await newEmulator();
  bq = bigQueryOf(emulator);
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  await bq.reset();
  await emulator.setClock(NOW, { frozen: true });
  await bq.createDataset(PROJECT, DATASET, 'EU');
  await bq.createDataset(PROJECT, SANDBOX, 'EU', { sandbox: true });
});

const row = (day: string) => ({ day, publisher_id: 'p1', country: 'DE', page_views: 3, revenue: '1.50', ctr: 0.5 });
const tablePath = (dataset: string, tableId: string) => `/projects/${PROJECT}/datasets/${dataset}/tables/${encodeURIComponent(tableId)}`;
const inSandbox = (tableId: string) => ({ ...dailyTable(tableId), tableReference: { projectId: PROJECT, datasetId: SANDBOX, tableId } });
const bqDelete = (path: string) => request(`${bq.rootUrl}/bigquery/v2${path}`, { method: 'DELETE', headers: BEARER });

async function loadDay(dataset: string, tableId: string, day: string): Promise<Record<string, any>> {
  const job = loadJob(`${tableId}$${day.replace(/-/g, '')}`, { writeDisposition: 'WRITE_TRUNCATE' });
  (job.configuration as any).load.destinationTable.datasetId = dataset;
  const result = await uploadJob(bq, job, ndjson([row(day)]));
  expect(result.status).toBe(200);
  return result.body;
}

describe("a dataset's default expirations", () => {
  it('datasets.get tells them, as int64 strings; the sandbox has 60 days of both', async () => {
    const sandbox = await bqGet(bq, `/projects/${PROJECT}/datasets/${SANDBOX}`);
    expect(sandbox.body).toMatchObject({
      defaultPartitionExpirationMs: String(SIXTY_DAYS_MS),
      defaultTableExpirationMs: String(SIXTY_DAYS_MS),
    });
    const plain = await bqGet(bq, `/projects/${PROJECT}/datasets/${DATASET}`);
    expect(plain.body.defaultPartitionExpirationMs).toBeUndefined();
    expect(plain.body.defaultTableExpirationMs).toBeUndefined();
  });

  it('a new partitioned table takes the partition default and no table expiration; an explicit expirationMs wins', async () => {
    const made = await bqPost(bq, `/projects/${PROJECT}/datasets/${SANDBOX}/tables`, inSandbox('daily'));
    expect(made.body.timePartitioning).toEqual({ type: 'DAY', field: 'day', expirationMs: String(SIXTY_DAYS_MS) });
    expect(made.body.expirationTime).toBeUndefined();
    const own = await bqPost(bq, `/projects/${PROJECT}/datasets/${SANDBOX}/tables`, {
      ...inSandbox('own'),
      timePartitioning: { type: 'DAY', field: 'day', expirationMs: String(7 * DAY_MS) },
    });
    expect(own.body.timePartitioning.expirationMs).toBe(String(7 * DAY_MS));
  });

  it('a new table that is not partitioned goes at its creation plus the table default', async () => {
    await bq.createDataset(PROJECT, 'tables_only', 'EU', { defaultTableExpirationMs: DAY_MS });
    const { timePartitioning: _p, clustering: _c, ...plain } = dailyTable('plain');
    const made = await bqPost(bq, `/projects/${PROJECT}/datasets/tables_only/tables`, {
      ...plain,
      tableReference: { projectId: PROJECT, datasetId: 'tables_only', tableId: 'plain' },
    });
    expect(made.body.expirationTime).toBe(String(Date.parse(NOW) + DAY_MS));
    await emulator.advanceClock(DAY_MS);
    expect((await bqGet(bq, tablePath('tables_only', 'plain'))).status).toBe(404);
  });

  it('a table a load job creates takes the defaults too', async () => {
    const job = loadJob('by_load$20261119', {
      writeDisposition: 'WRITE_TRUNCATE',
      schema: dailyTable('x').schema,
      timePartitioning: { type: 'DAY', field: 'day' },
    });
    (job.configuration as any).load.destinationTable.datasetId = SANDBOX;
    expect((await uploadJob(bq, job, ndjson([row('2026-11-19')]))).status).toBe(200);
    expect((await bqGet(bq, tablePath(SANDBOX, 'by_load'))).body.timePartitioning.expirationMs).toBe(String(SIXTY_DAYS_MS));
  });
});

describe('partition expiration', () => {
  it("deletes a day's partition at its UTC midnight plus 60 days, not a millisecond before", async () => {
    await bqPost(bq, `/projects/${PROJECT}/datasets/${SANDBOX}/tables`, inSandbox('daily'));
    await loadDay(SANDBOX, 'daily', '2026-10-01');
    await loadDay(SANDBOX, 'daily', '2026-10-02');
    // 2026-10-01 + 60 days = 2026-11-30T00:00Z.
    await emulator.advanceClock(Date.parse('2026-11-30T00:00:00Z') - Date.parse(NOW) - 1);
    expect((await bq.table(PROJECT, SANDBOX, 'daily'))!.partitions).toEqual({ '20261001': 1, '20261002': 1 });
    await emulator.advanceClock(1);
    expect((await bq.table(PROJECT, SANDBOX, 'daily'))!.partitions).toEqual({ '20261002': 1 });
    expect((await bqGet(bq, tablePath(SANDBOX, 'daily'))).body.numPartitions).toBe('1');
  });

  it('a load into a partition already past its expiration leaves nothing', async () => {
    await bqPost(bq, `/projects/${PROJECT}/datasets/${SANDBOX}/tables`, inSandbox('daily'));
    const job = await loadDay(SANDBOX, 'daily', '2026-09-01');
    expect(job.status.state).toBe('DONE');
    expect((await bq.table(PROJECT, SANDBOX, 'daily'))!.partitions).toEqual({});
  });
});

describe('tables.delete of a partition', () => {
  it('empties that day alone; a partition that holds nothing is a 404', async () => {
    await bqPost(bq, `/projects/${PROJECT}/datasets/${DATASET}/tables`, dailyTable('daily'));
    await loadDay(DATASET, 'daily', '2026-11-18');
    await loadDay(DATASET, 'daily', '2026-11-19');
    const deleted = await bqDelete(tablePath(DATASET, 'daily$20261118'));
    expect(deleted.status).toBe(200);
    expect((await bq.table(PROJECT, DATASET, 'daily'))!.partitions).toEqual({ '20261119': 1 });
    const again = await bqDelete(tablePath(DATASET, 'daily$20261118'));
    expect(bigQueryError(again)).toMatchObject({ code: 404, reason: 'notFound' });
    expect((await bqDelete(tablePath(DATASET, 'daily$20261331'))).status).toBe(400);
    expect((await bqDelete(tablePath(DATASET, 'daily'))).status).toBe(200);
    expect(await bq.table(PROJECT, DATASET, 'daily')).toBeNull();
  });
});

describe('readings no page settles, held to the stricter one', () => {
  it('refuses a load job without data', async () => {
    await bqPost(bq, `/projects/${PROJECT}/datasets/${DATASET}/tables`, dailyTable('daily'));
    const empty = await uploadJob(bq, loadJob('daily$20261119', { writeDisposition: 'WRITE_TRUNCATE' }), '');
    expect(bigQueryError(empty)).toMatchObject({ code: 400, reason: 'invalid' });
    expect(bigQueryError(empty).message).toMatch(/without data .*tables\.delete/);
  });

  it('refuses a multipart upload over 10,000,000 bytes and takes one just under', async () => {
    await bqPost(bq, `/projects/${PROJECT}/datasets/${DATASET}/tables`, dailyTable('daily'));
    const job = loadJob('daily$20261119', { writeDisposition: 'WRITE_TRUNCATE' });
    const line = JSON.stringify({ ...row('2026-11-19'), country: 'D'.repeat(9_000) });
    const rows = (n: number) => Array.from({ length: n }, () => line).join('\n');
    const over = await uploadJob(bq, job, rows(1_120));
    expect(bigQueryError(over)).toMatchObject({ code: 400, reason: 'badRequest' });
    expect(bigQueryError(over).message).toMatch(/at most 10000000 bytes/);
    const under = await uploadJob(bq, job, rows(1_050));
    expect(under.status).toBe(200);
    expect(under.body.status.errorResult).toBeUndefined();
  });
});
