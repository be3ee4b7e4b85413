/**
 * What the BigQuery stand-in holds: datasets (each in a location), tables with their rows (each row
 * tagged with the partition it lives in), load and copy jobs, the daily quotas used, the injected faults, how many polls a new job
 * stays PENDING and RUNNING, and a log of the API requests. One BigQueryState lives beside each
 * emulator instance, so every test file's private emulator has its own BigQuery too. Times come
 * from the emulator's clock.
 */
import type { ErrorProto } from './errors';
import { expirePartitions, MULTIPART_UPLOAD_MAX_BYTES, tableExpired } from './expiration';
import type { FieldSchema, TimePartitioning } from './naming';
import { QuotaLedger } from './quotas';
import { TableRateLimiter } from './rate';
import type { Row } from './rows';

/** One partition's rows, and their size in bytes (as JSON), kept so tables.get costs nothing on a large table. */
export interface StoredPartition {
  rows: Row[];
  bytes: number;
}

export interface StoredTable {
  projectId: string;
  datasetId: string;
  tableId: string;
  schema: FieldSchema[];
  timePartitioning?: TimePartitioning;
  clustering?: { fields: string[] };
  /** Other writable fields the table was created with (description, labels, ...), echoed back by tables.get. */
  extra: Record<string, unknown>;
  creationTimeMs: number;
  lastModifiedTimeMs: number;
  /**
   * Rows by partition, in the order partitions were first written: yyyymmdd, '__NULL__' (a null
   * partitioning value), '__UNPARTITIONED__' (outside 1960-2159), or 'null' when the table is not partitioned.
   */
  partitions: Map<string, StoredPartition>;
}

export function rowCount(table: StoredTable): number {
  let count = 0;
  for (const partition of table.partitions.values()) count += partition.rows.length;
  return count;
}

export interface StoredDataset {
  projectId: string;
  datasetId: string;
  location: string;
  creationTimeMs: number;
  tables: Map<string, StoredTable>;
  /** Given to each new partitioned table as its timePartitioning.expirationMs (expiration.ts). */
  defaultPartitionExpirationMs?: number;
  /** Given to each other new table as its expirationTime, its creation plus this (expiration.ts). */
  defaultTableExpirationMs?: number;
}

export type JobState = 'PENDING' | 'RUNNING' | 'DONE';

export interface StoredJob {
  projectId: string;
  jobId: string;
  location: string;
  /** The configuration as sent (with jobType added), echoed back as BigQuery does. */
  configuration: Record<string, unknown>;
  /** The data part of the upload. */
  data: string;
  state: JobState;
  /** The states the next jobs.get answers show before the job completes. */
  statesToShow: JobState[];
  /** Set when an injected fault will fail this job at completion. */
  failure?: ErrorProto;
  errorResult?: ErrorProto;
  errors?: ErrorProto[];
  outputRows?: number;
  badRecords?: number;
  creationTimeMs: number;
  startTimeMs?: number;
  endTimeMs?: number;
  userAgent?: string;
}

export interface LoadFault {
  /** Load jobs that complete first, untouched, before the fault starts. */
  after?: number;
  /** How many of the next load jobs fail at completion. */
  times: number;
  reason: 'backendError' | 'invalid' | 'stopped';
  message?: string;
}

export interface HttpFault {
  /** A regular expression on method + space + path and query; every request when omitted. */
  match?: string;
  times: number;
  status: 403 | 500 | 502 | 503;
  /** backendError for a 5xx, rateLimitExceeded (short-term) or quotaExceeded (longer-term) for a 403. */
  reason: 'backendError' | 'rateLimitExceeded' | 'quotaExceeded';
}

export interface BigQueryRequestLogEntry {
  method: string;
  path: string;
  query: Record<string, unknown>;
  authorization: string | null;
  contentType: string | null;
  bodyBytes: number;
  status: number | null;
  time: string;
}

export class BigQueryState {
  datasets = new Map<string, StoredDataset>();
  jobs = new Map<string, StoredJob>();
  loadFaults: LoadFault[] = [];
  httpFaults: HttpFault[] = [];
  jobPolls = { pending: 0, running: 0 };
  requestLog: BigQueryRequestLogEntry[] = [];
  /** The daily quotas and what has been used of them (quotas.ts). */
  quotas = new QuotaLedger();
  /** The per-table rate limit over 10 seconds (rate.ts). */
  rates = new TableRateLimiter();
  /**
   * The most one multipart upload may carry, in bytes: 10 MB, the stricter reading (routes.ts,
   * MULTIPART_UPLOAD_MAX_BYTES); a test of the 100 MB row limit raises it through the admin API.
   */
  multipartMaxBytes: number = MULTIPART_UPLOAD_MAX_BYTES;
  private jobCounter = 0;

  constructor(readonly now: () => number = () => Date.now()) {}

  reset(): void {
    this.datasets.clear();
    this.jobs.clear();
    this.loadFaults = [];
    this.httpFaults = [];
    this.jobPolls = { pending: 0, running: 0 };
    this.requestLog = [];
    this.quotas.reset();
    this.rates.reset();
    this.multipartMaxBytes = MULTIPART_UPLOAD_MAX_BYTES;
    this.jobCounter = 0;
  }

  /**
   * Deletes the tables whose expirationTime (Table.expirationTime, epoch ms) has passed, and the
   * partitions whose partition time plus timePartitioning.expirationMs has, as BigQuery does
   * (expiration.ts). Called before every request is handled, so nothing expired is ever seen.
   */
  expireTables(): void {
    const nowMs = this.now();
    for (const dataset of this.datasets.values()) {
      for (const [tableId, table] of dataset.tables) {
        if (tableExpired(table, nowMs)) dataset.tables.delete(tableId);
        else expirePartitions(table, nowMs);
      }
    }
  }

  createDataset(
    projectId: string,
    datasetId: string,
    location: string,
    defaults: { defaultPartitionExpirationMs?: number; defaultTableExpirationMs?: number } = {},
  ): StoredDataset {
    const dataset: StoredDataset = { projectId, datasetId, location, creationTimeMs: this.now(), tables: new Map(), ...defaults };
    this.datasets.set(`${projectId}:${datasetId}`, dataset);
    return dataset;
  }

  dataset(projectId: string, datasetId: string): StoredDataset | undefined {
    return this.datasets.get(`${projectId}:${datasetId}`);
  }

  /** Job IDs are unique per project and location. */
  jobKey(projectId: string, location: string, jobId: string): string {
    return `${projectId}:${location.toUpperCase()}.${jobId}`;
  }

  nextJobId(): string {
    this.jobCounter += 1;
    return `job_standin_${this.now().toString(36)}_${this.jobCounter}`;
  }

  /** The failure the next load job meets at completion, if a fault is set. */
  takeLoadFault(): ErrorProto | undefined {
    const fault = this.loadFaults[0];
    if (!fault) return undefined;
    // Loads that pass first, so a run fails in the middle of several loads.
    if ((fault.after ?? 0) > 0) {
      fault.after! -= 1;
      return undefined;
    }
    fault.times -= 1;
    if (fault.times <= 0) this.loadFaults.shift();
    return { reason: fault.reason, message: fault.message ?? 'Error encountered during job execution (injected by the stand-in).' };
  }

  takeHttpFault(method: string, url: string): HttpFault | undefined {
    const fault = this.httpFaults.find((f) => f.times > 0 && (f.match === undefined || new RegExp(f.match).test(`${method} ${url}`)));
    if (!fault) return undefined;
    fault.times -= 1;
    this.httpFaults = this.httpFaults.filter((f) => f.times > 0);
    return fault;
  }
}
