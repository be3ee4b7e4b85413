/**
 * Failures Engage answered: an HTTP status mapped to a class (errorFromResponse in api/responses/http-errors.ts),
 * each carrying what support needs (status, moreInfo, errorMessage, the x-traceid).
 */
import { formatRetryTime } from '../util/dates';
import { EngageError, type EngageErrorCode } from './engage-error';

export interface ApiErrorDetails {
  status: number;
  /** Name of the failed operation, from the error body. */
  moreInfo?: string;
  /** The service's own message, from the error body. */
  errorMessage?: string;
  /** Value of the x-traceid response header: quote it to support. */
  traceId?: string;
  /** Raw response body, for logs. */
  body?: string;
  /** What the client was doing, for example "GET /reports/main". */
  operation?: string;
}

/** A failure answered by the Engage service (any non-2xx status without a more specific class). */
export class ApiError extends EngageError {
  readonly code: EngageErrorCode = 'API_ERROR';
  readonly status: number;
  readonly moreInfo: string | undefined;
  readonly errorMessage: string | undefined;
  readonly traceId: string | undefined;
  readonly body: string | undefined;
  readonly operation: string | undefined;

  constructor(details: ApiErrorDetails) {
    super(new.target.name);
    this.status = details.status;
    this.moreInfo = details.moreInfo;
    this.errorMessage = details.errorMessage;
    this.traceId = details.traceId;
    this.body = details.body;
    this.operation = details.operation;
  }

  protected summary(): string {
    return `Engage answered with an error (HTTP ${this.status}${this.detailSuffix()})`;
  }
  protected advice(): string {
    return 'try again later, and contact support if it persists';
  }
  protected detailSuffix(): string {
    return this.errorMessage ? `: ${this.errorMessage}` : '';
  }
  protected detail(): string {
    return this.errorMessage ? ` (${this.errorMessage})` : '';
  }
  userMessage(): string {
    const trace = this.traceId ? ` [trace ID ${this.traceId}]` : '';
    return `${this.summary()}: ${this.advice()}${trace}.`;
  }
}

export class BadRequestError extends ApiError {
  override readonly code = 'BAD_REQUEST' as const;
  protected override summary(): string {
    return `Engage rejected the request as malformed${this.detail()}`;
  }
  protected override advice(): string {
    return 'check the report parameters';
  }
}

export class AuthenticationError extends ApiError {
  override readonly code = 'AUTHENTICATION_FAILED' as const;
  protected override summary(): string {
    return `Engage did not accept the sign-in${this.detail()}`;
  }
  protected override advice(): string {
    return 'sign in again from the Engage sidebar (a token lasts 30 days and ends when the password changes)';
  }
}

/** GET /login refused the credentials: the user name or password is wrong, whatever a token's life. */
export class WrongCredentialsError extends AuthenticationError {
  protected override summary(): string {
    return 'The user name or password is wrong';
  }
  protected override advice(): string {
    return 'Engage did not accept them; check both and try again';
  }
}

/** A pasted token that Engage refused when it was checked; it was not kept. */
export class TokenNotAcceptedError extends AuthenticationError {
  protected override summary(): string {
    return 'Engage did not accept this token, so it was not saved';
  }
  protected override advice(): string {
    return 'copy the whole token from Engage’s web interface, or create a new one there';
  }
}

export class PermissionDeniedError extends ApiError {
  override readonly code = 'PERMISSION_DENIED' as const;
  protected override summary(): string {
    return `Engage denied access${this.detail()}`;
  }
  protected override advice(): string {
    return 'ask your account manager for access to this publisher';
  }
}

export class NotFoundError extends ApiError {
  override readonly code = 'NOT_FOUND' as const;
  protected override summary(): string {
    return `Engage could not find what was asked for${this.detail()}`;
  }
  protected override advice(): string {
    return 'check the publisher ID (entityId)';
  }
}

export class GatewayTimeoutError extends ApiError {
  override readonly code = 'GATEWAY_TIMEOUT' as const;
  protected override summary(): string {
    return `Engage took too long to answer${this.detail()}`;
  }
  protected override advice(): string {
    return 'try again in a few minutes or ask for a shorter date range';
  }
}

/**
 * A rate limit: either answered by the service (429) or refused locally before sending because the
 * shared budget (30 report requests a minute per publisher, 2 logins an hour per user) is spent and
 * the wait does not fit the time left.
 */
export class RateLimitError extends ApiError {
  override readonly code = 'RATE_LIMITED' as const;
  /** Epoch ms from which a new attempt should succeed, when known. */
  readonly retryAtMs: number | undefined;
  /** True when the client refused before sending anything. */
  readonly local: boolean;
  private readonly nowMs: number | undefined;
  private readonly limitDescription: string | undefined;

  constructor(d: ApiErrorDetails & { retryAtMs?: number; local?: boolean; nowMs?: number; limitDescription?: string }) {
    super(d);
    this.retryAtMs = d.retryAtMs;
    this.local = d.local ?? false;
    this.nowMs = d.nowMs;
    this.limitDescription = d.limitDescription;
  }
  protected override summary(): string {
    const what = this.limitDescription ? ` (${this.limitDescription})` : this.detail();
    return `Engage's rate limit was reached${what}`;
  }
  protected override advice(): string {
    return this.retryAtMs !== undefined ? `try again after ${formatRetryTime(this.retryAtMs, this.nowMs)}` : 'try again in a minute';
  }
}

/** A failure answered by the recommendations endpoint, with advice about the key, widget or address rather than the sign-in. */
export class RecommendationsApiError extends ApiError {
  override readonly code: EngageErrorCode;
  constructor(details: ApiErrorDetails) {
    super(details);
    const codes: Record<number, EngageErrorCode> = {
      400: 'BAD_REQUEST',
      401: 'AUTHENTICATION_FAILED',
      403: 'PERMISSION_DENIED',
      404: 'NOT_FOUND',
      429: 'RATE_LIMITED',
      504: 'GATEWAY_TIMEOUT',
    };
    this.code = codes[details.status] ?? 'API_ERROR';
  }
  protected override summary(): string {
    switch (this.status) {
      case 400:
        return `The recommendations endpoint rejected the request (HTTP 400${this.detailSuffix()})`;
      case 401:
        return `The recommendations endpoint did not accept the API key (HTTP 401${this.detailSuffix()})`;
      case 403:
        return `The recommendations endpoint denied access (HTTP 403${this.detailSuffix()})`;
      case 404:
        return `The recommendations endpoint was not found (HTTP 404${this.detailSuffix()})`;
      case 429:
        return `The recommendations endpoint's rate limit was reached (HTTP 429${this.detailSuffix()})`;
      default:
        return `The recommendations endpoint answered with an error (HTTP ${this.status}${this.detailSuffix()})`;
    }
  }
  protected override advice(): string {
    switch (this.status) {
      case 400:
        return 'check contentUrl, widgetJSId (a widget of your API key) and the keywords';
      case 401:
      case 403:
        return 'check the API key in the Engage sidebar under Settings';
      case 404:
        return 'check the recommendations address in the Engage sidebar under Settings';
      case 429:
        return 'try again in a minute';
      default:
        return 'try again later, and contact support if it persists';
    }
  }
}
