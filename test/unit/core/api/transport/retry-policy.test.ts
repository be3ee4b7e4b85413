import { decideRetry, DEFAULT_RETRY_POLICY, type AttemptOutcome } from '../../../../../src/core/api/transport/retry-policy';

const NOW = 1_000_000;
const ctx = (attempt: number, deadlineInMs = 30_000, random = () => 0.5) => ({
  attempt,
  nowMs: NOW,
  deadlineAtMs: NOW + deadlineInMs,
  random,
});
const status = (s: number, headers: Record<string, string> = {}): AttemptOutcome => ({ kind: 'response', status: s, headers });

describe('decideRetry', () => {
  it('is done on success', () => {
    expect(decideRetry(status(200), ctx(1))).toEqual({ retry: false, reason: 'success' });
  });

  it.each([400, 401, 403, 404, 500])('never retries %i', (s) => {
    expect(decideRetry(status(s), ctx(1))).toEqual({ retry: false, reason: 'not-retryable' });
  });

  it('waits as long as rate-limit-msec-left says after a 429', () => {
    expect(decideRetry(status(429, { 'rate-limit-msec-left': '1500' }), ctx(1))).toEqual({ retry: true, waitMs: 1500 });
  });

  it('reads Retry-After seconds when there is no millisecond hint', () => {
    expect(decideRetry(status(429, { 'retry-after': '2' }), ctx(1))).toEqual({ retry: true, waitMs: 2000 });
  });

  it('caps an absurd hint and ignores a garbled one', () => {
    expect(decideRetry(status(429, { 'rate-limit-msec-left': '999999999' }), ctx(1, 120_000))).toEqual({
      retry: true,
      waitMs: DEFAULT_RETRY_POLICY.maxAnnouncedWaitMs,
    });
    expect(decideRetry(status(429, { 'rate-limit-msec-left': 'soon' }), ctx(1))).toEqual({ retry: true, waitMs: 375 });
  });

  it('backs off exponentially with jitter after a 504 or a connection failure', () => {
    const waits = [1, 2, 3, 4].map((a) => decideRetry(status(504), ctx(a)));
    expect(waits).toEqual([375, 750, 1500, 3000].map((waitMs) => ({ retry: true, waitMs })));
    expect(
      decideRetry(
        { kind: 'connection-failure' },
        ctx(1, 30_000, () => 0),
      ),
    ).toEqual({ retry: true, waitMs: 250 });
    expect(
      decideRetry(
        { kind: 'connection-failure' },
        ctx(1, 30_000, () => 0.999),
      ),
    ).toEqual({ retry: true, waitMs: 500 });
  });

  it('never waits longer than the maximum backoff', () => {
    expect(
      decideRetry(status(504), { ...ctx(4), random: () => 1 }, { ...DEFAULT_RETRY_POLICY, maxAttempts: 10, maxDelayMs: 1000 }),
    ).toEqual({ retry: true, waitMs: 1000 });
  });

  it('stops after the last attempt', () => {
    expect(decideRetry(status(504), ctx(DEFAULT_RETRY_POLICY.maxAttempts))).toEqual({ retry: false, reason: 'attempts-exhausted' });
  });

  it('refuses a wait that would end after the deadline, saying when it would end', () => {
    expect(decideRetry(status(429, { 'rate-limit-msec-left': '40000' }), ctx(1, 30_000))).toEqual({
      retry: false,
      reason: 'deadline',
      retryAtMs: NOW + 40000,
    });
  });
});
