/**
 * The public surface of the core: everything the Apps Script adapters, entry points and the sidebar
 * server may use. Files not re-exported here are private to the core.
 */
export * from './ports';
export * from './spec';
export * from './errors';
export { encodeBase64 } from './base64';
export {
  calendarDayInZone, formatDay, formatUtcHour, isValidTimeZone, parseDateText, zonedMidnightMs, zonedTimeToEpochMs,
  type CalendarDay, type DateInput,
} from './dates';
export { buildFilter, parseFilter, where, FILTER_OPERATORS, FilterSyntaxError, type FilterCondition, type FilterOperator, type ParsedFilterCondition } from './filters';
export { parseSort, type SortSpec } from './sort';
export { buildReportQuery, buildUrl, reportPageUrl, showValue, type ReportInput, type ReportQuery, type ValidationContext } from './report-request';
export { parseLoginToken, parseLookup, parseReportPage, type LookupEntry, type ReportPage } from './responses';
export { toNumberIfNumeric, unwrap, normaliseMetrics } from './values';
export { decideRetry, retryDelayMs, DEFAULT_RETRY_POLICY, RETRYABLE_STATUSES, type RetryPolicy, type RetryDecision, type AttemptOutcome } from './retry-policy';
export { RateLimiter, REPORT_RATE_RULE, LOGIN_RATE_RULE, type RateRule } from './rate-limiter';
export { RequestSender, type SendOptions } from './request-sender';
export { fetchReport, planRemainingPages, type PageFetcher, type PageRange, type PagingOptions, type ReportResult, type StopReason } from './paging';
export { EngageClient, DEFAULT_TIME_BUDGET_MS, DEFAULT_MAX_PARALLEL_REQUESTS, type EngageClientOptions, type CallOptions, type RunReportOptions } from './api-client';
export { buildReportTable, reportResultToTable, tableToValues, periodStartMs, TOTALS_LABEL, type ReportTable, type ReportTableOptions, type Cell } from './report-table';
export { TokenStore, TOKEN_STORE_KEY, type StoredToken } from './token-store';
