/**
 * Synchronous HTTP for Node, the transport behind the host's UrlFetchApp and reusable by any test that
 * needs a blocking HTTP call (for example core code written against a synchronous transport).
 *
 *   const http = createSyncFetch();
 *   const res = http.fetch({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
 *   res.status; res.headers['content-type']; res.body;
 *   const [a, b] = http.fetchAll([{ url: u1 }, { url: u2 }]);   // parallel, in request order
 *
 * A synckit worker thread performs the requests while the caller blocks on Atomics. Every request has a
 * timeout (default 60 s, like Apps Script; `timeoutMs` per request). fetch/fetchAll throw SyncFetchError
 * (code TIMEOUT, DNS, CONNECTION or INVALID_REQUEST) when no response arrives; any HTTP status, 4xx and
 * 5xx included, is a response. fetchAllSettled returns per-request outcomes instead of throwing.
 * The server must not run on the calling thread: it would never get to answer (run it in a child
 * process or another worker).
 */
import path from 'node:path';
import { createSyncFn } from 'synckit';
import {
  DEFAULT_FETCH_TIMEOUT_MS,
  MAX_FETCH_TIMEOUT_MS,
  type SyncFetchErrorCode,
  type SyncFetchOutcome,
  type SyncFetchRequest,
  type SyncFetchResponse,
  withText,
} from './fetch-core';
import { buildWorkerFile } from './worker-build';

export type { SyncFetchErrorCode, SyncFetchOutcome, SyncFetchRequest, SyncFetchResponse } from './fetch-core';
export { DEFAULT_FETCH_TIMEOUT_MS, MAX_FETCH_TIMEOUT_MS } from './fetch-core';

/** A request that produced no HTTP response. `message` uses Apps Script's wording ("Timeout: <url>"). */
export class SyncFetchError extends Error {
  readonly code: SyncFetchErrorCode;
  readonly url: string;
  constructor(code: SyncFetchErrorCode, message: string, url: string) {
    super(message);
    this.name = 'SyncFetchError';
    this.code = code;
    this.url = url;
  }
}

export interface SyncFetch {
  fetch(request: SyncFetchRequest): SyncFetchResponse;
  fetchAll(requests: SyncFetchRequest[]): SyncFetchResponse[];
  fetchAllSettled(requests: SyncFetchRequest[]): SyncFetchOutcome[];
}

export interface SyncFetchOptions {
  /** Timeout for requests that do not set `timeoutMs`; default 60000. */
  defaultTimeoutMs?: number;
}

// The per-request timeouts run inside the worker; this bound only guards against a dead worker.
const WORKER_BACKSTOP_MS = MAX_FETCH_TIMEOUT_MS + 15_000;

type BatchFn = (requests: SyncFetchRequest[]) => SyncFetchOutcome[];
let batchFn: BatchFn | undefined;

function workerBatch(): BatchFn {
  if (!batchFn) {
    const workerFile = buildWorkerFile(path.join(__dirname, 'sync-fetch-worker.ts'));
    batchFn = createSyncFn(workerFile, { timeout: WORKER_BACKSTOP_MS }) as unknown as BatchFn;
  }
  return batchFn;
}

function unwrap(outcome: SyncFetchOutcome): SyncFetchResponse {
  if (outcome.ok) return outcome.response;
  throw new SyncFetchError(outcome.error.code, outcome.error.message, outcome.error.url);
}

/** Creates a synchronous HTTP client; all clients share one worker thread, started on first use. */
export function createSyncFetch(options: SyncFetchOptions = {}): SyncFetch {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const withTimeout = (request: SyncFetchRequest): SyncFetchRequest => ({
    ...request,
    timeoutMs: request.timeoutMs ?? defaultTimeoutMs,
  });
  const fetchAllSettled = (requests: SyncFetchRequest[]): SyncFetchOutcome[] =>
    requests.length === 0
      ? []
      : workerBatch()(requests.map(withTimeout)).map((o) => (o.ok ? { ok: true, response: withText(o.response) } : o));
  return {
    fetch: (request) => unwrap(fetchAllSettled([request])[0]!),
    fetchAll: (requests) => fetchAllSettled(requests).map(unwrap),
    fetchAllSettled,
  };
}
