/**
 * What BigQuery deletes by itself (src/core/warehouse/expiration.ts): day D's partition goes at D's UTC
 * midnight plus the partition expiration (Dataset.defaultPartitionExpirationMs, "The storage in a
 * partition will have an expiration time of its partition time plus this value",
 * cloud.google.com/bigquery/docs/reference/rest/v2/datasets); a new partitioned table takes the
 * dataset's default partition expiration and then ignores its default table expiration.
 */
import {
  expirationText,
  firstKeptDay,
  keptDaysBeforeToday,
  partitionExpiresAtMs,
  tableKeeping,
} from '../../../../src/core/warehouse/expiration';
import { withoutExpiredDays, backfillView, startBackfill } from '../../../../src/core/warehouse/backfill';

const DAY_MS = 86_400_000;
const SIXTY_DAYS_MS = 60 * DAY_MS;

describe('partition expiry', () => {
  it("a day's partition goes at its UTC midnight plus the expiration", () => {
    expect(new Date(partitionExpiresAtMs('20260101', SIXTY_DAYS_MS)).toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });

  it('keeps the days whose midnight plus 60 days is still ahead: 60 days today included, from 59 days ago', () => {
    const now = Date.parse('2026-11-20T05:30:00Z');
    // 2026-09-22 + 60 days = 2026-11-21 00:00, still ahead; 2026-09-21 + 60 days = 2026-11-20 00:00, already past.
    expect(firstKeptDay(SIXTY_DAYS_MS, now)).toBe('20260922');
    // At the very last millisecond of a day and the first of the next.
    expect(firstKeptDay(SIXTY_DAYS_MS, Date.parse('2026-11-20T23:59:59.999Z'))).toBe('20260922');
    expect(firstKeptDay(SIXTY_DAYS_MS, Date.parse('2026-11-21T00:00:00.000Z'))).toBe('20260923');
  });

  it('a day may be 59 days before today and last the whole day with 60 days; fewer with part of a day more or less', () => {
    expect(keptDaysBeforeToday(SIXTY_DAYS_MS)).toBe(59);
    expect(keptDaysBeforeToday(SIXTY_DAYS_MS + DAY_MS / 2)).toBe(59);
    expect(keptDaysBeforeToday(SIXTY_DAYS_MS - 1)).toBe(58);
    expect(keptDaysBeforeToday(DAY_MS)).toBe(0);
    expect(keptDaysBeforeToday(DAY_MS / 2)).toBe(-1);
  });

  it('the oldest day kept at any time of today is the one keptDaysBeforeToday allows', () => {
    for (const expiration of [SIXTY_DAYS_MS, 7 * DAY_MS + 3_600_000, 90 * DAY_MS - 1]) {
      const kept = keptDaysBeforeToday(expiration);
      const endOfToday = Date.parse('2026-11-20T23:59:59.999Z');
      const oldest = new Date(Date.parse('2026-11-20T00:00:00Z') - kept * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
      expect(partitionExpiresAtMs(oldest, expiration)).toBeGreaterThan(endOfToday);
      const older = new Date(Date.parse('2026-11-20T00:00:00Z') - (kept + 1) * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
      expect(partitionExpiresAtMs(older, expiration)).toBeLessThanOrEqual(endOfToday);
    }
  });

  it('says an expiration as days, or hours when it is not whole days', () => {
    expect(expirationText(SIXTY_DAYS_MS)).toBe('60 days');
    expect(expirationText(DAY_MS)).toBe('1 day');
    expect(expirationText(36 * 3_600_000)).toBe('36 hours');
  });
});

describe('tableKeeping', () => {
  it("takes an existing table's own expirations, whatever the dataset's defaults", () => {
    expect(tableKeeping({ defaultPartitionExpirationMs: SIXTY_DAYS_MS }, { expirationTimeMs: 123 })).toEqual({
      tableExpiresAtMs: 123,
      from: 'table',
    });
  });

  it("gives a table to make the dataset's partition expiration, and then no table expiration (the sandbox's 60 days)", () => {
    expect(tableKeeping({ defaultPartitionExpirationMs: SIXTY_DAYS_MS, defaultTableExpirationMs: SIXTY_DAYS_MS }, undefined)).toEqual({
      partitionExpirationMs: SIXTY_DAYS_MS,
      from: 'dataset',
    });
    expect(tableKeeping({ defaultTableExpirationMs: SIXTY_DAYS_MS }, undefined)).toEqual({
      tableLifetimeMs: SIXTY_DAYS_MS,
      from: 'dataset',
    });
    expect(tableKeeping({}, undefined)).toEqual({ from: 'dataset' });
  });
});

describe('withoutExpiredDays', () => {
  it('starts the pass at the first kept day, counting none of the days before as loaded', () => {
    const pass = { ...startBackfill('20260101', '20260310'), nextDay: '20260201' };
    const cut = withoutExpiredDays(pass, '20260115');
    expect(cut).toMatchObject({ fromDay: '20260115', nextDay: '20260201', toDay: '20260310', expiredBefore: '20260115' });
    expect(backfillView(cut)).toMatchObject({ loadedDays: 17, totalDays: 55 });
    // A cursor before the first kept day moves to it: nothing before it is loaded.
    expect(withoutExpiredDays(startBackfill('20260101', '20260310'), '20260115').nextDay).toBe('20260115');
  });

  it('leaves a pass whose days are all kept as it is, and one whose days are all gone with none left and none loaded', () => {
    const pass = startBackfill('20260101', '20260110');
    expect(withoutExpiredDays(pass, '20260101')).toBe(pass);
    const gone = withoutExpiredDays(pass, '20260201');
    expect(gone.nextDay).toBeUndefined();
    expect(backfillView(gone)).toMatchObject({ totalDays: 0, loadedDays: 0, done: true });
  });
});
