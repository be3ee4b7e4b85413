/**
 * A backfill across runs (src/core/warehouse/backfill.ts): a year of days loaded oldest first, the
 * cursor moving one loaded day at a time (never skipping a day, never passing one twice), the progress
 * the Schedules tab shows, and how many days a run takes from its time and request budget.
 */
import {
  backfillView,
  dayLoaded,
  daysForRun,
  LOAD_WINDOW_MS,
  loadCounted,
  LOADS_PER_WINDOW,
  loadsFreeAtMs,
  loadsLeft,
  startBackfill,
} from '../../../../src/core/warehouse/backfill';
import { planPass } from '../../../../src/core/destinations/bigquery/warehouse-refresh';

describe('a backfill', () => {
  it('starts at its first day, refusing days that are not days or run backwards, naming the argument', () => {
    expect(startBackfill('20250101', '20251231')).toEqual({ fromDay: '20250101', toDay: '20251231', nextDay: '20250101' });
    expect(() => startBackfill('20250230', '20251231')).toThrow("fromDate: '20250230' is not a day written yyyyMMdd");
    expect(() => startBackfill('20250101', '2025-12-31')).toThrow("toDate: '2025-12-31' is not a day written yyyyMMdd");
    expect(() => startBackfill('20250201', '20250131')).toThrow('toDate: 2025-01-31 is before the first day, 2025-02-01');
  });

  it('loads every day of a year exactly once, in order, and shows what is left', () => {
    let backfill = startBackfill('20240101', '20241231');
    expect(backfillView(backfill)).toEqual({ totalDays: 366, loadedDays: 0, leftDays: 366, nextDay: '2024-01-01', done: false });
    const loaded: string[] = [];
    while (backfill.nextDay !== undefined) {
      loaded.push(backfill.nextDay);
      backfill = dayLoaded(backfill, backfill.nextDay, { ms: 2_000, requests: 3 });
      if (loaded.length === 60)
        expect(backfillView(backfill)).toEqual({ totalDays: 366, loadedDays: 60, leftDays: 306, nextDay: '2024-03-01', done: false });
    }
    expect(loaded).toHaveLength(366);
    expect(new Set(loaded).size).toBe(366);
    expect(loaded[59]).toBe('20240229');
    expect(backfillView(backfill)).toEqual({ totalDays: 366, loadedDays: 366, leftDays: 0, done: true });
  });

  it('refuses to mark any day but the next: one loaded twice or one skipped', () => {
    const backfill = dayLoaded(startBackfill('20250101', '20250110'), '20250101', { ms: 1, requests: 1 });
    expect(() => dayLoaded(backfill, '20250101', { ms: 1, requests: 1 })).toThrow(
      'backfill: 20250101 is not the next day to load (20250102)',
    );
    expect(() => dayLoaded(backfill, '20250103', { ms: 1, requests: 1 })).toThrow(
      'backfill: 20250103 is not the next day to load (20250102)',
    );
  });
});

describe('daysForRun', () => {
  it('takes one day to learn the cost, then as many as the time and the requests left allow at the running average', () => {
    const fresh = startBackfill('20250101', '20251231');
    expect(daysForRun(fresh, { msLeft: 300_000, requestsLeft: 100 })).toBe(1);
    expect(daysForRun(fresh, { msLeft: 0, requestsLeft: 100 })).toBe(0);
    const measured = dayLoaded(fresh, '20250101', { ms: 20_000, requests: 4 });
    // 300 s at 20 s a day is 15 days; 100 requests at 4 a day is 25: time decides.
    expect(daysForRun(measured, { msLeft: 300_000, requestsLeft: 100 })).toBe(15);
    expect(daysForRun(measured, { msLeft: 300_000, requestsLeft: 30 })).toBe(7);
    expect(daysForRun(measured, { msLeft: 10_000, requestsLeft: 100 })).toBe(0);
    // A dearer day moves the average by 30 %: 20 s → 26 s.
    const dearer = dayLoaded(measured, '20250102', { ms: 40_000, requests: 4 });
    expect(dearer.msPerDay).toBeCloseTo(26_000);
    expect(daysForRun(dearer, { msLeft: 300_000, requestsLeft: 100 })).toBe(11);
  });

  it('never takes more days than are left, and none when the backfill is done', () => {
    let backfill = dayLoaded(startBackfill('20250101', '20250103'), '20250101', { ms: 1_000, requests: 1 });
    expect(daysForRun(backfill, { msLeft: 3_600_000, requestsLeft: 1_000 })).toBe(2);
    backfill = dayLoaded(dayLoaded(backfill, '20250102', { ms: 1_000, requests: 1 }), '20250103', { ms: 1_000, requests: 1 });
    expect(daysForRun(backfill, { msLeft: 3_600_000, requestsLeft: 1_000 })).toBe(0);
  });

  it(`counts the table's loads in a window of a day, at most ${LOADS_PER_WINDOW}, kept from day to day and pass to pass`, () => {
    // BigQuery's 1,500 load jobs per table per day, over a rolling day: two windows never pass it.
    expect(2 * LOADS_PER_WINDOW).toBeLessThan(1_500);
    const t0 = Date.parse('2026-11-20T06:00:00Z');
    let backfill = startBackfill('20200101', '20261119');
    expect(loadsLeft(backfill, t0)).toBe(LOADS_PER_WINDOW);
    for (let i = 0; i < LOADS_PER_WINDOW - 1; i++) {
      backfill = loadCounted(backfill, t0 + i * 1_000);
      backfill = dayLoaded(backfill, backfill.nextDay!, { ms: 1_000, requests: 0.1 });
    }
    // The window survives the cursor's moves.
    expect(backfill.window).toEqual({ startMs: t0, loads: LOADS_PER_WINDOW - 1 });
    expect(loadsLeft(backfill, t0 + 3_600_000)).toBe(1);
    expect(loadsFreeAtMs(backfill, t0 + 3_600_000)).toBeUndefined();
    backfill = loadCounted(backfill, t0 + 3_600_000);
    expect(loadsLeft(backfill, t0 + 3_600_000)).toBe(0);
    expect(loadsFreeAtMs(backfill, t0 + 3_600_000)).toBe(t0 + LOAD_WINDOW_MS);
    // A pass planned again keeps the window: the table is the same.
    expect(planPass(backfill, { fromDate: '20200101', toDate: '20261120' }).window).toEqual(backfill.window);
    // A day after the window began, a new one starts at the next load.
    expect(loadsLeft(backfill, t0 + LOAD_WINDOW_MS)).toBe(LOADS_PER_WINDOW);
    expect(loadCounted(backfill, t0 + LOAD_WINDOW_MS + 5).window).toEqual({ startMs: t0 + LOAD_WINDOW_MS + 5, loads: 1 });
    // A day's retried jobs count as many: three at once.
    expect(loadCounted(backfill, t0 + LOAD_WINDOW_MS + 5, 3).window).toEqual({ startMs: t0 + LOAD_WINDOW_MS + 5, loads: 3 });
  });
});
