import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  GatewayTimeoutError,
  NotFoundError,
  NotSignedInError,
  PermissionDeniedError,
  RateLimitError,
  TransportError,
  ValidationError,
} from '../../../../../src/core/errors';
import { EngageClient } from '../../../../../src/core/api/client/engage-client';
import { errorResponse, jsonResponse, queryOf, reportHandler } from '../../../../support/fakes';
import { BASE_URL, harness, PUBLISHER } from './harness';

const input = { entityId: PUBLISHER, fromDate: '20261101', toDate: '20261121' };

describe('EngageClient sign-in', () => {
  it('logs in with Basic credentials and sends the token as SVC-TOKEN-V1 afterwards', () => {
    const { client, transport } = harness(undefined, { token: undefined });
    transport.enqueue(jsonResponse(200, { 'SVC-TOKEN-V1': 'fresh' }), jsonResponse(200, { publishers: [] }));
    expect(client.login('ann@example.com', 'pä:ss')).toBe('fresh');
    client.listPublishers();
    const [login, lookup] = transport.requests;
    expect(login!.url).toBe(`${BASE_URL}/login`);
    expect(login!.headers!.Authorization).toBe(`Basic ${Buffer.from('ann@example.com:pä:ss').toString('base64')}`);
    expect(lookup!.headers).toEqual({ 'SVC-TOKEN-V1': 'fresh' });
  });

  it('accepts a pasted token instead of credentials', () => {
    const { client, transport } = harness(() => jsonResponse(200, []), { token: undefined });
    client.setToken('  pasted-token ');
    client.listCountries();
    expect(transport.requests[0]!.headers).toEqual({ 'SVC-TOKEN-V1': 'pasted-token' });
    expect(() => client.setToken('two words')).toThrow(ValidationError);
  });

  it('never retries a failed login and maps it to an AuthenticationError with its trace id', () => {
    const { client, transport } = harness(() => errorResponse(401, 'Bad credentials', 'tr-login'), { token: undefined });
    expect(() => client.login('ann', 'wrong')).toThrow(AuthenticationError);
    expect(() => client.login('ann', 'wrong')).toThrow(/\[trace ID tr-login\]/);
    expect(transport.requestCount).toBe(2);
  });

  it('never retries a login that meets a 504 or a connection failure', () => {
    const { client, transport } = harness(undefined, { token: undefined });
    transport.enqueue(errorResponse(504, 'slow'), new TransportError('connection reset'));
    expect(() => client.login('ann', 'pw')).toThrow(GatewayTimeoutError);
    expect(() => client.login('bob', 'pw')).toThrow(ConnectionError);
    expect(transport.requestCount).toBe(2);
  });

  it('refuses a third login within the hour without sending it, failed ones included', () => {
    const { client, transport } = harness(() => errorResponse(401, 'Bad credentials'), { token: undefined });
    expect(() => client.login('ann', 'a')).toThrow(AuthenticationError);
    expect(() => client.login('ANN', 'b')).toThrow(AuthenticationError);
    expect(() => client.login('ann', 'c')).toThrow(/2 sign-ins an hour per user\): try again after 13:00:00 UTC/);
    expect(transport.requestCount).toBe(2);
  });

  it('asks for missing credentials without sending anything', () => {
    const { client, transport } = harness();
    expect(() => client.login('', '')).toThrow('username: is required; password: is required');
    expect(transport.requestCount).toBe(0);
  });

  it('says the user is not signed in when there is no token', () => {
    const { client, transport } = harness(undefined, { token: undefined });
    expect(() => client.listPublishers()).toThrow(NotSignedInError);
    expect(() => client.runReport(client.buildQuery('main', input))).toThrow(/not signed in to Engage/);
    expect(transport.requestCount).toBe(0);
  });
});

describe('EngageClient lookups', () => {
  it.each([
    ['listPublishers', [], '/publishers', { publishers: [{ id: 'h1', name: 'One' }] }],
    ['listWidgets', ['h/1'], '/publishers/h%2F1/widgets', { widgets: [{ id: 'w1', name: 'Below article' }] }],
    ['listNativeApps', ['h1'], '/publishers/h1/nativeapps', { nativeApps: [{ id: 'n1', name: 'App' }] }],
    ['listCountries', [], '/countries', [{ id: 'US', name: 'United States' }]],
    ['listTimezones', [], '/timezones', { timezones: [{ id: 'UTC', name: 'UTC' }] }],
  ] as const)('%s reads %s into {id, name} entries', (method, args, path, body) => {
    const { client, transport } = harness(() => jsonResponse(200, body));
    const entries = (client[method] as (...a: string[]) => unknown[])(...args);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String) }));
    expect(transport.requests[0]!.url).toBe(`${BASE_URL}${path}`);
  });

  it('serves a repeated lookup from the cache without touching the transport', () => {
    const { client, transport, cache } = harness(() => jsonResponse(200, { publishers: [{ id: 'h1', name: 'One' }] }));
    client.listPublishers();
    expect(client.listPublishers()).toEqual([{ id: 'h1', name: 'One' }]);
    expect(transport.requestCount).toBe(1);
    expect(cache.puts).toBe(1);
  });

  it("fetches a lookup whose answer is over the cache's 100,000 bytes again rather than caching it", () => {
    // 40,000 characters of text, but 120,000 bytes of UTF-8: too large for one cache entry.
    const name = '€'.repeat(40_000);
    const { client, transport, cache } = harness(() => jsonResponse(200, { publishers: [{ id: 'h1', name }] }));
    expect(client.listPublishers()).toEqual([{ id: 'h1', name }]);
    expect(client.listPublishers()).toEqual([{ id: 'h1', name }]);
    expect(transport.requestCount).toBe(2);
    expect(cache.puts).toBe(0);
  });

  it('needs a publisher for widgets', () => {
    const { client, transport } = harness();
    expect(() => client.listWidgets('')).toThrow('publisherId: is required to list widgets');
    expect(transport.requestCount).toBe(0);
  });
});

