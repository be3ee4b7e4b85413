/**
 * The one error type of the stand-ins' request handling, shared by the Engage emulator and the
 * BigQuery stand-in's test controls. Handlers throw it; the emulator's app turns it into the service's
 * error envelope `{moreInfo, errorMessage}` with its status, plus the rate-limit headers when it is a
 * 429. Keeping it a plain value object lets pure code (the emulator's reports) fail without knowing
 * about HTTP.
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 429 | 500 | 502 | 503 | 504,
    /** Name of the operation that failed, as the service puts it in `moreInfo`. */
    readonly operation: string,
    message: string,
    /** For 429: milliseconds until a request would be allowed again. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
