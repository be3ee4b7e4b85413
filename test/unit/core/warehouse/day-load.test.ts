/**
 * A day's load into BigQuery through a fake transport that records every request
 * (src/core/warehouse/day-load.ts and bigquery-client.ts): the exact addresses, the Bearer token, the
 * multipart body's two parts and the job's configuration; the checks before any row is sent (the
 * dataset's location, a table that does not fit); the table created when missing; a day within one
 * request as one WRITE_TRUNCATE job on `table$YYYYMMDD`, a larger one as staged parts and one copy;
 * the polling of jobs.get on the sleeper until DONE, bounded by the deadline; and the failures, each
 * one sentence.
 */
import { FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../support/fakes';
import type { HttpRequest, HttpResponse } from '../../../../src/core/ports';
import { TransportError, ValidationError } from '../../../../src/core/errors';
import { BigQueryClient, MAX_ATTEMPTS } from '../../../../src/core/warehouse/bigquery-client';
import { tableResourceOf } from '../../../../src/core/warehouse/bigquery-resources';
import { checkDestination } from '../../../../src/core/warehouse/destination';
import {
  dayJobId,
  loadDay,
  LOAD_REQUEST_OVERHEAD_BYTES,
  MULTIPART_UPLOAD_MAX_BYTES,
  prepareTable,
  URL_FETCH_PAYLOAD_MAX_BYTES,
} from '../../../../src/core/warehouse/day-load';
import { planTable } from '../../../../src/core/warehouse/table-schema';
import { dayLines } from '../../../../src/core/warehouse/table-rows';

const ROOT = 'https://bigquery.googleapis.com/';
const TOKEN = 'ya29.user-token';
const DESTINATION = checkDestination({ projectId: 'my-project-123', datasetId: 'engage', tableId: 'daily by doc', location: 'EU' });
const PLAN = planTable({ kind: 'main', breakdowns: ['day', 'doc'], metrics: ['paidPvs', 'revenue'] });
const TABLE_URL = `${ROOT}bigquery/v2/projects/my-project-123/datasets/engage/tables/daily%20by%20doc`;
const UPLOAD_URL = `${ROOT}upload/bigquery/v2/projects/my-project-123/jobs?uploadType=multipart`;
const TABLE_JSON = {
  schema: { fields: PLAN.columns.map((c) => ({ ...c.field, type: c.field.type === 'INT64' ? 'INTEGER' : c.field.type })) },
  timePartitioning: { type: 'DAY', field: 'day' },
  clustering: { fields: ['publisher_id', 'doc_id'] },
};
/** The table as tables.get answers it, read as the add-on reads it. */
const TABLE = tableResourceOf(TABLE_JSON);

/** A job resource as jobs.insert and jobs.get answer; `tableId` its load's destination table, when told. */
function job(jobId: string, state: string, errorResult?: unknown, errors?: unknown[], tableId?: string): HttpResponse {
  return jsonResponse(200, {
    kind: 'bigquery#job',
    jobReference: { projectId: 'my-project-123', jobId, location: 'EU' },
    ...(tableId ? { configuration: { load: { destinationTable: { projectId: 'my-project-123', datasetId: 'engage', tableId } } } } : {}),
    status: { state, ...(errorResult ? { errorResult } : {}), ...(errors ? { errors } : {}) },
  });
}

function googleError(status: number, reason: string, message: string): HttpResponse {
  return jsonResponse(status, { error: { code: status, message, errors: [{ reason, message, domain: 'global' }], status: 'X' } });
}

/** A BigQuery that answers by address: the dataset in EU, the table as `table`, every job DONE at once unless told. */
function fakeBigQuery(
  options: {
    table?: unknown;
    jobAnswer?: (request: HttpRequest, jobId: string) => HttpResponse;
    /** jobs.get's answer to its `poll`th call (1-based). */
    jobGet?: (jobId: string, poll: number) => HttpResponse;
  } = {},
) {
  let polls = 0;
  return new FakeTransport((request) => {
    const { url, method } = request;
    const polled = /\/jobs\/([^?]+)\?/.exec(url);
    if (method === 'get' && polled) {
      polls++;
      return options.jobGet ? options.jobGet(polled[1]!, polls) : job(polled[1]!, 'DONE');
    }
    if (method === 'get' && url === `${ROOT}bigquery/v2/projects/my-project-123/datasets/engage`)
      return jsonResponse(200, { location: 'EU' });
    if (method === 'get' && url === TABLE_URL)
      return options.table === undefined ? googleError(404, 'notFound', 'Not found: Table') : jsonResponse(200, options.table);
    if (method === 'post' && url.endsWith('/tables')) return jsonResponse(200, JSON.parse(request.payload!));
    if (method === 'delete') return jsonResponse(200, {});
    if (method === 'post' && (url === UPLOAD_URL || url.endsWith('/jobs'))) {
      const jobId = /"jobId":"([^"]+)"/.exec(request.payload!)![1]!;
      return options.jobAnswer ? options.jobAnswer(request, jobId) : job(jobId, 'DONE');
    }
    return googleError(404, 'notFound', `no route for ${method} ${url}`);
  });
}

