/**
 * The add-on's own count of Apps Script's daily quotas: a 24-hour window that opens with the first
 * use (Google: quotas "reset 24 hours after the first request"), counted in the user's store under
 * the user lock, never fatal when the store refuses a write, Apps Script's word taken when it says
 * the quota is spent, and shares reserved ahead of a use whose size is known only at its end.
 */
import {
  DailyQuota,
  FETCH_COUNT_KEY,
  FETCH_COUNT_SAVE_EVERY,
  FetchQuota,
  QUOTA_WINDOW_MS,
} from '../../../../../src/core/api/transport/daily-quota';
import { FetchQuotaError } from '../../../../../src/core/errors';
import { FakeLock, FakeStore, ManualClock } from '../../../../support/fakes';

const HOUR_MS = 3_600_000;

function setup(limit = 100) {
  const clock = new ManualClock();
  const store = new FakeStore();
  const lock = new FakeLock();
  const quota = new DailyQuota({ store, clock, lock }, FETCH_COUNT_KEY, limit);
  return { clock, store, lock, quota, fetches: new FetchQuota(quota, clock) };
}

describe('DailyQuota', () => {
  it('opens a window at the first use and starts again 24 hours after it, not at midnight', () => {
    const { clock, quota } = setup();
    const start = clock.now();
    expect(quota.usage()).toEqual({ used: 0, limit: 100 });
    quota.add(5);
    clock.advance(23 * HOUR_MS);
    quota.add(7);
    expect(quota.usage()).toEqual({ used: 12, limit: 100, resetAtMs: start + QUOTA_WINDOW_MS });
    clock.advance(HOUR_MS);
    expect(quota.usage()).toEqual({ used: 0, limit: 100 });
    quota.add(1);
    expect(quota.usage().resetAtMs).toBe(clock.now() + QUOTA_WINDOW_MS);
  });

  it('takes an amount only while the total stays within the ceiling', () => {
    const { quota } = setup(10);
    expect(quota.take(8)).toBe(true);
    expect(quota.take(3)).toBe(false);
    expect(quota.take(2)).toBe(true);
    expect(quota.take(1, { ceiling: 20 })).toBe(true);
    expect(quota.usage().used).toBe(11);
  });

  it("re-reads the count under the user lock, so another execution's update is not lost", () => {
    const { store, lock, quota, clock } = setup();
    quota.add(1);
    lock.onAcquire = () => store.values.set(FETCH_COUNT_KEY, JSON.stringify({ s: clock.now(), n: 40 }));
    quota.add(2);
    expect(quota.usage().used).toBe(42);
    expect(lock.releases).toBe(lock.tryLocks);
  });

  it('goes on without the lock when it stays busy, and without the write when the store refuses it', () => {
    const { store, lock, quota } = setup();
    lock.available = false;
    quota.add(3);
    expect(quota.usage().used).toBe(3);
    store.set = () => {
      throw new Error('You do not have permission to call setProperty');
    };
    expect(() => quota.add(1)).not.toThrow();
    expect(quota.usage().used).toBe(3);
  });

  it('counts as full until the window closes once Apps Script says the quota is spent', () => {
    const { quota, clock } = setup();
    quota.add(10);
    const usage = quota.markSpent();
    expect(usage).toMatchObject({ used: 100, limit: 100 });
    expect(quota.take(1)).toBe(false);
    clock.advance(QUOTA_WINDOW_MS);
    expect(quota.take(1)).toBe(true);
  });

  it('reserves a share of what is left under the lock, which a use starting meanwhile sees, and settles it to the real use', () => {
    const { quota, lock, clock } = setup(90);
    quota.add(82);
    const first = quota.reserve(6);
    expect(first.amount).toBe(6);
    expect(lock.releases).toBe(lock.tryLocks);
    const second = quota.reserve(6); // starts while the first is under way
    expect(second.amount).toBe(2);
    expect(quota.reserve(6).amount).toBe(0);
    expect(quota.usage().used).toBe(90);
    quota.settle(first, 4); // took 4 of its 6
    quota.settle(second, 1);
    expect(quota.usage().used).toBe(87);
    // A share whose window closed before it was settled went with that window: the use counts in the new one.
    const late = quota.reserve(3);
    clock.advance(QUOTA_WINDOW_MS);
    quota.settle(late, 2, clock.now() - 60_000);
    expect(quota.usage()).toEqual({ used: 2, limit: 90, resetAtMs: clock.now() - 60_000 + QUOTA_WINDOW_MS });
  });

  it('reads a missing, unreadable or far-future count as none', () => {
    const { store, quota, clock } = setup();
    store.values.set(FETCH_COUNT_KEY, '{oops');
    expect(quota.usage().used).toBe(0);
    store.values.set(FETCH_COUNT_KEY, JSON.stringify({ s: clock.now() + 2 * QUOTA_WINDOW_MS, n: 99 }));
    expect(quota.usage().used).toBe(0);
  });
});

