/**
 * The core's staging path for a day larger than one request, in Node against the emulator and its
 * BigQuery stand-in over HTTP (no fake in between): a day of the big publisher by doc, fetched from the
 * emulator, is loaded with a per-request byte budget far under URL Fetch's 50,000,000 bytes (the
 * `maxRequestBytes` the core takes for this; the shipped bundle never sets it), so the day goes in
 * several staged loads and one copy. The partition then equals the emulator's rows; every upload stayed
 * within the budget; a failure between staging loads, or of the copy, leaves the partition as it was;
 * the staging table is gone a day later. And a load over the table's daily load jobs (the stand-in's
 * quota lowered to what is used) fails as BigQuery fails it, told to the user as such.
 */
import { EngageClient } from '../../src/core/api/client/engage-client';
import { BigQueryClient } from '../../src/core/warehouse/bigquery-client';
import { BigQueryError } from '../../src/core/warehouse/bigquery-errors';
import { loadReportDay, type ReportDayLoad } from '../../src/core/warehouse/report-load';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { BIG_PUBLISHER_ID, DEMO_USER, newEmulator, type EmulatorHandle } from '../support/emulator';
import { FakeStore, ManualClock, ManualSleeper } from '../support/fakes';
import { blockingSleeper, clockStartingAt, NodeTransport } from '../support/node-transport';

const NOW_ISO = '2026-11-22T12:00:00.000Z';
const NOW_MS = Date.parse(NOW_ISO);
const PROJECT = 'engage-staging-tests';
const DATASET = 'engage_reports';
const DAY = '20261120';
const DAY_BEFORE = '20261119';
/** The per-request budget for these tests: a day of ~100 KB of lines then takes several requests. */
const MAX_REQUEST_BYTES = 30_000;
const METRICS = ['revenue', 'rpmByPvs'];

let emulator: EmulatorHandle;
let bq: BigQueryHandle;
let engage: EngageClient;
/** The day's items and the day before's, as the emulator answers them (fetched once). */
const itemsOf: Record<string, Record<string, unknown>[]> = {};
let tableNumber = 0;

beforeAll(async () => {
  emulator = await newEmulator();
  bq = bigQueryOf(emulator);
  await emulator.setClock(NOW_ISO, { frozen: true });
  engage = new EngageClient({
    baseUrl: emulator.baseUrl,
    transport: new NodeTransport(),
    clock: clockStartingAt(NOW_MS),
    sleeper: blockingSleeper,
    store: new FakeStore(),
  });
  engage.login(DEMO_USER.email, DEMO_USER.password);
  for (const day of [DAY_BEFORE, DAY]) {
    const query = engage.buildQuery('main', {
      entityId: BIG_PUBLISHER_ID,
      fromDate: day,
      toDate: day,
      breakdowns: ['day', 'doc'],
      metrics: METRICS,
    });
    itemsOf[day] = engage.runReport(query).items as Record<string, unknown>[];
  }
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  await bq.reset();
  await emulator.setClock(NOW_ISO, { frozen: true });
  await bq.createDataset(PROJECT, DATASET, 'EU');
});

function bigQuery() {
  const clock = new ManualClock(NOW_MS);
  return new BigQueryClient({
    transport: new NodeTransport(),
    token: { oauthToken: () => 'ya29.staging-test' },
    clock,
    sleeper: new ManualSleeper(clock),
    rootUrl: `${bq.rootUrl}/`,
  });
}

function dayLoad(tableId: string, day: string, items: Record<string, unknown>[], extra: Partial<ReportDayLoad> = {}): ReportDayLoad {
  return {
    destination: { projectId: PROJECT, datasetId: DATASET, tableId, location: 'EU' },
    report: { kind: 'main', breakdowns: ['day', 'doc'], metrics: METRICS },
    day,
    batches: [{ items, context: { publisherId: BIG_PUBLISHER_ID } }],
    deadlineAtMs: NOW_MS + 600_000,
    nowMs: NOW_MS,
    attemptStamp: String(NOW_MS),
    maxRequestBytes: MAX_REQUEST_BYTES,
    ...extra,
  };
}

