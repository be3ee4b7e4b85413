/**
 * BigQuery's REST routes as the add-on calls them, on the emulator's Fastify app under the paths
 * Google serves them at (https://bigquery.googleapis.com + `/bigquery/v2/...` and
 * `/upload/bigquery/v2/...`), so a client points its BigQuery root at the emulator's origin:
 * datasets.get, tables.get, tables.insert, jobs.insert (the multipart upload: a JSON Job part, then
 * the newline-delimited JSON data) and jobs.get. Every call needs `Authorization: Bearer <token>`
 * (any token is taken: the stand-in checks the scheme, not Google's accounts). Errors leave in
 * BigQuery's shape (errors.ts); these routes are never in the Engage request log or its faults.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validateBody } from './discovery-validator';
import { BigQueryError } from './model/errors';
import { checkCopyConfig, type CopyConfig } from './model/copy-job';
import { completeJob } from './model/jobs';
import { withDatasetDefaults } from './model/expiration';
import { checkDecorator, checkLoadConfig, decoratorOf } from './model/load-job';
import { QUOTA_MESSAGES } from './model/quotas';
import {
  checkClustering,
  checkDatasetId,
  checkJobId,
  checkTableId,
  checkTimePartitioning,
  normaliseFields,
  type FieldSchema,
} from './model/naming';
import { datasetResource, jobResource, tableResource } from './resources';
import type { BigQueryState, StoredDataset, StoredJob, StoredTable } from './model/state';

export const BIGQUERY_PREFIX = '/bigquery/v2';
export const BIGQUERY_UPLOAD_PREFIX = '/upload/bigquery/v2';
/** The stand-in's own cap on an upload body (BigQuery documents none for a multipart upload): past it, 413. */
export const UPLOAD_BODY_LIMIT_BYTES = 128 * 1024 * 1024;

/**
 * What an injected fault says. The 403 wordings are those of
 * https://cloud.google.com/bigquery/docs/troubleshoot-quotas (rateLimitExceeded: retry after a few
 * seconds with backoff; quotaExceeded: a longer-term limit).
 */
const FAULT_MESSAGES = {
  backendError: 'Backend error (injected by the stand-in).',
  rateLimitExceeded: 'Exceeded rate limits: too many table update operations for this table.',
  quotaExceeded: 'Quota exceeded: Your table exceeded quota for imports or query appends per table.',
} as const;

type Params = { projectId: string; datasetId: string; tableId: string; jobId: string };

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Google's answers to a missing and to an unusable credential (reasons required and authError). */
function authenticate(request: FastifyRequest): void {
  const authorization = header(request, 'authorization');
  if (!authorization) {
    throw new BigQueryError(
      'required',
      'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      { location: 'Authorization', locationType: 'header' },
    );
  }
  if (!/^Bearer [A-Za-z0-9._~+/=-]+$/.test(authorization.trim())) {
    throw new BigQueryError(
      'authError',
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      {
        location: 'Authorization',
        locationType: 'header',
      },
    );
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BigQueryError('invalid', `Invalid JSON payload received. ${what} is not valid JSON.`);
  }
}

/** Splits a multipart/related body into its parts (RFC 2046; CRLF or bare LF line ends are both read). */
export function multipartParts(contentType: string, body: string): { headers: Record<string, string>; content: string }[] {
  const match = /^multipart\/related\s*;.*boundary="?([^";]+)"?/i.exec(contentType);
  if (!match)
    throw new BigQueryError(
      'badRequest',
      `Invalid multipart request: Content-Type must be multipart/related with a boundary, got "${contentType}"`,
    );
  const delimiter = `--${match[1]}`;
  const chunks = body.split(delimiter);
  const parts: { headers: Record<string, string>; content: string }[] = [];
  // chunks[0] is the preamble; a chunk starting with "--" is the close delimiter's epilogue.
  for (const chunk of chunks.slice(1)) {
    if (chunk.startsWith('--')) break;
    const text = chunk.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
    const split = /\r?\n\r?\n/.exec(text);
    const head = split ? text.slice(0, split.index) : text;
    const content = split ? text.slice(split.index + split[0].length) : '';
    const headers: Record<string, string> = {};
    for (const line of head.split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, content });
  }
  return parts;
}

