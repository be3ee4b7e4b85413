/**
 * The one paging loop for reports: one report of one publisher alone (fetchReport), the same report of
 * several publishers, a comparison's two periods, or both (two periods of several publishers). Each
 * report is paged as paging.ts says: a first page of the report's maximum size shows its
 * `totalItems`, and the rest follow, so a report of N rows costs exactly ceil(N / page size) requests.
 * Several reports differ only in the batching: every URL Fetch batch may hold pages of several
 * reports, and the pages of one publisher (all its reports together) spend that publisher's budget
 * (30 report requests a minute each), so publishers are fetched in parallel rather than one after the
 * other, and a publisher whose budget is spent waits alone while the others go on. First the first
 * pages of all reports, then all the remaining pages. A report alone sends its first page as one
 * request of its own (fetch, not a batch of one), whose failure, a spent budget too, is the caller's.
 *
 * A batch takes from each publisher what its budget has free now, sharing the batch's places in
 * turns among the publishers with free slots; only when no publisher with pages left has a free slot does it wait, for the one free
 * soonest, and only while that fits the deadline. With `allOrNothing`, the first pages tell what
 * every publisher still needs, and nothing more is sent unless all of it fits its budget before the
 * deadline. The results come back per report, in the order given; a report stopped by its
 * publisher's budget says so (`stoppedBecause: 'rateLimit'`, with when the rest could come), and
 * fetchWholeReports turns a budget that fell short into one error naming the publisher.
 */
import { RateLimitError, ValidationError } from '../../errors';
import { pagesAfterFirst, pagesAfterStated, type PagePlan, type PageRange, type PagingOptions, type ReportResult } from './paging';
import type { RateReservation } from '../transport/rate-limiter';
import type { ReportQuery } from '../requests/report-request';
import type { ReportAnswer } from '../responses/responses';

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
  fetchPageBatch(members: readonly BatchMember[], deadlineAtMs: number, reservations: readonly RateReservation[]): ReportAnswer[];
  /** How many of the publisher's slots look free now (read without the lock: a hint for sharing a batch out). */
  freeSlots(query: ReportQuery): number;
  /** Reserves up to `wanted` of the publisher's slots free now, without waiting; undefined when none is free. */
  tryReserveSlots(query: ReportQuery, wanted: number): RateReservation | undefined;
  /** Reserves between 1 and `wanted` slots, waiting when that fits the deadline; else throws a local RateLimitError. */
  reserveSlots(query: ReportQuery, wanted: number, deadlineAtMs: number): RateReservation;
  /** The earliest time the last of `requests` more report requests of the publisher can go. */
  budgetFreeAtMs(query: ReportQuery, requests: number): number;
}

/** What paging one report alone needs besides; EngageClient implements it. */
export interface PageFetcher extends PublisherPageFetcher {
  /** One page as one request, spending one slot of the rate budget (waiting for it if that fits the deadline). */
  fetchFirstPage(query: ReportQuery, page: PageRange, deadlineAtMs: number): ReportAnswer;
}

/** One report's paging as it goes. */
interface Paging {
  query: ReportQuery;
  subject: string | undefined;
  result: ReportResult;
  /** Its first row, first page's limit (the page size, or `maxRows` when fewer), page size and rows wanted. */
  plan: PagePlan;
  /** The pages after the first, in order; their answers land in `answers` at their index + 1. */
  todo: PageRange[];
  /** The answers so far, the first page's at 0; each is read (parsed) only in `finish`. */
  answers: ReportAnswer[];
  /** `todo` was planned from the total the first page's answer states, before its items were read. */
  plannedFromStated: boolean;
}

interface Task {
  paging: Paging;
  index: number;
  page: PageRange;
}

/** A report to fetch, and what a failure of it is about ("Publisher 'X' (id)"); several may be of one publisher. */
export interface ReportToFetch {
  query: ReportQuery;
  subject?: string;
}

/**
 * A whole report of one publisher (or `maxRows` of it): the loop below with one report, its first page
 * sent alone. Stopped early by the rate budget, it keeps what it has and says when the rest can come;
 * with `allOrNothing` it spends nothing past the first page unless every page fits before the deadline.
 */
