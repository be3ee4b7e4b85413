/**
 * The asynchronous half of the host's HTTP: performs plain-object requests with node:http(s), always
 * under a timeout, and classifies failures the way Apps Script reports them (timeout, DNS error,
 * address unavailable). The sync-fetch worker runs it behind Atomics; the execution-worker host runs it
 * directly on the main thread. Requests and responses are plain data so they cross threads unchanged.
 * node:http rather than fetch: reading a 7 MB report page through Node 20's fetch took about 400 ms
 * against 50 ms for the same page here, which would have made the host, not the add-on, the bottleneck.
 */
import http from 'node:http';
import https from 'node:https';

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
  /**
   * The body decoded as UTF-8, on first read. Not an own enumerable property: a response that crosses
   * to another thread carries only its bytes, and the text is decoded where it is wanted
   * (withText re-attaches it there), so a 7 MB page is decoded once and never copied as text.
   */
  readonly body: string;
  /** The raw body bytes (for binary payloads and other charsets). */
  bodyBytes: Uint8Array;
  elapsedMs: number;
}

/**
 * Why a request produced no response. Messages follow Apps Script's wording without the "Exception: "
 * prefix. NOT_ALLOWED (outside the manifest's whitelist) and QUOTA (the day's URL Fetch calls spent)
 * come from the host's UrlFetchApp, which refuses before sending; the others from the network.
 */
export type SyncFetchErrorCode = 'TIMEOUT' | 'DNS' | 'CONNECTION' | 'INVALID_REQUEST' | 'NOT_ALLOWED' | 'QUOTA';

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
  if (code === 'ERR_INVALID_URL' || (error instanceof TypeError && /invalid url|failed to parse url/i.test(String(error.message)))) {
    return { code: 'INVALID_REQUEST', message: `Invalid argument: ${url}`, url };
  }
  return { code: 'CONNECTION', message: `Address unavailable: ${url}`, url };
}

/**
 * A body's chunks in one buffer of shared memory, filled once (as Buffer.concat fills an ordinary one)
 * and never written again. An answer crosses from the fetch worker to the calling thread (and from
 * there to an execution's worker) as a message, which copies an ordinary buffer on both sides (half a
 * second and more for the 57 MB of eight 10,000-row report pages on a busy machine) and hands shared
 * memory over as it is. Apps Script's UrlFetchApp has no such hop between threads.
 */
function sharedBytes(chunks: readonly Buffer[]): Buffer {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const bytes = Buffer.from(new SharedArrayBuffer(length));
  let at = 0;
  for (const chunk of chunks) at += chunk.copy(bytes, at);
  return bytes;
}

/** Apps Script's UrlFetchApp identifies itself so; servers may log it. */
const USER_AGENT = 'Mozilla/5.0 (compatible; Google-Apps-Script)';
const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

interface RawAnswer {
  status: number;
  rawHeaders: string[];
  bytes: Buffer;
}

function once(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
    if (!client) {
      reject(Object.assign(new TypeError(`Invalid URL protocol: ${url.protocol}`), { code: 'ERR_INVALID_URL' }));
      return;
    }
    const outgoing: Record<string, string> = { 'user-agent': USER_AGENT, ...headers };
    if (body !== undefined) outgoing['content-length'] = String(body.length);
    const request = client.request(url, { method, headers: outgoing, signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, rawHeaders: response.rawHeaders, bytes: sharedBytes(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
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
    let method = (request.method ?? 'GET').toUpperCase();
    let body: Buffer | undefined =
      request.bodyBase64 !== undefined
        ? Buffer.from(request.bodyBase64, 'base64')
        : request.body !== undefined
          ? Buffer.from(request.body, 'utf8')
          : undefined;
    if (method === 'GET' || method === 'HEAD') body = undefined;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch (e) {
      throw Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL', cause: e });
    }
    let answer = await once(url, method, request.headers ?? {}, body, controller.signal);
    for (let hops = 0; request.followRedirects !== false && REDIRECT_STATUSES.has(answer.status) && hops < MAX_REDIRECTS; hops++) {
      const location = headerValue(answer.rawHeaders, 'location');
      if (!location) break;
      url = new URL(location, url);
      // As browsers and fetch do: 303, and 301/302 after a POST, continue as a GET without a body.
      if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      answer = await once(url, method, request.headers ?? {}, body, controller.signal);
    }
    const headerList: Array<[string, string]> = [];
    for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2)
      headerList.push([answer.rawHeaders[i]!.toLowerCase(), answer.rawHeaders[i + 1]!]);
    const headers: Record<string, string> = {};
    for (const [name, value] of headerList) headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    return {
      ok: true,
      response: withText({
        status: answer.status,
        url: url.toString(),
        headers,
        headerList,
        bodyBytes: new Uint8Array(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.length),
        elapsedMs: Date.now() - started,
      }),
    };
  } catch (error) {
    return { ok: false, error: classify(error, request.url, timedOut) };
  } finally {
    clearTimeout(timer);
  }
}

/** Gives a response (fresh, or just received from another thread) its lazily decoded `body`. */
export function withText(response: Omit<SyncFetchResponse, 'body'>): SyncFetchResponse {
  let text: string | undefined;
  Object.defineProperty(response, 'body', {
    get: () =>
      (text ??= Buffer.from(response.bodyBytes.buffer, response.bodyBytes.byteOffset, response.bodyBytes.byteLength).toString('utf8')),
    enumerable: false,
    configurable: true,
  });
  return response as SyncFetchResponse;
}

function headerValue(rawHeaders: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) return rawHeaders[i + 1];
  return undefined;
}

/** Performs all requests in parallel; outcomes come back in request order. */
export function performFetchAll(requests: SyncFetchRequest[]): Promise<SyncFetchOutcome[]> {
  return Promise.all(requests.map(performFetch));
}
