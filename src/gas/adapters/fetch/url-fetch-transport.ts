/**
 * The core's HttpTransport over UrlFetchApp. Every request is sent with muteHttpExceptions, so any
 * HTTP status comes back as a response for the core to map; only a failure to get an answer at all
 * throws, as a TransportError whose kind (fetch-failures.ts) says whether another attempt can help.
 * Header names are lowercased here so the core never folds case. Bodies are read as UTF-8, which JSON
 * must be (RFC 8259): getContentText() without a charset follows the Content-Type's, and an answer
 * without one (Engage's errors may say only `application/json`) would otherwise depend on Apps
 * Script's unstated default.
 */
import { type HttpRequest, type HttpResponse, type HttpTransport, manifestWhitelist, TransportError } from '../../../core';
import { DEPLOYMENT } from '../deployment';
import { failureKind } from './fetch-failures';

type FetchParams = GoogleAppsScript.URL_Fetch.URLFetchRequestOptions;

function toParams(request: HttpRequest): FetchParams {
  const params: FetchParams = {
    method: request.method,
    muteHttpExceptions: true,
    followRedirects: true,
  };
  if (request.headers) params.headers = request.headers;
  if (request.payload !== undefined) params.payload = request.payload;
  if (request.contentType !== undefined) params.contentType = request.contentType;
  return params;
}

function toResponse(response: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResponse {
  const headers: Record<string, string> = {};
  const all = response.getAllHeaders() as Record<string, string | string[]>;
  for (const name of Object.keys(all)) {
    const value = all[name];
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return { status: response.getResponseCode(), headers, body: response.getContentText('UTF-8') };
}

/**
 * `whitelist`: the prefixes its caller may call, named in a refusal (Engage's addresses by default; the
 * webhooks' for notices). Whether a failure is a refusal is read against the manifest's whole
 * urlFetchWhitelist, what Apps Script applies (Engage's, the webhooks' and, with "bigquery", BigQuery's
 * addresses): a lost connection to an address the manifest lists is a lost connection, never a refusal
 * (read against Engage's addresses alone, a DNS failure of BigQuery's once said the manifest did not
 * list BigQuery).
 */
export class UrlFetchTransport implements HttpTransport {
  private readonly manifestPrefixes: readonly string[] = manifestWhitelist(DEPLOYMENT);
  constructor(
    private readonly urlFetch: GoogleAppsScript.URL_Fetch.UrlFetchApp = UrlFetchApp,
    private readonly whitelist: readonly string[] = DEPLOYMENT.urlFetchWhitelist,
  ) {}

  fetch(request: HttpRequest): HttpResponse {
    try {
      return toResponse(this.urlFetch.fetch(request.url, toParams(request)));
    } catch (e) {
      throw this.transportError(e, [request.url]);
    }
  }

  fetchAll(requests: HttpRequest[]): HttpResponse[] {
    if (requests.length === 0) return [];
    try {
      return this.urlFetch.fetchAll(requests.map((r) => ({ url: r.url, ...toParams(r) }))).map(toResponse);
    } catch (e) {
      throw this.transportError(
        e,
        requests.map((r) => r.url),
      );
    }
  }

  private transportError(e: unknown, urls: readonly string[]): TransportError {
    const message = e instanceof Error ? e.message : String(e);
    const kind = failureKind(message, urls, this.manifestPrefixes);
    return new TransportError(message, { cause: e, kind, ...(kind === 'not-allowed' ? { allowedPrefixes: this.whitelist } : {}) });
  }
}
