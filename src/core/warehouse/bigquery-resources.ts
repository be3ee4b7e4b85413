/**
 * BigQuery's resources as the add-on reads them from its REST answers (Dataset, Table, Job), every
 * field read defensively (int64 values arrive as decimal strings), and the multipart body a load job
 * is uploaded in. BigQuery's client (bigquery-client.ts) sends the requests; this file only reads and
 * writes their bodies.
 */
import type { DatasetInfo } from './expiration';
import type { TableField } from './table-schema';
import { errorProtoOf } from './bigquery-errors';

/** What the add-on reads of a Table resource. */
export interface TableResource {
  fields: TableField[];
  timePartitioning?: { type?: string; field?: string };
  clustering?: { fields?: string[] };
  /** timePartitioning.expirationMs: each partition is deleted this long after its partition time (expiration.ts). */
  partitionExpirationMs?: number;
  /** expirationTime: when BigQuery deletes the table (epoch ms). */
  expirationTimeMs?: number;
}

/** What the add-on reads of a Job resource. */
export interface JobState {
  jobId: string;
  state: 'PENDING' | 'RUNNING' | 'DONE';
  errorResult?: { reason?: string; message?: string; location?: string };
  errors: unknown[];
  /** statistics.load.outputRows, when BigQuery tells it. */
  outputRows?: number;
  /** The table the job writes, "project:dataset.table" with any partition decorator (its load or copy destinationTable). */
  destination?: string;
}

export function jsonOf(body: string): Record<string, unknown> {
  try {
    const json = JSON.parse(body) as unknown;
    return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function fieldsOf(value: unknown): TableField[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((f) => {
    if (f === null || typeof f !== 'object') return [];
    const o = f as Record<string, unknown>;
    if (typeof o.name !== 'string' || typeof o.type !== 'string') return [];
    const mode = o.mode === 'REQUIRED' || o.mode === 'REPEATED' ? o.mode : 'NULLABLE';
    return [{ name: o.name, type: o.type, mode, ...(typeof o.description === 'string' ? { description: o.description } : {}) }];
  });
}

/** A Table resource as the add-on needs it; an answer without a schema has no fields. */
export function tableResourceOf(json: Record<string, unknown>): TableResource {
  const schema = json.schema as Record<string, unknown> | undefined;
  const resource: TableResource = { fields: fieldsOf(schema?.fields) };
  const tp = json.timePartitioning as Record<string, unknown> | undefined;
  if (tp && typeof tp === 'object') {
    resource.timePartitioning = {
      ...(typeof tp.type === 'string' ? { type: tp.type } : {}),
      ...(typeof tp.field === 'string' ? { field: tp.field } : {}),
    };
  }
  const clustering = json.clustering as Record<string, unknown> | undefined;
  if (clustering && Array.isArray(clustering.fields)) resource.clustering = { fields: clustering.fields.map(String) };
  const partitionExpirationMs = msOf(tp?.expirationMs);
  if (partitionExpirationMs !== undefined) resource.partitionExpirationMs = partitionExpirationMs;
  const expirationTimeMs = msOf(json.expirationTime);
  if (expirationTimeMs !== undefined) resource.expirationTimeMs = expirationTimeMs;
  return resource;
}

/** An int64 field as BigQuery writes it (a decimal string, or a number), when it holds a positive count of milliseconds. */
function msOf(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const ms = Number(value);
  return Number.isFinite(ms) && ms > 0 && String(value).trim() !== '' ? ms : undefined;
}

/** A Dataset resource as the add-on needs it: its location and the expirations it gives new tables. */
export function datasetInfoOf(json: Record<string, unknown>): DatasetInfo {
  const partition = msOf(json.defaultPartitionExpirationMs);
  const table = msOf(json.defaultTableExpirationMs);
  return {
    location: typeof json.location === 'string' ? json.location : '',
    ...(partition !== undefined ? { defaultPartitionExpirationMs: partition } : {}),
    ...(table !== undefined ? { defaultTableExpirationMs: table } : {}),
  };
}

/** "project:dataset.table" of a TableReference, as BigQuery writes table names in its messages. */
function tableName(ref: unknown): string | undefined {
  if (ref === null || typeof ref !== 'object') return undefined;
  const { projectId, datasetId, tableId } = ref as Record<string, unknown>;
  return [projectId, datasetId, tableId].every((v) => typeof v === 'string') ? `${projectId}:${datasetId}.${tableId}` : undefined;
}

/** The table a job's configuration writes (load or copy destinationTable, decorator included), if any. */
export function jobDestination(configuration: unknown): string | undefined {
  const c = (configuration ?? {}) as Record<string, Record<string, unknown> | undefined>;
  return tableName((c.load ?? c.copy)?.destinationTable);
}

/** A Job resource's state; a job without a readable state is still RUNNING, so it is asked again. */
export function jobStateOf(json: Record<string, unknown>, jobId: string): JobState {
  const status = (json.status ?? {}) as Record<string, unknown>;
  const destination = jobDestination(json.configuration);
  const state = status.state === 'DONE' || status.state === 'PENDING' ? status.state : 'RUNNING';
  const errorResult = errorProtoOf(status.errorResult);
  const statistics = (json.statistics ?? {}) as Record<string, unknown>;
  const load = (statistics.load ?? {}) as Record<string, unknown>;
  const outputRows = Number(load.outputRows);
  return {
    jobId,
    state,
    ...(errorResult ? { errorResult } : {}),
    errors: Array.isArray(status.errors) ? status.errors : [],
    ...(Number.isFinite(outputRows) && load.outputRows !== undefined ? { outputRows } : {}),
    ...(destination !== undefined ? { destination } : {}),
  };
}

/** A multipart/related body of the job's JSON and the rows (Google's "multipart upload"), with a boundary found in neither. */
export function multipartBody(metadata: unknown, data: string): { boundary: string; body: string } {
  const json = JSON.stringify(metadata);
  let boundary = 'engage_load_boundary';
  for (let n = 1; json.includes(boundary) || data.includes(boundary); n++) boundary = `engage_load_boundary_${n}`;
  const body =
    `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${json}\r\n` +
    `--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\n${data}\r\n--${boundary}--\r\n`;
  return { boundary, body };
}