export function registerBigQueryRoutes(api: FastifyInstance, state: BigQueryState): void {
  registerDatasetRoutes(api, state);
  registerJobRoutes(api, state);
}

function datasetOr404(state: BigQueryState, projectId: string, datasetId: string): StoredDataset {
  const dataset = state.dataset(projectId, datasetId);
  if (!dataset) throw new BigQueryError('notFound', `Not found: Dataset ${projectId}:${datasetId}`);
  return dataset;
}

/** datasets.get, tables.get and tables.insert. */
function registerDatasetRoutes(api: FastifyInstance, state: BigQueryState): void {
  api.get<{ Params: Params }>('/projects/:projectId/datasets/:datasetId', async (request) => {
    authenticate(request);
    return datasetResource(datasetOr404(state, request.params.projectId, request.params.datasetId));
  });

  api.get<{ Params: Params }>('/projects/:projectId/datasets/:datasetId/tables/:tableId', async (request) => {
    authenticate(request);
    const { projectId, datasetId, tableId } = request.params;
    const dataset = datasetOr404(state, projectId, datasetId);
    const table = dataset.tables.get(tableId);
    if (!table) throw new BigQueryError('notFound', `Not found: Table ${projectId}:${datasetId}.${tableId}`);
    return tableResource(table, dataset.location);
  });

  api.post<{ Params: Params }>('/projects/:projectId/datasets/:datasetId/tables', async (request) => {
    authenticate(request);
    return insertTable(state, request.params.projectId, request.params.datasetId, String(request.body ?? ''));
  });

  api.delete<{ Params: Params }>('/projects/:projectId/datasets/:datasetId/tables/:tableId', async (request) => {
    authenticate(request);
    const { projectId, datasetId, tableId } = request.params;
    deleteTableOrPartition(datasetOr404(state, projectId, datasetId), tableId, state.now());
    return {};
  });
}

/**
 * tables.delete: the table, or with a `$yyyymmdd` decorator one DAY partition, as "Delete a partition"
 * documents (https://cloud.google.com/bigquery/docs/managing-partitioned-tables#delete_a_partition:
 * `bq rm 'mydataset.mytable$20160301'`, or tables.delete with the decorator in tableId). A partition
 * that holds nothing is a 404, as a missing table is: the stricter reading (a client must take both).
 */
function deleteTableOrPartition(dataset: StoredDataset, tableId: string, nowMs: number): void {
  const { base, decorator } = decoratorOf(tableId);
  const table = dataset.tables.get(base);
  const name = `${dataset.projectId}:${dataset.datasetId}.${tableId}`;
  if (!table) throw new BigQueryError('notFound', `Not found: Table ${dataset.projectId}:${dataset.datasetId}.${base}`);
  if (decorator === undefined) {
    dataset.tables.delete(base);
    return;
  }
  checkDecorator(decorator, table);
  if (!table.partitions.has(decorator)) throw new BigQueryError('notFound', `Not found: Table ${name}`);
  table.partitions.delete(decorator);
  table.lastModifiedTimeMs = nowMs;
}

