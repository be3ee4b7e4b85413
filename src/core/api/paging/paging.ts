/**
 * What paging a report is: a first page of the report's maximum `limit` shows its `totalItems`, and
 * the pages after it are planned from that, so a report of N rows costs exactly ceil(N / page size)
 * requests. A caller's `maxRows` bounds it (only the rows needed are asked for), and the result says
 * when it stopped early and why, never silently. The types here are what callers pass and get back;
 * the one loop that fetches the pages, for a report alone or several together, is multi-paging.ts.
 */
import type { ReportQuery } from '../requests/report-request';

export interface PageRange {
  offset: number;
  limit: number;
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

/** How one report is paged: its first row, its first page's limit, its page size and the rows wanted at most. */
export interface PagePlan {
  start: number;
  firstLimit: number;
  pageSize: number;
  maxRows: number;
}

/** The pages after the first page read whole: a short first page means the data ended there, whatever totalItems claims. */
export function pagesAfterFirst(plan: PagePlan, first: { items: readonly unknown[]; totalItems: number }): PageRange[] {
  const items = Math.min(first.items.length, plan.firstLimit);
  const target = items < plan.firstLimit ? items : Math.min(Math.max(0, first.totalItems - plan.start), plan.maxRows);
  return planRemainingPages(plan.start, items, target, plan.pageSize);
}

/**
 * The pages after the first from the total its answer states, before its items are read: the first
 * page taken to be full, where pagesAfterFirst gives the same pages.
 */
export function pagesAfterStated(plan: PagePlan, totalItems: number): PageRange[] {
  return planRemainingPages(plan.start, plan.firstLimit, Math.min(Math.max(0, totalItems - plan.start), plan.maxRows), plan.pageSize);
}