/** A partition's rows as comparable lines (doc and figures), sorted; the emulator's items alike. */
const storedLines = async (tableId: string, day: string) =>
  ((await bq.table(PROJECT, DATASET, tableId, day))?.rows ?? [])
    .map((r) => `${r.doc_id}|${r.doc_name}|${Number(r.revenue).toFixed(6)}|${Number(r.rpmByPvs).toFixed(6)}`)
    .sort();
const emulatorLines = (items: Record<string, unknown>[]) =>
  items
    .map(
      (i) =>
        `${(i.doc as { id: unknown }).id}|${(i.doc as { name: unknown }).name}|${Number(i.revenue).toFixed(6)}|${Number(i.rpmByPvs).toFixed(6)}`,
    )
    .sort();

/** A table holding the day before (whole) and the first rows of the day: what a later load must replace, or keep. */
async function tableWithOldDay(client: BigQueryClient): Promise<string> {
  tableNumber += 1;
  const tableId = `daily_by_doc_${tableNumber}`;
  const prepared = loadReportDay(client, dayLoad(tableId, DAY_BEFORE, itemsOf[DAY_BEFORE]!)).prepared;
  const old = loadReportDay(client, dayLoad(tableId, DAY, itemsOf[DAY]!.slice(0, 5), { prepared }));
  expect(old.staged).toBe(false);
  return tableId;
}

it('a day over one request goes through staging and one copy, each upload within the budget, and its partition equals the emulator', async () => {
  const client = bigQuery();
  const tableId = await tableWithOldDay(client);
  const before = (await bq.jobs()).length;
  await fetch(`${bq.adminUrl}/requests`, { method: 'DELETE' });

  const result = loadReportDay(client, dayLoad(tableId, DAY, itemsOf[DAY]!));

  expect(result.staged).toBe(true);
  expect(result.rows).toBe(itemsOf[DAY]!.length);
  const jobs = (await bq.jobs()).slice(before);
  const parts = jobs.length - 1;
  expect(parts).toBeGreaterThanOrEqual(3);
  expect(jobs.map((j) => j.jobReference.jobId)).toEqual(result.jobIds);
  const staging = jobs[0]!.configuration.load.destinationTable.tableId as string;
  expect(staging).toMatch(new RegExp(`^engage_staging_\\w+_${DAY}_${NOW_MS}\\$${DAY}$`));
  expect(jobs.slice(0, parts).map((j) => [j.configuration.load.destinationTable.tableId, j.configuration.load.writeDisposition])).toEqual([
    [staging, 'WRITE_TRUNCATE'],
    ...Array(parts - 1).fill([staging, 'WRITE_APPEND']),
  ]);
  expect(jobs[parts]!.configuration).toEqual(
    expect.objectContaining({
      jobType: 'COPY',
      copy: expect.objectContaining({
        sourceTables: [{ projectId: PROJECT, datasetId: DATASET, tableId: staging }],
        destinationTable: { projectId: PROJECT, datasetId: DATASET, tableId: `${tableId}$${DAY}` },
        writeDisposition: 'WRITE_TRUNCATE',
      }),
    }),
  );
  expect(jobs.every((j) => j.status.state === 'DONE' && j.status.errorResult === undefined)).toBe(true);
  const uploads = (await bq.requests()).filter((r) => r.path.startsWith('/upload/'));
  expect(uploads).toHaveLength(parts);
  for (const upload of uploads) expect(upload.bodyBytes).toBeLessThanOrEqual(MAX_REQUEST_BYTES);
  // The calls in order: the dataset and table read, the staging table made, its loads, the copy (each job DONE at once: no polls).
  expect(
    (await bq.requests()).map((r) => `${r.method} ${r.path.replace(/\/projects\/[^/]+/, '/p').replace(/tables\/.*/, 'tables/…')}`),
  ).toEqual([
    `GET /bigquery/v2/p/datasets/${DATASET}`,
    `GET /bigquery/v2/p/datasets/${DATASET}/tables/…`,
    `POST /bigquery/v2/p/datasets/${DATASET}/tables`,
    ...Array(parts).fill('POST /upload/bigquery/v2/p/jobs'),
    'POST /bigquery/v2/p/jobs',
  ]);

  expect(await storedLines(tableId, DAY)).toEqual(emulatorLines(itemsOf[DAY]!));
  expect(await storedLines(tableId, DAY_BEFORE)).toEqual(emulatorLines(itemsOf[DAY_BEFORE]!));
  const stagingTable = await bq.table(PROJECT, DATASET, staging.split('$')[0]!);
  expect(stagingTable!.table.expirationTime).toBe(String(NOW_MS + 24 * 3_600_000));
  await emulator.advanceClock(24 * 3_600_000);
  expect(await bq.table(PROJECT, DATASET, staging.split('$')[0]!)).toBeNull();
  expect(await storedLines(tableId, DAY)).toEqual(emulatorLines(itemsOf[DAY]!));
}, 10_000);

