/**
 * What BigQuery deletes by itself, and when, for a report's table: its partitions and the table
 * itself. A dataset's `defaultPartitionExpirationMs` is given to each new partitioned table as its
 * `timePartitioning.expirationMs`, and "the storage in a partition will have an expiration time of
 * its partition time plus this value"; when it is set, the dataset's `defaultTableExpirationMs` is
 * ignored for a new partitioned table, which then has no expiration of its own; a dataset without
 * it gives each new table an `expirationTime` of its creation plus `defaultTableExpirationMs`
 * (Dataset, cloud.google.com/bigquery/docs/reference/rest/v2/datasets; Table.expirationTime and
 * TimePartitioning.expirationMs, .../rest/v2/tables; a table's own values are what count once it
 * exists, "changing the value will only affect new tables"). The partition time of a DAY partition is
 * its UTC midnight (cloud.google.com/bigquery/docs/partitioned-tables), so day D's partition is gone
 * from D's midnight plus the expiration. The BigQuery sandbox sets 60 days for both
 * (cloud.google.com/bigquery/docs/sandbox, Limitations).
 */
import { dayAfter, formatDay, MS_PER_DAY, MS_PER_HOUR, utcDayOf, compactDayOf, utcMidnightMs } from '../util/dates';
import { formatCount } from '../util/text';

/** What datasets.get tells of a dataset: where it is, and what it gives new tables. */
export interface DatasetInfo {
  /** '' when BigQuery gave none. */
  location: string;
  defaultPartitionExpirationMs?: number;
  defaultTableExpirationMs?: number;
}

/** What BigQuery will delete of a report's table: each partition after `partitionExpirationMs`, the table at `tableExpiresAtMs`. */
export interface TableKeeping {
  partitionExpirationMs?: number;
  /** When the table itself goes (epoch ms): its expirationTime, or for a table not made yet, none known. */
  tableExpiresAtMs?: number;
  /** A table not made yet: how long after its creation it will go (the dataset's default table expiration). */
  tableLifetimeMs?: number;
  /** Whose setting it is: the existing table's, or the dataset's defaults for the table the add-on will make. */
  from: 'table' | 'dataset';
}

/** The table's own expirations when it exists, else what the dataset will give the partitioned table the add-on makes. */
export function tableKeeping(
  dataset: Pick<DatasetInfo, 'defaultPartitionExpirationMs' | 'defaultTableExpirationMs'>,
  table: { partitionExpirationMs?: number; expirationTimeMs?: number } | undefined,
): TableKeeping {
  if (table) {
    return {
      ...(table.partitionExpirationMs !== undefined ? { partitionExpirationMs: table.partitionExpirationMs } : {}),
      ...(table.expirationTimeMs !== undefined ? { tableExpiresAtMs: table.expirationTimeMs } : {}),
      from: 'table',
    };
  }
  const partition = dataset.defaultPartitionExpirationMs;
  return {
    ...(partition !== undefined ? { partitionExpirationMs: partition } : {}),
    // "If defaultPartitionExpirationMs is set, the defaultTableExpirationMs value is ignored" for a new partitioned table.
    ...(partition === undefined && dataset.defaultTableExpirationMs !== undefined
      ? { tableLifetimeMs: dataset.defaultTableExpirationMs }
      : {}),
    from: 'dataset',
  };
}

/** When day `day`'s (yyyyMMdd) partition is deleted: its partition time, UTC midnight, plus the expiration. */
export function partitionExpiresAtMs(day: string, partitionExpirationMs: number): number {
  return utcMidnightMs(compactDayOf(day)) + partitionExpirationMs;
}

/** The oldest day (yyyyMMdd) whose partition is still kept at `nowMs`: every earlier day's is gone already. */
export function firstKeptDay(partitionExpirationMs: number, nowMs: number): string {
  // Day D is kept while midnight(D) + expiration > now, that is from the day after the one holding now - expiration.
  return dayAfter(formatDay(utcDayOf(nowMs - partitionExpirationMs)), 1);
}

/**
 * How many days before today a day may be and still be kept until today ends, at any time of day:
 * midnight(today - n) + expiration must reach tomorrow's midnight. 59 for 60 days; -1 when even
 * today's partition may go before the day is over.
 */
export function keptDaysBeforeToday(partitionExpirationMs: number): number {
  return Math.floor((partitionExpirationMs - MS_PER_DAY) / MS_PER_DAY);
}

/** "60 days", "36 hours": an expiration as a person reads it. */
export function expirationText(ms: number): string {
  if (ms % MS_PER_DAY === 0) return `${formatCount(ms / MS_PER_DAY)} day${ms === MS_PER_DAY ? '' : 's'}`;
  const hours = Math.round((ms / MS_PER_HOUR) * 10) / 10;
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}
