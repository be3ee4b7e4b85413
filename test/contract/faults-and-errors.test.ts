/**
 * Contract: the error envelope and `x-traceid` on every response (spec "Errors"), plus the test
 * controls: each injected fault kind, the request log, and isolation between instances.
 */
import { apiGet, errorMessageOf, request } from './contract-client';
import { DEMO_API_KEY, DEMO_USER, MEDIUM_PUBLISHER_ID, newEmulator, type EmulatorHandle } from '../support/emulator';

let emulator: EmulatorHandle;
let token: string;

beforeAll(async () => {
  emulator = await newEmulator();
  token = await emulator.login(DEMO_USER.email, DEMO_USER.password);
});
beforeEach(async () => {
  await emulator.clearFaults();
  await emulator.clearRequests();
  await emulator.advanceClock(61_000);
});
afterAll(async () => {
  await emulator.close();
});

const countries = () => apiGet(emulator, token, '/countries');

describe('errors and trace ids', () => {
  it('put a unique x-traceid on every response, success or error, API, recommendations or pixel', async () => {
    const responses = [
      await countries(),
      await apiGet(emulator, undefined, '/countries'),
      await apiGet(emulator, token, '/reports/main', { entityId: MEDIUM_PUBLISHER_ID }),
      await apiGet(emulator, token, '/no/such/path'),
      await request(`${emulator.recsUrl}?key=${DEMO_API_KEY.key}`, { method: 'POST' }),
      await request(`${emulator.recsUrl.replace('/recommendations', '/served')}?servedId=x&pos=1`),
    ];
    const ids = responses.map((r) => r.headers.get('x-traceid'));
    expect(ids.every((id) => typeof id === 'string' && id.length >= 8)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answer errors as {moreInfo, errorMessage} with the operation name', async () => {
    const missing = await apiGet(emulator, token, '/reports/main', { entityId: MEDIUM_PUBLISHER_ID });
    expect(missing.status).toBe(400);
    expect(missing.body.moreInfo).toBe('getMainReport');
    expect(errorMessageOf(missing)).toMatch(/fromDate/);
    const notFound = await apiGet(emulator, token, '/no/such/path');
    expect(notFound.status).toBe(404);
    errorMessageOf(notFound);
  });

  it('show up in the request log with status and trace id', async () => {
    const answer = await countries();
    const log = await emulator.requests();
    expect(log).toHaveLength(1);
    expect(log[0]).toEqual(
      expect.objectContaining({
        method: 'GET',
        path: '/engage/v2/countries',
        status: 200,
        traceId: answer.headers.get('x-traceid'),
      }),
    );
  });
});

describe('injected faults', () => {
  it.each([500, 502, 503, 504] as const)('answer status %i in the error envelope on the Nth matching request', async (status) => {
    await emulator.setFaults([{ match: '/countries', onNth: 2, status }]);
    expect((await countries()).status).toBe(200);
    const faulted = await countries();
    expect(faulted.status).toBe(status);
    expect(faulted.body.moreInfo).toBe('getCountries');
    expect(faulted.headers.get('x-traceid')).toBeTruthy();
    if (status === 504) expect(faulted.body.errorMessage).toMatch(/timed out/i);
    expect((await countries()).status).toBe(200);
  });

  it('repeat for `times` matching requests and spare requests that do not match', async () => {
    await emulator.setFaults([{ match: '/countries', times: 2, status: 503 }]);
    expect((await apiGet(emulator, token, '/timezones')).status).toBe(200);
    expect((await countries()).status).toBe(503);
    expect((await countries()).status).toBe(503);
    expect((await countries()).status).toBe(200);
  });

  it('add latency before answering normally', async () => {
    await emulator.setFaults([{ latencyMs: 300 }]);
    const started = Date.now();
    const answer = await countries();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(answer.status).toBe(200);
  });

  it('send malformed JSON with status 200', async () => {
    await emulator.setFaults([{ malformedJson: true }]);
    const answer = await countries();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/json/);
    expect(() => JSON.parse(answer.body)).toThrow();
  });

  it('drop the connection without an answer', async () => {
    await emulator.setFaults([{ dropConnection: true }]);
    await expect(countries()).rejects.toThrow();
    expect((await countries()).status).toBe(200);
  });

  it('answer 429 with the rate-limit headers', async () => {
    await emulator.setFaults([{ rateLimitMs: 1500 }]);
    const answer = await countries();
    expect(answer.status).toBe(429);
    expect(answer.headers.get('rate-limit-msec-left')).toBe('1500');
    expect(answer.headers.get('retry-after')).toBe('2');
  });
});

describe('instances', () => {
  it('are isolated: clock, tokens and faults of one do not reach another', async () => {
    const other = await newEmulator();
    try {
      await emulator.setClock('2030-01-01T00:00:00Z');
      await emulator.setFaults([{ status: 500, times: 100 }]);
      expect(Math.abs(Date.parse(await other.now()) - Date.now())).toBeLessThan(60_000);
      expect((await apiGet(other, token, '/countries')).status).toBe(401);
      const otherToken = await other.login(DEMO_USER.email, DEMO_USER.password);
      expect((await apiGet(other, otherToken, '/countries')).status).toBe(200);
      expect((await other.requests()).map((r) => r.path)).toEqual(['/engage/v2/countries', '/engage/v2/login', '/engage/v2/countries']);
      expect(await emulator.requests()).toEqual([]);
    } finally {
      await other.close();
      await emulator.clearFaults();
    }
  });

  it('can freeze the clock so that only advanceClock moves it', async () => {
    const other = await newEmulator();
    try {
      await other.setClock('2026-11-20T12:00:00.000Z', { frozen: true });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(await other.now()).toBe('2026-11-20T12:00:00.000Z');
      await other.advanceClock(60_000);
      expect(await other.now()).toBe('2026-11-20T12:01:00.000Z');
      await other.reset();
      expect(Math.abs(Date.parse(await other.now()) - Date.now())).toBeLessThan(60_000);
    } finally {
      await other.close();
    }
  });

  it('stop answering once closed', async () => {
    const other = await newEmulator();
    await other.close();
    await expect(fetch(`${other.baseUrl}/countries`)).rejects.toThrow();
  });
});
