/**
 * UrlFetchApp: builds requests as Apps Script does from the script's parameters (payload encoding,
 * content type, the 2 KB URL limit), sends them through the host state (whitelist, daily quota, the
 * HTTP itself), and wraps answers as HTTPResponses. A request's timeout is the smaller of the host's
 * per-request limit and, on a real clock, the time the execution has left: a request cut by the
 * deadline ends the execution. An unmuted non-2xx answer throws with Apps Script's message.
 */
import { withText, type SyncFetchOutcome, type SyncFetchRequest } from '../fetch/fetch-core';
import type { Blobs } from './blob';
import { bytesToBuffer, fromRealm, type FacadeKit } from './kit';

const TRUNCATED_RESPONSE_CHARS = 1000;
/** Google's UrlFetchApp reference: fetch and fetchAll "require" this scope. */
const EXTERNAL_REQUEST = ['https://www.googleapis.com/auth/script.external_request'];

type ScriptRequest = SyncFetchRequest & { muted: boolean };

/**
 * The text of a body as `getContentText(charset?)` gives it: in the charset named, else in the one the
 * response's Content-Type names, else in ISO-8859-1. Google's reference says only "encoded as a
 * string"; the last default is UNCONFIRMED and the stricter reading (a UTF-8 answer without a charset,
 * such as Fastify's `application/json` errors, comes out garbled unless the script names UTF-8).
 */
export function decodeBody(bytes: Buffer, contentType: string | undefined, charset?: string): string {
  const named = charset ?? /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ?? 'ISO-8859-1';
  if (/^utf-?8$/i.test(named)) return bytes.toString('utf8');
  if (/^(iso-8859-1|latin1|us-ascii)$/i.test(named)) return bytes.toString('latin1');
  try {
    return new TextDecoder(named).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

function titleCaseHeader(name: string): string {
  return name
    .split('-')
    .map((part) => (part ? part[0]!.toUpperCase() + part.slice(1).toLowerCase() : part))
    .join('-');
}

/**
 * The quotas page: "URL Fetch POST size: 50 MB / call". Taken as 50,000,000 bytes, the stricter of its
 * two readings (the add-on plans its BigQuery uploads within the same figure). The refusal's wording is
 * UNCONFIRMED: it follows the URL length's ("Limit Exceeded: URLFetch URL Length.").
 */
export const POST_SIZE_LIMIT_BYTES = 50_000_000;

/** A request as Apps Script builds it from the script's url and params; refused past the URL or POST size limits. */
function buildRequest(kit: FacadeKit, urlArg: unknown, paramsArg: unknown): ScriptRequest {
  const params = (fromRealm(paramsArg ?? {}) ?? {}) as Record<string, unknown>;
  const url = String(urlArg);
  if (url.length > kit.settings.urlLengthLimit) throw kit.realmError('Exception', 'Limit Exceeded: URLFetch URL Length.');
  if (!/^https?:\/\//i.test(url)) throw kit.realmError('Exception', `Invalid argument: ${url}`);
  const method = String(params.method ?? 'get').toUpperCase();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries((params.headers ?? {}) as Record<string, unknown>)) headers[k] = String(v);
  const rawPayload = (paramsArg as { payload?: { getBytes?: () => number[]; getContentType?: () => string | null } } | undefined)?.payload;
  if (rawPayload && typeof rawPayload.getBytes === 'function') {
    // A Blob payload is sent as its bytes, with its own content type unless one is given.
    params.payload = bytesToBuffer(fromRealm(rawPayload.getBytes())).toString('utf8');
    if (params.contentType === undefined && typeof rawPayload.getContentType === 'function')
      params.contentType = rawPayload.getContentType() ?? undefined;
  }
  const body = payloadBody(kit, params, headers);
  return { url, method, headers, body, followRedirects: params.followRedirects !== false, muted: params.muteHttpExceptions === true };
}

/** The payload as the body's text (a form's fields URL-encoded), setting the content type it goes with. */
function payloadBody(kit: FacadeKit, params: Record<string, unknown>, headers: Record<string, string>): string | undefined {
  const payload = params.payload;
  if (payload === undefined || payload === null) {
    if (params.contentType !== undefined) headers['Content-Type'] = String(params.contentType);
    return undefined;
  }
  let body: string;
  if (typeof payload === 'string') body = payload;
  else if (Array.isArray(payload)) body = bytesToBuffer(payload).toString('utf8');
  else {
    body = Object.entries(payload as Record<string, unknown>)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
  }
  if (Buffer.byteLength(body, 'utf8') > POST_SIZE_LIMIT_BYTES) throw kit.realmError('Exception', 'Limit Exceeded: URLFetch POST Size.');
  const hasContentType = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type');
  if (!hasContentType) headers['Content-Type'] = String(params.contentType ?? 'application/x-www-form-urlencoded');
  return body;
}

/** An HTTPResponse of an outcome; no answer, or an unmuted non-2xx one, throws with Apps Script's message. */
function httpResponse(kit: FacadeKit, blobs: Blobs, outcome: SyncFetchOutcome, muted: boolean, url: string) {
  if (!outcome.ok) throw kit.realmError('Exception', outcome.error.message);
  // A response from another thread arrives as bytes only: give it its text again (decoded on first use).
  const res = 'body' in outcome.response ? outcome.response : withText(outcome.response);
  if (!muted && (res.status < 200 || res.status > 299)) {
    const origin = (() => {
      try {
        const u = new URL(url);
        return `${u.protocol}//${u.host}`;
      } catch {
        return url;
      }
    })();
    throw kit.realmError(
      'Exception',
      `Request failed for ${origin} returned code ${res.status}. Truncated server response: ${res.body.slice(0, TRUNCATED_RESPONSE_CHARS)} (use muteHttpExceptions option to examine full response)`,
    );
  }
  const bytes = Buffer.from(res.bodyBytes.buffer, res.bodyBytes.byteOffset, res.bodyBytes.byteLength);
  return kit.api('HTTPResponse', {
    getResponseCode: () => res.status,
    getContentText: (charset?: string) =>
      decodeBody(bytes, res.headers['content-type'], charset === undefined ? undefined : String(charset)),
    getContent: () => kit.toSignedBytes(bytes),
    getHeaders: () => {
      const out: Record<string, string> = {};
      for (const [name, value] of res.headerList) out[titleCaseHeader(name)] = value;
      return out;
    },
    getAllHeaders: () => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of res.headerList) {
        const key = titleCaseHeader(name);
        const existing = out[key];
        out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
      }
      return out;
    },
    getBlob: () => blobs.make(bytes, res.headers['content-type'] ?? null, null),
    getAs: () => blobs.make(bytes, res.headers['content-type'] ?? null, null),
  });
}