function client(transport: FakeTransport, clock = new ManualClock()) {
  const sleeper = new ManualSleeper(clock);
  return { bq: new BigQueryClient({ transport, token: { oauthToken: () => TOKEN }, clock, sleeper }), clock, sleeper };
}

/** The two parts of a multipart/related body: the job's JSON and the rows. */
function partsOf(request: HttpRequest): { job: Record<string, unknown>; data: string; partHeaders: string[] } {
  const boundary = /boundary=(.+)$/.exec(request.contentType!)![1]!;
  const body = request.payload!;
  expect(body.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
  const parts = body.split(`--${boundary}`).slice(1, -1);
  const split = parts.map((p) => p.slice(2, -2).split('\r\n\r\n'));
  return { job: JSON.parse(split[0]![1]!), data: split[1]!.slice(1).join('\r\n\r\n'), partHeaders: split.map((s) => s[0]!) };
}

/** `n` rows of one day, each line of the same length (two-digit figures), so parts are easy to count. */
const day = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    day: '20250131',
    doc: { id: `d${10 + i}`, name: `Article ${10 + i}` },
    paidPvs: 10 + i,
    revenue: (10 + i) / 4,
  }));
const linesOf = (items: Record<string, unknown>[]) => dayLines(PLAN, [{ items, context: { day: '20250131', publisherId: 'pub-1' } }]);
const FAR = Date.UTC(2030, 0, 1);
/** The ID of a job of the day 2025-01-31 into DESTINATION (dayJobId: the table's hash in it). */
const ID = (what: string, stamp: string) => dayJobId(what, DESTINATION, '20250131', stamp);

