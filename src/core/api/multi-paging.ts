/**
 * Paging the same report for several publishers at once. Each publisher is paged as a report of its
 * own (paging.ts): a first page of the report's maximum size shows its `totalItems`, and the rest
 * follow, so a publisher of N rows costs exactly ceil(N / page size) requests. The difference is the
 * batching: every URL Fetch batch may hold pages of several publishers, and each member spends a slot
 * of its own publisher's budget (30 report requests a minute each), so publishers are fetched in
 * parallel rather than one after the other, and a publisher whose budget is spent waits alone while
 * the others go on. First the first pages of all publishers, then all the remaining pages.
 *
 * A batch takes from each publisher what its budget has free now, sharing the batch's places in
 * turns among the publishers with free slots; only when no publisher with pages left has a free slot does it wait, for the one free
 * soonest, and only while that fits the deadline. With `allOrNothing`, the first pages tell what
 * every publisher still needs, and nothing more is sent unless all of it fits its budget before the
 * deadline. The results come back per publisher, in the order given, as paging.ts gives them.
 */
import { RateLimitError } from '../errors';
import { planRemainingPages, type PageRange, type PagingOptions, type ReportResult } from './paging';
import type { RateReservation } from './rate-limiter';
import type { ReportQuery } from './report-request';
import type { ReportPage } from './responses';

/** One page of one publisher's report in a batch. */
export interface BatchMember {
  query: ReportQuery;
  page: PageRange;
  /** What a failure of this page is about ("Publisher 'X' (id)"), when the batch mixes publishers. */
  subject?: string;
}

/** What paging several publishers needs from the client; EngageClient implements it. */
export interface PublisherPageFetcher {
  /** Pages of one or more publishers in one batch; each publisher's members spend its reservation (one per publisher). */
  fetchPageBatch(members: readonly BatchMember[], deadlineAtMs: number, reservations: readonly RateReservation[]): ReportPage[];
  /** How many of the publisher's slots look free now (read without the lock: a hint for sharing a batch out). */
  freeSlots(query: ReportQuery): number;
  /** Reserves up to `wanted` of the publisher's slots free now, without waiting; undefined when none is free. */
  tryReserveSlots(query: ReportQuery, wanted: number): RateReservation | undefined;
  /** Reserves between 1 and `wanted` slots, waiting when that fits the deadline; else throws a local RateLimitError. */
  reserveSlots(query: ReportQuery, wanted: number, deadlineAtMs: number): RateReservation;
  /** The earliest time the last of `requests` more report requests of the publisher can go. */
  budgetFreeAtMs(query: ReportQuery, requests: number): number;
}

/** One publisher's paging as it goes. */
interface Paging {
  query: ReportQuery;
  subject: string;
  result: ReportResult;
  /** Pages still to fetch, in order; fetched pages land in `pages` at their index. */
  todo: PageRange[];
  pages: ReportPage[];
}

interface Task {
  paging: Paging;
  index: number;
  page: PageRange;
}

/**
 * Fetches the report of every publisher (one query each, differing in entityId only) and returns one
 * result per publisher. A publisher stopped by its rate budget has `stoppedBecause: 'rateLimit'`, as
 * in paging.ts; what the caller makes of a partial publisher is its own to say.
 */
export function fetchPublisherReports(
  fetcher: PublisherPageFetcher,
  queries: readonly { query: ReportQuery; subject: string }[],
  options: PagingOptions,
): ReportResult[] {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const pagings: Paging[] = queries.map(({ query, subject }) => ({
    query,
    subject,
    todo: [],
    pages: [],
    result: { query, items: [], totalItems: 0, partial: false, pagesFetched: 0, pagesPlanned: 1 },
  }));
  const pageSize = (p: Paging) => p.query.limit ?? p.query.spec.pageMax;
  const progress = () => {
    const fetched = pagings.reduce((n, p) => n + p.result.pagesFetched, 0);
    options.onProgress?.(
      fetched,
      pagings.reduce((n, p) => n + p.result.pagesPlanned, 0),
    );
  };

  // The first pages: each shows its publisher's size.
  const firsts = pagings.map((paging) => ({
    paging,
    index: 0,
    page: { offset: paging.query.offset, limit: Math.min(pageSize(paging), maxRows) },
  }));
  const stoppedFirst = runBatches(fetcher, firsts, options, progress);
  for (const paging of pagings) {
    const first = paging.pages[0];
    if (!first) continue;
    const firstLimit = Math.min(pageSize(paging), maxRows);
    const items = first.items.slice(0, firstLimit);
    const start = paging.query.offset;
    const available = Math.max(0, first.totalItems - start);
    // A short first page means the data ended there, whatever totalItems claims.
    const target = items.length < firstLimit ? items.length : Math.min(available, maxRows);
    paging.todo = planRemainingPages(start, items.length, target, pageSize(paging));
    paging.pages = [{ ...first, items }];
    paging.result.totalItems = first.totalItems;
    if (first.metricsSums) paging.result.metricsSums = first.metricsSums;
    paging.result.pagesPlanned = 1 + paging.todo.length;
  }
  if (stoppedFirst) return finish(pagings, maxRows, stoppedFirst);
  progress();

  if (options.allOrNothing) {
    // Every publisher's remaining pages must fit its own budget before the deadline, or none is asked for.
    let latest = Number.NEGATIVE_INFINITY;
    for (const p of pagings) if (p.todo.length > 0) latest = Math.max(latest, fetcher.budgetFreeAtMs(p.query, p.todo.length));
    if (latest > options.deadlineAtMs) return finish(pagings, maxRows, { retryAtMs: latest });
  }
  const rest: Task[] = pagings.flatMap((paging) => paging.todo.map((page, i) => ({ paging, index: i + 1, page })));
  const stopped = runBatches(fetcher, rest, options, progress);
  return finish(pagings, maxRows, stopped);
}

