import {
  AddressNotAllowedError,
  AuthenticationError,
  BadAddressError,
  ConnectionError,
  FetchQuotaError,
  RateLimitError,
  TransportError,
} from '../../../../../src/core/errors';
import { DailyQuota, FETCH_COUNT_KEY, FetchQuota } from '../../../../../src/core/api/transport/daily-quota';
import { RateLimiter, REPORT_RATE_RULE } from '../../../../../src/core/api/transport/rate-limiter';
import { RequestSender } from '../../../../../src/core/api/transport/request-sender';
import { DEFAULT_RETRY_POLICY } from '../../../../../src/core/api/transport/retry-policy';
import {
  errorResponse,
  FakeStore,
  FakeTransport,
  jsonResponse,
  ManualClock,
  ManualSleeper,
  type FakeHandler,
} from '../../../../support/fakes';

function setup(handler?: FakeHandler, quotaPerDay = 20_000) {
  const clock = new ManualClock();
  const sleeper = new ManualSleeper(clock);
  const transport = new FakeTransport(handler);
  const limiter = new RateLimiter({ store: new FakeStore(), clock, sleeper });
  const quota = new DailyQuota({ store: new FakeStore(), clock }, FETCH_COUNT_KEY, quotaPerDay);
  const counter = new FetchQuota(quota, clock);
  const sender = new RequestSender({ transport, clock, sleeper, random: () => 0.5, policy: DEFAULT_RETRY_POLICY, limiter, counter });
  const options = { operation: 'GET /reports/main', deadlineAtMs: clock.now() + 25_000, retry: true };
  return { clock, sleeper, transport, limiter, sender, options, quota };
}
const req = (n: number) => ({ url: `https://x.test/r?n=${n}`, method: 'get' as const });