describe('prepareTable', () => {
  it('reads the dataset and the table with the user’s Bearer token, and creates the table when missing, partitioned by day and clustered', () => {
    const transport = fakeBigQuery();
    const { bq } = client(transport);
    const result = prepareTable(bq, DESTINATION, PLAN, 'Engage general report by day and doc', FAR);
    expect(transport.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `get ${ROOT}bigquery/v2/projects/my-project-123/datasets/engage`,
      `get ${TABLE_URL}`,
      `post ${ROOT}bigquery/v2/projects/my-project-123/datasets/engage/tables`,
    ]);
    expect(transport.requests.every((r) => r.headers?.Authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(transport.requests[2]!.contentType).toBe('application/json');
    expect(JSON.parse(transport.requests[2]!.payload!)).toEqual({
      tableReference: { projectId: 'my-project-123', datasetId: 'engage', tableId: 'daily by doc' },
      description: 'Engage general report by day and doc',
      schema: { fields: PLAN.columns.map((c) => c.field) },
      timePartitioning: { type: 'DAY', field: 'day' },
      clustering: { fields: ['publisher_id', 'doc_id'] },
    });
    expect(result.created).toBe(true);
  });

  it('keeps a table that fits, and creates nothing', () => {
    const transport = fakeBigQuery({ table: TABLE_JSON });
    const result = prepareTable(client(transport).bq, DESTINATION, PLAN, '', FAR);
    expect(result.created).toBe(false);
    expect(transport.requests).toHaveLength(2);
  });

  it('refuses, before any row is sent, a dataset in another location, a missing dataset, and a table that does not fit, naming the field', () => {
    const elsewhere = fakeBigQuery();
    elsewhere.enqueue(jsonResponse(200, { location: 'US' }));
    expect(() => prepareTable(client(elsewhere).bq, DESTINATION, PLAN, '', FAR)).toThrow(
      'location: the dataset my-project-123.engage is in US, not EU: choose US as the location, or a dataset in EU',
    );
    expect(elsewhere.requests).toHaveLength(1);

    const missing = fakeBigQuery();
    missing.enqueue(googleError(404, 'notFound', 'Not found: Dataset my-project-123:engage'));
    expect(() => prepareTable(client(missing).bq, DESTINATION, PLAN, '', FAR)).toThrow(
      'datasetId: the dataset my-project-123.engage does not exist, or your Google account cannot see it; create it in the BigQuery console (in EU) or check the project',
    );

    const other = { ...TABLE_JSON, schema: { fields: TABLE_JSON.schema.fields.filter((f) => f.name !== 'revenue') } };
    const misfit = fakeBigQuery({ table: other });
    let error: unknown;
    try {
      prepareTable(client(misfit).bq, DESTINATION, PLAN, '', FAR);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).argument).toBe('tableId');
    expect((error as Error).message).toMatch(
      /^tableId: column 'revenue': the table my-project-123\.engage\.daily by doc has no such column/,
    );
    expect(misfit.requests.some((r) => r.method === 'post')).toBe(false);
  });

  it('says what a 403 and a 401 mean, with BigQuery’s words and never the token', () => {
    const denied = fakeBigQuery();
    denied.enqueue(
      googleError(403, 'accessDenied', 'Access Denied: Dataset my-project-123:engage: Permission bigquery.datasets.get denied'),
    );
    expect(() => prepareTable(client(denied).bq, DESTINATION, PLAN, '', FAR)).toThrow(
      "BigQuery, reading the dataset my-project-123.engage: your Google account may not do this in the project (BigQuery says 'Access Denied: Dataset my-project-123:engage: Permission bigquery.datasets.get denied'); ask its owner for the BigQuery Data Editor and Job User roles.",
    );
    const unauthorised = fakeBigQuery();
    unauthorised.enqueue(jsonResponse(401, '<html>Unauthorized</html>'));
    let message = '';
    try {
      prepareTable(client(unauthorised).bq, DESTINATION, PLAN, '', FAR);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe(
      "BigQuery, reading the dataset my-project-123.engage: Google did not accept the add-on's access to BigQuery; open the add-on again and allow BigQuery when Google asks.",
    );
    expect(message).not.toContain(TOKEN);
  });
});

describe('loadDay', () => {
  it('loads a day that fits one request as one multipart jobs.insert: NEWLINE_DELIMITED_JSON into table$YYYYMMDD with WRITE_TRUNCATE', () => {
    const transport = fakeBigQuery();
    const lines = linesOf(day(3));
    const result = loadDay(client(transport).bq, DESTINATION, lines, {
      day: '20250131',
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: 'r1',
      nowMs: 0,
    });
    expect(result).toEqual({ jobIds: [ID('load', 'r1')], tableJobsSent: 1, rows: 3, staged: false });
    expect(transport.requests).toHaveLength(1);
    const [request] = transport.requests;
    expect(request!.method).toBe('post');
    expect(request!.url).toBe(UPLOAD_URL);
    expect(request!.headers).toEqual({ Authorization: `Bearer ${TOKEN}` });
    expect(request!.contentType).toMatch(/^multipart\/related; boundary=\S+$/);
    const { job: sent, data, partHeaders } = partsOf(request!);
    expect(partHeaders).toEqual(['Content-Type: application/json; charset=UTF-8', 'Content-Type: application/octet-stream']);
    expect(sent).toEqual({
      jobReference: { projectId: 'my-project-123', jobId: ID('load', 'r1'), location: 'EU' },
      configuration: {
        load: {
          destinationTable: { projectId: 'my-project-123', datasetId: 'engage', tableId: 'daily by doc$20250131' },
          sourceFormat: 'NEWLINE_DELIMITED_JSON',
          writeDisposition: 'WRITE_TRUNCATE',
          createDisposition: 'CREATE_NEVER',
        },
      },
    });
    expect(data.split('\n').map((l) => JSON.parse(l))).toEqual([
      { day: '2025-01-31', publisher_id: 'pub-1', doc_id: 'd10', doc_name: 'Article 10', paidPvs: 10, revenue: '2.5' },
      { day: '2025-01-31', publisher_id: 'pub-1', doc_id: 'd11', doc_name: 'Article 11', paidPvs: 11, revenue: '2.75' },
      { day: '2025-01-31', publisher_id: 'pub-1', doc_id: 'd12', doc_name: 'Article 12', paidPvs: 12, revenue: '3' },
    ]);
  });

  it('replaces a day restated to no rows by deleting its partition, never with a zero-byte load', () => {
    const transport = fakeBigQuery();
    const result = loadDay(client(transport).bq, DESTINATION, [], {
      day: '20250131',
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: 'r1',
      nowMs: 0,
    });
    expect(result).toEqual({ jobIds: [], tableJobsSent: 0, rows: 0, staged: false });
    expect(transport.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`delete ${TABLE_URL}%2420250131`]);
  });

  it('keeps every upload within 10 MB (the multipart upload is for "smaller files"), below URL Fetch’s 50 MB a request', () => {
    expect(URL_FETCH_PAYLOAD_MAX_BYTES).toBe(50_000_000);
    expect(MULTIPART_UPLOAD_MAX_BYTES).toBe(10_000_000);
    const transport = fakeBigQuery();
    // About 12 MB of rows: over one upload, so staged in two parts, each at most 10,000,000 bytes with its envelope.
    const rows = Array.from({ length: 12 }, (_, i) => ({ day: '20250131', doc: { id: `d${i}`, name: 'x'.repeat(999_900) }, paidPvs: i }));
    const lines = dayLines(PLAN, [{ items: rows, context: { publisherId: 'pub-1', day: '20250131' } }]);
    const result = loadDay(client(transport).bq, DESTINATION, lines, {
      day: '20250131',
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: 'r1',
      nowMs: 0,
    });
    expect(result.staged).toBe(true);
    const uploads = transport.requests.filter((r) => r.url === UPLOAD_URL);
    expect(uploads).toHaveLength(2);
    for (const upload of uploads) expect(Buffer.byteLength(upload.payload!)).toBeLessThanOrEqual(MULTIPART_UPLOAD_MAX_BYTES);
    expect(uploads.flatMap((u) => partsOf(u).data.split('\n'))).toEqual(lines);
  });

  it('a day just under 10 MB is one upload', () => {
    const transport = fakeBigQuery();
    const rows = Array.from({ length: 9 }, (_, i) => ({ day: '20250131', doc: { id: `d${i}`, name: 'x'.repeat(999_900) }, paidPvs: i }));
    const lines = dayLines(PLAN, [{ items: rows, context: { publisherId: 'pub-1', day: '20250131' } }]);
    const result = loadDay(client(transport).bq, DESTINATION, lines, {
      day: '20250131',
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: 'r1',
      nowMs: 0,
    });
    expect(result.staged).toBe(false);
    expect(transport.requests.filter((r) => r.url === UPLOAD_URL)).toHaveLength(1);
  });

  it('loads a day larger than one request into a staging table (first part truncates, the rest append) and copies it over the partition in one job', () => {
    const transport = fakeBigQuery();
    const lines = linesOf(day(30));
    const lineBytes = Math.max(...lines.map((l) => l.length)) + 1;
    // Room for 12 lines a request: 30 lines make 3 parts.
    const maxRequestBytes = LOAD_REQUEST_OVERHEAD_BYTES + lineBytes * 12 + 5;
    const nowMs = Date.UTC(2025, 1, 1, 9);
    const result = loadDay(client(transport).bq, DESTINATION, lines, {
      day: '20250131',
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: 'r7',
      nowMs,
      maxRequestBytes,
    });
    expect(result.staged).toBe(true);
    expect(result.jobIds).toEqual([ID('stage1', 'r7'), ID('stage2', 'r7'), ID('stage3', 'r7'), ID('copy', 'r7')]);
    expect(transport.requests.map((r) => r.url)).toEqual([
      `${ROOT}bigquery/v2/projects/my-project-123/datasets/engage/tables`,
      UPLOAD_URL,
      UPLOAD_URL,
      UPLOAD_URL,
      `${ROOT}bigquery/v2/projects/my-project-123/jobs`,
    ]);
    const staging = JSON.parse(transport.requests[0]!.payload!);
    const stagingId = staging.tableReference.tableId as string;
    expect(stagingId).toMatch(/^engage_staging_\w+_20250131_r7$/);
    // The staging table has the table's own schema and partitioning, and BigQuery deletes it after a day.
    expect(staging).toMatchObject({
      schema: TABLE_JSON.schema,
      timePartitioning: TABLE_JSON.timePartitioning,
      clustering: TABLE_JSON.clustering,
      expirationTime: String(nowMs + 86_400_000),
    });
    const loads = transport.requests.slice(1, 4).map(partsOf);
    expect(loads.map((l) => (l.job.configuration as { load: { writeDisposition: string } }).load.writeDisposition)).toEqual([
      'WRITE_TRUNCATE',
      'WRITE_APPEND',
      'WRITE_APPEND',
    ]);
    expect(
      loads.every(
        (l) =>
          (l.job.configuration as { load: { destinationTable: { tableId: string } } }).load.destinationTable.tableId ===
          `${stagingId}$20250131`,
      ),
    ).toBe(true);
    expect(loads.map((l) => l.data.split('\n').length)).toEqual([12, 12, 6]);
    expect(loads.flatMap((l) => l.data.split('\n'))).toEqual(lines);
    expect(transport.requests.slice(1, 4).every((r) => r.payload!.length <= maxRequestBytes)).toBe(true);
    expect(JSON.parse(transport.requests[4]!.payload!)).toEqual({
      jobReference: { projectId: 'my-project-123', jobId: ID('copy', 'r7'), location: 'EU' },
      configuration: {
        copy: {
          sourceTables: [{ projectId: 'my-project-123', datasetId: 'engage', tableId: `${stagingId}$20250131` }],
          destinationTable: { projectId: 'my-project-123', datasetId: 'engage', tableId: 'daily by doc$20250131' },
          writeDisposition: 'WRITE_TRUNCATE',
          createDisposition: 'CREATE_NEVER',
        },
      },
    });
  });

  it('leaves the table alone when a staged part fails: no copy job is sent', () => {
    const transport = fakeBigQuery({
      jobAnswer: (_request, jobId) =>
        jobId.startsWith('engage_stage2')
          ? job(jobId, 'DONE', { reason: 'invalid', message: 'Error while reading data' })
          : job(jobId, 'DONE'),
    });
    const lines = linesOf(day(30));
    expect(() =>
      loadDay(client(transport).bq, DESTINATION, lines, {
        day: '20250131',
        table: TABLE,
        deadlineAtMs: FAR,
        attemptStamp: 'r8',
        nowMs: 0,
        maxRequestBytes: LOAD_REQUEST_OVERHEAD_BYTES + (lines[0]!.length + 1) * 12,
      }),
    ).toThrow(
      `BigQuery, loading 2025-01-31 into my-project-123.engage.daily by doc: job ${ID('stage2', 'r8')} failed (invalid): 'Error while reading data'; the table is as it was before this load.`,
    );
    expect(transport.requests.some((r) => r.payload?.includes('"copy"'))).toBe(false);
  });

  it('polls jobs.get with the job’s location until DONE, pausing 1, 2, 4 s on the sleeper', () => {
    const transport = fakeBigQuery({
      jobAnswer: (_r, jobId) => job(jobId, 'PENDING'),
      jobGet: (jobId, poll) => job(jobId, poll < 3 ? 'RUNNING' : 'DONE'),
    });
    const { bq, sleeper } = client(transport);
    const result = loadDay(bq, DESTINATION, linesOf(day(2)), {
      day: '20250131',
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: 'r2',
      nowMs: 0,
    });
    expect(result.jobIds).toEqual([ID('load', 'r2')]);
    expect(transport.requests.slice(1).map((r) => `${r.method} ${r.url}`)).toEqual(
      Array(3).fill(`get ${ROOT}bigquery/v2/projects/my-project-123/jobs/${ID('load', 'r2')}?location=EU`),
    );
    expect(transport.requests.slice(1).every((r) => r.headers?.Authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(sleeper.sleeps).toEqual([1000, 2000, 4000]);
  });
});

describe('the client’s failures', () => {
  it('stops polling before the deadline with one sentence: the next run loads the day again', () => {
    const clock = new ManualClock(Date.UTC(2025, 1, 1, 9));
    const running = fakeBigQuery({ jobAnswer: (_r, jobId) => job(jobId, 'RUNNING'), jobGet: (jobId) => job(jobId, 'RUNNING') });
    const { bq, sleeper } = client(running, clock);
    expect(() =>
      loadDay(bq, DESTINATION, linesOf(day(1)), {
        day: '20250131',
        table: TABLE,
        deadlineAtMs: clock.now() + 10_000,
        attemptStamp: 'r3',
        nowMs: 0,
      }),
    ).toThrow(
      `BigQuery, loading 2025-01-31 into my-project-123.engage.daily by doc: job ${ID('load', 'r3')} had not finished when this run's time was up; the next run loads this day again, replacing it whole.`,
    );
    // 1 + 2 + 4 s slept; the next pause (8 s) would pass the deadline.
    expect(sleeper.sleeps).toEqual([1000, 2000, 4000]);
    expect(clock.now()).toBeLessThanOrEqual(Date.UTC(2025, 1, 1, 9) + 10_000);
  });

  it('tries a passing failure again (503, 403 rateLimitExceeded, a lost connection) at most MAX_ATTEMPTS times, and a 409 on jobs.insert reads the job', () => {
    const transport = fakeBigQuery();
    transport.enqueue(
      googleError(503, 'backendError', 'Backend error'),
      googleError(403, 'rateLimitExceeded', 'Exceeded rate limits'),
      jsonResponse(200, { location: 'EU' }),
    );
    const { bq, sleeper } = client(transport);
    expect(bq.datasetLocation('my-project-123', 'engage', FAR)).toBe('EU');
    expect(sleeper.sleeps).toEqual([1000, 2000]);

    const down = new FakeTransport(() => new TransportError('Address unavailable', { kind: 'connection' }));
    expect(() => client(down).bq.datasetLocation('my-project-123', 'engage', FAR)).toThrow(
      'BigQuery, reading the dataset my-project-123.engage: no answer from BigQuery (Address unavailable); the next run tries again.',
    );
    expect(down.requests).toHaveLength(MAX_ATTEMPTS);

    // The insert arrived but its answer was lost; the second attempt meets the job (409) and reads it.
    const dup = fakeBigQuery();
    dup.enqueue(
      new TransportError('Timeout', { kind: 'connection' }),
      googleError(409, 'duplicate', 'Already Exists: Job'),
      job(ID('load', 'r4'), 'DONE', undefined, undefined, 'daily by doc$20250131'),
    );
    const result = loadDay(client(dup).bq, DESTINATION, linesOf(day(1)), {
      day: '20250131',
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: 'r4',
      nowMs: 0,
    });
    expect(result.jobIds).toEqual([ID('load', 'r4')]);
    expect(dup.requests.map((r) => r.method)).toEqual(['post', 'post', 'get']);
    expect(dup.requests[2]!.url).toBe(`${ROOT}bigquery/v2/projects/my-project-123/jobs/${ID('load', 'r4')}?location=EU`);
  });

  it('counts every attempt against the day’s URL Fetch quota, and does not try again what Apps Script refused (an address off the whitelist)', () => {
    const spent: number[] = [];
    const counter = { spend: (calls: number) => spent.push(calls), spent: () => new Error('quota spent') as never };
    const clock = new ManualClock();
    const transport = fakeBigQuery();
    transport.enqueue(googleError(500, 'backendError', 'Backend error'));
    const counted = new BigQueryClient({
      transport,
      token: { oauthToken: () => TOKEN },
      clock,
      sleeper: new ManualSleeper(clock),
      counter,
    });
    expect(counted.datasetLocation('my-project-123', 'engage', FAR)).toBe('EU');
    expect(spent).toEqual([1, 1]);

    const refused = new FakeTransport(
      () => new TransportError('URL not allowed', { kind: 'not-allowed', allowedPrefixes: ['https://reports.example.net/engage/v2/'] }),
    );
    expect(() => client(refused).bq.datasetLocation('my-project-123', 'engage', FAR)).toThrow(
      'BigQuery, reading the dataset my-project-123.engage: Apps Script may not call BigQuery from this installation of Engage (its manifest does not list BigQuery\'s addresses; its deploy config needs "bigquery": true).',
    );
    expect(refused.requests).toHaveLength(1);
  });

  it('turns a failed job’s errorResult and its row errors into one sentence, and reads a broken error body defensively', () => {
    const failing = fakeBigQuery({
      jobAnswer: (_r, jobId) =>
        job(
          jobId,
          'DONE',
          { reason: 'invalid', message: 'Error while reading data, error message: JSON table encountered too many errors' },
          [
            { reason: 'invalid', message: 'Error while reading data, error message: JSON table encountered too many errors' },
            { reason: 'invalid', message: 'JSON parsing error in row starting at position 0: No such field: extra.' },
          ],
        ),
    });
    expect(() =>
      loadDay(client(failing).bq, DESTINATION, linesOf(day(1)), {
        day: '20250131',
        table: TABLE,
        deadlineAtMs: FAR,
        attemptStamp: 'r5',
        nowMs: 0,
      }),
    ).toThrow(
      `job ${ID('load', 'r5')} failed (invalid): 'Error while reading data, error message: JSON table encountered too many errors' (also 'JSON parsing error in row starting at position 0: No such field: extra.'); the table is as it was before this load.`,
    );
    const garbled = fakeBigQuery();
    garbled.enqueue({ status: 400, headers: {}, body: '{"error": 42' });
    expect(() =>
      loadDay(client(garbled).bq, DESTINATION, linesOf(day(1)), {
        day: '20250131',
        table: TABLE,
        deadlineAtMs: FAR,
        attemptStamp: 'r6',
        nowMs: 0,
      }),
    ).toThrow('BigQuery, loading 2025-01-31 into my-project-123.engage.daily by doc: BigQuery refused the request (HTTP 400).');
  });
});
