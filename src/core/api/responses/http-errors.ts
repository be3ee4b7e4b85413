/**
 * Reading an error answer of the Engage service: its body (`{moreInfo, errorMessage}`, or whatever a
 * proxy sent), the wait a 429 announces, and the error class its status maps to (errors/), with the
 * trace id support asks for.
 */
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  GatewayTimeoutError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type ApiErrorDetails,
} from '../../errors';
import type { HttpResponse } from '../../ports';
import { RATE_LIMIT_WAIT_HEADER, TRACE_ID_HEADER } from '../../spec';

/** Reads `{moreInfo, errorMessage}` from an error body, tolerating other shapes and non-JSON. */
export function parseErrorBody(body: string): { moreInfo?: string; errorMessage?: string } {
  const text = body.trim();
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const o = parsed as Record<string, unknown>;
      const str = (v: unknown) => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined);
      const result: { moreInfo?: string; errorMessage?: string } = {};
      const moreInfo = str(o.moreInfo);
      const errorMessage = str(o.errorMessage) ?? str(o.message) ?? str(o.error);
      if (moreInfo) result.moreInfo = moreInfo;
      if (errorMessage) result.errorMessage = errorMessage;
      return result;
    }
    if (typeof parsed === 'string') return { errorMessage: parsed };
  } catch {
    // Not JSON: a proxy or gateway page; keep a short excerpt as the message.
  }
  return { errorMessage: text.length > 200 ? `${text.slice(0, 200)}...` : text };
}

/** Milliseconds to wait announced by a 429 (rate-limit-msec-left in ms, else Retry-After in s). */
export function announcedWaitMs(headers: Record<string, string>): number | undefined {
  const msLeft = headers[RATE_LIMIT_WAIT_HEADER];
  if (msLeft !== undefined && msLeft.trim() !== '') {
    const n = Number(msLeft);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(retryAfter)) return Number(retryAfter) * 1000;
  return undefined;
}

/** Maps an error answer to its class. `nowMs` lets a 429 say when to try again. */
export function errorFromResponse(response: HttpResponse, operation?: string, nowMs?: number): ApiError {
  const { moreInfo, errorMessage } = parseErrorBody(response.body);
  const details: ApiErrorDetails = { status: response.status, body: response.body };
  if (moreInfo !== undefined) details.moreInfo = moreInfo;
  if (errorMessage !== undefined) details.errorMessage = errorMessage;
  const traceId = response.headers[TRACE_ID_HEADER];
  if (traceId) details.traceId = traceId;
  if (operation !== undefined) details.operation = operation;
  switch (response.status) {
    case 400:
      return new BadRequestError(details);
    case 401:
      return new AuthenticationError(details);
    case 403:
      return new PermissionDeniedError(details);
    case 404:
      return new NotFoundError(details);
    case 429: {
      const waitMs = announcedWaitMs(response.headers);
      const extra: { retryAtMs?: number; nowMs?: number } = {};
      if (nowMs !== undefined) {
        extra.nowMs = nowMs;
        if (waitMs !== undefined) extra.retryAtMs = nowMs + waitMs;
      }
      return new RateLimitError({ ...details, ...extra });
    }
    case 504:
      return new GatewayTimeoutError(details);
    default:
      return new ApiError(details);
  }
}