export function fetchReport(fetcher: PageFetcher, query: ReportQuery, options: PagingOptions): ReportResult {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  if (!(maxRows === Number.POSITIVE_INFINITY || (Number.isInteger(maxRows) && maxRows > 0))) {
    throw ValidationError.single('maxRows', `${String(options.maxRows)} must be a whole number above 0`);
  }
  return pageReports(fetcher, [{ query }], options, (page) => fetcher.fetchFirstPage(query, page, options.deadlineAtMs))[0]!;
}

/**
 * Fetches every report (each differing from the others in its publisher, its dates, or both) and
 * returns one result per report, in the order given. Reports of one publisher share its budget. A
 * report stopped by its publisher's budget has `stoppedBecause: 'rateLimit'`, as fetchReport's; what
 * the caller makes of a partial report is its own to say.
 */
export function fetchPublisherReports(
  fetcher: PublisherPageFetcher,
  reports: readonly ReportToFetch[],
  options: PagingOptions,
): ReportResult[] {
  return pageReports(fetcher, reports, options);
}

/**
 * The loop. `firstAlone` (one report alone) fetches its first page as one request of its own, outside
 * any batch: its failure, a spent budget too, is thrown, and progress is first told once it is planned.
 * The other pages are planned from the total each first page's answer states, before its items are
 * parsed (ReportAnswer), so they go out right after the first pages; settlePlans checks the plan against
 * the first pages read whole, which changes it only for a first page short of a full page.
 */
function pageReports(
  fetcher: PublisherPageFetcher,
  reports: readonly ReportToFetch[],
  options: PagingOptions,
  firstAlone?: (page: PageRange) => ReportAnswer,
): ReportResult[] {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const pagings: Paging[] = reports.map(({ query, subject }) => ({
    query,
    subject,
    plan: pagePlan(query, maxRows),
    todo: [],
    answers: [],
    plannedFromStated: false,
    result: { query, items: [], totalItems: 0, partial: false, pagesFetched: 0, pagesPlanned: 1 },
  }));
  const progress = () => {
    const fetched = pagings.reduce((n, p) => n + p.result.pagesFetched, 0);
    options.onProgress?.(
      fetched,
      pagings.reduce((n, p) => n + p.result.pagesPlanned, 0),
    );
  };

  // The first pages: each shows its report's size.
  const firsts = pagings.map((paging) => ({ paging, index: 0, page: { offset: paging.plan.start, limit: paging.plan.firstLimit } }));
  let stoppedFirst: { retryAtMs?: number } | undefined;
  if (firstAlone) {
    const [{ paging, page }] = firsts as [Task];
    paging.answers[0] = firstAlone(page);
    paging.result.pagesFetched = 1;
  } else stoppedFirst = runBatches(fetcher, firsts, options, progress);
  for (const paging of pagings) planFromFirst(paging);
  if (stoppedFirst) return finish(pagings, maxRows, stoppedFirst);
  progress();

  if (options.allOrNothing) {
    // Every publisher's remaining pages, over all its reports, must fit its own budget before the deadline, or none is asked for.
    let latest = Number.NEGATIVE_INFINITY;
    for (const group of byPublisher(pagings).values()) {
      const left = group.reduce((n, p) => n + p.todo.length, 0);
      if (left > 0) latest = Math.max(latest, fetcher.budgetFreeAtMs(group[0]!.query, left));
    }
    if (latest > options.deadlineAtMs) return finish(pagings, maxRows, { retryAtMs: latest });
  }
  const rest: Task[] = pagings.flatMap((paging) => paging.todo.map((page, i) => ({ paging, index: i + 1, page })));
  const stopped = runBatches(fetcher, rest, options, progress);
  if (stopped) return finish(pagings, maxRows, stopped);
  // A plan the first pages read whole do not bear out asks for what it lacks (never, for stated totals: responses.ts).
  const lacking = settlePlans(pagings);
  return finish(pagings, maxRows, lacking.length > 0 ? runBatches(fetcher, lacking, options, progress) : undefined);
}

