/**
 * Contract: the BigQuery stand-in's daily quotas and copy jobs over real HTTP (dev/bigquery/README.md).
 * Each quota, lowered through the admin API so a few calls reach it, lets the call at the limit through
 * and refuses the next: load jobs and table operations per table, partition modifications per
 * column-partitioned table, copy jobs per destination table (the job's status.errorResult, reason
 * quotaExceeded, the table untouched), load and copy jobs per project (a 403 quotaExceeded at jobs.insert, no job made); failed jobs count;
 * a use comes back 24 hours later. The per-table rate limit (5 jobs writing a table in any 10 s, the
 * quotas page's table metadata update operations): the 6th within 10 s fails rateLimitExceeded, the
 * 6th 10 s after the first runs; a lower or no limit through the admin API. Copy jobs: a partition copied over another with WRITE_TRUNCATE,
 * WRITE_EMPTY and CREATE_NEVER refusals, CREATE_IF_NEEDED, a partitioning mismatch, the body held to
 * JobConfigurationTableCopy; and a table gone at its expirationTime.
 */
import { BEARER, bigQueryError, bqGet, bqPost, dailyTable, DATASET, loadJob, ndjson, PROJECT, uploadJob } from './bigquery-client';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { newEmulator, type EmulatorHandle } from '../support/emulator';

const NOW = '2026-11-20T10:00:00.000Z';
const DAY_MS = 24 * 3_600_000;

let emulator: EmulatorHandle;
let bq: BigQueryHandle;
let tableNumber = 0;

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
});

const row = (day: string, pageViews: number) => ({
  day,
  publisher_id: 'p1',
  country: 'DE',
  page_views: pageViews,
  revenue: '1.50',
  ctr: 0.5,
});

async function freshTable(spec: (id: string) => Record<string, unknown> = dailyTable): Promise<string> {
  tableNumber += 1;
  const tableId = `q_${tableNumber}`;
  expect((await bqPost(bq, `/projects/${PROJECT}/datasets/${DATASET}/tables`, spec(tableId))).status).toBe(200);
  return tableId;
}

/** A load into `tableId`; answers the finished Job. */
async function load(tableId: string, rows: unknown[], writeDisposition = 'WRITE_APPEND'): Promise<Record<string, any>> {
  const result = await uploadJob(bq, loadJob(tableId, { writeDisposition }), ndjson(rows));
  expect(result.status).toBe(200);
  expect(result.body.status.state).toBe('DONE');
  return result.body;
}

function copyJob(source: string | string[], destination: string, copy: Record<string, unknown> = {}): Record<string, unknown> {
  const ref = (tableId: string) => ({ projectId: PROJECT, datasetId: DATASET, tableId });
  return {
    configuration: {
      copy: {
        ...(Array.isArray(source) ? { sourceTables: source.map(ref) } : { sourceTable: ref(source) }),
        destinationTable: ref(destination),
        ...copy,
      },
    },
  };
}

const copy = (job: Record<string, unknown>) => bqPost(bq, `/projects/${PROJECT}/jobs`, job);
const pageViews = async (tableId: string, partition?: string) =>
  ((await bq.table(PROJECT, DATASET, tableId, partition))?.rows ?? []).map((r) => Number(r.page_views)).sort((a, b) => a - b);
const quotaExceeded = (job: Record<string, any>) =>
  expect(job.status.errorResult).toEqual(expect.objectContaining({ reason: 'quotaExceeded' }));

