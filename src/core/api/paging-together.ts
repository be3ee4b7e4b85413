/**
 * Fetching several whole reports of one publisher together, as a comparison's two periods are: their
 * first pages go out in one fetchAll batch, then every remaining page of all of them, in batches as
 * large as the publisher's rate budget allows (paging.ts does the same for one report). Each report
 * still costs exactly ceil(rows / page size) requests, at least one, all under the one budget of the
 * publisher (30 report requests a minute, counted on arrival: rate-limiter.ts). All or nothing: when
 * the first pages show that the other pages cannot all come within the rate budget before the
 * deadline, nothing more is sent and a RateLimitError says when to try again, as when the budget
 * runs out between batches; a caller never gets one period without the other.
 */
import { RateLimitError } from '../errors';
import type { BatchMember } from './multi-paging';
import { type PageFetcher, type PageRange, planRemainingPages, type ReportResult } from './paging';
import type { RateReservation } from './rate-limiter';
import type { ReportQuery } from './report-request';
import type { ReportPage } from './responses';

/** What fetching several reports together needs from the client beyond paging: pages of different queries in one batch. */
export interface BatchPageFetcher extends PageFetcher {
  /** Fetches pages of queries in one batch whose first attempt spends the reservations (one slot per page; here, one publisher's). */
  fetchPageBatch(pages: readonly BatchMember[], deadlineAtMs: number, reservations: readonly RateReservation[]): ReportPage[];
}

export interface TogetherOptions {
  /** Epoch ms by which every page must be in. */
  deadlineAtMs: number;
  /** Largest batch handed to fetchAll at once. */
  maxParallelRequests: number;
  /** The time the caller's messages are written at ("try again after ..."). */
  nowMs: () => number;
  /** Called after each batch: pages fetched of pages planned, over all the reports. */
  onProgress?: (pagesFetched: number, pagesPlanned: number) => void;
}

const pageSizeOf = (query: ReportQuery) => query.limit ?? query.spec.pageMax;

/** Every row of each query, in the order of `queries`; throws RateLimitError rather than return part of one. */
export function fetchReportsTogether(fetcher: BatchPageFetcher, queries: readonly ReportQuery[], options: TogetherOptions): ReportResult[] {
  const first = queries[0];
  if (!first) return [];
  if (queries.some((q) => q.entityId !== first.entityId)) throw new RangeError('reports fetched together share one publisher');
  const results: ReportResult[] = queries.map((query) => ({
    query,
    items: [],
    totalItems: 0,
    partial: false,
    pagesFetched: 0,
    pagesPlanned: 1,
  }));
  let planned = queries.length;
  let fetched = 0;

  /** Fetches the pages in batches the budget allows; appends each page's items to its report, in page order. */
  const fetchAll = (pages: Array<{ index: number; page: PageRange }>) => {
    for (let next = 0; next < pages.length; ) {
      const wanted = Math.min(pages.length - next, options.maxParallelRequests);
      const reservation = fetcher.reserveSlots(first, wanted, options.deadlineAtMs);
      const group = pages.slice(next, next + reservation.count);
      const answers = fetcher.fetchPageBatch(
        group.map((p) => ({ query: queries[p.index]!, page: p.page })),
        options.deadlineAtMs,
        [reservation],
      );
      answers.forEach((answer, k) => {
        const { index, page } = group[k]!;
        const result = results[index]!;
        const items = answer.items.length > page.limit ? answer.items.slice(0, page.limit) : answer.items;
        for (let i = 0; i < items.length; i++) result.items.push(items[i]!);
        result.pagesFetched++;
        if (page.offset === queries[index]!.offset) {
          result.totalItems = answer.totalItems;
          if (answer.metricsSums) result.metricsSums = answer.metricsSums;
        }
      });
      next += group.length;
      fetched += group.length;
      options.onProgress?.(fetched, planned);
    }
  };

  fetchAll(queries.map((query, index) => ({ index, page: { offset: query.offset, limit: pageSizeOf(query) } })));
  const remaining: Array<{ index: number; page: PageRange }> = [];
  results.forEach((result, index) => {
    const query = queries[index]!;
    const pageSize = pageSizeOf(query);
    const available = Math.max(0, result.totalItems - query.offset);
    // A short first page means the data ended there, whatever totalItems claims.
    const target = result.items.length < pageSize ? result.items.length : available;
    const pages = planRemainingPages(query.offset, result.items.length, target, pageSize);
    result.pagesPlanned = 1 + pages.length;
    for (const page of pages) remaining.push({ index, page });
  });
  planned += remaining.length;
  if (remaining.length > 0) {
    options.onProgress?.(fetched, planned);
    const lastAtMs = fetcher.budgetFreeAtMs(first, remaining.length);
    if (lastAtMs > options.deadlineAtMs) throw budgetError(remaining.length, planned, lastAtMs, options.nowMs());
    try {
      fetchAll(remaining);
    } catch (e) {
      if (e instanceof RateLimitError && e.local) throw budgetError(planned - fetched, planned, e.retryAtMs, options.nowMs());
      throw e;
    }
  }
  for (const result of results) result.partial = result.items.length < Math.max(0, result.totalItems - result.query.offset);
  return results;
}

function budgetError(missing: number, planned: number, retryAtMs: number | undefined, nowMs: number): RateLimitError {
  return new RateLimitError({
    status: 429,
    local: true,
    nowMs,
    limitDescription: `${missing} of the ${planned} pages of the compared periods could not be fetched within the 30 report requests a minute`,
    ...(retryAtMs !== undefined ? { retryAtMs } : {}),
  });
}
