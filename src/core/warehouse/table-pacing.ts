/**
 * BigQuery's per-table rate limit, kept by the add-on's client: the quotas page
 * (cloud.google.com/bigquery/quotas, Standard tables) allows "5 operations per 10 seconds" of table
 * metadata updates per table, and the output of load and copy jobs counts. A TablePacer remembers
 * when each of its client's jobs into a table was seen finished and, before the next, waits on the
 * Sleeper port until the 5th-latest is 10 s old. BigQuery counts a job when it runs, no later than
 * the client sees it finished, so the client's count is never behind BigQuery's. A wait that would
 * end past the run's deadline is not started: the run's loads stop with a RefreshDeferredError, the
 * day not sent, and the next run goes on from it.
 */
import { RefreshDeferredError } from '../errors';
import type { Clock, Sleeper } from '../ports';

/** BigQuery's per-table rate limit (quotas page, Standard tables): 5 jobs writing a table per 10 seconds. */
export const TABLE_JOBS_PER_WINDOW = 5;
export const TABLE_JOB_WINDOW_MS = 10_000;
/** Attempts of one job refused for the rate limit, the first included; each under a new job ID. */
export const RATE_LIMITED_JOB_ATTEMPTS = 4;
/**
 * The pause before a rate-limited job is sent again; it doubles each time (2, 4, 8 s): "retry the
 * operation after few seconds. Use exponential backoff" (cloud.google.com/bigquery/docs/troubleshoot-quotas).
 */
export const RATE_LIMITED_FIRST_DELAY_MS = 2_000;

export class TablePacer {
  /** When each job into a table ("project:dataset.table", no decorator) was seen finished: the latest TABLE_JOBS_PER_WINDOW. */
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly sleeper: Sleeper,
  ) {}

  /** Waits until one more job may write `table`: the TABLE_JOBS_PER_WINDOW-th latest into it TABLE_JOB_WINDOW_MS old. */
  waitTurn(table: string, operation: string, deadlineAtMs: number): void {
    const times = this.times.get(table) ?? [];
    if (times.length < TABLE_JOBS_PER_WINDOW) return;
    const freeAtMs = times[times.length - TABLE_JOBS_PER_WINDOW]! + TABLE_JOB_WINDOW_MS;
    this.waitUntil(freeAtMs, operation, deadlineAtMs, 'BigQuery takes at most 5 jobs into a table in 10 seconds');
  }

  /** A job into `table` is finished (or was refused) now. */
  seen(table: string): void {
    const times = [...(this.times.get(table) ?? []), this.clock.now()];
    this.times.set(table, times.slice(-TABLE_JOBS_PER_WINDOW));
  }

  /** Sleeps until `atMs`, or stops the run's loads (RefreshDeferredError) when that is past the deadline. */
  waitUntil(atMs: number, operation: string, deadlineAtMs: number, why: string): void {
    const waitMs = atMs - this.clock.now();
    if (waitMs <= 0) return;
    if (atMs > deadlineAtMs) {
      throw new RefreshDeferredError(`BigQuery, ${operation}: ${why}, and this run's time is up; the next run goes on from this day`);
    }
    this.sleeper.sleep(waitMs);
  }
}
