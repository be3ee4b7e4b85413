/**
 * The core client against the real emulator over HTTP: sign-in, every lookup, paging over 10,000
 * rows, the 25,000-row report in 3 requests, recovery from 429 and 504 faults, error mapping with the
 * emulator's trace ids, the client's own rate budget, and invalid arguments that never reach it.
 */
import {
  AuthenticationError,
  BadRequestError,
  GatewayTimeoutError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
  type ApiError,
} from '../../src/core/errors';
import type { EngageClientOptions } from '../../src/core/api/client/client-options';
import { EngageClient } from '../../src/core/api/client/engage-client';
import { reportResultToTable } from '../../src/core/sheets/report-table';
import { FakeStore, ManualClock } from '../support/fakes';
import {
  ANALYST_PUBLISHER_ID,
  BIG_PUBLISHER_ID,
  DEMO_USER,
  MEDIUM_PUBLISHER_ID,
  newEmulator,
  type EmulatorHandle,
} from '../support/emulator';
import { blockingSleeper, clockStartingAt, NodeTransport } from '../support/node-transport';
import { INVALID_ARGUMENTS_NOW, INVALID_REPORT_ARGUMENTS } from '../unit/core/api/requests/invalid-report-arguments';

const FIXED_NOW_ISO = '2026-11-22T12:00:00.000Z';
const FIXED_NOW_MS = Date.parse(FIXED_NOW_ISO);

let emulator: EmulatorHandle;

