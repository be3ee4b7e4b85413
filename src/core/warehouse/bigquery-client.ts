/**
 * The calls the add-on makes to BigQuery's REST API v2, over the core's HttpTransport (URL Fetch in
 * Apps Script) with the user's OAuth token as `Authorization: Bearer`: datasets.get, tables.get,
 * tables.insert, jobs.insert (a load with its rows as a multipart upload, or a copy job's metadata
 * alone) and jobs.get, each at the address Google documents
 * (cloud.google.com/bigquery/docs/reference/rest/v2). Each fetch counts against the day's URL Fetch
 * quota like Engage's, and a fetch Apps Script refuses (whitelist, quota) is told as Engage's are. A
 * request that meets a passing failure (a lost
 * connection, 5xx, 429, or 403 rateLimitExceeded) is tried again after a short wait, at most
 * MAX_ATTEMPTS times and never past the caller's deadline; a job is inserted with an ID chosen here,
 * so a second attempt of an insert that did arrive answers 409 and the job is read instead of run
 * twice, provided it writes the same table (a job of another load under the ID is refused). Waiting
 * for a job polls jobs.get with growing pauses on the Sleeper port (the core has no timers) until it
 * is DONE or the deadline comes.
 *
 * BigQuery's per-table rate limit: the quotas page (cloud.google.com/bigquery/quotas, Standard
 * tables) allows 5 table metadata update operations per table per 10 seconds, job output included, so
 * runJob keeps this client's load and copy jobs into one table within 5 in any 10 s: before a job it
 * waits until the 5th-latest job into that table was seen finished 10 s ago. A job refused all the
 * same (reason rateLimitExceeded, in its errorResult or as a 403 at jobs.insert; "retry the operation
 * after few seconds. Use exponential backoff", cloud.google.com/bigquery/docs/troubleshoot-quotas) is
 * sent again under a new job ID (job IDs are idempotent) after a growing pause, a few times. A wait
 * that would pass the deadline stops the run's loads with a RefreshDeferredError: nothing of the day
 * is sent, and the next run goes on from it.
 */
import { BIGQUERY_ROOT_URL } from '../deployment';
import { TransportError } from '../errors';
import type { Clock, HttpRequest, HttpResponse, HttpTransport, OAuthTokenSource, Sleeper } from '../ports';
import { type FetchCounter, transportFailure } from '../api/transport/request-sender';
import { BigQueryError, httpFailure, jobFailure, parseErrorBody } from './bigquery-errors';
import type { DatasetInfo } from './expiration';
import {
  datasetInfoOf,
  jobDestination,
  type JobState,
  jobStateOf,
  jsonOf,
  multipartBody,
  type TableResource,
  tableResourceOf,
} from './bigquery-resources';
import { RATE_LIMITED_FIRST_DELAY_MS, RATE_LIMITED_JOB_ATTEMPTS, TablePacer } from './table-pacing';

export interface BigQueryClientDeps {
  transport: HttpTransport;
  token: OAuthTokenSource;
  clock: Clock;
  sleeper: Sleeper;
  /** BigQuery's root, ending in "/"; a local build's stand-in (deployment's bigqueryBaseUrl). Default BIGQUERY_ROOT_URL. */
  rootUrl?: string;
  /** Counts each fetch against Apps Script's daily URL Fetch quota, as Engage's calls are (api/transport/daily-quota.ts). */
  counter?: FetchCounter;
}

export interface TableRef {
  projectId: string;
  datasetId: string;
  tableId: string;
}

/** Attempts of one request in all, the first included. */
export const MAX_ATTEMPTS = 3;
/** The pause before the second attempt; it doubles for the third. */
export const RETRY_BASE_DELAY_MS = 1_000;
/** The first pause between two jobs.get polls; each next pause doubles, up to POLL_MAX_DELAY_MS. */
export const POLL_FIRST_DELAY_MS = 1_000;
export const POLL_MAX_DELAY_MS = 8_000;

