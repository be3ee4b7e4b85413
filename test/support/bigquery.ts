/**
 * The BigQuery stand-in of an emulator instance (dev/bigquery), for tests. The stand-in runs on the
 * emulator's own port, under Google's paths, so `bigQueryOf(emulator)` needs no server of its own:
 * it gives the root a client uses in place of https://bigquery.googleapis.com and typed helpers over
 * /__admin/bigquery. Each `newEmulator()` instance has its own datasets, tables, jobs and faults.
 *
 *   const emulator = await newEmulator();
 *   const bigquery = bigQueryOf(emulator);
 *   await bigquery.createDataset('my-project', 'engage', 'EU');
 *   // ... the add-on loads through `${bigquery.rootUrl}/upload/bigquery/v2/projects/my-project/jobs?uploadType=multipart`
 *   const { rows } = await bigquery.table('my-project', 'engage', 'daily');
 */
import type { QuotaLimits } from '../../dev/bigquery/model/quotas';
import type { EmulatorHandle } from './emulator';

export interface BigQueryTableContents {
  /** The Table resource, as tables.get answers it. */
  table: Record<string, any>;
  /** The stored rows (all of them, or the `partition` asked for), values as loaded. */
  rows: Record<string, unknown>[];
  /** Rows per partition: yyyymmdd, '__NULL__', '__UNPARTITIONED__', or 'null' for an unpartitioned table. */
  partitions: Record<string, number>;
}

export interface BigQueryHandle {
  /** Stands for https://bigquery.googleapis.com: add /bigquery/v2/... or /upload/bigquery/v2/... */
  rootUrl: string;
  adminUrl: string;
  reset(): Promise<void>;
  /**
   * Makes a dataset; `defaults` gives new tables its expirations (ms), `{ sandbox: true }` the BigQuery
   * sandbox's 60 days of both (dev/bigquery/model/expiration.ts).
   */
  createDataset(projectId: string, datasetId: string, location: string, defaults?: DatasetDefaults): Promise<void>;
  /** Null when the table does not exist. */
  table(projectId: string, datasetId: string, tableId: string, partition?: string): Promise<BigQueryTableContents | null>;
  /** Every job (Job resources, plus dataBytes and pollsLeft), oldest first. */
  jobs(): Promise<Record<string, any>[]>;
  /** The next `times` load jobs end DONE with an errorResult (reason backendError unless given) and load nothing. */
  failNextLoads(times: number, reason?: 'backendError' | 'invalid' | 'stopped', after?: number): Promise<void>;
  /**
   * The next `times` requests (matching `match`, a regex on "METHOD path?query") are answered `status`
   * in BigQuery's shape: backendError for a 5xx; for a 403 give `reason` rateLimitExceeded or quotaExceeded.
   */
  failNextRequests(
    status: 403 | 500 | 502 | 503,
    times: number,
    match?: string,
    reason?: 'backendError' | 'rateLimitExceeded' | 'quotaExceeded',
  ): Promise<void>;
  clearFaults(): Promise<void>;
  /** New jobs answer PENDING for `pending` jobs.get polls, then RUNNING for `running`, then DONE. */
  setJobPolls(pending: number, running: number): Promise<void>;
  /** The stand-in's request log: method, path, query, authorization, contentType, bodyBytes, status, time. */
  requests(): Promise<Record<string, any>[]>;
  /**
   * Lowers (or raises) daily quotas (dev/bigquery/model/quotas.ts) so that a test reaches one in a few calls;
   * what was used so far still counts. Answers the limits in force and the use per counter.
   */
  setQuotas(limits: Partial<BigQueryQuotaLimits>): Promise<BigQueryQuotas>;
  quotas(): Promise<BigQueryQuotas>;
  /** Back to the documented limits, and nothing used. */
  resetQuotas(): Promise<BigQueryQuotas>;
  /**
   * Sets the per-table rate limit (dev/bigquery/model/rate.ts: 5 jobs into a table per 10 s, documented):
   * a number lowers it, null switches it off (for tests that load many jobs at a frozen clock).
   */
  setTableRateLimit(jobsPer10Seconds: number | null): Promise<BigQueryRateLimits>;
  rateLimits(): Promise<BigQueryRateLimits>;
}