function pagePlan(query: ReportQuery, maxRows: number): PagePlan {
  const pageSize = query.limit ?? query.spec.pageMax;
  return { start: query.offset, firstLimit: Math.min(pageSize, maxRows), pageSize, maxRows };
}

/** The pages after a first page fetched: from the total its answer states, else from the page read whole. */
function planFromFirst(paging: Paging): void {
  const first = paging.answers[0];
  if (!first) return;
  const stated = first.statedTotal;
  if (stated === undefined) {
    const page = first.read();
    paging.todo = pagesAfterFirst(paging.plan, page);
    paging.result.totalItems = page.totalItems;
  } else {
    paging.todo = pagesAfterStated(paging.plan, stated);
    paging.result.totalItems = stated;
    paging.plannedFromStated = true;
  }
  paging.result.pagesPlanned = 1 + paging.todo.length;
}

/**
 * Each plan made from a stated total, made again from the first page read whole: the answers of pages
 * the two plans share stay, the others go. Returns the pages the plan made again still lacks.
 */
function settlePlans(pagings: readonly Paging[]): Task[] {
  const lacking: Task[] = [];
  for (const paging of pagings) {
    if (!paging.plannedFromStated) continue;
    paging.plannedFromStated = false;
    const todo = pagesAfterFirst(paging.plan, paging.answers[0]!.read());
    const same = (i: number) => paging.todo[i]?.offset === todo[i]!.offset && paging.todo[i]?.limit === todo[i]!.limit;
    const answers: ReportAnswer[] = [paging.answers[0]!];
    todo.forEach((page, i) => {
      const answer = same(i) ? paging.answers[i + 1] : undefined;
      if (answer) answers[i + 1] = answer;
      else lacking.push({ paging, index: i + 1, page });
    });
    paging.todo = todo;
    paging.answers = answers;
    paging.result.pagesPlanned = 1 + todo.length;
    paging.result.pagesFetched = answers.filter((a) => a !== undefined).length;
  }
  return lacking;
}

