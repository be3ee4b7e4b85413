/**
 * A thin client for the BigQuery stand-in's contract tests: it sends exactly the HTTP requests a
 * test describes (Google's paths, a Bearer token, a multipart/related upload built by hand) and
 * checks BigQuery's error shape, so the tests observe the stand-in over real HTTP and through no
 * production code.
 */
import { request, type HttpResult } from './contract-client';
import type { BigQueryHandle } from '../support/bigquery';

export const PROJECT = 'engage-analytics';
export const DATASET = 'engage_eu';
export const BEARER = { Authorization: 'Bearer ya29.stand-in-token' };

export function bqGet(bq: BigQueryHandle, path: string, headers: Record<string, string> = BEARER): Promise<HttpResult> {
  return request(`${bq.rootUrl}/bigquery/v2${path}`, { headers });
}

export function bqPost(bq: BigQueryHandle, path: string, body: unknown, headers: Record<string, string> = BEARER): Promise<HttpResult> {
  return request(`${bq.rootUrl}/bigquery/v2${path}`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A multipart/related body: the Job as JSON, then the data (RFC 2046, CRLF line ends). */
export function multipartBody(job: unknown, data: string, boundary = 'standin_boundary'): { body: string; contentType: string } {
  const body = [
    `--${boundary}`,
    'Content-Type: application/json; charset=UTF-8',
    '',
    JSON.stringify(job),
    `--${boundary}`,
    'Content-Type: application/octet-stream',
    '',
    data,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return { body, contentType: `multipart/related; boundary=${boundary}` };
}

export function ndjson(rows: unknown[]): string {
  return rows.map((row) => JSON.stringify(row)).join('\n');
}

/** jobs.insert through the upload URL; `job` is the whole Job body. */
export function uploadJob(bq: BigQueryHandle, job: unknown, data: string, headers: Record<string, string> = BEARER): Promise<HttpResult> {
  const { body, contentType } = multipartBody(job, data);
  return request(`${bq.rootUrl}/upload/bigquery/v2/projects/${PROJECT}/jobs?uploadType=multipart`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': contentType },
    body,
  });
}

/** A load Job body into `tableId` (decorator allowed) of the test dataset. */
export function loadJob(
  tableId: string,
  load: Record<string, unknown> = {},
  jobReference?: Record<string, unknown>,
): Record<string, unknown> {
  return {
    ...(jobReference ? { jobReference } : {}),
    configuration: {
      load: {
        destinationTable: { projectId: PROJECT, datasetId: DATASET, tableId },
        sourceFormat: 'NEWLINE_DELIMITED_JSON',
        ...load,
      },
    },
  };
}

/** Checks BigQuery's error shape and returns {code, reason, message}. */
export function bigQueryError(result: HttpResult): { code: number; reason: string; message: string; status: string } {
  const error = result.body?.error;
  expect(Object.keys(result.body ?? {})).toEqual(['error']);
  expect(error.code).toBe(result.status);
  expect(typeof error.message).toBe('string');
  expect(typeof error.status).toBe('string');
  expect(error.errors).toHaveLength(1);
  expect(error.errors[0]).toEqual(expect.objectContaining({ domain: 'global', message: error.message }));
  return { code: error.code, reason: error.errors[0].reason, message: error.message, status: error.status };
}

export const DAILY_SCHEMA = {
  fields: [
    { name: 'day', type: 'DATE', mode: 'REQUIRED' },
    { name: 'publisher_id', type: 'STRING', mode: 'REQUIRED' },
    { name: 'country', type: 'STRING' },
    { name: 'page_views', type: 'INT64' },
    { name: 'revenue', type: 'NUMERIC' },
    { name: 'ctr', type: 'FLOAT64' },
  ],
};

export function dailyTable(tableId: string): Record<string, unknown> {
  return {
    tableReference: { projectId: PROJECT, datasetId: DATASET, tableId },
    schema: DAILY_SCHEMA,
    timePartitioning: { type: 'DAY', field: 'day' },
    clustering: { fields: ['publisher_id', 'country'] },
  };
}
