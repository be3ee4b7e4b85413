/**
 * BigQuery's answers turned into one sentence. BigQuery's REST errors carry
 * `{"error": {"code", "message", "status", "errors": [{"reason", "message", "location"}]}}` (Google's
 * JSON error format, cloud.google.com/bigquery/docs/error-messages); a job that finished badly has
 * `status.errorResult` of the same `{reason, message}` shape, and `status.errors` for each row at
 * fault. Every field is read defensively: a proxy's HTML page, an empty body or a partial object
 * still gives a sentence with the status. The user's token never enters a message.
 */
import { EngageError, type EngageErrorCode } from '../errors';
import type { Permission } from '../consent';
import { BIGQUERY_READONLY_SCOPE, BIGQUERY_SCOPE } from '../deployment';

/** BigQuery's permission (its two scopes), which a report loading into a table needs beside Engage's (consent.ts). */
export const BIGQUERY_PERMISSION: Permission = {
  name: 'bigquery',
  scopes: [BIGQUERY_SCOPE, BIGQUERY_READONLY_SCOPE],
  words: 'view and manage your data in BigQuery',
  serves: 'loads into BigQuery and Open in Sheets use it',
};

/** One entry of BigQuery's ErrorProto. */
export interface BigQueryErrorProto {
  reason?: string;
  message?: string;
  location?: string;
}

/** The most a message quotes of BigQuery's own text. */
const QUOTED_MESSAGE_MAX_CHARS = 300;

/** BigQuery's text on one line, cut to QUOTED_MESSAGE_MAX_CHARS, in quotes (control characters are whitespace here). */
function quotedText(text: string): string {
  let visible = '';
  for (const c of text) visible += c < ' ' || c === '\u007f' ? ' ' : c;
  const one = visible.replace(/\s+/g, ' ').trim();
  return `'${one.length > QUOTED_MESSAGE_MAX_CHARS ? `${one.slice(0, QUOTED_MESSAGE_MAX_CHARS)}...` : one}'`;
}

/** An ErrorProto from anything: only string fields are kept. */
export function errorProtoOf(value: unknown): BigQueryErrorProto | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const proto: BigQueryErrorProto = {};
  for (const key of ['reason', 'message', 'location'] as const) if (typeof o[key] === 'string') proto[key] = o[key] as string;
  return proto.reason === undefined && proto.message === undefined ? undefined : proto;
}

/** The error of a BigQuery answer body: its first reason and its message, whatever the body holds. */
export function parseErrorBody(body: string): { reason?: string; message?: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return {};
  }
  const error = json !== null && typeof json === 'object' ? (json as Record<string, unknown>).error : undefined;
  if (typeof error === 'string') return { message: error };
  if (error === null || typeof error !== 'object') return {};
  const e = error as Record<string, unknown>;
  const first = Array.isArray(e.errors) ? errorProtoOf(e.errors[0]) : undefined;
  const message = typeof e.message === 'string' ? e.message : first?.message;
  const reason = first?.reason ?? (typeof e.status === 'string' ? e.status : undefined);
  return { ...(reason !== undefined ? { reason } : {}), ...(message !== undefined ? { message } : {}) };
}

/** A failure BigQuery answered, or a load that did not finish; one sentence naming what was asked. */
export class BigQueryError extends EngageError {
  readonly code: EngageErrorCode;
  constructor(
    /** What was asked, such as "loading 2025-01-31 into my-project.engage.daily". */
    readonly operation: string,
    /** What went wrong and what to do, without a trailing period. */
    readonly problem: string,
    code: EngageErrorCode = 'API_ERROR',
    readonly status?: number,
    readonly reason?: string,
  ) {
    super('BigQueryError');
    this.code = code;
  }
  userMessage(): string {
    return `BigQuery, ${this.operation}: ${this.problem}.`;
  }
}

/**
 * A 403 for the token's scopes, not for the account's roles: Google's `insufficientPermissions` reason
 * ("Request had insufficient authentication scopes"), or ACCESS_TOKEN_SCOPE_INSUFFICIENT in the answer's
 * ErrorInfo details (cloud.google.com/apis/design/errors). A user may have withheld BigQuery's scope.
 */
function scopeRefused(reason: string | undefined, body: string): boolean {
  return (
    reason === 'insufficientPermissions' ||
    reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' ||
    body.includes('"ACCESS_TOKEN_SCOPE_INSUFFICIENT"')
  );
}

/** What to tell of an HTTP answer BigQuery gave with an error status. */
export function httpFailure(operation: string, status: number, body: string): BigQueryError {
  const { reason, message } = parseErrorBody(body);
  const said = message ? ` (BigQuery says ${quotedText(message)})` : '';
  let problem: string;
  let code: EngageErrorCode = 'API_ERROR';
  if (status === 401) {
    code = 'AUTHENTICATION_FAILED';
    problem = `Google did not accept the add-on's access to BigQuery${said}; open the add-on again and allow BigQuery when Google asks`;
  } else if (status === 403 && (reason === 'quotaExceeded' || reason === 'rateLimitExceeded')) {
    code = 'RATE_LIMITED';
    problem = `a BigQuery quota of the project is spent${said}; the next run tries again`;
  } else if (status === 403 && scopeRefused(reason, body)) {
    code = 'PERMISSION_NOT_GRANTED';
    problem =
      `the add-on's access lacks a permission${said}: you have not allowed Engage for Sheets to ${BIGQUERY_PERMISSION.words}; ` +
      "open the add-on's menu again and allow it when Google asks (no BigQuery role is missing)";
  } else if (status === 403) {
    code = 'PERMISSION_DENIED';
    problem = `your Google account may not do this in the project${said}; ask its owner for the BigQuery Data Editor and Job User roles`;
  } else if (status === 404) {
    code = 'NOT_FOUND';
    problem = `not found${said}`;
  } else if (status === 429) {
    code = 'RATE_LIMITED';
    problem = `too many requests${said}; the next run tries again`;
  } else if (status >= 500) {
    problem = `BigQuery failed (HTTP ${status})${said}; the next run tries again`;
  } else {
    problem = `BigQuery refused the request (HTTP ${status})${said}`;
  }
  return new BigQueryError(operation, problem, code, status, reason);
}

/** A job that finished with an errorResult: its reason, message and the first row-level errors. */
export function jobFailure(operation: string, jobId: string, errorResult: BigQueryErrorProto, errors: readonly unknown[]): BigQueryError {
  const details = errors
    .map(errorProtoOf)
    .filter((e): e is BigQueryErrorProto => e !== undefined && e.message !== errorResult.message)
    .slice(0, 3)
    .map((e) => quotedText(e.message ?? e.reason ?? ''));
  const said = errorResult.message ? `: ${quotedText(errorResult.message)}` : '';
  const more = details.length > 0 ? ` (also ${details.join(', ')})` : '';
  return new BigQueryError(
    operation,
    `job ${jobId} failed${errorResult.reason ? ` (${errorResult.reason})` : ''}${said}${more}; the table is as it was before this load`,
    'API_ERROR',
    undefined,
    errorResult.reason,
  );
}
