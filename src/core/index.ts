/**
 * The public surface of the core: everything the Apps Script adapters, entry points and the sidebar
 * server may use. Files not re-exported here are private to the core.
 */
export * from './ports';
export * from './spec';
export * from './errors';
export * from './budgets';
export { encodeBase64 } from './util/base64';
export {
  calendarDayInZone, formatDay, formatUtcHour, isValidTimeZone, parseDateText, zonedMidnightMs, zonedTimeToEpochMs,
  type CalendarDay, type DateInput,
} from './util/dates';
export { buildFilter, parseFilter, where, FILTER_OPERATORS, type FilterCondition, type FilterOperator, type ParsedFilterCondition } from './api/filters';
export { parseSort, type SortSpec } from './api/sort';
export { buildReportQuery, buildUrl, reportPageUrl, showValue, type ReportInput, type ReportQuery, type ValidationContext } from './api/report-request';
export { parseLoginToken, parseLookup, parseReportPage, type LookupEntry, type ReportPage } from './api/responses';
export { toNumberIfNumeric, unwrap, normaliseMetrics } from './api/values';
export { decideRetry, retryDelayMs, DEFAULT_RETRY_POLICY, RETRYABLE_STATUSES, type RetryPolicy, type RetryDecision, type AttemptOutcome } from './api/retry-policy';
export { RateLimiter, REPORT_RATE_RULE, LOGIN_RATE_RULE, type RateRule } from './api/rate-limiter';
export { RequestSender, type SendOptions } from './api/request-sender';
export { fetchReport, planRemainingPages, type PageFetcher, type PageRange, type PagingOptions, type ReportResult, type StopReason } from './api/paging';
export { EngageClient, DEFAULT_MAX_PARALLEL_REQUESTS, type EngageClientOptions, type CallOptions, type RunReportOptions } from './api/engage-client';
export {
  buildReportTable, reportResultToTable, tableToValues, periodStartMs, TOTALS_LABEL, type ReportTable,
  type ReportTableOptions,
} from './sheets/report-table';
export { TokenStore, TOKEN_STORE_KEY, type StoredToken } from './addon/token-store';
export { FilterSyntaxError } from './errors';
export type { Cell } from './ports';
