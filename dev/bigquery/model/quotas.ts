/**
 * BigQuery's daily quotas that the add-on's load and copy jobs can meet, counted per stand-in (one per
 * emulator instance) on the emulator's clock. Every figure names its source below and in README.md.
 *
 * How "per day" is counted: BigQuery's pages do not describe a midnight reset. The quotas page says
 * daily quotas "are replenished at regular intervals throughout the day" (Quota replenishment), and
 * the optimize-load-jobs page that the project-level load-job limit "refills within a rolling 24-hour
 * period" and that used quota "gradually refills over the next 24 hours". The stand-in counts every
 * limit over a rolling 24-hour window that ends now: a use comes back exactly 24 hours after it was
 * made, never sooner. That is at least as strict as any reading of those pages (a reset at Pacific
 * midnight, or a gradual refill, gives quota back sooner, never later).
 *
 * Where each limit is checked, and how it answers (https://cloud.google.com/bigquery/docs/troubleshoot-quotas,
 * Overview: a quota error is reason quotaExceeded, HTTP 403 when the API call itself is refused):
 * the per-project job counts at jobs.insert, as a 403 quotaExceeded before any job exists; the
 * per-table counts when the job runs, as the finished job's status.errorResult with reason
 * quotaExceeded (the job answered DONE), because only then is its destination table known to exist
 * and its partitions known. A job refused at jobs.insert is no job and counts nothing; a job that ran
 * and failed (a bad row, a fault, a quota) counts, as the optimize-load-jobs page says failed load
 * jobs do ("Failed load jobs still count toward both per-table and per-project quotas").
 */

/** The limits a test may lower (POST /__admin/bigquery/quotas), with their documented values. */
export interface QuotaLimits {
  /**
   * 1,500: "Load jobs per table per day", https://cloud.google.com/bigquery/quotas#load_jobs (failed
   * load jobs count). Held for every table, partitioned or not: see tableOperationsPerTablePerDay.
   */
  loadJobsPerTablePerDay: number;
  /**
   * 1,500: "Number of table operations per day", https://cloud.google.com/bigquery/quotas#standard_tables,
   * the combined total of load, copy and query jobs that append to or overwrite a destination table
   * (also https://cloud.google.com/bigquery/docs/optimize-load-jobs, "How table operations quotas
   * work"). That page says that for partitioned tables the partition-modification limit applies
   * "replacing the standard table limit"; the stand-in holds both on a partitioned table, the
   * stricter reading (UNCONFIRMED in README.md). The add-on sends at most 700 loads into a table in a
   * day (src/core/warehouse/backfill.ts), so it meets neither reading.
   */
  tableOperationsPerTablePerDay: number;
  /**
   * 30,000: "Number of partition modifications per column-partitioned table per day",
   * https://cloud.google.com/bigquery/quotas#partitioned_tables (each partition a job writes is one
   * modification). Counted for tables partitioned by a column; ingestion-time partitioning is not
   * modelled for quotas (the add-on never makes such a table).
   */
  partitionModificationsPerTablePerDay: number;
  /**
   * 1,000: "Copy jobs per destination table per day (including failures)", as earlier revisions of
   * https://cloud.google.com/bigquery/quotas#copy_jobs gave it. The revision read for this stand-in
   * names no same-region figure of its own (copies count as table operations); the stand-in keeps the
   * 1,000 as well, the stricter reading (UNCONFIRMED in README.md). The add-on makes one copy per
   * staged day.
   */
  copyJobsPerDestinationTablePerDay: number;
  /** 100,000: "Load jobs per day" (per project), https://cloud.google.com/bigquery/quotas#load_jobs; failed load jobs count. */
  loadJobsPerProjectPerDay: number;
  /** 100,000: "Copy jobs per day" (per project), https://cloud.google.com/bigquery/quotas#copy_jobs; failed copy jobs count. */
  copyJobsPerProjectPerDay: number;
}

export const DOCUMENTED_QUOTAS: Readonly<QuotaLimits> = Object.freeze({
  loadJobsPerTablePerDay: 1_500,
  tableOperationsPerTablePerDay: 1_500,
  partitionModificationsPerTablePerDay: 30_000,
  copyJobsPerDestinationTablePerDay: 1_000,
  loadJobsPerProjectPerDay: 100_000,
  copyJobsPerProjectPerDay: 100_000,
});

/** The window every daily quota is counted over (see the file's opening). */
export const QUOTA_WINDOW_MS = 24 * 3_600_000;

/**
 * What BigQuery says over each limit. The table messages are those BigQuery users report
 * (elementary-data/elementary#382 for imports, m-lab/etl-gardener#272 and mozilla/bigquery-etl#8258
 * for partition modifications); the table-copy, project and copy wordings are the stand-in's own (UNCONFIRMED).
 */
export const QUOTA_MESSAGES = {
  tableImports:
    'Quota exceeded: Your table exceeded quota for imports or query appends per table. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas',
  partitionModifications:
    'Quota exceeded: Your table exceeded quota for Number of partition modifications to a column partitioned table. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas',
  tableCopies:
    'Quota exceeded: Your table exceeded quota for table operations (copies, imports or query appends) per table. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas',
  projectLoads:
    'Quota exceeded: Your project exceeded quota for imports per project. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas',
  projectCopies:
    'Quota exceeded: Your project exceeded quota for copies per project. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas',
} as const;

interface Use {
  atMs: number;
  weight: number;
}

/** Uses per key ("load:project:dataset.table" and so on) over the rolling window, and the limits in force. */
export class QuotaLedger {
  limits: QuotaLimits = { ...DOCUMENTED_QUOTAS };
  private readonly uses = new Map<string, Use[]>();

  reset(): void {
    this.limits = { ...DOCUMENTED_QUOTAS };
    this.uses.clear();
  }

  /** The weight used under `key` in the 24 hours before `nowMs` (older uses are dropped). */
  used(key: string, nowMs: number): number {
    const list = this.uses.get(key);
    if (!list) return 0;
    const live = list.filter((use) => use.atMs > nowMs - QUOTA_WINDOW_MS);
    this.uses.set(key, live);
    return live.reduce((sum, use) => sum + use.weight, 0);
  }

  record(key: string, nowMs: number, weight = 1): void {
    if (weight <= 0) return;
    const list = this.uses.get(key) ?? [];
    list.push({ atMs: nowMs, weight });
    this.uses.set(key, list);
  }

  /** Every key's use now, for the admin API. */
  usage(nowMs: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const key of [...this.uses.keys()].sort()) {
      const used = this.used(key, nowMs);
      if (used > 0) out[key] = used;
    }
    return out;
  }
}

export const tableKey = (projectId: string, datasetId: string, tableId: string) => `${projectId}:${datasetId}.${tableId}`;
