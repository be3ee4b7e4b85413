/**
 * The add-on's jobs against BigQuery's per-table rate limit and its job IDs
 * (src/core/warehouse/bigquery-client.ts runJob, table-pacing.ts, day-load.ts dayJobId), through a fake BigQuery that
 * keeps its jobs by ID as BigQuery does (a second jobs.insert of an ID answers 409 duplicate) and
 * applies each load to the partition it names. Shown: no more than 5 jobs into one table in any 10 s
 * on the clock (the quotas page's "5 operations per 10 seconds"), the waits on the sleeper; a job
 * refused with rateLimitExceeded (in its errorResult, or as a 403 at jobs.insert) sent again under a
 * new ID with growing pauses, a few times; a wait past the deadline stopping the loads before a job
 * is sent; two reports' loads in the same millisecond each sent under its own ID, and a 409 for a job
 * into another table refused, not taken as done.
 */
import { FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../support/fakes';
import type { HttpRequest, HttpResponse } from '../../../../src/core/ports';
import { RefreshDeferredError } from '../../../../src/core/errors';
import { BigQueryClient } from '../../../../src/core/warehouse/bigquery-client';
import { tableResourceOf } from '../../../../src/core/warehouse/bigquery-resources';
import {
  RATE_LIMITED_FIRST_DELAY_MS,
  RATE_LIMITED_JOB_ATTEMPTS,
  TABLE_JOB_WINDOW_MS,
  TABLE_JOBS_PER_WINDOW,
} from '../../../../src/core/warehouse/table-pacing';
import { checkDestination } from '../../../../src/core/warehouse/destination';
import { loadDay } from '../../../../src/core/warehouse/day-load';
import { planTable } from '../../../../src/core/warehouse/table-schema';
import { dayLines } from '../../../../src/core/warehouse/table-rows';

const PLAN = planTable({ kind: 'main', breakdowns: ['day'], metrics: ['revenue'] });
const TABLE = tableResourceOf({ schema: { fields: PLAN.columns.map((c) => c.field) }, timePartitioning: { type: 'DAY', field: 'day' } });
const destination = (tableId: string) => checkDestination({ projectId: 'proj-1', datasetId: 'engage', tableId, location: 'EU' });
const FAR = Date.UTC(2030, 0, 1);

function googleError(status: number, reason: string, message: string): HttpResponse {
  return jsonResponse(status, { error: { code: status, message, errors: [{ reason, message, domain: 'global' }], status: 'X' } });
}

interface FakeJob {
  jobId: string;
  configuration: Record<string, any>;
  data: string;
  atMs: number;
  errorResult?: { reason: string; message: string };
}

/**
 * A BigQuery of jobs by ID: jobs.insert of a new ID runs the job at once (DONE), unless `refuse` says
 * how it fails; an ID in use answers 409; jobs.get answers the job with its configuration. `loaded`
 * holds each partition's last successful load's data ("table$yyyymmdd" -> lines).
 */
function fakeBigQuery(clock: ManualClock, refuse: (n: number) => 'job' | 'insert' | undefined = () => undefined) {
  const jobs = new Map<string, FakeJob>();
  const loaded = new Map<string, string>();
  let inserts = 0;
  const answer = (job: FakeJob) =>
    jsonResponse(200, {
      jobReference: { projectId: 'proj-1', jobId: job.jobId, location: 'EU' },
      configuration: job.configuration,
      status: { state: 'DONE', ...(job.errorResult ? { errorResult: job.errorResult } : {}) },
    });
  const transport = new FakeTransport((request: HttpRequest) => {
    const got = /\/jobs\/([^?]+)\?/.exec(request.url);
    if (request.method === 'get' && got) return answer(jobs.get(decodeURIComponent(got[1]!))!);
    const json = /\r\n\r\n(\{.*\})\r\n/.exec(request.payload!)![1]!;
    const body = JSON.parse(json) as { jobReference: { jobId: string }; configuration: Record<string, any> };
    const data = request.payload!.split('\r\n\r\n')[2]!.split('\r\n--')[0]!;
    inserts++;
    const refused = refuse(inserts);
    if (refused === 'insert')
      return googleError(403, 'rateLimitExceeded', 'Exceeded rate limits: too many table update operations for this table');
    if (jobs.has(body.jobReference.jobId)) return googleError(409, 'duplicate', `Already Exists: Job proj-1:EU.${body.jobReference.jobId}`);
    const job: FakeJob = { jobId: body.jobReference.jobId, configuration: body.configuration, data, atMs: clock.now() };
    if (refused === 'job') {
      job.errorResult = { reason: 'rateLimitExceeded', message: 'Exceeded rate limits: too many table update operations for this table' };
    } else {
      loaded.set(body.configuration.load.destinationTable.tableId, data);
    }
    jobs.set(job.jobId, job);
    return answer(job);
  });
  return { transport, jobs, loaded };
}

function setUp(refuse?: (n: number) => 'job' | 'insert' | undefined) {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 6, 0, 0));
  const sleeper = new ManualSleeper(clock);
  const bigquery = fakeBigQuery(clock, refuse);
  const client = new BigQueryClient({ transport: bigquery.transport, token: { oauthToken: () => 't' }, clock, sleeper });
  return { clock, sleeper, client, ...bigquery };
}