describe('FetchQuota', () => {
  it('refuses before sending once the count would pass the quota, saying when it restarts', () => {
    const { fetches, quota, clock } = setup(20_000);
    quota.add(19_999);
    expect(() => fetches.spend(1)).not.toThrow();
    let refused: unknown;
    try {
      fetches.spend(1);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(FetchQuotaError);
    expect((refused as FetchQuotaError).local).toBe(true);
    expect((refused as Error).message).toBe(
      `Apps Script's daily quota of 20,000 URL fetches for this Google account is used up, so Engage was not asked: try again after 2026-11-23 12:00:00 UTC.`,
    );
    expect(quota.usage().used).toBe(20_000);
    clock.advance(QUOTA_WINDOW_MS);
    expect(() => fetches.spend(10)).not.toThrow();
  });

  it('leaves a fifth of the quota to formulas and the sidebar: scheduled runs stop at 80%', () => {
    const { fetches, quota } = setup(20_000);
    quota.add(15_990);
    expect(fetches.roomForScheduled(10)).toBe(true);
    expect(fetches.roomForScheduled(11)).toBe(false);
  });

  describe('written in batches, as an execution that is told its end counts', () => {
    /** One execution's counter over the shared store and lock. */
    const execution = (quota: DailyQuota, clock: ManualClock) => new FetchQuota(quota, clock, { saveEvery: FETCH_COUNT_SAVE_EVERY });

    it("writes an execution's first fetch at once and the rest every 20 calls and at its end: 6 reads and writes for 23 attempts", () => {
      const { quota, store, clock } = setup(20_000);
      const fetches = execution(quota, clock);
      fetches.spend(1);
      expect([store.gets, store.sets, quota.usage().used]).toEqual([1, 1, 1]);
      for (let i = 0; i < 19; i++) fetches.spend(1);
      expect(quota.usage().used).toBe(1); // 19 calls held in memory
      expect(fetches.usage().used).toBe(20); // but counted in what this execution plans with
      fetches.spend(1);
      expect(quota.usage().used).toBe(21);
      fetches.spend(10);
      fetches.spend(10);
      fetches.save(); // the execution's end
      const countOps = store.gets + store.sets - 3; // less the 3 reads of quota.usage() above
      expect(quota.usage().used).toBe(41);
      expect(countOps).toBe(6); // three locked reads and writes, where one per attempt took 2 x 23
    });

    it("loses no execution's calls to another's: each write adds its calls to the count read under the lock", () => {
      const { quota, clock } = setup(20_000);
      const [x, y, z] = [execution(quota, clock), execution(quota, clock), execution(quota, clock)];
      for (let i = 0; i < 25; i++) for (const e of [x, y, z]) e.spend(1 + (i % 3));
      for (const e of [x, y, z]) e.save();
      expect(quota.usage().used).toBe(3 * (9 * 1 + 8 * 2 + 8 * 3));
    });

    it("sees other executions' calls at its next write, and refuses once the count it read passes the quota", () => {
      const { quota, clock } = setup(100);
      const fetches = execution(quota, clock);
      fetches.spend(1);
      quota.add(70); // other executions meanwhile
      for (let i = 0; i < 20; i++) fetches.spend(1); // the 20th writes, and reads 91
      expect(fetches.usage().used).toBe(91);
      for (let i = 0; i < 9; i++) fetches.spend(1);
      expect(() => fetches.spend(1)).toThrow(FetchQuotaError);
      fetches.save();
      expect(quota.usage().used).toBe(100);
    });
  });
});