describe('RequestSender', () => {
  it('sends a batch through fetchAll and returns the answers in order', () => {
    const { sender, transport, options } = setup((r) => jsonResponse(200, r.url));
    expect(sender.sendAll([req(1), req(2)], options).map((r) => r.body)).toEqual([req(1).url, req(2).url]);
    expect(transport.batchSizes).toEqual([2]);
    expect(sender.requestsSent).toBe(2);
  });

  it('sends only the failed members again, after the longest wait any of them needs', () => {
    const { sender, transport, sleeper, options } = setup();
    transport.enqueue(
      jsonResponse(200, 'a'),
      errorResponse(429, 'busy', 't', { 'rate-limit-msec-left': '1200' }),
      errorResponse(504, 'slow'),
    );
    transport.setHandler(() => jsonResponse(200, 'again'));
    const bodies = sender.sendAll([req(1), req(2), req(3)], options).map((r) => r.body);
    expect(bodies).toEqual(['a', 'again', 'again']);
    expect(transport.batchSizes).toEqual([3, 2]);
    expect(transport.requests.slice(3).map((r) => r.url)).toEqual([req(2).url, req(3).url]);
    expect(sleeper.sleeps).toEqual([1200]);
  });

  it('fails the batch on the first final error without retrying the others', () => {
    const { sender, transport, options } = setup();
    transport.enqueue(errorResponse(504, 'slow'), errorResponse(401, 'expired', 'tr-1'));
    expect(() => sender.sendAll([req(1), req(2)], options)).toThrow(AuthenticationError);
    expect(transport.requestCount).toBe(2);
  });

  it('turns a lasting connection failure into a ConnectionError', () => {
    const { sender, transport, options } = setup(() => new TransportError('Address unavailable'));
    expect(() => sender.send(req(1), options)).toThrow('Could not reach Engage (Address unavailable)');
    expect(() => sender.send(req(1), { ...options, retry: false })).toThrow(ConnectionError);
    expect(transport.fetchCalls).toBe(DEFAULT_RETRY_POLICY.maxAttempts + 1);
  });

  it('spends a rate slot for every attempt, the first one unless already reserved', () => {
    const { sender, transport, limiter, options } = setup();
    transport.enqueue(errorResponse(504, 'slow'));
    transport.setHandler(() => jsonResponse(200, {}));
    const reservation = limiter.acquire(REPORT_RATE_RULE, 'pub', 2, options.deadlineAtMs);
    sender.sendAll([req(1), req(2)], { ...options, rate: { rule: REPORT_RATE_RULE, scope: 'pub', reservation } });
    // The caller's 2 slots and 1 for the retry of the 504.
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(27);
    sender.send(req(3), { ...options, rate: { rule: REPORT_RATE_RULE, scope: 'pub' } });
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(26);
  });

  it('times the rate window by when answers came back, not by when requests were sent', () => {
    const { sender, transport, clock, sleeper, options } = setup();
    // The batch's answers take 400 ms to come back.
    transport.setHandler((_request, index) => {
      if (index === 0) clock.advance(400);
      return jsonResponse(200, {});
    });
    const rate = { rule: REPORT_RATE_RULE, scope: 'pub' };
    const firstSentAt = clock.now();
    sender.sendAll(
      Array.from({ length: 30 }, (_, i) => req(i)),
      { ...options, rate },
    );
    expect(clock.now()).toBe(firstSentAt + 400);
    clock.set(firstSentAt + 60_000);
    // A minute after the 30 were sent, but not yet a minute after their answers: the next waits 400 ms more.
    sender.send(req(31), { ...options, deadlineAtMs: clock.now() + 25_000, rate });
    expect(sleeper.sleeps).toEqual([400]);
    expect(transport.requests).toHaveLength(31);
  });

  it('does not count a request the service refused with 429, and remembers the wait it announced for everyone', () => {
    const { sender, transport, limiter, clock, options } = setup();
    transport.enqueue(jsonResponse(200, {}), errorResponse(429, 'busy', 't', { 'rate-limit-msec-left': '5000' }));
    transport.setHandler(() => jsonResponse(200, {}));
    sender.sendAll([req(1), req(2)], { ...options, rate: { rule: REPORT_RATE_RULE, scope: 'pub' } });
    // Answered: the first 200 and the retried second one; the 429 counted for nothing.
    expect(transport.requests).toHaveLength(3);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(28);
    expect(limiter.nextFreeAtMs(REPORT_RATE_RULE, 'pub')).toBeLessThanOrEqual(clock.now());
  });

  it('gives the slots back when it sends nothing because the answer could not come in time', () => {
    const { sender, transport, limiter, clock, options } = setup();
    transport.setHandler(() => {
      clock.advance(15_000);
      return jsonResponse(200, {});
    });
    const rate = { rule: REPORT_RATE_RULE, scope: 'pub' };
    sender.send(req(1), { ...options, rate });
    expect(() => sender.send(req(2), { ...options, rate })).toThrow(/answering slowly/);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(29);
  });

  it('reports a 429 it cannot wait for with the time to try again', () => {
    const { sender, clock, options } = setup(() => errorResponse(429, 'busy', 'tr-2', { 'rate-limit-msec-left': '60000' }));
    const attempt = () => sender.send(req(1), options);
    expect(attempt).toThrow(RateLimitError);
    expect(attempt).toThrow(`try again after 12:01:00 UTC [trace ID tr-2]`);
    expect(clock.now()).toBe(Date.UTC(2026, 10, 22, 12));
  });

  it('counts every attempt against the daily URL Fetch quota, batch members and retries included', () => {
    const { sender, transport, quota, options } = setup();
    transport.enqueue(jsonResponse(200, 'a'), errorResponse(504, 'slow'), errorResponse(504, 'slow'));
    transport.setHandler(() => jsonResponse(200, 'again'));
    sender.sendAll([req(1), req(2), req(3)], options);
    sender.send(req(4), options);
    expect(transport.requestCount).toBe(6);
    expect(quota.usage().used).toBe(6);
  });

  it('sends nothing once the count says the quota is spent', () => {
    const { sender, transport, options } = setup(() => jsonResponse(200, {}), 2);
    sender.send(req(1), options);
    expect(() => sender.sendAll([req(2), req(3)], options)).toThrow(FetchQuotaError);
    expect(transport.requestCount).toBe(1);
  });
});

