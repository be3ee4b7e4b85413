/**
 * What BigQuery deletes by itself, on the emulator's clock. A dataset's defaults are given to each new
 * table: `defaultPartitionExpirationMs` becomes a new partitioned table's `timePartitioning.expirationMs`
 * ("When new time-partitioned tables are created in a dataset where this property is set, the table
 * will inherit this value ... if defaultPartitionExpirationMs is set, the defaultTableExpirationMs
 * value is ignored and the table will not inherit a table expiration deadline"), and
 * `defaultTableExpirationMs` any other new table's `expirationTime`, its creation plus that value
 * (Dataset, https://cloud.google.com/bigquery/docs/reference/rest/v2/datasets). A partition goes at its
 * partition time plus `timePartitioning.expirationMs` ("The storage in a partition will have an
 * expiration time of its partition time plus this value"; TimePartitioning.expirationMs,
 * https://cloud.google.com/bigquery/docs/reference/rest/v2/tables; the partition time of a DAY
 * partition is its UTC midnight, https://cloud.google.com/bigquery/docs/partitioned-tables), and a
 * table at its `expirationTime` ("When the expiration time is reached, the table will be deleted").
 * The BigQuery sandbox sets 60 days for both defaults (https://cloud.google.com/bigquery/docs/sandbox,
 * Limitations): `SANDBOX_EXPIRATION_MS`.
 */
import type { TimePartitioning } from './naming';

/** What a dataset gives its new tables (state.ts's StoredDataset has these). */
interface DatasetDefaults {
  defaultPartitionExpirationMs?: number;
  defaultTableExpirationMs?: number;
}

/** What expires of a table (state.ts's StoredTable): its partitions, by yyyymmdd key, and the table at extra.expirationTime. */
interface ExpiringTable {
  timePartitioning?: TimePartitioning;
  extra: Record<string, unknown>;
  partitions: Map<string, unknown>;
}

export const DAY_MS = 86_400_000;
/**
 * The most a multipart upload may carry, envelope included: 10 MB (10,000,000 bytes). The multipart
 * upload is "for quick transfer of smaller files" and resumable for larger ones
 * (https://cloud.google.com/bigquery/docs/reference/api-uploads); no page gives a maximum, so the
 * stand-in takes the stricter reading (README: "Readings no page settles"). Kept here, beside the
 * other limits a test may move, as BigQueryState's default.
 */
export const MULTIPART_UPLOAD_MAX_BYTES = 10_000_000;
/** The sandbox's default table and partition expiration: 60 days. */
export const SANDBOX_EXPIRATION_MS = 60 * DAY_MS;

/** A new table's expirations as its dataset's defaults give them, unless the table names its own. */
export function withDatasetDefaults<T extends ExpiringTable>(dataset: DatasetDefaults, table: T, nowMs: number): T {
  const partition = dataset.defaultPartitionExpirationMs;
  if (table.timePartitioning && partition !== undefined && table.timePartitioning.expirationMs === undefined) {
    table.timePartitioning = { ...table.timePartitioning, expirationMs: String(partition) };
  }
  const partitionedWithDefault = table.timePartitioning !== undefined && partition !== undefined;
  if (!partitionedWithDefault && dataset.defaultTableExpirationMs !== undefined && table.extra.expirationTime === undefined) {
    table.extra = { ...table.extra, expirationTime: String(nowMs + dataset.defaultTableExpirationMs) };
  }
  return table;
}

/** Midnight UTC of a yyyymmdd partition key, or undefined for any other key (__NULL__, __UNPARTITIONED__, 'null'). */
function partitionTimeMs(key: string): number | undefined {
  if (!/^\d{8}$/.test(key)) return undefined;
  return Date.UTC(Number(key.slice(0, 4)), Number(key.slice(4, 6)) - 1, Number(key.slice(6, 8)));
}

/** Deletes the table's DAY partitions whose partition time plus timePartitioning.expirationMs has passed. */
export function expirePartitions(table: ExpiringTable, nowMs: number): void {
  const expirationMs = Number(table.timePartitioning?.expirationMs);
  if (table.timePartitioning?.expirationMs === undefined || !Number.isFinite(expirationMs) || expirationMs <= 0) return;
  for (const key of [...table.partitions.keys()]) {
    const startMs = partitionTimeMs(key);
    if (startMs !== undefined && startMs + expirationMs <= nowMs) table.partitions.delete(key);
  }
}

/** Whether a table's expirationTime (epoch ms) has passed. */
export function tableExpired(table: ExpiringTable, nowMs: number): boolean {
  const expiresAtMs = Number(table.extra.expirationTime);
  return table.extra.expirationTime !== undefined && Number.isFinite(expiresAtMs) && expiresAtMs <= nowMs;
}
