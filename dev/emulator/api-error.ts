/**
 * The one error type of the emulator's request handling. Handlers throw it; the app turns it into
 * the service's error envelope `{moreInfo, errorMessage}` with its status, plus the rate-limit
 * headers when it is a 429. Keeping it a plain value object lets the pure report code (reports.ts)
 * fail without knowing about HTTP.
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

/** The operation names used in `moreInfo`. */
export const OPERATIONS = {
  login: 'login',
  publishers: 'getPublishers',
  widgets: 'getWidgets',
  nativeApps: 'getNativeApps',
  countries: 'getCountries',
  timezones: 'getTimezones',
  mainReport: 'getMainReport',
  externalIdReport: 'getExternalIdReport',
  realtimeReport: 'getRealtimeExternalIdReport',
  recommendations: 'getRecommendations',
  pixel: 'reportServed',
  unknown: 'unknownOperation',
} as const;