/**
 * Sends the tasks in batches of at most `maxParallelRequests`, each publisher's members spending its
 * own budget. Returns when every task is done, or, when the rate budget ran out before the deadline,
 * when it would be free again (the tasks not done stay undone).
 */
function runBatches(
  fetcher: PublisherPageFetcher,
  tasks: readonly Task[],
  options: PagingOptions,
  progress: () => void,
): { retryAtMs?: number } | undefined {
  const queues = new Map<Paging, Task[]>();
  for (const task of tasks) {
    const queue = queues.get(task.paging) ?? [];
    queue.push(task);
    queues.set(task.paging, queue);
  }
  while ([...queues.values()].some((q) => q.length > 0)) {
    const waiting = [...queues].filter(([, q]) => q.length > 0);
    // Places go to the publishers with free slots, in turns, so a spent budget leaves its places to the others.
    const shares = shareOut(
      waiting.map(([paging, q]) => Math.min(q.length, fetcher.freeSlots(paging.query))),
      options.maxParallelRequests,
    );
    const members: Task[] = [];
    const reservations: RateReservation[] = [];
    waiting.forEach(([paging, queue], i) => {
      if (shares[i] === 0) return;
      const reservation = fetcher.tryReserveSlots(paging.query, shares[i]!);
      if (!reservation) return;
      reservations.push(reservation);
      members.push(...queue.splice(0, reservation.count));
    });
    if (members.length === 0) {
      // No publisher with pages left has a free slot: wait for the one free soonest, if that fits.
      const [paging, queue] = waiting.reduce((a, b) =>
        fetcher.budgetFreeAtMs(b[0].query, 1) < fetcher.budgetFreeAtMs(a[0].query, 1) ? b : a,
      );
      try {
        const reservation = fetcher.reserveSlots(paging.query, Math.min(queue.length, options.maxParallelRequests), options.deadlineAtMs);
        reservations.push(reservation);
        members.push(...queue.splice(0, reservation.count));
      } catch (e) {
        if (e instanceof RateLimitError && e.local) {
          if (e.subject === undefined) e.subject = paging.subject;
          return e.retryAtMs === undefined ? {} : { retryAtMs: e.retryAtMs };
        }
        throw e;
      }
    }
    const pages = fetcher.fetchPageBatch(
      members.map((t) => ({ query: t.paging.query, page: t.page, subject: t.paging.subject })),
      options.deadlineAtMs,
      reservations,
    );
    members.forEach((task, i) => {
      task.paging.pages[task.index] = pages[i]!;
      task.paging.result.pagesFetched++;
    });
    progress();
  }
  return undefined;
}

/**
 * `places` shared among queues of these lengths in turns (one each, round after round), never more
 * than a queue holds: how a batch is divided among the publishers with pages left.
 */
export function shareOut(lengths: readonly number[], places: number): number[] {
  const shares = lengths.map(() => 0);
  let left = places;
  while (left > 0 && shares.some((s, i) => s < lengths[i]!)) {
    for (let i = 0; i < lengths.length && left > 0; i++) {
      if (shares[i]! < lengths[i]!) {
        shares[i]!++;
        left--;
      }
    }
  }
  return shares;
}

/** Each publisher's items in page order, and whether it is whole. */
function finish(pagings: Paging[], maxRows: number, stopped: { retryAtMs?: number } | undefined): ReportResult[] {
  return pagings.map((paging) => {
    const { result } = paging;
    const items: Record<string, unknown>[] = [];
    let complete = paging.pages[0] !== undefined;
    for (let i = 0; i <= paging.todo.length; i++) {
      const page = paging.pages[i];
      if (!page) {
        complete = false;
        break;
      }
      for (let k = 0; k < page.items.length; k++) items.push(page.items[k]!);
    }
    result.items = items;
    const available = Math.max(0, result.totalItems - paging.query.offset);
    result.partial = !complete || items.length < available;
    if (!complete && stopped) {
      result.stoppedBecause = 'rateLimit';
      if (stopped.retryAtMs !== undefined) result.retryAtMs = stopped.retryAtMs;
    } else if (result.partial && maxRows < available) result.stoppedBecause = 'maxRows';
    return result;
  });
}