/** The reports of each publisher (the scope of its rate budget), in the order first met. */
function byPublisher<T extends { query: ReportQuery }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.query.entityId) ?? [];
    group.push(item);
    groups.set(item.query.entityId, group);
  }
  return groups;
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
  // One queue per publisher: its reports' pages in the order given, all spending its one budget.
  const queues = new Map<string, Task[]>();
  for (const task of tasks) {
    const queue = queues.get(task.paging.query.entityId) ?? [];
    queue.push(task);
    queues.set(task.paging.query.entityId, queue);
  }
  while ([...queues.values()].some((q) => q.length > 0)) {
    const waiting = [...queues.values()].filter((q) => q.length > 0);
    const members: Task[] = [];
    const reservations: RateReservation[] = [];
    // Places go to the publishers with free slots, in turns, so a spent budget leaves its places to the
    // others; a publisher alone takes what its budget allows below, waiting when none is free.
    if (waiting.length > 1) {
      const shares = shareOut(
        waiting.map((q) => Math.min(q.length, fetcher.freeSlots(q[0]!.paging.query))),
        options.maxParallelRequests,
      );
      waiting.forEach((queue, i) => {
        if (shares[i] === 0) return;
        const reservation = fetcher.tryReserveSlots(queue[0]!.paging.query, shares[i]!);
        if (!reservation) return;
        reservations.push(reservation);
        members.push(...queue.splice(0, reservation.count));
      });
    }
    if (members.length === 0) {
      // No publisher with pages left has a free slot (or one is alone): wait for the one free soonest, if that fits.
      const soonest = (q: Task[]) => fetcher.budgetFreeAtMs(q[0]!.paging.query, 1);
      const queue = waiting.reduce((a, b) => (soonest(b) < soonest(a) ? b : a));
      const { paging } = queue[0]!;
      try {
        const reservation = fetcher.reserveSlots(paging.query, Math.min(queue.length, options.maxParallelRequests), options.deadlineAtMs);
        reservations.push(reservation);
        members.push(...queue.splice(0, reservation.count));
      } catch (e) {
        if (e instanceof RateLimitError && e.local) {
          if (e.subject === undefined && paging.subject !== undefined) e.subject = paging.subject;
          return e.retryAtMs === undefined ? {} : { retryAtMs: e.retryAtMs };
        }
        throw e;
      }
    }
    const pages = fetcher.fetchPageBatch(
      members.map((t) => ({
        query: t.paging.query,
        page: t.page,
        ...(t.paging.subject !== undefined ? { subject: t.paging.subject } : {}),
      })),
      options.deadlineAtMs,
      reservations,
    );
    members.forEach((task, i) => {
      task.paging.answers[task.index] = pages[i]!;
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

/** Each report's items in page order, and whether it is whole: every answer read, each plan settled first. */
function finish(pagings: Paging[], maxRows: number, stopped: { retryAtMs?: number } | undefined): ReportResult[] {
  settlePlans(pagings);
  return pagings.map((paging) => {
    const { result } = paging;
    const items: Record<string, unknown>[] = [];
    const first = paging.answers[0]?.read();
    if (first) {
      result.totalItems = first.totalItems;
      if (first.metricsSums) result.metricsSums = first.metricsSums;
    }
    let complete = first !== undefined;
    for (let i = 0; i <= paging.todo.length; i++) {
      const answer = paging.answers[i];
      if (!answer) {
        complete = false;
        break;
      }
      const page = answer.read().items;
      const count = i === 0 ? Math.min(page.length, paging.plan.firstLimit) : page.length;
      for (let k = 0; k < count; k++) items.push(page[k]!);
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

export interface WholeReportsOptions extends Omit<PagingOptions, 'maxRows' | 'allOrNothing'> {
  /** The time a "try again after" message is written at. */
  nowMs?: number;
  /**
   * What fell short, in words, for the publisher whose budget could not carry its pages: `fetched`
   * and `planned` count that publisher's pages over all its reports.
   */
  shortfall(fetched: number, planned: number): string;
}

/**
 * Every page of every report, or nothing: callers that cannot use part of a report (a report of
 * several publishers, a comparison's periods) get whole results, or a local RateLimitError that
 * names the publisher whose budget fell short (the one with the most pages left) and says when to
 * try again. Nothing past the first pages is asked for unless every page can come.
 */
export function fetchWholeReports(
  fetcher: PublisherPageFetcher,
  reports: readonly ReportToFetch[],
  options: WholeReportsOptions,
): ReportResult[] {
  const { shortfall, nowMs, ...paging } = options;
  const results = fetchPublisherReports(fetcher, reports, { ...paging, allOrNothing: true });
  let worst: { left: number; fetched: number; planned: number; subject?: string; retryAtMs?: number } | undefined;
  for (const group of byPublisher(results.map((result, i) => ({ query: result.query, result, subject: reports[i]!.subject }))).values()) {
    if (!group.some((g) => g.result.stoppedBecause === 'rateLimit')) continue;
    const fetched = group.reduce((n, g) => n + g.result.pagesFetched, 0);
    const planned = group.reduce((n, g) => n + g.result.pagesPlanned, 0);
    // A report whose first page never came still needs at least that page.
    const left = group.reduce((n, g) => n + Math.max(1, g.result.pagesPlanned - g.result.pagesFetched), 0);
    if (worst && worst.left >= left) continue;
    const retryAtMs = group.find((g) => g.result.retryAtMs !== undefined)?.result.retryAtMs;
    worst = {
      left,
      fetched,
      planned,
      ...(group[0]!.subject !== undefined ? { subject: group[0]!.subject } : {}),
      ...(retryAtMs !== undefined ? { retryAtMs } : {}),
    };
  }
  if (!worst) return results;
  const error = new RateLimitError({
    status: 429,
    local: true,
    ...(nowMs !== undefined ? { nowMs } : {}),
    ...(worst.retryAtMs !== undefined ? { retryAtMs: worst.retryAtMs } : {}),
    limitDescription: shortfall(worst.fetched, worst.planned),
  });
  if (worst.subject !== undefined) error.subject = worst.subject;
  throw error;
}