describe('EngageClient errors and retries', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
  ])('gives up at once on %i', (status, cls) => {
    const { client, transport, sleeper } = harness(() => errorResponse(status, 'nope', `tr-${status}`));
    expect(() => client.runReport(client.buildQuery('main', input))).toThrow(cls);
    expect(transport.requestCount).toBe(1);
    expect(sleeper.sleeps).toEqual([]);
  });

  it('ends a burst of 429s in data when the announced wait fits the deadline', () => {
    const { client, transport, sleeper } = harness(reportHandler(3));
    const busy = errorResponse(429, 'Too many requests', 'tr-429', { 'rate-limit-msec-left': '4000' });
    transport.enqueue(busy, busy, busy);
    const result = client.runReport(client.buildQuery('main', input));
    expect(result.items).toHaveLength(3);
    expect(transport.requestCount).toBe(4);
    expect(sleeper.sleeps).toEqual([4000, 4000, 4000]);
  });

  it('refuses a 429 whose wait does not fit, saying when to try again', () => {
    const { client, transport, clock } = harness(() =>
      errorResponse(429, 'Too many requests', 'tr-9', { 'rate-limit-msec-left': '40000' }),
    );
    let error: unknown;
    try {
      client.runReport(client.buildQuery('main', input));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAtMs).toBe(clock.now() + 40_000);
    expect((error as RateLimitError).message).toContain('try again after 12:00:40 UTC [trace ID tr-9]');
    expect(transport.requestCount).toBe(1);
  });

  it('recovers from a 504 and a dropped connection with backoff', () => {
    const { client, transport, sleeper } = harness(reportHandler(2));
    transport.enqueue(errorResponse(504, 'timeout'), new TransportError('socket hang up'));
    expect(client.runReport(client.buildQuery('main', input)).items).toHaveLength(2);
    expect(transport.requestCount).toBe(3);
    expect(sleeper.sleeps).toEqual([375, 750]);
  });

  it('gives up after the last attempt with the final error', () => {
    const { client, transport } = harness(() => errorResponse(504, 'timeout', 'tr-504'));
    expect(() => client.runReport(client.buildQuery('main', input))).toThrow(
      /Engage took too long to answer \(timeout\).*\[trace ID tr-504\]/,
    );
    expect(transport.requestCount).toBe(5);
  });

  it('stops retrying when the deadline is near', () => {
    const { client, transport, clock } = harness(() => new TransportError('DNS failure'));
    expect(() => client.runReport(client.buildQuery('main', input), { deadlineAtMs: clock.now() + 1000 })).toThrow(ConnectionError);
    expect(transport.requestCount).toBe(2);
  });

  it('keeps the service-announced wait for other executions', () => {
    const { client, transport, store, clock, sleeper } = harness(reportHandler(1));
    transport.enqueue(errorResponse(429, 'busy', 't', { 'rate-limit-msec-left': '2000' }));
    client.runReport(client.buildQuery('main', input));
    const other = new EngageClient({ baseUrl: BASE_URL, transport, clock, sleeper, store, token: 't2' });
    // The refused request does not count (the service does not count it); its retry does.
    expect(JSON.parse(store.values.get(`engage.rate.reports.${PUBLISHER}`)!).t).toHaveLength(1);
    other.runReport(other.buildQuery('main', input));
    expect(queryOf(transport.requests[2]!).entityId).toBe(PUBLISHER);
  });

  it('refuses a base URL that is not an address', () => {
    expect(() => harness(undefined, { baseUrl: 'api.example.test' })).toThrow(/baseUrl: 'api.example.test' is not an http\(s\) address/);
  });
});

describe('EngageClient input checks before a request', () => {
  it('refuses user names and passwords no account has, without spending a login', () => {
    const { client, transport } = harness(undefined, { token: undefined });
    expect(() => client.login('u'.repeat(257), 'pw')).toThrow(/^username: is 257 characters long; a user name has at most 256/);
    expect(() => client.login('ann\u0000@example.com', 'pw')).toThrow(
      /^username: 'ann\\u0000@example.com' contains a control character \(U\+0000\)/,
    );
    expect(() => client.login('ann', 'p'.repeat(1025))).toThrow(/^password: is 1025 characters long; a password has at most 1024/);
    expect(transport.requestCount).toBe(0);
  });

  it('refuses a publisher ID for a lookup that cannot be one', () => {
    const { client, transport } = harness();
    expect(() => client.listWidgets('<script>')).toThrow(/^publisherId: '<script>' is not a publisher ID/);
    expect(() => client.listNativeApps('a b')).toThrow(/^publisherId: 'a b' must not contain spaces/);
    expect(() => client.listWidgets('x'.repeat(500))).toThrow(/\(500 characters\) is longer than 128 characters/);
    expect(transport.requestCount).toBe(0);
  });
});