describe('RequestSender with a fetch that gets no answer', () => {
  const refusal = (kind: TransportError['kind'], message: string) => () =>
    new TransportError(message, { kind, allowedPrefixes: ['https://x.test/engage/v2/'] });

  it.each([
    [
      'not-allowed',
      'Request to https://x.test/r? failed because the URL has not been whitelisted in the script manifest.',
      AddressNotAllowedError,
      'Apps Script refused to call https://x.test/r because this add-on may only call addresses that start with https://x.test/engage/v2/: check the address in the Engage sidebar under Account > Settings.',
    ],
    [
      'dns',
      'DNS error: https://x.test/r?n=1',
      BadAddressError,
      'The host x.test could not be found (a DNS error), so Engage was not asked: check the address in the Engage sidebar under Account > Settings.',
    ],
    [
      'invalid-address',
      'Invalid argument: https://x.test/r?n=1',
      BadAddressError,
      'Apps Script refused https://x.test/r as an invalid address: check the address in the Engage sidebar under Account > Settings.',
    ],
  ] as const)('gives up after one attempt on %s, with one sentence', (kind, message, type, sentence) => {
    const { sender, transport, sleeper, options } = setup(refusal(kind, message));
    expect(() => sender.sendAll([req(1), req(2)], options)).toThrow(type);
    expect(() => sender.send(req(1), options)).toThrow(sentence);
    expect(transport.batchSizes).toEqual([2]);
    expect(transport.fetchCalls).toBe(1);
    expect(sleeper.sleeps).toEqual([]);
  });

  it('gives up after one attempt when Apps Script says the daily quota is spent, and refuses the next request itself', () => {
    const { sender, transport, quota, options } = setup(refusal('daily-quota', 'Service invoked too many times for one day: urlfetch.'));
    expect(() => sender.send(req(1), options)).toThrow(
      "Apps Script's daily quota of 20,000 URL fetches for this Google account is used up, so Engage was not asked: try again after 2026-11-23 12:00:00 UTC.",
    );
    expect(transport.fetchCalls).toBe(1);
    expect(quota.usage().used).toBe(20_000);
    expect(() => sender.send(req(2), options)).toThrow(FetchQuotaError);
    expect(transport.fetchCalls).toBe(1);
  });

  it('keeps no rate slot for requests refused before they left, and gives the slots back when the quota is known to be spent', () => {
    const rate = { rule: REPORT_RATE_RULE, scope: 'pub' };
    const refused = setup(refusal('dns', 'DNS error: https://x.test/r?n=1'));
    expect(() => refused.sender.sendAll([req(1), req(2)], { ...refused.options, rate })).toThrow(BadAddressError);
    expect(refused.limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(REPORT_RATE_RULE.limit);
    const spent = setup(() => jsonResponse(200, {}), 1);
    spent.sender.send(req(1), { ...spent.options, rate });
    expect(() => spent.sender.send(req(2), { ...spent.options, rate })).toThrow(FetchQuotaError);
    expect(spent.transport.requestCount).toBe(1);
    expect(spent.limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(REPORT_RATE_RULE.limit - 1);
  });

  it('still tries a lost connection again', () => {
    const { sender, transport, options } = setup();
    transport.enqueue(new TransportError('Address unavailable: https://x.test/r'));
    transport.setHandler(() => jsonResponse(200, 'ok'));
    expect(sender.send(req(1), options).body).toBe('ok');
    expect(transport.fetchCalls).toBe(2);
  });
});

describe('RequestSender with a batch of several rate scopes (pages of several publishers)', () => {
  const rates = (scopes: string[], reservations?: ReturnType<RateLimiter['acquire']>[]) => ({
    rule: REPORT_RATE_RULE,
    scopes,
    ...(reservations ? { reservations } : {}),
  });

  it("spends each member's slot from its own scope, the caller's reservations on the first attempt", () => {
    const { sender, transport, limiter, options } = setup(() => jsonResponse(200, {}));
    const a = limiter.acquire(REPORT_RATE_RULE, 'pub-a', 2, options.deadlineAtMs);
    const b = limiter.acquire(REPORT_RATE_RULE, 'pub-b', 1, options.deadlineAtMs);
    sender.sendAll([req(1), req(2), req(3)], { ...options, rates: rates(['pub-a', 'pub-b', 'pub-a'], [a, b]) });
    expect(transport.batchSizes).toEqual([3]);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub-a')).toBe(28);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub-b')).toBe(29);
    // Without reservations each scope takes its members' slots itself.
    sender.sendAll([req(4), req(5)], { ...options, rates: rates(['pub-b', 'pub-c']) });
    expect([limiter.remaining(REPORT_RATE_RULE, 'pub-b'), limiter.remaining(REPORT_RATE_RULE, 'pub-c')]).toEqual([28, 29]);
  });

  it('retries a member with a slot of its own scope, and a 429 blocks only the scope it answered for', () => {
    const { sender, transport, limiter, clock, options } = setup();
    transport.enqueue(jsonResponse(200, 'a'), errorResponse(429, 'busy', 't', { 'rate-limit-msec-left': '3000' }), jsonResponse(200, 'c'));
    transport.setHandler(() => jsonResponse(200, 'again'));
    const bodies = sender.sendAll([req(1), req(2), req(3)], { ...options, rates: rates(['pub-a', 'pub-b', 'pub-c']) }).map((r) => r.body);
    expect(bodies).toEqual(['a', 'again', 'c']);
    expect(transport.batchSizes).toEqual([3, 1]);
    // pub-b: the refused request did not count, the retry did; pub-a and pub-c one each.
    expect(['pub-a', 'pub-b', 'pub-c'].map((s) => limiter.remaining(REPORT_RATE_RULE, s))).toEqual([29, 29, 29]);
    // A wait announced for pub-b holds pub-b alone, for every execution sharing the budget.
    transport.enqueue(jsonResponse(200, 'a'), errorResponse(429, 'busy', 't', { 'rate-limit-msec-left': '3000' }));
    expect(() => sender.sendAll([req(4), req(5)], { ...options, retry: false, rates: rates(['pub-a', 'pub-b']) })).toThrow(RateLimitError);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub-b')).toBe(0);
    expect(limiter.nextFreeAtMs(REPORT_RATE_RULE, 'pub-b')).toBe(clock.now() + 3000);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub-a')).toBe(28);
  });

  it('names what the failed member was about, and counts every member that reached the service', () => {
    const { sender, transport, limiter, options } = setup();
    transport.enqueue(jsonResponse(200, {}), errorResponse(500, 'broken', 'tr-9'), jsonResponse(200, {}));
    let error: unknown;
    try {
      sender.sendAll([req(1), req(2), req(3)], {
        ...options,
        rates: rates(['pub-a', 'pub-b', 'pub-c']),
        subjects: ["Publisher 'A' (pub-a)", "Publisher 'B' (pub-b)", "Publisher 'C' (pub-c)"],
      });
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toMatch(
      /^Publisher 'B' \(pub-b\): Engage answered with an error \(HTTP 500: broken\).*\[trace ID tr-9\]/,
    );
    expect(transport.requestCount).toBe(3);
    expect(['pub-a', 'pub-b', 'pub-c'].map((s) => limiter.remaining(REPORT_RATE_RULE, s))).toEqual([29, 29, 29]);
  });

  it('waits for the slots of a scope that has none free, and sends nothing when that wait does not fit the deadline', () => {
    const { sender, transport, limiter, sleeper, clock, options } = setup(() => jsonResponse(200, {}));
    for (let i = 0; i < 30; i++) sender.send(req(i), { ...options, rate: { rule: REPORT_RATE_RULE, scope: 'pub-b' } });
    const sent = transport.requestCount;
    expect(() =>
      sender.sendAll([req(40), req(41)], {
        ...options,
        deadlineAtMs: clock.now() + 10_000,
        rates: rates(['pub-a', 'pub-b']),
        subjects: ["Publisher 'A' (pub-a)", "Publisher 'B' (pub-b)"],
      }),
    ).toThrow(/^Publisher 'B' \(pub-b\): Engage's rate limit was reached/);
    expect(transport.requestCount).toBe(sent);
    // pub-a's slot, taken before pub-b's was found wanting, went back.
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub-a')).toBe(30);
    sender.sendAll([req(42), req(43)], { ...options, deadlineAtMs: clock.now() + 120_000, rates: rates(['pub-a', 'pub-b']) });
    expect(sleeper.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(59_000);
    expect(transport.batchSizes.at(-1)).toBe(2);
  });
});
