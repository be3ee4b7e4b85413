/**
 * Fetching a whole report with as few requests as the spec allows: the first page asks for a full
 * page (the report's maximum `limit`) and learns `totalItems`; the remaining pages then go out
 * together through the transport's batch call, in groups as large as the rate budget allows. So a
 * report of N rows costs exactly ceil(N / page size) requests. A caller's `maxRows` bounds it (only
 * the rows needed are asked for), and the result says when it stopped early and why, never silently.
 */
import { RateLimitError, ValidationError } from '../errors';
import type { RateReservation } from './rate-limiter';
import type { ReportQuery } from './report-request';
import type { ReportPage } from './responses';

export interface PageRange {
  offset: number;
  limit: number;
}

/** What paging needs from the client; the client implements it. */
export interface PageFetcher {
  /** Fetches one page, spending one slot of the rate budget (waiting for it if that fits the deadline). */
  fetchFirstPage(query: ReportQuery, page: PageRange, deadlineAtMs: number): ReportPage;
  /** Reserves between 1 and `wanted` rate slots for the next batch; throws RateLimitError when none fits the deadline. */
  reserveSlots(query: ReportQuery, wanted: number, deadlineAtMs: number): RateReservation;
  /** Fetches pages in one batch whose first attempt spends `reservation` (one slot per page). */
  fetchPages(query: ReportQuery, pages: PageRange[], deadlineAtMs: number, reservation: RateReservation): ReportPage[];
  /** The earliest time the last of `requests` more report requests can go, by the rate budget. */
  budgetFreeAtMs(query: ReportQuery, requests: number): number;
}

export interface PagingOptions {
  /** Rows wanted at most; default every row. */
  maxRows?: number;
  /** Epoch ms by which paging must be done. */
  deadlineAtMs: number;
  /** Largest batch handed to fetchAll at once. */
  maxParallelRequests: number;
  /**
   * For callers that cannot use part of a report (formulas, scheduled runs): when the first page shows
   * that the other pages cannot all be had within the rate budget before the deadline, stop there
   * rather than spend the budget on pages that would be thrown away.
   */
  allOrNothing?: boolean;
  /** Called after each request or batch: pages fetched of pages planned. */
  onProgress?: (pagesFetched: number, pagesPlanned: number) => void;
}

export type StopReason = 'maxRows' | 'rateLimit';

export interface ReportResult {
  query: ReportQuery;
  /** Raw items in service order; report-table.ts turns them into rows. */
  items: Record<string, unknown>[];
  /** Count of all rows after filtering, as the service reported it. */
  totalItems: number;
  metricsSums?: Record<string, unknown>;
  /** True when fewer rows were fetched than the report has (after `offset`). */
  partial: boolean;
  stoppedBecause?: StopReason;
  /** When stopped by the rate budget: when the rest could be fetched. */
  retryAtMs?: number;
  pagesFetched: number;
  pagesPlanned: number;
  /** A report of several publishers: its publishers, in the order of its rows (comparisons keep each publisher's rows together). */
  publishers?: Array<{ id: string; name: string }>;
}

/** The pages after the first, given what the first page returned. */
export function planRemainingPages(start: number, fetched: number, targetRows: number, pageSize: number): PageRange[] {
  const pages: PageRange[] = [];
  for (let offset = start + fetched; offset < start + targetRows; offset += pageSize) {
    pages.push({ offset, limit: Math.min(pageSize, start + targetRows - offset) });
  }
  return pages;
}

export function fetchReport(fetcher: PageFetcher, query: ReportQuery, options: PagingOptions): ReportResult {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  if (!(maxRows === Number.POSITIVE_INFINITY || (Number.isInteger(maxRows) && maxRows > 0))) {
    throw ValidationError.single('maxRows', `${String(options.maxRows)} must be a whole number above 0`);
  }
  const pageSize = query.limit ?? query.spec.pageMax;
  const start = query.offset;
  const firstLimit = Math.min(pageSize, maxRows);
  const first = fetcher.fetchFirstPage(query, { offset: start, limit: firstLimit }, options.deadlineAtMs);
  const items = first.items.slice(0, firstLimit);
  const available = Math.max(0, first.totalItems - start);
  // A short first page means the data ended there, whatever totalItems claims.
  const target = items.length < firstLimit ? items.length : Math.min(available, maxRows);
  const remaining = planRemainingPages(start, items.length, target, pageSize);
  const pagesPlanned = 1 + remaining.length;
  let pagesFetched = 1;
  options.onProgress?.(pagesFetched, pagesPlanned);

  const result: ReportResult = {
    query,
    items,
    totalItems: first.totalItems,
    partial: false,
    pagesFetched,
    pagesPlanned,
  };
  if (first.metricsSums) result.metricsSums = first.metricsSums;

  let next = 0;
  if (options.allOrNothing && remaining.length > 0) {
    const lastAtMs = fetcher.budgetFreeAtMs(query, remaining.length);
    if (lastAtMs > options.deadlineAtMs) {
      result.stoppedBecause = 'rateLimit';
      result.retryAtMs = lastAtMs;
      next = remaining.length;
    }
  }
  while (next < remaining.length) {
    const wanted = Math.min(remaining.length - next, options.maxParallelRequests);
    let reservation: RateReservation;
    try {
      reservation = fetcher.reserveSlots(query, wanted, options.deadlineAtMs);
    } catch (e) {
      // Keep what we have and say when the rest can come; the first page already proved the request valid.
      if (e instanceof RateLimitError && e.local) {
        result.stoppedBecause = 'rateLimit';
        if (e.retryAtMs !== undefined) result.retryAtMs = e.retryAtMs;
        break;
      }
      throw e;
    }
    const group = remaining.slice(next, next + reservation.count);
    const pages = fetcher.fetchPages(query, group, options.deadlineAtMs, reservation);
    for (const page of pages) {
      for (let i = 0; i < page.items.length; i++) items.push(page.items[i]!);
    }
    next += group.length;
    pagesFetched += group.length;
    result.pagesFetched = pagesFetched;
    options.onProgress?.(pagesFetched, pagesPlanned);
  }
  result.partial = items.length < available;
  if (result.partial && !result.stoppedBecause && maxRows < available) result.stoppedBecause = 'maxRows';
  return result;
}
