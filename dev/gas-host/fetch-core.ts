/**
 * The asynchronous half of the host's HTTP: performs plain-object requests with Node's fetch, always
 * under a timeout, and classifies failures the way Apps Script reports them (timeout, DNS error,
 * address unavailable). The sync-fetch worker runs it behind Atomics; the execution-worker host runs it
 * directly on the main thread. Requests and responses are plain data so they cross threads unchanged.
 */

/** One HTTP request. `body` is UTF-8 text unless `bodyBase64` carries raw bytes. */
export interface SyncFetchRequest {
  url: string;
  /** GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS; default GET. */
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  bodyBase64?: string;
  /** Abort after this many ms; default 60000, clamped to 1..300000 (always a timeout). */
  timeoutMs?: number;
  /** Follow 3xx responses (default true), like UrlFetchApp's followRedirects. */
  followRedirects?: boolean;
}

/** One HTTP response. Header names are lower case here; `headerList` keeps repeated headers apart. */
export interface SyncFetchResponse {
  status: number;
  url: string;
  headers: Record<string, string>;
  headerList: Array<[string, string]>;
  /** The body decoded as UTF-8. */
  body: string;
  /** The raw body bytes, base64 encoded (for binary payloads). */
  bodyBase64: string;
  elapsedMs: number;
}

/** Why a request produced no response. Messages follow Apps Script's wording without the "Exception: " prefix. */
export type SyncFetchErrorCode = 'TIMEOUT' | 'DNS' | 'CONNECTION' | 'INVALID_REQUEST';

export interface SyncFetchFailure {
  code: SyncFetchErrorCode;
  message: string;
  url: string;
}

export type SyncFetchOutcome = { ok: true; response: SyncFetchResponse } | { ok: false; error: SyncFetchFailure };

export const DEFAULT_FETCH_TIMEOUT_MS = 60_000;
export const MAX_FETCH_TIMEOUT_MS = 300_000;

function clampTimeout(timeoutMs: number | undefined): number {
  const requested = timeoutMs === undefined || !Number.isFinite(timeoutMs) ? DEFAULT_FETCH_TIMEOUT_MS : timeoutMs;
  return Math.min(MAX_FETCH_TIMEOUT_MS, Math.max(1, Math.floor(requested)));
}

function causeCode(error: unknown): string {
  // undici wraps the socket error: TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }).
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

function classify(error: unknown, url: string, timedOut: boolean): SyncFetchFailure {
  if (timedOut) return { code: 'TIMEOUT', message: `Timeout: ${url}`, url };
  const code = causeCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL') {
    return { code: 'DNS', message: `DNS error: ${url}`, url };
  }
  if (code === 'ERR_INVALID_URL' || error instanceof TypeError && /invalid url|failed to parse url/i.test(String(error.message))) {
    return { code: 'INVALID_REQUEST', message: `Invalid argument: ${url}`, url };
  }
  return { code: 'CONNECTION', message: `Address unavailable: ${url}`, url };
}

/** Performs one request; never rejects: failures come back as `{ ok: false }`. */
export async function performFetch(request: SyncFetchRequest): Promise<SyncFetchOutcome> {
  const timeoutMs = clampTimeout(request.timeoutMs);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const started = Date.now();
  try {
    const method = (request.method ?? 'GET').toUpperCase();
    const body = request.bodyBase64 !== undefined ? Buffer.from(request.bodyBase64, 'base64') : request.body;
    const response = await fetch(request.url, {
      method,
      headers: request.headers ?? {},
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
      redirect: request.followRedirects === false ? 'manual' : 'follow',
      signal: controller.signal,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const headerList: Array<[string, string]> = [];
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headerList.push([name, value]);
    });
    for (const cookie of response.headers.getSetCookie()) headerList.push(['set-cookie', cookie]);
    const headers: Record<string, string> = {};
    for (const [name, value] of headerList) headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    return {
      ok: true,
      response: {
        status: response.status,
        url: response.url || request.url,
        headers,
        headerList,
        body: bytes.toString('utf8'),
        bodyBase64: bytes.toString('base64'),
        elapsedMs: Date.now() - started,
      },
    };
  } catch (error) {
    return { ok: false, error: classify(error, request.url, timedOut) };
  } finally {
    clearTimeout(timer);
  }
}

/** Performs all requests in parallel; outcomes come back in request order. */
export function performFetchAll(requests: SyncFetchRequest[]): Promise<SyncFetchOutcome[]> {
  return Promise.all(requests.map(performFetch));
}
