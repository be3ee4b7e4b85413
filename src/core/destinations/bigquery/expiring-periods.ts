/**
 * A period whose older days BigQuery would delete is refused at save. Day D's partition goes at D's
 * UTC midnight plus the partition expiration (warehouse/expiration.ts), so a period is kept whole only
 * if its oldest day is never older than that while it is still in the period: the last N days move on
 * one day a day, and with 60 days at most the last 59 whole days (60 with today) are kept to the end of
 * every day; this month's first day is up to 30 days old on the 31st, last month's up to 61 days (on
 * the 31st of a month after a 31-day month); a period since a day, or between fixed days, keeps its
 * days for good, and a partition expiration deletes them at last. A table that will itself expire is
 * not refused (the BigQuery sandbox gives every new table 60 days): the Schedules tab says when it goes.
 */
import { ValidationError } from '../../errors';
import { keptDaysBeforeToday, expirationText, type TableKeeping } from '../../warehouse/expiration';
import type { Period } from '../../schedules/saved/period';

/** The most days before today that the period's oldest day reaches while it is in the period; Infinity when it stays for good. */
export function oldestDayAge(period: Period): number {
  switch (period.type) {
    case 'lastDays':
      return period.endingYesterday ? period.days : period.days - 1;
    case 'thisMonth':
      return 30;
    case 'lastMonth':
      return 61;
    case 'lastHours':
      return 1;
    case 'since':
    case 'fixed':
      return Number.POSITIVE_INFINITY;
  }
}

/** "the last 365 days", "last month" … as the refusal names the period. */
function periodWords(period: Period): string {
  switch (period.type) {
    case 'lastDays':
      return `the last ${period.days} days${period.endingYesterday ? '' : ' (today included)'}`;
    case 'thisMonth':
      return "this month (its first day is 30 days old on a month's 31st)";
    case 'lastMonth':
      return 'last month (its first day is up to 61 days old before the period moves on)';
    case 'lastHours':
      return `the last ${period.hours} hours`;
    case 'since':
      return `a period since ${period.fromDate} (its days stay in it for good)`;
    case 'fixed':
      return `a fixed period (its days stay in it for good)`;
  }
}

/**
 * Refuses, naming `bigquery` and the limit, a period some of whose days BigQuery would delete while they
 * are still in it, given what BigQuery keeps of the table (its own partition expiration, or the
 * dataset's default for the table the add-on will make). Nothing is refused without a partition expiration.
 */
export function checkPeriodKept(period: Period | undefined, keeping: TableKeeping, tableName: string): void {
  const expirationMs = keeping.partitionExpirationMs;
  if (period === undefined || expirationMs === undefined) return;
  const kept = keptDaysBeforeToday(expirationMs);
  if (oldestDayAge(period) <= kept) return;
  const whose = keeping.from === 'table' ? `the table ${tableName}` : 'this dataset';
  const raise =
    keeping.from === 'table'
      ? "raise the table's partition expiration (or remove it)"
      : "raise the dataset's default partition expiration (or remove it)";
  const keeps = `${whose} keeps partitions ${expirationText(expirationMs)}`;
  if (kept < 1) {
    throw ValidationError.single('bigquery', `${keeps}, so a day's partition is deleted before the next day is loaded: ${raise}`);
  }
  const allowed = `at most the last ${kept} days, or the last ${kept + 1} days with today`;
  throw ValidationError.single(
    'bigquery',
    `${keeps}, so BigQuery would delete the older days of ${periodWords(period)} while they are still in it: choose ${allowed}, or ${raise}`,
  );
}
