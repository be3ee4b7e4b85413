/**
 * BigQuery's short-term per-table rate limit on the jobs that write a table, counted per stand-in on
 * the emulator's clock. The quotas page (https://cloud.google.com/bigquery/quotas, Standard tables)
 * gives "Maximum rate of table metadata update operations per table: 5 operations per 10 seconds",
 * which covers job output (load and copy jobs appending to or overwriting the table; an earlier
 * revision wrote it "1 operation every 2 seconds (insert, patch, update, jobs output)"). Over it,
 * BigQuery says "Exceeded rate limits: too many table update operations for this table", reason
 * rateLimitExceeded, "a short-term limit" to retry "after few seconds" with exponential backoff
 * (https://cloud.google.com/bigquery/docs/troubleshoot-quotas, Overview).
 *
 * Where it answers: the destination table is known when the job runs, so a job past the limit ends
 * DONE with that status.errorResult, as the per-table daily quotas do (quotas.ts). BigQuery users meet
 * it so: load jobs whose result() raises "403 Exceeded rate limits: too many table update operations
 * for this table" (googleapis/python-bigquery#969; the client turns a job's errorResult into a 403).
 * Whether BigQuery may also refuse jobs.insert itself with an HTTP 403 is UNCONFIRMED (README.md); a
 * test makes that answer with an `http` fault. A refused job counts in the window too, the stricter
 * reading (UNCONFIRMED): a client retrying at once stays refused.
 */

/** What a test may set (POST /__admin/bigquery/rate-limits); null switches the limit off. */
export interface RateLimits {
  /** 5: "Maximum rate of table metadata update operations per table", per RATE_WINDOW_MS. */
  tableOperationsPer10Seconds: number | null;
}

export const DOCUMENTED_RATE_LIMITS: Readonly<RateLimits> = Object.freeze({ tableOperationsPer10Seconds: 5 });

/** The window of the per-table rate limit: 10 seconds. */
export const RATE_WINDOW_MS = 10_000;

/** BigQuery's words over the limit (troubleshoot-quotas page, Overview), with the pointer its quota messages carry. */
export const RATE_LIMIT_MESSAGE =
  'Exceeded rate limits: too many table update operations for this table. For more information, see https://cloud.google.com/bigquery/docs/troubleshoot-quotas';

/** The times of the jobs that ran into each table ("project:dataset.table", no decorator) within the window. */
export class TableRateLimiter {
  limits: RateLimits = { ...DOCUMENTED_RATE_LIMITS };
  private readonly runs = new Map<string, number[]>();

  reset(): void {
    this.limits = { ...DOCUMENTED_RATE_LIMITS };
    this.runs.clear();
  }

  /** The jobs that ran into `key` in the RATE_WINDOW_MS ending at `nowMs` (a job exactly 10 s old is out). */
  recent(key: string, nowMs: number): number {
    const live = (this.runs.get(key) ?? []).filter((atMs) => atMs > nowMs - RATE_WINDOW_MS);
    this.runs.set(key, live);
    return live.length;
  }

  /**
   * Counts a job into `key` at `nowMs` and says whether it is past the limit (it then fails, and is
   * counted all the same).
   */
  admit(key: string, nowMs: number): boolean {
    const limit = this.limits.tableOperationsPer10Seconds;
    const recent = this.recent(key, nowMs);
    // recent() has set the key's list.
    this.runs.get(key)!.push(nowMs);
    return limit === null || recent < limit;
  }

  /** Every table's jobs in the window now, for the admin API. */
  usage(nowMs: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const key of [...this.runs.keys()].sort()) {
      const n = this.recent(key, nowMs);
      if (n > 0) out[key] = n;
    }
    return out;
  }
}