/** tables.insert: the body checked as Google does, then a new empty table. */
function insertTable(state: BigQueryState, projectId: string, datasetId: string, bodyText: string): Record<string, unknown> {
  const body = parseJson(bodyText, 'The table') as Record<string, unknown>;
  validateBody('Table', body, 'table');
  const ref = (body.tableReference ?? {}) as { projectId?: string; datasetId?: string; tableId?: string };
  if (!ref.tableId) throw new BigQueryError('invalid', 'Required parameter is missing: tableReference.tableId');
  if ((ref.projectId && ref.projectId !== projectId) || (ref.datasetId && ref.datasetId !== datasetId)) {
    throw new BigQueryError(
      'invalid',
      `Invalid table reference: ${ref.projectId}:${ref.datasetId} does not match the request's ${projectId}:${datasetId}`,
    );
  }
  checkTableId(ref.tableId);
  checkDatasetId(datasetId);
  const dataset = datasetOr404(state, projectId, datasetId);
  if (dataset.tables.has(ref.tableId))
    throw new BigQueryError('duplicate', `Already Exists: Table ${projectId}:${datasetId}.${ref.tableId}`);
  const fields = (body.schema as { fields?: FieldSchema[] } | undefined)?.fields;
  const schema = fields ? normaliseFields(fields) : [];
  const { tableReference: _ref, schema: _schema, timePartitioning, clustering, ...extra } = body;
  const nowMs = state.now();
  const table: StoredTable = {
    projectId,
    datasetId,
    tableId: ref.tableId,
    schema,
    ...(timePartitioning ? { timePartitioning: checkTimePartitioning(timePartitioning as { type: string }, schema) } : {}),
    ...(clustering ? { clustering: checkClustering(clustering as { fields?: string[] }, schema) } : {}),
    extra,
    creationTimeMs: nowMs,
    lastModifiedTimeMs: nowMs,
    partitions: new Map(),
  };
  dataset.tables.set(ref.tableId, withDatasetDefaults(dataset, table, nowMs));
  return tableResource(table, dataset.location);
}

/** jobs.get (which moves a job through its states, one a poll) and jobs.insert of a copy job. */
function registerJobRoutes(api: FastifyInstance, state: BigQueryState): void {
  api.get<{ Params: Params; Querystring: { location?: string } }>('/projects/:projectId/jobs/:jobId', async (request) => {
    authenticate(request);
    const { projectId, jobId } = request.params;
    const location = request.query.location ?? 'US';
    const job = state.jobs.get(state.jobKey(projectId, location, jobId));
    if (!job) throw new BigQueryError('notFound', `Not found: Job ${projectId}:${location}.${jobId}`);
    if (job.state !== 'DONE') {
      const next = job.statesToShow.shift();
      if (next === undefined) completeJob(state, job);
      else {
        job.state = next;
        if (next === 'RUNNING' && job.startTimeMs === undefined) job.startTimeMs = state.now();
      }
    }
    return jobResource(job);
  });

  // jobs.insert without data: a copy job (JobConfigurationTableCopy). A load needs its data (the upload route).
  api.post<{ Params: Params }>('/projects/:projectId/jobs', async (request) => {
    authenticate(request);
    const body = parseJson(String(request.body ?? ''), 'The job') as JobBody;
    validateBody('Job', body, 'job');
    const configuration = body.configuration ?? {};
    const copy = onlyConfiguration(configuration, 'copy') as CopyConfig | undefined;
    if (!copy) {
      throw new BigQueryError(
        'invalid',
        configuration.load !== undefined
          ? 'Load configuration must specify at least one source URI (send the data with the upload URL: POST /upload/bigquery/v2/projects/{projectId}/jobs?uploadType=multipart)'
          : 'The BigQuery stand-in runs copy jobs at this address (and load jobs at the upload address) only',
      );
    }
    checkCopyConfig(copy);
    return insertJob(state, request.params.projectId, body, 'COPY', copy.destinationTable!, '');
  });
}

type JobBody = { jobReference?: { jobId?: string; location?: string; projectId?: string }; configuration?: Record<string, unknown> };

