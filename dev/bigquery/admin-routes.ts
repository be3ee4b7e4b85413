/**
 * The BigQuery stand-in's test controls under /__admin/bigquery: make a dataset in a location, read
 * back a table (resource, rows, rows per partition) and the jobs with their data, fail the next load
 * jobs at completion, answer the next requests with a 5xx, keep new jobs PENDING and RUNNING for a
 * number of jobs.get polls, lower the daily quotas (and read what is used of them), read the request
 * log, and reset. Bodies are checked with zod; errors use
 * the emulator's admin envelope, as the emulator's other controls do.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { ApiError } from '../shared/api-error';
import { parseAdminBody } from '../shared/admin-body';
import { DISCOVERY_SOURCE } from './discovery-validator';
import { MAX_JSON_ROW_BYTES } from './model/rows';
import { checkDatasetId } from './model/naming';
import { datasetResource, jobResource, tableResource } from './resources';
import { MULTIPART_UPLOAD_MAX_BYTES, SANDBOX_EXPIRATION_MS } from './model/expiration';
import { DOCUMENTED_QUOTAS, type QuotaLimits, QUOTA_WINDOW_MS } from './model/quotas';
import { DOCUMENTED_RATE_LIMITS, RATE_WINDOW_MS } from './model/rate';
import type { BigQueryState } from './model/state';
import type { BigQueryError } from './model/errors';

const ADMIN = 'admin';

const ExpirationMs = z.number().int().min(3_600_000);
/**
 * A dataset, with the defaults it gives new tables (expiration.ts; BigQuery's minimum for each is an
 * hour), or `sandbox: true` for the BigQuery sandbox's 60 days of both.
 */
const DatasetBody = z
  .object({
    projectId: z.string().min(1),
    datasetId: z.string().min(1),
    location: z.string().min(1),
    defaultPartitionExpirationMs: ExpirationMs.optional(),
    defaultTableExpirationMs: ExpirationMs.optional(),
    sandbox: z.boolean().optional(),
  })
  .strict();
const FaultsBody = z
  .object({
    failLoads: z
      .object({
        times: z.number().int().min(1),
        after: z.number().int().min(0).optional(),
        reason: z.enum(['backendError', 'invalid', 'stopped']).optional(),
        message: z.string().optional(),
      })
      .strict()
      .optional(),
    http: z
      .object({
        status: z.union([z.literal(403), z.literal(500), z.literal(502), z.literal(503)]),
        times: z.number().int().min(1),
        match: z.string().optional(),
        reason: z.enum(['backendError', 'rateLimitExceeded', 'quotaExceeded']).optional(),
      })
      .strict()
      .refine((fault) => (fault.status === 403) === (fault.reason === 'rateLimitExceeded' || fault.reason === 'quotaExceeded'), {
        message: 'a 403 fault takes reason rateLimitExceeded or quotaExceeded; a 5xx fault takes backendError (the default)',
      })
      .optional(),
  })
  .strict();
const QuotaValue = z.number().int().min(0);
/** The per-table rate limit (rate.ts): jobs per 10 s, at least 1, or null for off. */
const RateLimitsBody = z.object({ tableOperationsPer10Seconds: z.number().int().min(1).nullable() }).strict();
const QuotasBody = z
  .object(
    Object.fromEntries(Object.keys(DOCUMENTED_QUOTAS).map((name) => [name, QuotaValue.optional()])) as Record<
      keyof QuotaLimits,
      z.ZodOptional<typeof QuotaValue>
    >,
  )
  .strict();
const UploadLimitBody = z.object({ multipartMaxBytes: z.number().int().min(1) }).strict();
const PollsBody = z.object({ pending: z.number().int().min(0).max(1000), running: z.number().int().min(0).max(1000) }).strict();

function parse<T>(schema: z.ZodType<T>, request: FastifyRequest): T {
  return parseAdminBody(schema, request, ADMIN);
}

export async function registerBigQueryAdminRoutes(admin: FastifyInstance, state: BigQueryState): Promise<void> {
  registerDatasetRoutes(admin, state);
  registerJobAndFaultRoutes(admin, state);
  registerLimitRoutes(admin, state);
  admin.get('/requests', async () => ({ requests: state.requestLog }));
  admin.delete('/requests', async () => {
    state.requestLog = [];
    return { requests: [] };
  });
}