beforeAll(async () => {
  emulator = await newEmulator();
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(async () => {
  await emulator.reset();
  await emulator.setClock(FIXED_NOW_ISO);
});

/** A client on the emulator with a fresh store; short backoff keeps retry tests quick. */
function newClient(overrides: Partial<EngageClientOptions> = {}) {
  const transport = new NodeTransport();
  const client = new EngageClient({
    baseUrl: emulator.baseUrl,
    transport,
    clock: clockStartingAt(FIXED_NOW_MS),
    sleeper: blockingSleeper,
    store: new FakeStore(),
    retryPolicy: { baseDelayMs: 50, maxDelayMs: 400 },
    ...overrides,
  });
  return { client, transport };
}

function signedIn(overrides: Partial<EngageClientOptions> = {}) {
  const made = newClient(overrides);
  made.client.login(DEMO_USER.email, DEMO_USER.password);
  return made;
}

function caught(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected an error');
}

describe('EngageClient against the emulator', () => {
  it('signs in with Basic credentials and lists every lookup', () => {
    const { client, transport } = signedIn();
    expect(client.token).toEqual(expect.any(String));
    const publishers = client.listPublishers();
    expect(publishers).toEqual(expect.arrayContaining([expect.objectContaining({ id: BIG_PUBLISHER_ID, name: 'Daily Planet' })]));
    expect(client.listWidgets(BIG_PUBLISHER_ID)).toHaveLength(10);
    for (const entries of [client.listNativeApps(BIG_PUBLISHER_ID), client.listCountries(), client.listTimezones()]) {
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) expect(e).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String) }));
    }
    expect(client.listCountries()).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'US', name: 'United States' })]));
    expect(transport.requestCount).toBe(1 + 6);
  });

  it('accepts a pasted token', async () => {
    const token = await emulator.login(DEMO_USER.email, DEMO_USER.password);
    const { client } = newClient({ token });
    expect(client.listPublishers().length).toBeGreaterThan(0);
  });

  it('pages over 10,000 rows with one request per 10,000', async () => {
    const { client, transport } = signedIn();
    const query = client.buildQuery('main', {
      entityId: BIG_PUBLISHER_ID,
      fromDate: '20261001',
      toDate: '20261121',
      breakdowns: 'day,doc',
    });
    const result = client.runReport(query);
    expect(result.totalItems).toBeGreaterThan(10_000);
    expect(result.totalItems).toBeLessThanOrEqual(20_000);
    expect(result.items).toHaveLength(result.totalItems);
    expect(result.partial).toBe(false);
    const pages = (await emulator.reportRequests()).map((r) => [Number(r.query.offset), Number(r.query.limit)]);
    expect(pages).toEqual([
      [0, 10_000],
      [10_000, result.totalItems - 10_000],
    ]);
    expect(transport.batchSizes).toEqual([1]);
    const keys = new Set(result.items.map((i) => `${JSON.stringify(i.day)}|${JSON.stringify(i.doc)}`));
    expect(keys.size).toBe(result.items.length);
  });

  it('fetches a report of over 20,000 rows in exactly 3 requests: one fetch and one fetchAll of 2', async () => {
    const { client, transport } = signedIn();
    const query = client.buildQuery('main', {
      entityId: BIG_PUBLISHER_ID,
      fromDate: '20260915',
      toDate: '20261121',
      breakdowns: ['day', 'doc'],
    });
    const result = client.runReport(query);
    expect(result.totalItems).toBeGreaterThan(20_000);
    expect(result.items).toHaveLength(result.totalItems);
    expect(transport.requestCount - 1).toBe(3); // the login aside
    expect(transport.batchSizes).toEqual([2]);
    expect(await emulator.reportRequests()).toHaveLength(3);
    const table = reportResultToTable(result, { timeZone: 'America/New_York' });
    expect(table.header.slice(0, 3)).toEqual(['day', 'doc.id', 'doc.name']);
    expect(table.rows).toHaveLength(result.totalItems);
    expect(table.rows[0]![0]).toBeInstanceOf(Date);
    expect(table.totals![0]).toBe('Total');
  });

  it('takes exactly 25,000 rows in 3 requests when asked for 25,000', async () => {
    const { client } = signedIn();
    const query = client.buildQuery('main', {
      entityId: BIG_PUBLISHER_ID,
      fromDate: '20260915',
      toDate: '20261121',
      breakdowns: 'day,section,platform,widget',
    });
    const result = client.runReport(query, { maxRows: 25_000 });
    expect(result.items).toHaveLength(25_000);
    expect(result).toMatchObject({ partial: true, stoppedBecause: 'maxRows' });
    expect(result.totalItems).toBeGreaterThan(25_000);
    expect((await emulator.reportRequests()).map((r) => [Number(r.query.offset), Number(r.query.limit)])).toEqual([
      [0, 10_000],
      [10_000, 10_000],
      [20_000, 5000],
    ]);
  });

  it('ends a burst of 429s in data when the announced wait fits the deadline', async () => {
    const { client } = signedIn();
    await emulator.setFaults([{ match: '/reports/main', times: 3, rateLimitMs: 300 }]);
    const result = client.runReport(client.buildQuery('main', { entityId: MEDIUM_PUBLISHER_ID, fromDate: '20261101', toDate: '20261121' }));
    expect(result.items.length).toBeGreaterThan(0);
    expect((await emulator.reportRequests()).map((r) => r.status)).toEqual([429, 429, 429, 200]);
  });

  it('recovers from 504s and a dropped connection', async () => {
    const { client } = signedIn();
    await emulator.setFaults([
      { match: '/reports/main', times: 2, status: 504 },
      { match: '/reports/main', onNth: 3, dropConnection: true },
    ]);
    const result = client.runReport(client.buildQuery('main', { entityId: MEDIUM_PUBLISHER_ID, fromDate: '20261101', toDate: '20261121' }));
    expect(result.items.length).toBeGreaterThan(0);
    expect((await emulator.reportRequests()).length).toBeGreaterThanOrEqual(3);
  });

  it('gives up on a lasting 504 with the trace id of the last answer', async () => {
    const { client } = signedIn();
    await emulator.setFaults([{ match: '/reports/main', times: 100, status: 504 }]);
    const error = caught(() =>
      client.runReport(client.buildQuery('main', { entityId: MEDIUM_PUBLISHER_ID, fromDate: '20261101', toDate: '20261121' })),
    );
    expect(error).toBeInstanceOf(GatewayTimeoutError);
    const log = await emulator.reportRequests();
    expect(log).toHaveLength(5);
    expect(error.traceId).toBe(log[4]!.traceId);
    expect(error.message).toContain(`[trace ID ${log[4]!.traceId}]`);
  });

  it.each([
    ['a revoked or unknown token', 401, AuthenticationError],
    ['a publisher of someone else', 403, PermissionDeniedError],
    ['an unknown publisher', 404, NotFoundError],
    ['a request the service refuses', 400, BadRequestError],
  ] as const)('maps %s to %i with the trace id', async (_what, status, cls) => {
    const { client } = signedIn();
    const action: Record<number, () => unknown> = {
      401: () => {
        client.setToken('not-a-real-token');
        return client.listPublishers();
      },
      403: () => client.runReport(client.buildQuery('main', { entityId: ANALYST_PUBLISHER_ID, fromDate: '20261101', toDate: '20261121' })),
      404: () => client.listWidgets('ffffffffffffffffffffffffffffffff'),
      // Skip local validation to see the service's own 400.
      400: () => {
        const q = client.buildQuery('main', { entityId: MEDIUM_PUBLISHER_ID, fromDate: '20261101', toDate: '20261121' });
        return client.runReport({ ...q, params: { ...q.params, breakdowns: 'referrer,country' } });
      },
    };
    await emulator.clearRequests();
    const error = caught(action[status]!);
    expect(error).toBeInstanceOf(cls);
    expect(error.status).toBe(status);
    expect(error.errorMessage).toEqual(expect.any(String));
    const log = await emulator.requests();
    expect(log).toHaveLength(1);
    expect(error.traceId).toBe(log[0]!.traceId);
    expect(error.userMessage()).toContain(`[trace ID ${log[0]!.traceId}]`);
  });

  it('does not retry a failed login', async () => {
    const { client } = newClient();
    expect(() => client.login(DEMO_USER.email, 'wrong password')).toThrow(AuthenticationError);
    expect(await emulator.requests()).toHaveLength(1);
  });

  it('spends its own rate budget instead of collecting 429s', async () => {
    const { client } = signedIn();
    const query = client.buildQuery('main', { entityId: MEDIUM_PUBLISHER_ID, fromDate: '20261120', toDate: '20261121', limit: 1 });
    for (let i = 0; i < 30; i++) client.fetchReportPage(query);
    const error = caught(() => client.fetchReportPage(query)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.local).toBe(true);
    expect(error.message).toMatch(/30 report requests a minute per publisher\): try again after 12:01:\d\d UTC/);
    const log = await emulator.reportRequests();
    expect(log).toHaveLength(30);
    expect(log.every((r) => r.status === 200)).toBe(true);
  });

  it('refuses invalid arguments without sending a single request', async () => {
    const transport = new NodeTransport();
    const client = new EngageClient({
      baseUrl: emulator.baseUrl,
      transport,
      clock: new ManualClock(INVALID_ARGUMENTS_NOW),
      sleeper: blockingSleeper,
      token: 'any',
    });
    for (const [name, kind, input, message, timeZone] of INVALID_REPORT_ARGUMENTS) {
      let error: unknown;
      try {
        client.runReport(client.buildQuery(kind, input, timeZone ?? 'UTC'));
      } catch (e) {
        error = e;
      }
      expect([name, error instanceof ValidationError, (error as Error).message.includes(message)]).toEqual([name, true, true]);
    }
    expect(transport.requestCount).toBe(0);
    expect(await emulator.requests()).toHaveLength(0);
  });
});