/** The one job-specific configuration of a Job, when it is of `kind`; a 400 when there is not exactly one. */
function onlyConfiguration(configuration: Record<string, unknown>, kind: 'load' | 'copy'): unknown {
  const kinds = ['load', 'query', 'copy', 'extract'].filter((k) => configuration[k] !== undefined);
  if (kinds.length !== 1) {
    throw new BigQueryError(
      'invalid',
      `Job configuration must contain exactly one job-specific configuration object (e.g., query, load, extract, spreadsheetExtract), but there were ${kinds.length}: ${kinds.join(', ')}`,
    );
  }
  return configuration[kind];
}

/**
 * Creates a job once its configuration is checked: its ID (given, or made), its location (given, or
 * the destination dataset's), a 409 for an ID in use, the project's daily job quota (a 403
 * quotaExceeded before any job exists: quotas.ts), then PENDING/RUNNING polls or completion at once.
 */
function insertJob(
  state: BigQueryState,
  projectId: string,
  body: JobBody,
  jobType: 'LOAD' | 'COPY',
  destination: { projectId?: string; datasetId?: string },
  data: string,
): Record<string, unknown> {
  const jobId = body.jobReference?.jobId ?? state.nextJobId();
  checkJobId(jobId);
  const location = body.jobReference?.location ?? state.dataset(destination.projectId!, destination.datasetId!)?.location ?? 'US';
  const key = state.jobKey(projectId, location, jobId);
  if (state.jobs.has(key)) throw new BigQueryError('duplicate', `Already Exists: Job ${projectId}:${location}.${jobId}`);
  const nowMs = state.now();
  const quotaKey = `${jobType === 'LOAD' ? 'loads' : 'copies'}:${projectId}`;
  const limit = jobType === 'LOAD' ? state.quotas.limits.loadJobsPerProjectPerDay : state.quotas.limits.copyJobsPerProjectPerDay;
  if (state.quotas.used(quotaKey, nowMs) >= limit) {
    throw new BigQueryError('quotaExceeded', jobType === 'LOAD' ? QUOTA_MESSAGES.projectLoads : QUOTA_MESSAGES.projectCopies);
  }
  state.quotas.record(quotaKey, nowMs);
  const statesToShow = [...Array(state.jobPolls.pending).fill('PENDING'), ...Array(state.jobPolls.running).fill('RUNNING')];
  const job: StoredJob = {
    projectId,
    jobId,
    location,
    configuration: { ...body.configuration, jobType },
    data,
    state: statesToShow[0] ?? 'PENDING',
    statesToShow,
    creationTimeMs: nowMs,
    // Injected load faults fail load jobs only (admin API: failLoads).
    ...(jobType === 'LOAD' ? { failure: state.takeLoadFault() } : {}),
  };
  state.jobs.set(key, job);
  if (statesToShow.length === 0) {
    job.startTimeMs = nowMs;
    completeJob(state, job);
  } else if (job.state === 'RUNNING') job.startTimeMs = nowMs;
  return jobResource(job);
}