export interface DatasetDefaults {
  defaultPartitionExpirationMs?: number;
  defaultTableExpirationMs?: number;
  sandbox?: boolean;
}

export interface BigQueryRateLimits {
  limits: { tableOperationsPer10Seconds: number | null };
  documented: { tableOperationsPer10Seconds: number };
  windowMs: number;
  /** Jobs into each table ("p:d.t") in the window now. */
  recent: Record<string, number>;
}

/** The stand-in's daily quotas, each with its source (dev/bigquery/model/quotas.ts). */
export type BigQueryQuotaLimits = QuotaLimits;

export interface BigQueryQuotas {
  limits: BigQueryQuotaLimits;
  documented: BigQueryQuotaLimits;
  windowMs: number;
  /** Use in the window per counter: "load:p:d.t", "copy:p:d.t", "ops:p:d.t", "parts:p:d.t", "loads:p", "copies:p". */
  used: Record<string, number>;
}

async function call<T>(url: string, method: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`BigQuery stand-in admin ${method} ${url} failed with ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

export function bigQueryOf(emulator: Pick<EmulatorHandle, 'baseUrl' | 'adminUrl'>): BigQueryHandle {
  const rootUrl = new URL(emulator.baseUrl).origin;
  const admin = `${emulator.adminUrl}/bigquery`;
  return {
    rootUrl,
    adminUrl: admin,
    reset: async () => void (await call(`${admin}/reset`, 'POST')),
    createDataset: async (projectId, datasetId, location, defaults) =>
      void (await call(`${admin}/datasets`, 'POST', { projectId, datasetId, location, ...defaults })),
    table: async (projectId, datasetId, tableId, partition) => {
      const query = partition ? `?partition=${encodeURIComponent(partition)}` : '';
      const response = await fetch(`${admin}/tables/${projectId}/${datasetId}/${encodeURIComponent(tableId)}${query}`);
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`BigQuery stand-in admin table read failed with ${response.status}: ${await response.text()}`);
      return (await response.json()) as BigQueryTableContents;
    },
    jobs: async () => (await call<{ jobs: Record<string, any>[] }>(`${admin}/jobs`, 'GET')).jobs,
    failNextLoads: async (times, reason, after) =>
      void (await call(`${admin}/faults`, 'POST', { failLoads: { times, ...(reason ? { reason } : {}), ...(after ? { after } : {}) } })),
    failNextRequests: async (status, times, match, reason) =>
      void (await call(`${admin}/faults`, 'POST', { http: { status, times, ...(match ? { match } : {}), ...(reason ? { reason } : {}) } })),
    clearFaults: async () => void (await call(`${admin}/faults`, 'DELETE')),
    setJobPolls: async (pending, running) => void (await call(`${admin}/job-polls`, 'POST', { pending, running })),
    requests: async () => (await call<{ requests: Record<string, any>[] }>(`${admin}/requests`, 'GET')).requests,
    setQuotas: (limits) => call<BigQueryQuotas>(`${admin}/quotas`, 'POST', limits),
    quotas: () => call<BigQueryQuotas>(`${admin}/quotas`, 'GET'),
    resetQuotas: () => call<BigQueryQuotas>(`${admin}/quotas`, 'DELETE'),
    setTableRateLimit: (jobsPer10Seconds) =>
      call<BigQueryRateLimits>(`${admin}/rate-limits`, 'POST', { tableOperationsPer10Seconds: jobsPer10Seconds }),
    rateLimits: () => call<BigQueryRateLimits>(`${admin}/rate-limits`, 'GET'),
  };
}
