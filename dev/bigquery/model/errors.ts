/**
 * BigQuery's error value and its wire shape. Google APIs answer an error as
 * `{error: {code, message, errors: [{message, domain, reason, location?, locationType?}], status}}`
 * (https://cloud.google.com/bigquery/docs/error-messages lists the reasons and their HTTP codes); a
 * load job that fails answers 200 and carries the same ErrorProto values in `status.errorResult` and
 * `status.errors`. Handlers throw BigQueryError; routes.ts turns it into the shape.
 */
export type BigQueryReason =
  | 'invalid'
  | 'notFound'
  | 'duplicate'
  | 'badRequest'
  | 'required'
  | 'authError'
  | 'backendError'
  | 'rateLimitExceeded'
  | 'quotaExceeded'
  | 'stopped';

/** The HTTP status each reason answers with, from the error-messages page's table. */
const STATUS_OF_REASON: Record<BigQueryReason, number> = {
  invalid: 400,
  badRequest: 400,
  notFound: 404,
  duplicate: 409,
  required: 401,
  authError: 401,
  backendError: 500,
  rateLimitExceeded: 403,
  quotaExceeded: 403,
  stopped: 200,
};

/** google.rpc.Code names that go with the HTTP statuses (the `status` field). */
const RPC_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  413: 'INVALID_ARGUMENT',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export interface ErrorProto {
  reason: string;
  message: string;
  location?: string;
  debugInfo?: string;
}

export class BigQueryError extends Error {
  readonly httpStatus: number;
  constructor(
    readonly reason: BigQueryReason,
    message: string,
    options: { httpStatus?: number; location?: string; locationType?: string } = {},
  ) {
    super(message);
    this.httpStatus = options.httpStatus ?? STATUS_OF_REASON[reason];
    this.location = options.location;
    this.locationType = options.locationType;
  }
  readonly location?: string;
  readonly locationType?: string;

  toProto(): ErrorProto {
    return { reason: this.reason, message: this.message, ...(this.location ? { location: this.location } : {}) };
  }

  toBody(): { error: Record<string, unknown> } {
    const detail: Record<string, string> = { message: this.message, domain: 'global', reason: this.reason };
    if (this.location) detail.location = this.location;
    if (this.locationType) detail.locationType = this.locationType;
    return {
      error: {
        code: this.httpStatus,
        message: this.message,
        errors: [detail],
        status: RPC_STATUS[this.httpStatus] ?? 'UNKNOWN',
      },
    };
  }
}