/** Sends the requests through the host state, each with the timeout the execution's time allows. */
function runFetches(kit: FacadeKit, blobs: Blobs, requests: ScriptRequest[]) {
  const { clock, request, settings } = kit;
  const remaining = request.deadline - clock.now();
  // In real time, a request still in flight when the execution's time is up ends the execution.
  const bound = clock.virtual ? settings.fetchTimeoutMs : Math.min(settings.fetchTimeoutMs, Math.max(1, remaining));
  const limitedByDeadline = !clock.virtual && bound < settings.fetchTimeoutMs;
  const plain = requests.map(({ muted: _muted, ...rest }) => rest);
  const outcomes = kit.ops.urlFetch(plain, bound);
  if (limitedByDeadline && outcomes.some((o) => !o.ok && o.error.code === 'TIMEOUT')) kit.expire();
  kit.tick();
  return outcomes.map((outcome, i) => httpResponse(kit, blobs, outcome, requests[i]!.muted, requests[i]!.url));
}

export function urlFetchService(kit: FacadeKit, blobs: Blobs) {
  return kit.api('UrlFetchApp', {
    fetch: (url: string, params?: unknown) => {
      kit.guard('fetch', 'UrlFetchApp.fetch');
      kit.requireScopes('UrlFetchApp.fetch', EXTERNAL_REQUEST);
      return runFetches(kit, blobs, [buildRequest(kit, url, params)])[0];
    },
    fetchAll: (requests: unknown[]) => {
      kit.guard('fetch', 'UrlFetchApp.fetchAll');
      kit.requireScopes('UrlFetchApp.fetchAll', EXTERNAL_REQUEST);
      const list = (Array.isArray(requests) ? requests : []).map((r) => {
        if (typeof r === 'string') return buildRequest(kit, r, {});
        const obj = fromRealm(r) as Record<string, unknown>;
        return buildRequest(kit, obj.url, obj);
      });
      return runFetches(kit, blobs, list);
    },
    getRequest: (url: string, params?: unknown) => {
      kit.guard('fetch', 'UrlFetchApp.getRequest');
      const built = buildRequest(kit, url, params);
      return {
        url: built.url,
        method: (built.method ?? 'GET').toLowerCase(),
        headers: built.headers,
        payload: built.body ?? '',
        followRedirects: built.followRedirects,
        muteHttpExceptions: built.muted,
      };
    },
  });
}