/** jobs.insert with its data: `POST /upload/bigquery/v2/projects/{projectId}/jobs?uploadType=multipart`. */
export function registerBigQueryUploadRoute(upload: FastifyInstance, state: BigQueryState): void {
  upload.post<{ Params: Params; Querystring: { uploadType?: string } }>(
    '/projects/:projectId/jobs',
    { bodyLimit: UPLOAD_BODY_LIMIT_BYTES },
    async (request, reply) => {
      authenticate(request);
      if (request.query.uploadType !== 'multipart') {
        throw new BigQueryError(
          'badRequest',
          `The BigQuery stand-in models uploadType=multipart only, got ${request.query.uploadType ?? 'none'}`,
        );
      }
      const bodyBytes = Buffer.byteLength(String(request.body ?? ''));
      if (bodyBytes > state.multipartMaxBytes) {
        throw new BigQueryError(
          'badRequest',
          `The BigQuery stand-in takes a multipart upload of at most ${state.multipartMaxBytes} bytes (the stricter reading of "smaller files"), got ${bodyBytes}: stage larger data in parts.`,
        );
      }
      const parts = multipartParts(header(request, 'content-type') ?? '', String(request.body ?? ''));
      if (parts.length !== 2) throw new BigQueryError('badRequest', `Invalid multipart request with ${parts.length} mime parts.`);
      const [metadata, media] = parts as [(typeof parts)[0], (typeof parts)[0]];
      if (!/^application\/json/i.test(metadata.headers['content-type'] ?? '')) {
        throw new BigQueryError(
          'badRequest',
          `The first part of a multipart upload must be application/json, got "${metadata.headers['content-type'] ?? 'none'}"`,
        );
      }
      const body = parseJson(metadata.content, 'The job') as JobBody;
      validateBody('Job', body, 'job');
      const load = onlyConfiguration(body.configuration ?? {}, 'load') as Parameters<typeof checkLoadConfig>[0] | undefined;
      if (!load)
        throw new BigQueryError(
          'invalid',
          'A multipart upload carries a load job; send a copy job without data to /bigquery/v2/projects/{projectId}/jobs',
        );
      checkLoadConfig(load);
      if (media.content.trim() === '') {
        throw new BigQueryError(
          'invalid',
          'The BigQuery stand-in refuses a load job without data (the stricter reading: no page says an empty upload loads nothing); empty a partition with tables.delete of table$yyyymmdd.',
        );
      }
      return reply.send(insertJob(state, request.params.projectId, body, 'LOAD', load.destinationTable!, media.content));
    },
  );
}

/** Error and not-found handling in BigQuery's shape, the request log and the HTTP faults, for one route prefix. */
export function registerBigQueryHooks(scope: FastifyInstance, state: BigQueryState): void {
  scope.addHook('onRequest', async (request, reply: FastifyReply) => {
    state.expireTables();
    const questionMark = request.url.indexOf('?');
    const entry = {
      method: request.method,
      path: questionMark < 0 ? request.url : request.url.slice(0, questionMark),
      query: { ...(request.query as Record<string, unknown>) },
      authorization: header(request, 'authorization') ?? null,
      contentType: header(request, 'content-type') ?? null,
      bodyBytes: Number(header(request, 'content-length') ?? 0),
      status: null as number | null,
      time: new Date(state.now()).toISOString(),
    };
    state.requestLog.push(entry);
    (request as FastifyRequest & { bigQueryLog?: typeof entry }).bigQueryLog = entry;
    const fault = state.takeHttpFault(request.method, request.url);
    if (fault) {
      const error = new BigQueryError(fault.reason, FAULT_MESSAGES[fault.reason], { httpStatus: fault.status });
      return reply.code(fault.status).type('application/json').send(error.toBody());
    }
  });
  scope.addHook('onResponse', async (request, reply) => {
    const entry = (request as FastifyRequest & { bigQueryLog?: { status: number | null } }).bigQueryLog;
    if (entry) entry.status = reply.statusCode;
  });
  scope.setErrorHandler((error: unknown, _request, reply) => {
    let failure: BigQueryError;
    if (error instanceof BigQueryError) failure = error;
    else {
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      const message = error instanceof Error ? error.message : String(error);
      failure =
        status === 413
          ? new BigQueryError('badRequest', `Request body too large: over the stand-in's ${UPLOAD_BODY_LIMIT_BYTES} bytes.`, {
              httpStatus: 413,
            })
          : status < 500
            ? new BigQueryError('badRequest', message, { httpStatus: status })
            : new BigQueryError('backendError', `Internal error: ${message}`);
    }
    return reply.code(failure.httpStatus).type('application/json; charset=UTF-8').send(failure.toBody());
  });
  scope.setNotFoundHandler((request, reply) => {
    const failure = new BigQueryError('notFound', `Not found: ${request.method} ${request.url.split('?')[0]}`);
    return reply.code(404).type('application/json; charset=UTF-8').send(failure.toBody());
  });
}
