/**
 * A period whose older days a partition expiration would delete is refused at save
 * (src/core/destinations/bigquery/expiring-periods.ts): with 60 days (the BigQuery sandbox's), the last
 * 59 whole days are kept (60 with today), this month is, last month (up to 61 days old) is not, and a
 * period since a day or between fixed days, whose days stay for good, is not either.
 */
import { checkPeriodKept, oldestDayAge } from '../../../../../src/core/destinations/bigquery/expiring-periods';
import type { TableKeeping } from '../../../../../src/core/warehouse/expiration';

const DAY_MS = 86_400_000;
const SANDBOX: TableKeeping = { partitionExpirationMs: 60 * DAY_MS, from: 'dataset' };
const TABLE = 'p.d.t';

describe('oldestDayAge', () => {
  it('follows each period to its oldest moment', () => {
    expect(oldestDayAge({ type: 'lastDays', days: 59, endingYesterday: true })).toBe(59);
    expect(oldestDayAge({ type: 'lastDays', days: 60 })).toBe(59);
    expect(oldestDayAge({ type: 'thisMonth' })).toBe(30);
    expect(oldestDayAge({ type: 'lastMonth' })).toBe(61);
    expect(oldestDayAge({ type: 'since', fromDate: '20260101' })).toBe(Number.POSITIVE_INFINITY);
    expect(oldestDayAge({ type: 'fixed', fromDate: '20260101', toDate: '20260105' })).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('checkPeriodKept', () => {
  it('refuses 365 days into a dataset keeping partitions 60 days, naming bigquery and the limit', () => {
    expect(() => checkPeriodKept({ type: 'lastDays', days: 365, endingYesterday: true }, SANDBOX, TABLE)).toThrow(
      "bigquery: this dataset keeps partitions 60 days, so BigQuery would delete the older days of the last 365 days while they are still in it: choose at most the last 59 days, or the last 60 days with today, or raise the dataset's default partition expiration (or remove it)",
    );
  });

  it('takes the last 59 whole days, or 60 with today, and refuses one more', () => {
    expect(() => checkPeriodKept({ type: 'lastDays', days: 59, endingYesterday: true }, SANDBOX, TABLE)).not.toThrow();
    expect(() => checkPeriodKept({ type: 'lastDays', days: 60 }, SANDBOX, TABLE)).not.toThrow();
    expect(() => checkPeriodKept({ type: 'lastDays', days: 60, endingYesterday: true }, SANDBOX, TABLE)).toThrow(/^bigquery: /);
    expect(() => checkPeriodKept({ type: 'lastDays', days: 61 }, SANDBOX, TABLE)).toThrow(/^bigquery: /);
  });

  it('takes this month, refuses last month, a period since a day and a fixed one', () => {
    expect(() => checkPeriodKept({ type: 'thisMonth' }, SANDBOX, TABLE)).not.toThrow();
    expect(() => checkPeriodKept({ type: 'lastMonth' }, SANDBOX, TABLE)).toThrow(/older days of last month/);
    expect(() => checkPeriodKept({ type: 'since', fromDate: '20261101' }, SANDBOX, TABLE)).toThrow(
      /since 20261101 \(its days stay in it for good\)/,
    );
    expect(() => checkPeriodKept({ type: 'fixed', fromDate: '20261101', toDate: '20261102' }, SANDBOX, TABLE)).toThrow(/fixed period/);
    // 62 days keep last month too.
    expect(() => checkPeriodKept({ type: 'lastMonth' }, { partitionExpirationMs: 62 * DAY_MS, from: 'dataset' }, TABLE)).not.toThrow();
  });

  it("names an existing table's own partition expiration", () => {
    expect(() =>
      checkPeriodKept({ type: 'lastDays', days: 30, endingYesterday: true }, { partitionExpirationMs: 7 * DAY_MS, from: 'table' }, TABLE),
    ).toThrow(
      /^bigquery: the table p\.d\.t keeps partitions 7 days, .*choose at most the last 6 days, .*raise the table's partition expiration/,
    );
  });

  it('refuses every period when a partition may go within its own day, and none without a partition expiration', () => {
    expect(() => checkPeriodKept({ type: 'lastDays', days: 1 }, { partitionExpirationMs: 12 * 3_600_000, from: 'dataset' }, TABLE)).toThrow(
      /keeps partitions 12 hours, so a day's partition is deleted before the next day is loaded/,
    );
    expect(() =>
      checkPeriodKept({ type: 'since', fromDate: '20200101' }, { tableLifetimeMs: 60 * DAY_MS, from: 'dataset' }, TABLE),
    ).not.toThrow();
  });
});