/** Reset, what the stand-in validates against, a dataset made, and a table read back. */
function registerDatasetRoutes(admin: FastifyInstance, state: BigQueryState): void {
  admin.post('/reset', async () => {
    state.reset();
    return { ok: true };
  });

  admin.get('/about', async () => ({ discovery: DISCOVERY_SOURCE, maxJsonRowBytes: MAX_JSON_ROW_BYTES }));

  admin.post('/datasets', async (request) => {
    const body = parse(DatasetBody, request);
    try {
      checkDatasetId(body.datasetId);
    } catch (error) {
      throw new ApiError(400, ADMIN, (error as BigQueryError).message);
    }
    const sandbox = body.sandbox === true ? SANDBOX_EXPIRATION_MS : undefined;
    const partition = body.defaultPartitionExpirationMs ?? sandbox;
    const table = body.defaultTableExpirationMs ?? sandbox;
    const dataset = state.createDataset(body.projectId, body.datasetId, body.location, {
      ...(partition !== undefined ? { defaultPartitionExpirationMs: partition } : {}),
      ...(table !== undefined ? { defaultTableExpirationMs: table } : {}),
    });
    return datasetResource(dataset);
  });

  admin.get<{ Params: { projectId: string; datasetId: string; tableId: string }; Querystring: { partition?: string } }>(
    '/tables/:projectId/:datasetId/:tableId',
    async (request) => {
      const { projectId, datasetId, tableId } = request.params;
      state.expireTables();
      const dataset = state.dataset(projectId, datasetId);
      const table = dataset?.tables.get(tableId);
      if (!dataset || !table) throw new ApiError(404, ADMIN, `No such table: ${projectId}:${datasetId}.${tableId}`);
      const partition = request.query.partition;
      const rows = [...table.partitions]
        .filter(([key]) => partition === undefined || key === partition)
        .flatMap(([, stored]) => stored.rows);
      const partitions: Record<string, number> = {};
      for (const [key, stored] of table.partitions) if (stored.rows.length > 0) partitions[key] = stored.rows.length;
      return { table: tableResource(table, dataset.location), rows, partitions };
    },
  );
}

/** The jobs with their data, injected faults, and how many polls a new job stays PENDING and RUNNING. */
function registerJobAndFaultRoutes(admin: FastifyInstance, state: BigQueryState): void {
  admin.get('/jobs', async () => ({
    jobs: [...state.jobs.values()].map((job) => ({
      ...jobResource(job),
      dataBytes: Buffer.byteLength(job.data),
      pollsLeft: job.statesToShow.length,
    })),
  }));

  admin.get('/faults', async () => ({ failLoads: state.loadFaults, http: state.httpFaults }));
  admin.post('/faults', async (request) => {
    const body = parse(FaultsBody, request);
    if (body.failLoads)
      state.loadFaults.push({
        times: body.failLoads.times,
        ...(body.failLoads.after ? { after: body.failLoads.after } : {}),
        reason: body.failLoads.reason ?? 'backendError',
        message: body.failLoads.message,
      });
    if (body.http) {
      if (body.http.match !== undefined) {
        try {
          new RegExp(body.http.match);
        } catch {
          throw new ApiError(400, ADMIN, `Invalid admin request body: http.match is not a regular expression: ${body.http.match}`);
        }
      }
      state.httpFaults.push({ ...body.http, reason: body.http.reason ?? 'backendError' });
    }
    return { failLoads: state.loadFaults, http: state.httpFaults };
  });
  admin.delete('/faults', async () => {
    state.loadFaults = [];
    state.httpFaults = [];
    return { failLoads: [], http: [] };
  });

  admin.get('/job-polls', async () => state.jobPolls);
  admin.post('/job-polls', async (request) => {
    state.jobPolls = parse(PollsBody, request);
    return state.jobPolls;
  });
}

/** The daily quotas and the per-table rate limit, lowered or switched off by a test. */
function registerLimitRoutes(admin: FastifyInstance, state: BigQueryState): void {
  // A test lowers a daily quota so that a few calls reach it; the use so far is kept (DELETE forgets both).
  const quotasView = () => ({
    limits: state.quotas.limits,
    documented: DOCUMENTED_QUOTAS,
    windowMs: QUOTA_WINDOW_MS,
    used: state.quotas.usage(state.now()),
  });
  admin.get('/quotas', async () => quotasView());
  admin.post('/quotas', async (request) => {
    const body = parse(QuotasBody, request) as Partial<QuotaLimits>;
    for (const [name, value] of Object.entries(body)) if (value !== undefined) state.quotas.limits[name as keyof QuotaLimits] = value;
    return quotasView();
  });
  admin.delete('/quotas', async () => {
    state.quotas.reset();
    return quotasView();
  });

  // A test lowers the per-table rate limit, or switches it off (null) to load many jobs at a frozen clock.
  const ratesView = () => ({
    limits: state.rates.limits,
    documented: DOCUMENTED_RATE_LIMITS,
    windowMs: RATE_WINDOW_MS,
    recent: state.rates.usage(state.now()),
  });
  admin.get('/rate-limits', async () => ratesView());
  admin.post('/rate-limits', async (request) => {
    state.rates.limits = parse(RateLimitsBody, request);
    return ratesView();
  });
  // The 10 MB a multipart upload carries (the stricter reading), raised by a test of the 100 MB row limit.
  admin.post('/upload-limit', async (request) => {
    state.multipartMaxBytes = parse(UploadLimitBody, request).multipartMaxBytes;
    return { multipartMaxBytes: state.multipartMaxBytes, default: MULTIPART_UPLOAD_MAX_BYTES };
  });
  admin.delete('/rate-limits', async () => {
    state.rates.reset();
    return ratesView();
  });
}