const lines = (day: string, revenue: number) => dayLines(PLAN, [{ items: [{ day, revenue }], context: { day, publisherId: 'pub-1' } }]);
const dayOf = (n: number) => `202501${String(n).padStart(2, '0')}`;

describe('BigQuery’s per-table rate limit', () => {
  it('sends no more than 5 jobs into one table in any 10 s, waiting on the sleeper; another table is not held up', () => {
    const { client, jobs, sleeper, clock } = setUp();
    const start = clock.now();
    for (let n = 1; n <= 12; n++) {
      loadDay(client, destination('daily'), lines(dayOf(n), n), {
        day: dayOf(n),
        table: TABLE,
        deadlineAtMs: FAR,
        attemptStamp: 's1',
        nowMs: 0,
      });
    }
    const times = [...jobs.values()].map((j) => j.atMs - start);
    // Five at once, then the sixth 10 s after the first, and so on: 12 jobs over 20 s, never 6 within 10 s.
    expect(TABLE_JOBS_PER_WINDOW).toBe(5);
    expect(TABLE_JOB_WINDOW_MS).toBe(10_000);
    expect(times).toEqual([0, 0, 0, 0, 0, 10_000, 10_000, 10_000, 10_000, 10_000, 20_000, 20_000]);
    for (let i = 5; i < times.length; i++) expect(times[i]! - times[i - 5]!).toBeGreaterThanOrEqual(10_000);
    expect(sleeper.sleeps).toEqual([10_000, 10_000]);
    // Another table has its own five.
    loadDay(client, destination('other'), lines(dayOf(1), 1), {
      day: dayOf(1),
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: 's1',
      nowMs: 0,
    });
    expect(sleeper.sleeps).toHaveLength(2);
  });

  it('stops the run’s loads before a job is sent when the wait would pass the deadline (the next run goes on)', () => {
    const { client, jobs, clock, sleeper } = setUp();
    for (let n = 1; n <= 5; n++) {
      loadDay(client, destination('daily'), lines(dayOf(n), n), {
        day: dayOf(n),
        table: TABLE,
        deadlineAtMs: FAR,
        attemptStamp: 's1',
        nowMs: 0,
      });
    }
    const deadline = clock.now() + 9_999;
    const sixth = () =>
      loadDay(client, destination('daily'), lines(dayOf(6), 6), {
        day: dayOf(6),
        table: TABLE,
        deadlineAtMs: deadline,
        attemptStamp: 's1',
        nowMs: 0,
      });
    expect(sixth).toThrow(RefreshDeferredError);
    expect(sixth).toThrow(
      "BigQuery, loading 2025-01-06 into proj-1.engage.daily: BigQuery takes at most 5 jobs into a table in 10 seconds, and this run's time is up; the next run goes on from this day",
    );
    expect(jobs.size).toBe(5);
    expect(sleeper.sleeps).toEqual([]);
  });

  it('sends a job refused with rateLimitExceeded again under a new ID after 2, 4, 8 s: refused in the job or at jobs.insert', () => {
    // The first load's job fails in its errorResult; the second load's insert is refused with a 403 three times (the request's own retries).
    const { client, jobs, loaded, sleeper } = setUp((n) => (n === 1 ? 'job' : n <= 5 && n >= 3 ? 'insert' : undefined));
    const first = loadDay(client, destination('daily'), lines(dayOf(1), 1), {
      day: dayOf(1),
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: 's1',
      nowMs: 0,
    });
    expect(first.jobIds).toHaveLength(2);
    expect(first.jobIds[1]).toBe(`${first.jobIds[0]}_r2`);
    expect(first.tableJobsSent).toBe(2);
    expect(jobs.get(first.jobIds[0]!)!.errorResult?.reason).toBe('rateLimitExceeded');
    expect(loaded.get('daily$20250101')).toContain('"revenue":"1"');
    expect(sleeper.sleeps).toEqual([RATE_LIMITED_FIRST_DELAY_MS]);

    const second = loadDay(client, destination('daily'), lines(dayOf(2), 2), {
      day: dayOf(2),
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: 's1',
      nowMs: 0,
    });
    // Three 403s at jobs.insert (1 s, 2 s between: the request's own retries, same ID; no job was made), then a new ID after 2 s.
    expect(second.jobIds).toEqual([expect.stringMatching(/_s1$/), expect.stringMatching(/_s1_r2$/)]);
    expect(sleeper.sleeps).toEqual([2_000, 1_000, 2_000, 2_000]);
    expect(loaded.get('daily$20250102')).toContain('"revenue":"2"');
  });

  it('gives up after RATE_LIMITED_JOB_ATTEMPTS jobs refused, with BigQuery’s words, each under its own ID', () => {
    const { client, jobs, sleeper } = setUp(() => 'job');
    expect(() =>
      loadDay(client, destination('daily'), lines(dayOf(1), 1), {
        day: dayOf(1),
        table: TABLE,
        deadlineAtMs: FAR,
        attemptStamp: 's1',
        nowMs: 0,
      }),
    ).toThrow(
      /job engage_load_20250101_\w+_s1_r4 failed \(rateLimitExceeded\): 'Exceeded rate limits: too many table update operations for this table'/,
    );
    expect(jobs.size).toBe(RATE_LIMITED_JOB_ATTEMPTS);
    expect(sleeper.sleeps).toEqual([2_000, 4_000, 8_000]);
  });
});

