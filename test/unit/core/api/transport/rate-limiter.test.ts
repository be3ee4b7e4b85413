import { BusyError, RateLimitError } from '../../../../../src/core/errors';
import { LOGIN_RATE_RULE, RateLimiter, REPORT_RATE_RULE, type RateReservation } from '../../../../../src/core/api/transport/rate-limiter';
import { FakeLock, FakeStore, ManualClock, ManualSleeper } from '../../../../support/fakes';
import { FETCH_LONGEST_WAIT_MS } from '../../../../../src/core/budgets';

function setup() {
  const clock = new ManualClock();
  const sleeper = new ManualSleeper(clock);
  const store = new FakeStore();
  const lock = new FakeLock();
  return { clock, sleeper, store, lock, limiter: new RateLimiter({ store, lock, clock, sleeper }) };
}

/** Requests sent with `reservation` were answered now (none refused). */
function answered(limiter: RateLimiter, reservation: RateReservation, atMs: number): void {
  limiter.settle(reservation, { counted: reservation.count, atMs });
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
    answered(limiter, limiter.acquire(REPORT_RATE_RULE, 'pub', 30, clock.now() + 1000), clock.now());
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
    expect((error as RateLimitError).message).toBe(
      "Engage's rate limit was reached (30 report requests a minute per publisher): try again after 12:01:00 UTC.",
    );
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
    expect(limiter.acquireUpTo(REPORT_RATE_RULE, 'pub', 10, clock.now()).count).toBe(3);
  });

  it('shares its window between executions through the store', () => {
    const { store, lock, clock, sleeper } = setup();
    const first = new RateLimiter({ store, lock, clock, sleeper });
    const second = new RateLimiter({ store, lock, clock, sleeper });
    first.acquire(REPORT_RATE_RULE, 'pub', 20, clock.now());
    expect(second.remaining(REPORT_RATE_RULE, 'pub')).toBe(10);
    expect(store.values.get('engage.rate.reports.pub')!.length).toBeLessThan(9000);
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

  it('counts a request from when its answer came back, so the service, counting arrivals, never sees 31 in a minute', () => {
    const { limiter, sleeper, clock } = setup();
    const sentAt = clock.now();
    const batch = limiter.acquire(REPORT_RATE_RULE, 'pub', 30, sentAt + 1000);
    // The 30 arrive some time in the next 700 ms; their answers are back at 700 ms.
    answered(limiter, batch, sentAt + 700);
    clock.set(sentAt + 60_000);
    limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now() + 25_000);
    expect(sleeper.sleeps).toEqual([700]);
    expect(clock.now()).toBe(sentAt + 60_700);
  });

  it('counts requests still in flight, and a waiter looks again when their answers can have settled instead of assuming the worst', () => {
    const { limiter, sleeper, clock, store, lock } = setup();
    const other = new RateLimiter({ store, lock, clock, sleeper });
    const sentAt = clock.now();
    const inFlight = other.acquire(REPORT_RATE_RULE, 'pub', 30, sentAt);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(0);
    // Nothing can leave before a minute after an answer that is not back yet: a 25 s deadline cannot wait for it.
    expect(() => limiter.acquire(REPORT_RATE_RULE, 'pub', 1, sentAt + 25_000)).toThrow(RateLimitError);
    expect(limiter.nextFreeAtMs(REPORT_RATE_RULE, 'pub')).toBe(sentAt + 60_000);
    // A longer deadline sleeps to that earliest moment; meanwhile the answers came back at 2 s.
    sleeper.sleep = (ms: number) => {
      sleeper.sleeps.push(ms);
      if (sleeper.sleeps.length === 1) answered(other, inFlight, sentAt + 2_000);
      clock.advance(ms);
    };
    limiter.acquire(REPORT_RATE_RULE, 'pub', 1, sentAt + 5 * 60_000);
    expect(sleeper.sleeps).toEqual([60_000, 2_000]);
    expect(clock.now()).toBe(sentAt + 62_000);
  });

  it('does not count requests the service refused, nor reservations given back', () => {
    const { limiter, clock } = setup();
    limiter.settle(limiter.acquire(REPORT_RATE_RULE, 'pub', 10, clock.now()), { counted: 4, atMs: clock.now() });
    limiter.release(limiter.acquire(REPORT_RATE_RULE, 'pub', 5, clock.now()));
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(26);
  });

  it('counts a reservation its execution never settled until URL Fetch must have given up, then as answered at that moment', () => {
    const { limiter, clock } = setup();
    const sentAt = clock.now();
    limiter.acquire(REPORT_RATE_RULE, 'pub', 30, sentAt);
    clock.set(sentAt + FETCH_LONGEST_WAIT_MS - 1);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(0);
    clock.set(sentAt + FETCH_LONGEST_WAIT_MS + 59_999);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(0);
    expect(limiter.nextFreeAtMs(REPORT_RATE_RULE, 'pub')).toBe(sentAt + FETCH_LONGEST_WAIT_MS + 60_000);
    clock.set(sentAt + FETCH_LONGEST_WAIT_MS + 60_000);
    expect(limiter.remaining(REPORT_RATE_RULE, 'pub')).toBe(30);
  });

  it('keeps its stored state small while 30 requests are in flight', () => {
    const { limiter, clock, store } = setup();
    for (let i = 0; i < 30; i++) limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now());
    expect(store.values.get('engage.rate.reports.pub')!.length).toBeLessThan(1024);
  });

  it('honours a wait announced by the service', () => {
    const { limiter, clock, sleeper } = setup();
    // A request refused with 429 and a wait of 3 s: it does not count, and the wait holds for everyone.
    limiter.settle(limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now()), {
      counted: 0,
      atMs: clock.now(),
      blockUntilMs: clock.now() + 3000,
    });
    limiter.acquire(REPORT_RATE_RULE, 'pub', 1, clock.now() + 25_000);
    expect(sleeper.sleeps).toEqual([3000]);
  });

  it('allows 2 logins an hour per user', () => {
    const { limiter, clock } = setup();
    answered(limiter, limiter.acquire(LOGIN_RATE_RULE, 'ann', 1, clock.now()), clock.now());
    clock.advance(10 * 60_000);
    answered(limiter, limiter.acquire(LOGIN_RATE_RULE, 'ann', 1, clock.now()), clock.now());
    expect(() => limiter.acquire(LOGIN_RATE_RULE, 'ann', 1, clock.now() + 25_000)).toThrow(
      /2 sign-ins an hour per user\): try again after 13:00:00 UTC/,
    );
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

  it('takes what is free now without waiting, and nothing when nothing is (a batch of several publishers)', () => {
    const { limiter, clock, sleeper } = setup();
    limiter.acquire(REPORT_RATE_RULE, 'pub', 26, clock.now() + 1000);
    expect(limiter.tryAcquireUpTo(REPORT_RATE_RULE, 'pub', 10)?.count).toBe(4);
    expect(limiter.tryAcquireUpTo(REPORT_RATE_RULE, 'pub', 1)).toBeUndefined();
    expect(limiter.tryAcquireUpTo(REPORT_RATE_RULE, 'other', 10)?.count).toBe(10);
    expect(sleeper.sleeps).toEqual([]);
  });
});