it('a failure between staging loads, or of the copy, leaves the partition as it was; the next attempt replaces it whole', async () => {
  const client = bigQuery();
  const tableId = await tableWithOldDay(client);
  const old = await storedLines(tableId, DAY);
  expect(old).toHaveLength(5);

  const jobsBefore = (await bq.jobs()).length;
  await bq.failNextLoads(1, 'backendError', 1);
  const failed = (() => {
    try {
      loadReportDay(client, dayLoad(tableId, DAY, itemsOf[DAY]!, { attemptStamp: 'a1' }));
    } catch (e) {
      return e;
    }
    throw new Error('expected the load to fail');
  })();
  expect(failed).toBeInstanceOf(BigQueryError);
  const attempt = (await bq.jobs()).slice(jobsBefore);
  expect(attempt.map((j) => [j.configuration.jobType, j.status.errorResult?.reason ?? null])).toEqual([
    ['LOAD', null],
    ['LOAD', 'backendError'],
  ]);
  expect(await storedLines(tableId, DAY)).toEqual(old);

  // The copy's insert answered 503 on every attempt: the staged day never reaches the table.
  await bq.failNextRequests(503, 3, '^POST /bigquery/v2/projects/[^/]+/jobs$');
  expect(() => loadReportDay(client, dayLoad(tableId, DAY, itemsOf[DAY]!, { attemptStamp: 'a2' }))).toThrow(BigQueryError);
  expect(await storedLines(tableId, DAY)).toEqual(old);

  const done = loadReportDay(client, dayLoad(tableId, DAY, itemsOf[DAY]!, { attemptStamp: 'a3' }));
  expect(done.staged).toBe(true);
  expect(await storedLines(tableId, DAY)).toEqual(emulatorLines(itemsOf[DAY]!));
  expect(await storedLines(tableId, DAY_BEFORE)).toEqual(emulatorLines(itemsOf[DAY_BEFORE]!));
}, 10_000);

it("a day over the table's daily load jobs fails with BigQuery's quotaExceeded, told as a failed job, the partition as it was", async () => {
  const client = bigQuery();
  const tableId = await tableWithOldDay(client);
  const old = await storedLines(tableId, DAY);
  const used = (await bq.quotas()).used[`load:${PROJECT}:${DATASET}.${tableId}`]!;
  await bq.setQuotas({ loadJobsPerTablePerDay: used });
  let failure: unknown;
  try {
    loadReportDay(client, dayLoad(tableId, DAY, itemsOf[DAY]!.slice(0, 5), { attemptStamp: 'q1' }));
  } catch (e) {
    failure = e;
  }
  expect(failure).toBeInstanceOf(BigQueryError);
  expect((failure as BigQueryError).message).toMatch(
    /failed \(quotaExceeded\): .*Your table exceeded quota for imports or query appends per table.*the table is as it was before this load/,
  );
  expect(await storedLines(tableId, DAY)).toEqual(old);
}, 10_000);