describe('job IDs of two reports', () => {
  it('two reports’ loads of one day in the same millisecond each send their rows under their own job ID', () => {
    const { client, jobs, loaded } = setUp();
    // Two reports into two tables, started in the same millisecond (the run's start is the attempt stamp).
    const a = loadDay(client, destination('ledger_a'), lines('20250131', 11), {
      day: '20250131',
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: '1763618400000',
      nowMs: 0,
    });
    const b = loadDay(client, destination('ledger_b'), lines('20250131', 22), {
      day: '20250131',
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: '1763618400000',
      nowMs: 0,
    });
    expect(a.jobIds[0]).not.toBe(b.jobIds[0]);
    expect(jobs.size).toBe(2);
    expect(loaded.get('ledger_a$20250131')).toContain('"revenue":"11"');
    expect(loaded.get('ledger_b$20250131')).toContain('"revenue":"22"');
    // Two publishers' reports into one table: their loads differ by the load key.
    const c = loadDay(client, destination('ledger_a'), lines('20250131', 33), {
      day: '20250131',
      table: TABLE,
      deadlineAtMs: FAR,
      attemptStamp: '1763618400000',
      nowMs: 0,
      loadKey: 'pub-2',
    });
    expect(c.jobIds[0]).not.toBe(a.jobIds[0]);
    expect(c.jobIds[0]).toMatch(/^engage_load_20250131_[0-9a-z]+_1763618400000$/);
  });

  it('takes a job found under its ID (409) only if it writes the same partition; another’s fails clearly, nothing marked loaded', () => {
    const { client, jobs } = setUp();
    const other = {
      load: {
        destinationTable: { projectId: 'proj-1', datasetId: 'engage', tableId: 'ledger_a$20250131' },
        sourceFormat: 'NEWLINE_DELIMITED_JSON',
      },
    };
    client.insertJob('proj-1', 'EU', 'engage_load_same', other, '{}', 'loading', FAR);
    // The same job again (an insert whose answer was lost): taken.
    expect(client.insertJob('proj-1', 'EU', 'engage_load_same', other, '{}', 'loading', FAR).state).toBe('DONE');
    const mine = { load: { ...other.load, destinationTable: { ...other.load.destinationTable, tableId: 'ledger_b$20250131' } } };
    expect(() =>
      client.insertJob('proj-1', 'EU', 'engage_load_same', mine, '{}', 'loading 2025-01-31 into proj-1.engage.ledger_b', FAR),
    ).toThrow(
      'BigQuery, loading 2025-01-31 into proj-1.engage.ledger_b: the job ID engage_load_same is already taken by a job writing proj-1:engage.ledger_a$20250131, not proj-1:engage.ledger_b$20250131; nothing was loaded, and the next run tries again under a new ID.',
    );
    // Another day's partition of the same table is another destination too.
    const otherDay = { load: { ...other.load, destinationTable: { ...other.load.destinationTable, tableId: 'ledger_a$20250130' } } };
    expect(() => client.insertJob('proj-1', 'EU', 'engage_load_same', otherDay, '{}', 'loading', FAR)).toThrow(/already taken/);
    expect(jobs.size).toBe(1);
    // Given back without its decorator, the same table is taken (the job ID names the day); another is not.
    const bare = { load: { ...other.load, destinationTable: { ...other.load.destinationTable, tableId: 'ledger_c' } } };
    client.insertJob('proj-1', 'EU', 'engage_load_bare', bare, '{}', 'loading', FAR);
    const dayOfBare = { load: { ...other.load, destinationTable: { ...other.load.destinationTable, tableId: 'ledger_c$20250131' } } };
    expect(client.insertJob('proj-1', 'EU', 'engage_load_bare', dayOfBare, '{}', 'loading', FAR).state).toBe('DONE');
    const elsewhere = { load: { ...other.load, destinationTable: { ...other.load.destinationTable, tableId: 'ledger_d$20250131' } } };
    expect(() => client.insertJob('proj-1', 'EU', 'engage_load_bare', elsewhere, '{}', 'loading', FAR)).toThrow(/already taken/);
  });
});