const PASSING_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
const PASSING_REASONS: ReadonlySet<string> = new Set(['rateLimitExceeded', 'backendError', 'internalError']);

const enc = encodeURIComponent;

export class BigQueryClient {
  private readonly root: string;
  /** This client's jobs into each table, kept within BigQuery's per-table rate limit (table-pacing.ts). */
  private readonly pacer: TablePacer;
  constructor(private readonly deps: BigQueryClientDeps) {
    this.root = (deps.rootUrl ?? BIGQUERY_ROOT_URL).replace(/\/*$/, '/');
    this.pacer = new TablePacer(deps.clock, deps.sleeper);
  }

  private api(path: string): string {
    return `${this.root}bigquery/v2/${path}`;
  }

  /**
   * Sends one request, trying again after a passing failure; returns the answer (any status) or throws
   * a BigQueryError when no answer came. `deadlineAtMs`: no wait is started that would end after it.
   */
  private send(operation: string, request: Omit<HttpRequest, 'headers'>, deadlineAtMs: number): HttpResponse {
    for (let attempt = 1; ; attempt++) {
      const headers = { Authorization: `Bearer ${this.deps.token.oauthToken()}` };
      let response: HttpResponse | undefined;
      let failure: string | undefined;
      this.deps.counter?.spend(1);
      try {
        response = this.deps.transport.fetch({ ...request, headers });
      } catch (e) {
        if (!(e instanceof TransportError)) throw e;
        // Not on the whitelist, the day's URL Fetch quota spent, no such host: another attempt cannot help.
        if (e.kind === 'not-allowed') {
          throw new BigQueryError(
            operation,
            'Apps Script may not call BigQuery from this installation of Engage (its manifest does not list BigQuery\'s addresses; its deploy config needs "bigquery": true)',
            'ADDRESS_NOT_ALLOWED',
          );
        }
        if (e.kind !== 'connection') throw transportFailure(e, request.url, operation, this.deps.counter);
        failure = e.message;
      }
      const passing =
        response === undefined ||
        PASSING_STATUSES.has(response.status) ||
        (response.status === 403 && PASSING_REASONS.has(parseErrorBody(response.body).reason ?? ''));
      const waitMs = RETRY_BASE_DELAY_MS * 2 ** (attempt - 1);
      if (!passing || attempt >= MAX_ATTEMPTS || this.deps.clock.now() + waitMs > deadlineAtMs) {
        if (response) return response;
        throw new BigQueryError(operation, `no answer from BigQuery (${failure}); the next run tries again`, 'CONNECTION_FAILED');
      }
      this.deps.sleeper.sleep(waitMs);
    }
  }

  /** The dataset (datasets.get): its location and default expirations, or undefined when it does not exist (or the user cannot see it). */
  getDataset(projectId: string, datasetId: string, deadlineAtMs: number): DatasetInfo | undefined {
    const operation = `reading the dataset ${projectId}.${datasetId}`;
    const response = this.send(
      operation,
      { method: 'get', url: this.api(`projects/${enc(projectId)}/datasets/${enc(datasetId)}`) },
      deadlineAtMs,
    );
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw httpFailure(operation, response.status, response.body);
    return datasetInfoOf(jsonOf(response.body));
  }

  /** The dataset's location, or undefined when it does not exist (or the user cannot see it). */
  datasetLocation(projectId: string, datasetId: string, deadlineAtMs: number): string | undefined {
    return this.getDataset(projectId, datasetId, deadlineAtMs)?.location;
  }

  /**
   * Empties one day's partition: tables.delete of `table$yyyyMMdd`, as "Delete a partition" documents it
   * (cloud.google.com/bigquery/docs/managing-partitioned-tables#delete_a_partition). A partition that is
   * not there (404) is empty already.
   */
  deletePartition(table: TableRef, day: string, deadlineAtMs: number): void {
    const operation = `emptying ${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)} of ${table.projectId}.${table.datasetId}.${table.tableId}`;
    const url = this.api(`projects/${enc(table.projectId)}/datasets/${enc(table.datasetId)}/tables/${enc(`${table.tableId}$${day}`)}`);
    const response = this.send(operation, { method: 'delete', url }, deadlineAtMs);
    if (response.status === 404 || response.status === 200 || response.status === 204) return;
    throw httpFailure(operation, response.status, response.body);
  }

  /** The table, or undefined when it does not exist. */
  getTable(table: TableRef, deadlineAtMs: number): TableResource | undefined {
    const operation = `reading the table ${table.projectId}.${table.datasetId}.${table.tableId}`;
    const url = this.api(`projects/${enc(table.projectId)}/datasets/${enc(table.datasetId)}/tables/${enc(table.tableId)}`);
    const response = this.send(operation, { method: 'get', url }, deadlineAtMs);
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw httpFailure(operation, response.status, response.body);
    return tableResourceOf(jsonOf(response.body));
  }

  /**
   * Creates the table (tables.insert) from a Table resource's fields: schema, timePartitioning,
   * clustering, and any other (description, expirationTime). A table made meanwhile (409) is read instead.
   */
  insertTable(table: TableRef, resource: Record<string, unknown>, deadlineAtMs: number): TableResource {
    const operation = `creating the table ${table.projectId}.${table.datasetId}.${table.tableId}`;
    const { projectId, datasetId, tableId } = table;
    const payload = JSON.stringify({ tableReference: { projectId, datasetId, tableId }, ...resource });
    const url = this.api(`projects/${enc(table.projectId)}/datasets/${enc(table.datasetId)}/tables`);
    const response = this.send(operation, { method: 'post', url, payload, contentType: 'application/json' }, deadlineAtMs);
    if (response.status === 409) {
      const existing = this.getTable(table, deadlineAtMs);
      if (existing) return existing;
    }
    if (response.status !== 200) throw httpFailure(operation, response.status, response.body);
    return tableResourceOf(jsonOf(response.body));
  }

  /**
   * Inserts a job with the given ID: a load with `data` (the rows) as a multipart upload to the upload
   * address, or any other job (a copy) as metadata. A job that already exists under the ID (a repeated
   * attempt that had arrived) is read instead, and taken only if it writes the same table and partition:
   * a job of another load under the ID (IDs are the caller's) fails clearly, as nothing was loaded.
   */
  insertJob(
    projectId: string,
    location: string,
    jobId: string,
    configuration: Record<string, unknown>,
    data: string | undefined,
    operation: string,
    deadlineAtMs: number,
  ): JobState {
    const job = { jobReference: { projectId, jobId, location }, configuration };
    const request: Omit<HttpRequest, 'headers'> =
      data === undefined
        ? {
            method: 'post',
            url: this.api(`projects/${enc(projectId)}/jobs`),
            payload: JSON.stringify(job),
            contentType: 'application/json',
          }
        : (() => {
            const { boundary, body } = multipartBody(job, data);
            return {
              method: 'post' as const,
              url: `${this.root}upload/bigquery/v2/projects/${enc(projectId)}/jobs?uploadType=multipart`,
              payload: body,
              contentType: `multipart/related; boundary=${boundary}`,
            };
          })();
    const response = this.send(operation, request, deadlineAtMs);
    if (response.status === 409) {
      const existing = this.getJob(projectId, location, jobId, operation, deadlineAtMs);
      const wanted = jobDestination(configuration);
      // Should BigQuery give the destination back without its partition decorator (UNCONFIRMED), the
      // table must match, and the day is the job ID's own.
      const decorated = existing.destination?.includes('$') === true;
      const mine = decorated ? wanted : wanted?.replace(/\$\d+$/, '');
      if (existing.destination !== mine) {
        throw new BigQueryError(
          operation,
          `the job ID ${jobId} is already taken by a job writing ${existing.destination ?? 'another table'}, not ${wanted}; nothing was loaded, and the next run tries again under a new ID`,
          'API_ERROR',
          409,
          'duplicate',
        );
      }
      return existing;
    }
    if (response.status !== 200) throw httpFailure(operation, response.status, response.body);
    return jobStateOf(jsonOf(response.body), jobId);
  }

  /**
   * Runs one job to its end (insertJob, then waitForJob) within BigQuery's per-table rate limit (see
   * the file's opening), and sends it again under a new ID (`<jobId>_r<n>`) when BigQuery refuses it
   * for that limit, after RATE_LIMITED_FIRST_DELAY_MS doubling, at most RATE_LIMITED_JOB_ATTEMPTS in
   * all. Answers the finished job and every job ID sent (a refused job counts against the table's
   * daily quotas too); throws as waitForJob does, or a RefreshDeferredError when a wait would pass
   * `deadlineAtMs`.
   */
  runJob(
    projectId: string,
    location: string,
    jobId: string,
    configuration: Record<string, unknown>,
    data: string | undefined,
    operation: string,
    deadlineAtMs: number,
  ): { job: JobState; jobIds: string[] } {
    const table = (jobDestination(configuration) ?? '').replace(/\$[^$]*$/, '');
    const jobIds: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const id = attempt === 1 ? jobId : `${jobId}_r${attempt}`;
      this.pacer.waitTurn(table, operation, deadlineAtMs);
      jobIds.push(id);
      try {
        const started = this.insertJob(projectId, location, id, configuration, data, operation, deadlineAtMs);
        const job = this.waitForJob(projectId, location, started, operation, deadlineAtMs);
        this.pacer.seen(table);
        return { job, jobIds };
      } catch (e) {
        // A job that failed counts as BigQuery's; one refused at jobs.insert is counted too, for safety.
        if (e instanceof BigQueryError) this.pacer.seen(table);
        if (!(e instanceof BigQueryError) || e.reason !== 'rateLimitExceeded') throw e;
        if (attempt >= RATE_LIMITED_JOB_ATTEMPTS) throw e;
        const pauseMs = RATE_LIMITED_FIRST_DELAY_MS * 2 ** (attempt - 1);
        this.pacer.waitUntil(
          this.deps.clock.now() + pauseMs,
          operation,
          deadlineAtMs,
          'BigQuery refused a job for its per-table rate limit',
        );
      }
    }
  }

  getJob(projectId: string, location: string, jobId: string, operation: string, deadlineAtMs: number): JobState {
    const url = this.api(`projects/${enc(projectId)}/jobs/${enc(jobId)}?location=${enc(location)}`);
    const response = this.send(operation, { method: 'get', url }, deadlineAtMs);
    if (response.status !== 200) throw httpFailure(operation, response.status, response.body);
    return jobStateOf(jsonOf(response.body), jobId);
  }

  /**
   * Polls the job until it is DONE, pausing POLL_FIRST_DELAY_MS, then twice as long each time up to
   * POLL_MAX_DELAY_MS. A job that finished with an errorResult throws its message; one still running
   * when the next pause would pass `deadlineAtMs` throws a 'TOO_SLOW' BigQueryError (the next run
   * loads the day again, which replaces it whole).
   */
  waitForJob(projectId: string, location: string, started: JobState, operation: string, deadlineAtMs: number): JobState {
    let job = started;
    let delayMs = POLL_FIRST_DELAY_MS;
    while (job.state !== 'DONE') {
      if (this.deps.clock.now() + delayMs > deadlineAtMs) {
        throw new BigQueryError(
          operation,
          `job ${job.jobId} had not finished when this run's time was up; the next run loads this day again, replacing it whole`,
          'TOO_SLOW',
        );
      }
      this.deps.sleeper.sleep(delayMs);
      delayMs = Math.min(delayMs * 2, POLL_MAX_DELAY_MS);
      job = this.getJob(projectId, location, job.jobId, operation, deadlineAtMs);
    }
    if (job.errorResult) throw jobFailure(operation, job.jobId, job.errorResult, job.errors);
    return job;
  }
}
