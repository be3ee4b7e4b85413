import { BusyError, RateLimitError } from '../../../src/core/errors';
import { LOGIN_RATE_RULE, RateLimiter, REPORT_RATE_RULE } from '../../../src/core/rate-limiter';
import { FakeLock, FakeStore, ManualClock, ManualSleeper } from '../../support/fakes';

function setup() {
  const clock = new ManualClock();
  const sleeper = new ManualSleeper(clock);
  const store = new FakeStore();
  const lock = new FakeLock();
  return { clock, sleeper, store, lock, limiter: new RateLimiter({ store, lock, clock, sleeper }) };
}

describe('RateLimiter', () => {
  it('lets 30 report requests a minute through without waiting', () => {
    const { limiter, sleeper, clock } = setup();
    for (let i = 0; i < 30; i++) limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now() + 25_000);
    expect(sleeper.sleeps).toEqual([]);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(0);
  });

  it('waits for the oldest request to leave the window when the wait fits the deadline', () => {
    const { limiter, sleeper, clock } = setup();
    limiter.acquire(REPORT_RATE_RULE, 'pub', 30, clock.now() + 1000);
    clock.advance(50_000);
    limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now() + 25_000);
    expect(sleeper.sleeps).toEqual([10_000]);
  });

  it('refuses with the time to try again when the wait does not fit', () => {
    const { limiter, clock, sleeper } = setup();
    limiter.acquire(REPORT_RATE_RULE, 'pub', 30, clock.now() + 1000);
    let error: unknown;
    try {
      limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now() + 25_000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).local).toBe(true);
    expect((error as RateLimitError).retryAtMs).toBe(clock.now() + 60_000);
    expect((error as RateLimitError).message).toBe("Engage's rate limit was reached (30 report requests a minute per publisher): try again after 12:01:00 UTC.");
    expect(sleeper.sleeps).toEqual([]);
  });

  it('keeps a separate window per publisher', () => {
    const { limiter, clock } = setup();
    limiter.acquire(REPORT_RATE_RULE, 'a', 30, clock.now());
    expect(limiter.remaining(REPORT_RATE_RULE, 'b')).toBe(30);
  });

  it('hands out as many slots as are free for a batch', () => {
    const { limiter, clock } = setup();
    limiter.acquire(REPORT_RATE_RULE, 'pub', 27, clock.now());
    expect(limiter.acquireUpTo(REPORT_RATE_RULE, 'pub', 10, clock.now())).toBe(3);
  });

  it('shares its window between executions through the store', () => {
    const { store, lock, clock, sleeper } = setup();
    const first = new RateLimiter({ store, lock, clock, sleeper });
    const second = new RateLimiter({ store, lock, clock, sleeper });
    first.acquire(REPORT_RATE_RULE, 'pub', 20, clock.now());
    expect(second.remaining(REPORT_RATE_RULE, 'pub')).toBe(10);
    expect(store.values.get('engage.rate.reports.pub')!.length).toBeLessThan(9 * 1024);
  });

  it('re-reads the state after taking the lock', () => {
    const { store, lock, clock, limiter, sleeper } = setup();
    // Another execution spends 30 slots while this one waits for the lock.
    lock.onAcquire = () => {
      lock.onAcquire = undefined;
      new RateLimiter({ store, clock, sleeper }).acquire(REPORT_RATE_RULE, 'pub', 30, clock.now());
    };
    expect(() => limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now() + 1000)).toThrow(RateLimitError);
    expect(lock.releases).toBe(lock.tryLocks);
  });

  it('honours a wait announced by the service', () => {
    const { limiter, clock, sleeper } = setup();
    limiter.blockUntil(REPORT_RATE_RULE, 'pub', clock.now() + 3000);
    limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now() + 25_000);
    expect(sleeper.sleeps).toEqual([3000]);
  });

  it('allows 2 logins an hour per user', () => {
    const { limiter, clock } = setup();
    limiter.acquire(LOGIN_RATE_RULE, 'ann', 1, clock.now());
    clock.advance(10 * 60_000);
    limiter.acquire(LOGIN_RATE_RULE, 'ann', 1, clock.now());
    expect(() => limiter.acquire(LOGIN_RATE_RULE, 'ann', 1, clock.now() + 25_000)).toThrow(/2 sign-ins an hour per user\): try again after 13:00:00 UTC/);
    limiter.acquire(LOGIN_RATE_RULE, 'bob', 1, clock.now());
  });

  it('says so when another execution holds the lock too long', () => {
    const { limiter, lock, clock } = setup();
    lock.available = false;
    expect(() => limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now())).toThrow(BusyError);
  });

  it('treats unreadable stored state as empty', () => {
    const { limiter, store, clock } = setup();
    store.values.set('engage.rate.reports.pub', 'not json');
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(30);
    limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now());
  });
});
