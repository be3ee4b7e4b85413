import { createSyncFetch, SyncFetchError } from '../../../dev/gas-host/fetch/sync-fetch';
import { startTestHttpServer, type TestHttpServer } from '../../support/gas-http-server';

describe('createSyncFetch', () => {
  let server: TestHttpServer;
  beforeAll(async () => {
    server = await startTestHttpServer();
  });
  afterAll(() => server.close());

  it('performs a request synchronously and returns status, headers and body', () => {
    const http = createSyncFetch();
    const res = http.fetch({ url: `${server.baseUrl}/echo?x=1`, method: 'POST', headers: { 'X-Key': 'k' }, body: 'hello' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const echoed = JSON.parse(res.body);
    expect(echoed).toMatchObject({ method: 'POST', url: '/echo?x=1', body: 'hello' });
    expect(echoed.headers['x-key']).toBe('k');
  });

  it('hands a large body over whole, in shared memory (not copied again to reach the calling thread)', () => {
    const sent = 'report row, '.repeat(300_000);
    const res = createSyncFetch().fetch({ url: `${server.baseUrl}/echo`, method: 'POST', body: sent });
    // Read by tag: the worker's SharedArrayBuffer is not of this test's realm.
    expect(Object.prototype.toString.call(res.bodyBytes.buffer)).toBe('[object SharedArrayBuffer]');
    expect(res.bodyBytes.byteLength).toBeGreaterThan(3_000_000);
    expect(JSON.parse(res.body).body).toBe(sent);
  });

  it('returns 4xx and 5xx as responses', () => {
    expect(createSyncFetch().fetch({ url: `${server.baseUrl}/status/503` }).status).toBe(503);
  });

  it('keeps repeated set-cookie headers apart', () => {
    const res = createSyncFetch().fetch({ url: `${server.baseUrl}/echo` });
    expect(res.headerList.filter(([name]) => name === 'set-cookie').map(([, v]) => v)).toEqual(['a=1', 'b=2']);
  });

  it('runs fetchAll in parallel and answers in request order', () => {
    const started = Date.now();
    const responses = createSyncFetch().fetchAll([
      { url: `${server.baseUrl}/slow/300` },
      { url: `${server.baseUrl}/slow/100` },
      { url: `${server.baseUrl}/slow/200` },
    ]);
    expect(responses.map((r) => r.body)).toEqual(['slow 300', 'slow 100', 'slow 200']);
    expect(Date.now() - started).toBeLessThan(550);
  });

  it('throws a TIMEOUT error with Apps Script wording when the server is too slow', () => {
    const url = `${server.baseUrl}/slow/2000`;
    let caught: unknown;
    try {
      createSyncFetch().fetch({ url, timeoutMs: 200 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SyncFetchError);
    expect(caught).toMatchObject({ code: 'TIMEOUT', message: `Timeout: ${url}` });
  });

  it('throws CONNECTION when nothing listens and reports per request in fetchAllSettled', () => {
    const dead = 'http://127.0.0.1:1/nothing';
    expect(() => createSyncFetch().fetch({ url: dead })).toThrow(`Address unavailable: ${dead}`);
    const outcomes = createSyncFetch().fetchAllSettled([{ url: `${server.baseUrl}/echo` }, { url: dead }]);
    expect(outcomes[0]!.ok).toBe(true);
    expect(outcomes[1]).toMatchObject({ ok: false, error: { code: 'CONNECTION' } });
  });

  it('does not follow redirects when asked not to', () => {
    const res = createSyncFetch().fetch({ url: `${server.baseUrl}/redirect`, followRedirects: false });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/echo');
  });
});
