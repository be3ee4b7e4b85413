/**
 * The resources the stand-in answers with, shaped as the REST reference gives Dataset, Table and Job:
 * int64 values as decimal strings, times in milliseconds since the epoch, `id` as
 * `project:dataset[.table]` and `project:LOCATION.job`, and `kind` set.
 */
import { rowCount, type StoredDataset, type StoredJob, type StoredTable } from './model/state';

export const API_ROOT = 'https://bigquery.googleapis.com/bigquery/v2';

function etagOf(value: unknown): string {
  let hash = 0;
  for (const char of JSON.stringify(value)) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return Buffer.from(String(hash >>> 0)).toString('base64');
}

export function datasetResource(dataset: StoredDataset): Record<string, unknown> {
  const body = {
    kind: 'bigquery#dataset',
    id: `${dataset.projectId}:${dataset.datasetId}`,
    selfLink: `${API_ROOT}/projects/${dataset.projectId}/datasets/${dataset.datasetId}`,
    datasetReference: { datasetId: dataset.datasetId, projectId: dataset.projectId },
    location: dataset.location,
    // int64 fields, written as decimal strings as the reference gives them.
    ...(dataset.defaultPartitionExpirationMs !== undefined
      ? { defaultPartitionExpirationMs: String(dataset.defaultPartitionExpirationMs) }
      : {}),
    ...(dataset.defaultTableExpirationMs !== undefined ? { defaultTableExpirationMs: String(dataset.defaultTableExpirationMs) } : {}),
    creationTime: String(dataset.creationTimeMs),
    lastModifiedTime: String(dataset.creationTimeMs),
    type: 'DEFAULT',
  };
  return { ...body, etag: etagOf(body) };
}

export function tableResource(table: StoredTable, location: string): Record<string, unknown> {
  const filled = [...table.partitions.values()].filter((partition) => partition.rows.length > 0);
  const bytes = filled.reduce((sum, partition) => sum + partition.bytes, 0);
  const body = {
    ...table.extra,
    kind: 'bigquery#table',
    id: `${table.projectId}:${table.datasetId}.${table.tableId}`,
    selfLink: `${API_ROOT}/projects/${table.projectId}/datasets/${table.datasetId}/tables/${table.tableId}`,
    tableReference: { projectId: table.projectId, datasetId: table.datasetId, tableId: table.tableId },
    schema: { fields: table.schema },
    ...(table.timePartitioning ? { timePartitioning: table.timePartitioning } : {}),
    ...(table.clustering ? { clustering: table.clustering } : {}),
    numRows: String(rowCount(table)),
    numBytes: String(bytes),
    ...(table.timePartitioning ? { numPartitions: String(filled.length) } : {}),
    creationTime: String(table.creationTimeMs),
    lastModifiedTime: String(table.lastModifiedTimeMs),
    type: 'TABLE',
    location,
  };
  return { ...body, etag: etagOf(body) };
}

export function jobResource(job: StoredJob): Record<string, unknown> {
  const status: Record<string, unknown> = { state: job.state };
  if (job.errorResult) status.errorResult = job.errorResult;
  if (job.errors) status.errors = job.errors;
  const statistics: Record<string, unknown> = { creationTime: String(job.creationTimeMs) };
  if (job.startTimeMs !== undefined) statistics.startTime = String(job.startTimeMs);
  if (job.endTimeMs !== undefined) statistics.endTime = String(job.endTimeMs);
  if (job.state === 'DONE' && job.configuration.copy !== undefined) {
    // JobStatistics5 (statistics.copy): the rows the copy wrote; none when it failed.
    statistics.copy = { copiedRows: String(job.outputRows ?? 0) };
  } else if (job.state === 'DONE') {
    statistics.load = {
      inputFiles: '1',
      inputFileBytes: String(Buffer.byteLength(job.data)),
      outputRows: String(job.outputRows ?? 0),
      badRecords: String(job.badRecords ?? 0),
    };
  }
  const body = {
    kind: 'bigquery#job',
    id: `${job.projectId}:${job.location}.${job.jobId}`,
    selfLink: `${API_ROOT}/projects/${job.projectId}/jobs/${job.jobId}?location=${job.location}`,
    jobReference: { projectId: job.projectId, jobId: job.jobId, location: job.location },
    configuration: job.configuration,
    statistics,
    status,
  };
  return { ...body, etag: etagOf(body) };
}
