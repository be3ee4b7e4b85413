/**
 * Reports of several publishers: the same report asked of each publisher a list or "all" names
 * (publisher-list.ts), fetched in parallel under each publisher's own rate budget (multi-paging.ts)
 * and returned as ONE report result, so everything that takes a report (the formula table, Run to
 * sheet, scheduled refreshes, and later comparisons and dashboards) takes it unchanged: its items
 * carry a `publisher` entity ({id, name}) that the table shows as `publisher.id` and `publisher.name`
 * in front of the other columns, and its sums are the publishers' combined (publisher-totals.ts).
 *
 * Whole or nothing: one publisher that fails fails the report, with a message that names it (name
 * and ID), and a publisher whose pages cannot all come within its rate budget before the deadline
 * makes the report a local rate-limit error that says when to try again. Nothing partial comes back,
 * so no caller can write part of it.
 */
import { RateLimitError, ValidationError, type ValidationProblem } from '../errors';
import type { ReportResult, PagingOptions } from './paging';
import { fetchPublisherReports, type PublisherPageFetcher } from './multi-paging';
import {
  PUBLISHER_BREAKDOWN,
  publisherSelection,
  publisherSubject,
  resolvePublishers,
  selectionText,
  type PublisherRef,
  type PublisherSelection,
} from './publisher-list';
import { combineMetricsSums } from './publisher-totals';
import type { ReportInput, ReportQuery } from './report-request';
import type { LookupEntry } from './responses';
import { REPORT_RATE_LIMIT_REQUESTS } from '../spec';

/** An ID of the usual length, to check the other arguments of "all" before the publishers are known. */
const SAMPLE_PUBLISHER_ID = '0'.repeat(32);

/** What a report of several publishers needs from the client; EngageClient implements it. */
export interface PublisherReportClient extends PublisherPageFetcher {
  /** The publishers lookup: the names, and what "all" covers. */
  listPublishers(options: { deadlineAtMs: number }): LookupEntry[];
  /** The report of one publisher of the template, its page addresses checked (see publisherQuery). */
  queryFor(template: ReportQuery, publisherId: string): ReportQuery;
}

/**
 * Validates report arguments whose entityId may select several publishers, every problem at once,
 * before anything is sent. One publisher is `build(input)` as before; several make the template of a
 * report of several (`publishers` set), built from the arguments with a stand-in ID.
 */
export function buildSelectedQuery(input: ReportInput, build: (input: ReportInput) => ReportQuery): ReportQuery {
  const problems: ValidationProblem[] = [];
  let selection: PublisherSelection | undefined;
  try {
    selection = publisherSelection(input?.entityId);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    problems.push(...e.problems);
  }
  if (selection?.type === 'one') return build(input);
  const standIn = selection?.type === 'list' ? selection.ids.reduce((a, b) => (b.length > a.length ? b : a)) : SAMPLE_PUBLISHER_ID;
  let template: ReportQuery | undefined;
  try {
    template = build({ ...input, entityId: standIn });
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    problems.push(...e.problems);
  }
  if (problems.length > 0 || !template || !selection) throw new ValidationError(problems);
  const text = selectionText(selection);
  return {
    ...template,
    entityId: text,
    params: { ...template.params, entityId: text },
    breakdowns: [PUBLISHER_BREAKDOWN, ...template.breakdowns],
    publishers: selection,
  };
}

/** The report of one publisher of a report of several: the template with its ID, without the publisher columns. */
export function publisherQuery(template: ReportQuery, publisherId: string): ReportQuery {
  const { publishers: _several, ...one } = template;
  return {
    ...one,
    entityId: publisherId,
    params: { ...template.params, entityId: publisherId },
    breakdowns: template.breakdowns.filter((b) => b !== PUBLISHER_BREAKDOWN),
  };
}

/**
 * Every page of the report for every publisher the template selects, as one result: the publishers
 * in the list's order ("all": by name), each publisher's rows in the order Engage sorts them.
 * `maxRows` bounds each publisher's rows. Reusable by whatever needs the same report of several
 * publishers: give it the template from buildSelectedQuery.
 */
export function runPublisherReport(client: PublisherReportClient, template: ReportQuery, options: PagingOptions): ReportResult {
  if (!template.publishers) throw new RangeError('runPublisherReport needs the query of a report of several publishers');
  const publishers = resolvePublishers(template.publishers, client.listPublishers({ deadlineAtMs: options.deadlineAtMs }));
  const queries = publishers.map((p) => ({ query: client.queryFor(template, p.id), subject: publisherSubject(p) }));
  // Nothing partial comes back, so no page is worth asking for unless every page can come.
  const results = fetchPublisherReports(client, queries, { ...options, allOrNothing: true });
  // The publisher with the most pages left is the one whose budget was short.
  const left = (r: ReportResult) => (r.stoppedBecause === 'rateLimit' ? 1 + r.pagesPlanned - r.pagesFetched : 0);
  const stopped = results.reduce((worst, r, i) => (left(r) > (worst < 0 ? 0 : left(results[worst]!)) ? i : worst), -1);
  if (stopped >= 0) {
    const r = results[stopped]!;
    const error = new RateLimitError({
      status: 429,
      local: true,
      ...(r.retryAtMs !== undefined ? { retryAtMs: r.retryAtMs } : {}),
      limitDescription: `only ${r.pagesFetched} of its ${r.pagesPlanned} pages fit its ${REPORT_RATE_LIMIT_REQUESTS} report requests a minute in the time there was, so no publisher's rows are shown`,
    });
    error.subject = queries[stopped]!.subject;
    throw error;
  }
  return combinePublisherResults(template, publishers, results);
}

/** One result of several publishers' results: their items with the publisher in front, their sums combined. */
export function combinePublisherResults(
  template: ReportQuery,
  publishers: readonly PublisherRef[],
  results: readonly ReportResult[],
): ReportResult {
  const items: Record<string, unknown>[] = [];
  results.forEach((result, i) => {
    const publisher = { id: publishers[i]!.id, name: publishers[i]!.name };
    for (const item of result.items) {
      item[PUBLISHER_BREAKDOWN] = publisher;
      items.push(item);
    }
  });
  const decDigits = template.params.decDigits !== undefined ? Number(template.params.decDigits) : undefined;
  const sums = combineMetricsSums(
    template.kind,
    results.map((r) => r.metricsSums),
    decDigits,
  );
  const combined: ReportResult = {
    query: template,
    items,
    totalItems: results.reduce((n, r) => n + r.totalItems, 0),
    partial: results.some((r) => r.partial),
    pagesFetched: results.reduce((n, r) => n + r.pagesFetched, 0),
    pagesPlanned: results.reduce((n, r) => n + r.pagesPlanned, 0),
  };
  if (sums) combined.metricsSums = sums;
  if (results.some((r) => r.stoppedBecause === 'maxRows')) combined.stoppedBecause = 'maxRows';
  return combined;
}