describe('daily quotas', () => {
  it('answers the documented limits, and counts over a rolling 24 hours', async () => {
    const quotas = await bq.quotas();
    expect(quotas.limits).toEqual({
      loadJobsPerTablePerDay: 1_500,
      tableOperationsPerTablePerDay: 1_500,
      partitionModificationsPerTablePerDay: 30_000,
      copyJobsPerDestinationTablePerDay: 1_000,
      loadJobsPerProjectPerDay: 100_000,
      copyJobsPerProjectPerDay: 100_000,
    });
    expect(quotas.windowMs).toBe(DAY_MS);
  });

  it('load jobs per table: the job at the limit loads, the next fails quotaExceeded and changes nothing; failed jobs count; 24 hours later it loads again', async () => {
    const tableId = await freshTable();
    await bq.setQuotas({ loadJobsPerTablePerDay: 3 });
    // A job that fails on a bad row still counts.
    expect((await load(tableId, [{ nope: 1 }])).status.errorResult.reason).toBe('invalid');
    expect((await load(tableId, [row('2026-11-01', 1)])).status.errorResult).toBeUndefined();
    expect((await load(tableId, [row('2026-11-01', 2)])).status.errorResult).toBeUndefined();
    const refused = await load(tableId, [row('2026-11-01', 3)]);
    quotaExceeded(refused);
    expect(refused.status.errorResult.message).toMatch(/^Quota exceeded: Your table exceeded quota for imports or query appends per table/);
    expect(await pageViews(tableId)).toEqual([1, 2]);
    // Another table has its own count.
    expect((await load(await freshTable(), [row('2026-11-01', 9)])).status.errorResult).toBeUndefined();
    expect((await bq.quotas()).used[`load:${PROJECT}:${DATASET}.${tableId}`]).toBe(4);
    await emulator.advanceClock(DAY_MS - 1);
    quotaExceeded(await load(tableId, [row('2026-11-01', 4)]));
    await emulator.advanceClock(1);
    // The first four uses are now 24 hours old; the one refused a millisecond ago still counts: 2 more load.
    expect((await load(tableId, [row('2026-11-01', 5)])).status.errorResult).toBeUndefined();
    expect((await load(tableId, [row('2026-11-01', 6)])).status.errorResult).toBeUndefined();
    quotaExceeded(await load(tableId, [row('2026-11-01', 7)]));
    expect(await pageViews(tableId)).toEqual([1, 2, 5, 6]);
  });

  it('table operations per table count loads and copies together', async () => {
    const source = await freshTable();
    const tableId = await freshTable();
    await load(source, [row('2026-11-02', 7)]);
    await bq.setQuotas({ tableOperationsPerTablePerDay: 2 });
    await load(tableId, [row('2026-11-01', 1)]);
    const copied = await copy(copyJob(`${source}$20261102`, `${tableId}$20261102`, { writeDisposition: 'WRITE_TRUNCATE' }));
    expect(copied.body.status).toEqual({ state: 'DONE' });
    const refused = await copy(copyJob(`${source}$20261102`, `${tableId}$20261102`, { writeDisposition: 'WRITE_TRUNCATE' }));
    expect(refused.status).toBe(200);
    quotaExceeded(refused.body);
    quotaExceeded(await load(tableId, [row('2026-11-03', 3)]));
    expect(await pageViews(tableId)).toEqual([1, 7]);
  });

  it('copy jobs per destination table: the copy at the limit runs, the next fails quotaExceeded; loads into it still run', async () => {
    const source = await freshTable();
    const tableId = await freshTable();
    await load(source, [row('2026-11-02', 7)]);
    await bq.setQuotas({ copyJobsPerDestinationTablePerDay: 2 });
    const truncate = { writeDisposition: 'WRITE_TRUNCATE' };
    expect((await copy(copyJob(`${source}$20261102`, `${tableId}$20261102`, truncate))).body.status).toEqual({ state: 'DONE' });
    expect((await copy(copyJob(`${source}$20261102`, `${tableId}$20261102`, truncate))).body.status).toEqual({ state: 'DONE' });
    const refused = await copy(copyJob(`${source}$20261102`, `${tableId}$20261102`, truncate));
    quotaExceeded(refused.body);
    expect(refused.body.status.errorResult.message).toMatch(/^Quota exceeded: Your table exceeded quota for table operations \(copies/);
    expect((await load(tableId, [row('2026-11-03', 3)])).status.errorResult).toBeUndefined();
    expect(await pageViews(tableId)).toEqual([3, 7]);
    expect((await bq.quotas()).used).toEqual(
      expect.objectContaining({ [`copy:${PROJECT}:${DATASET}.${tableId}`]: 3, [`ops:${PROJECT}:${DATASET}.${tableId}`]: 4 }),
    );
  });

  it('partition modifications per column-partitioned table: each partition a job writes counts', async () => {
    const tableId = await freshTable();
    await bq.setQuotas({ partitionModificationsPerTablePerDay: 3 });
    await load(tableId, [row('2026-11-01', 1), row('2026-11-02', 2)]);
    await load(tableId, [row('2026-11-03', 3)]);
    const refused = await load(tableId, [row('2026-11-04', 4)]);
    quotaExceeded(refused);
    expect(refused.status.errorResult.message).toMatch(/Number of partition modifications to a column partitioned table/);
    expect((await bq.table(PROJECT, DATASET, tableId))!.partitions).toEqual({ '20261101': 1, '20261102': 1, '20261103': 1 });
    expect((await bq.quotas()).used[`parts:${PROJECT}:${DATASET}.${tableId}`]).toBe(3);
  });

  it('load and copy jobs per project: a 403 quotaExceeded at jobs.insert past the limit, and no job made', async () => {
    const tableId = await freshTable();
    await load(tableId, [row('2026-11-01', 1)]);
    await bq.setQuotas({ loadJobsPerProjectPerDay: 2, copyJobsPerProjectPerDay: 1 });
    await load(tableId, [row('2026-11-01', 2)]);
    const refused = await uploadJob(bq, loadJob(tableId), ndjson([row('2026-11-01', 3)]));
    expect(refused.status).toBe(403);
    expect(bigQueryError(refused)).toEqual(expect.objectContaining({ code: 403, reason: 'quotaExceeded', status: 'PERMISSION_DENIED' }));
    expect((await copy(copyJob(`${tableId}$20261101`, 'copied'))).body.status).toEqual({ state: 'DONE' });
    const copyRefused = await copy(copyJob(`${tableId}$20261101`, 'copied_again'));
    expect(bigQueryError(copyRefused)).toEqual(expect.objectContaining({ code: 403, reason: 'quotaExceeded' }));
    expect((await bq.jobs()).map((job) => job.configuration.jobType)).toEqual(['LOAD', 'LOAD', 'COPY']);
    expect(await pageViews(tableId)).toEqual([1, 2]);
  });
});

describe('the per-table rate limit', () => {
  const rateLimited = (job: Record<string, any>) =>
    expect(job.status.errorResult).toEqual({
      reason: 'rateLimitExceeded',
      message: expect.stringMatching(/^Exceeded rate limits: too many table update operations for this table/),
    });

  it('refuses the 6th job writing a table within 10 s (DONE, rateLimitExceeded, nothing changed) and runs the 6th 10 s after the first', async () => {
    // https://cloud.google.com/bigquery/quotas, Standard tables: 5 table metadata update operations (job output included) per 10 seconds.
    expect((await bq.rateLimits()).limits).toEqual({ tableOperationsPer10Seconds: 5 });
    const source = await freshTable();
    await load(source, [row('2026-11-03', 50)]);
    /** Four loads 1 s apart and a copy (a copy counts alike): 5 jobs into the table over 4 s. */
    const fiveJobs = async (tableId: string) => {
      for (let n = 1; n <= 4; n++) {
        expect((await load(tableId, [row('2026-11-03', n)])).status.errorResult).toBeUndefined();
        await emulator.advanceClock(1_000);
      }
      expect((await copy(copyJob(source, tableId, { writeDisposition: 'WRITE_APPEND' }))).body.status.errorResult).toBeUndefined();
    };
    const within = await freshTable();
    await fiveJobs(within);
    await emulator.advanceClock(5_999);
    // 9.999 s after the first: the 6th is refused, answered DONE, and loads nothing.
    const refused = await load(within, [row('2026-11-03', 6)]);
    expect(refused.status.state).toBe('DONE');
    rateLimited(refused);
    expect(await pageViews(within)).toEqual([1, 2, 3, 4, 50]);
    // A partition decorator is the same table.
    rateLimited(
      (await uploadJob(bq, loadJob(`${within}$20261103`, { writeDisposition: 'WRITE_APPEND' }), ndjson([row('2026-11-03', 7)]))).body,
    );

    const after = await freshTable();
    await fiveJobs(after);
    // 10 s after the first (another table has its own window): the 6th runs; a 7th at once is refused.
    await emulator.advanceClock(6_000);
    expect((await load(after, [row('2026-11-03', 6)])).status.errorResult).toBeUndefined();
    rateLimited(await load(after, [row('2026-11-03', 7)]));
    expect(await pageViews(after)).toEqual([1, 2, 3, 4, 6, 50]);
  });

  it('an admin setting lowers the limit, or switches it off', async () => {
    const tableId = await freshTable();
    await bq.setTableRateLimit(2);
    await load(tableId, [row('2026-11-04', 1)]);
    await load(tableId, [row('2026-11-04', 2)]);
    rateLimited(await load(tableId, [row('2026-11-04', 3)]));
    await bq.setTableRateLimit(null);
    for (let n = 4; n <= 10; n++) expect((await load(tableId, [row('2026-11-04', n)])).status.errorResult).toBeUndefined();
    expect((await bq.rateLimits()).recent[`${PROJECT}:${DATASET}.${tableId}`]).toBe(10);
  });
});

describe('copy jobs', () => {
  it('WRITE_TRUNCATE to table$yyyymmdd replaces that partition with the source partition, atomically, and no other', async () => {
    const staging = await freshTable();
    const tableId = await freshTable();
    await load(tableId, [row('2026-11-01', 1), row('2026-11-02', 2), row('2026-11-02', 3)]);
    await load(staging, [row('2026-11-02', 20)]);
    await load(staging, [row('2026-11-02', 30), row('2026-11-02', 40)]);
    const result = await copy({
      jobReference: { projectId: PROJECT, jobId: 'engage_copy_1', location: 'EU' },
      ...copyJob([`${staging}$20261102`], `${tableId}$20261102`, { writeDisposition: 'WRITE_TRUNCATE', createDisposition: 'CREATE_NEVER' }),
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual(
      expect.objectContaining({
        jobReference: { projectId: PROJECT, jobId: 'engage_copy_1', location: 'EU' },
        status: { state: 'DONE' },
        statistics: expect.objectContaining({ copy: { copiedRows: '3' } }),
      }),
    );
    expect(result.body.configuration.jobType).toBe('COPY');
    expect(await pageViews(tableId, '20261102')).toEqual([20, 30, 40]);
    expect(await pageViews(tableId, '20261101')).toEqual([1]);
    // jobs.get finds it; the same ID again is a 409.
    expect((await bqGet(bq, `/projects/${PROJECT}/jobs/engage_copy_1?location=EU`)).body.status.state).toBe('DONE');
    expect(
      (await copy({ jobReference: { projectId: PROJECT, jobId: 'engage_copy_1', location: 'EU' }, ...copyJob(staging, tableId) })).status,
    ).toBe(409);
  });

  it('WRITE_EMPTY (the default) refuses a destination with rows, CREATE_NEVER a missing one; CREATE_IF_NEEDED makes it like the source', async () => {
    const source = await freshTable();
    const tableId = await freshTable();
    await load(source, [row('2026-11-05', 5)]);
    await load(tableId, [row('2026-11-05', 1)]);
    expect((await copy(copyJob(source, tableId))).body.status.errorResult.reason).toBe('duplicate');
    expect((await copy(copyJob(source, 'missing', { createDisposition: 'CREATE_NEVER' }))).body.status.errorResult.reason).toBe('notFound');
    expect((await copy(copyJob(source, `${tableId}$20261105`, { writeDisposition: 'WRITE_APPEND' }))).body.status).toEqual({
      state: 'DONE',
    });
    expect(await pageViews(tableId)).toEqual([1, 5]);
    expect((await copy(copyJob(source, 'made_by_copy'))).body.status).toEqual({ state: 'DONE' });
    const made = await bq.table(PROJECT, DATASET, 'made_by_copy');
    expect(made!.table.timePartitioning).toEqual({ type: 'DAY', field: 'day' });
    expect(made!.table.clustering).toEqual({ fields: ['publisher_id', 'country'] });
    expect(made!.partitions).toEqual({ '20261105': 1 });
  });

  it('refuses a partition copy between tables partitioned differently, and a row outside the destination partition, changing nothing', async () => {
    const unpartitioned = await freshTable((id) => ({ ...dailyTable(id), timePartitioning: undefined, clustering: undefined }));
    const tableId = await freshTable();
    await load(unpartitioned, [row('2026-11-06', 6)]);
    await load(tableId, [row('2026-11-06', 1)]);
    const mismatch = await copy(copyJob(unpartitioned, `${tableId}$20261106`, { writeDisposition: 'WRITE_TRUNCATE' }));
    expect(mismatch.body.status.errorResult).toEqual(
      expect.objectContaining({ reason: 'invalid', message: expect.stringMatching(/Partition specification/) }),
    );
    const source = await freshTable();
    await load(source, [row('2026-11-07', 7)]);
    const outside = await copy(copyJob(source, `${tableId}$20261106`, { writeDisposition: 'WRITE_TRUNCATE' }));
    expect(outside.body.status.errorResult.message).toMatch(/rather than destination partition 20261106/);
    expect(await pageViews(tableId)).toEqual([1]);
  });

  it('a whole table copied into a partitioned one puts each row in its day, and counts each partition written', async () => {
    const unpartitioned = await freshTable((id) => ({ ...dailyTable(id), timePartitioning: undefined, clustering: undefined }));
    const tableId = await freshTable();
    await load(unpartitioned, [row('2026-11-08', 8), row('2026-11-09', 9), row('2026-11-09', 10)]);
    await load(tableId, [row('2026-11-08', 1)]);
    const result = await copy(copyJob(unpartitioned, tableId, { writeDisposition: 'WRITE_APPEND' }));
    expect(result.body.statistics.copy).toEqual({ copiedRows: '3' });
    expect((await bq.table(PROJECT, DATASET, tableId))!.partitions).toEqual({ '20261108': 2, '20261109': 2 });
    // The load wrote one partition, the copy two.
    expect((await bq.quotas()).used[`parts:${PROJECT}:${DATASET}.${tableId}`]).toBe(3);
    expect(await pageViews(unpartitioned)).toEqual([8, 9, 10]);
  });

  it('holds the body to JobConfigurationTableCopy: an unknown name, both source fields, or a load without data are 400s', async () => {
    const unknown = await copy({ configuration: { copy: { ...(copyJob('a', 'b').configuration as any).copy, writeMode: 'x' } } });
    expect(bigQueryError(unknown)).toEqual(expect.objectContaining({ code: 400, reason: 'invalid' }));
    expect(unknown.body.error.message).toBe(
      `Invalid JSON payload received. Unknown name "writeMode" at 'job.configuration.copy': Cannot find field.`,
    );
    const ref = { projectId: PROJECT, datasetId: DATASET, tableId: 'a' };
    const both = await copy({
      configuration: { copy: { sourceTable: ref, sourceTables: [ref], destinationTable: { ...ref, tableId: 'b' } } },
    });
    expect(bigQueryError(both).message).toMatch(/Exactly one of configuration.copy.sourceTable and configuration.copy.sourceTables/);
    const loadWithoutData = await bqPost(bq, `/projects/${PROJECT}/jobs`, loadJob('a'), BEARER);
    expect(bigQueryError(loadWithoutData).message).toMatch(/at least one source URI/);
  });

  it('a table is gone once its expirationTime has passed', async () => {
    const expiresAt = Date.parse(NOW) + 60_000;
    const tableId = await freshTable((id) => ({ ...dailyTable(id), expirationTime: String(expiresAt) }));
    expect((await bqGet(bq, `/projects/${PROJECT}/datasets/${DATASET}/tables/${tableId}`)).status).toBe(200);
    await emulator.advanceClock(60_000);
    expect((await bqGet(bq, `/projects/${PROJECT}/datasets/${DATASET}/tables/${tableId}`)).status).toBe(404);
    expect(await bq.table(PROJECT, DATASET, tableId)).toBeNull();
  });
});
