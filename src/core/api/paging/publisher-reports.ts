/**
 * Reports of several publishers: the same report asked of each publisher a list or "all" names
 * (publisher-list.ts), fetched in parallel under each publisher's own rate budget (multi-paging.ts)
 * and returned as ONE report result, so everything that takes a report (the formula table, Run to
 * sheet, scheduled refreshes, comparisons and the dashboard) takes it unchanged: its items carry a
 * `publisher` entity ({id, name}) that the table shows as `publisher.id` and `publisher.name` in front
 * of the other columns, and its sums are the publishers' combined (publisher-totals.ts). With
 * `-publisher` among the breakdowns the publishers' rows are added together instead
 * (publisher-combined.ts). Several reports of the same publishers (a comparison's two periods) are
 * fetched together, each publisher's pages of both within its one budget.
 *
 * Whole or nothing: one publisher that fails fails the report, with a message that names it (name
 * and ID), and a publisher whose pages cannot all come within its rate budget before the deadline
 * makes the report a local rate-limit error that says when to try again. Nothing partial comes back,
 * so no caller can write part of it.
 */
import { ValidationError, type ValidationProblem } from '../../errors';
import type { ReportResult, PagingOptions } from './paging';
import { fetchWholeReports, type PublisherPageFetcher } from './multi-paging';
import { combinePublisherRows, PUBLISHERS_TOGETHER } from './publisher-combined';
import {
  PUBLISHER_BREAKDOWN,
  publisherSelection,
  publisherSubject,
  resolvePublishers,
  selectionText,
  type PublisherRef,
  type PublisherSelection,
} from '../requests/publisher-list';
import { combineMetricsSums } from './publisher-totals';
import type { ReportInput, ReportQuery } from '../requests/report-request';
import type { LookupEntry } from '../responses/responses';
import { REPORT_RATE_LIMIT_REQUESTS } from '../../spec';

/** An ID of the usual length, to check the other arguments of "all" before the publishers are known. */
const SAMPLE_PUBLISHER_ID = '0'.repeat(32);

/** What a report of several publishers needs from the client; EngageClient implements it. */
export interface PublisherReportClient extends PublisherPageFetcher {
  /** The publishers lookup: the names, and what "all" covers. */
  listPublishers(options: { deadlineAtMs: number }): LookupEntry[];
  /** The report of one publisher of the template, its page addresses checked (see publisherQuery). */
  queryFor(template: ReportQuery, publisherId: string): ReportQuery;
}

/** The breakdowns argument without `-publisher`, and how often it was there. */
function takeTogether(breakdowns: ReportInput['breakdowns']): { rest: ReportInput['breakdowns']; count: number } {
  const isToken = (b: unknown) => typeof b === 'string' && b.trim().toLowerCase() === PUBLISHERS_TOGETHER;
  if (typeof breakdowns === 'string') {
    const parts = breakdowns.split(',');
    const rest = parts.filter((b) => !isToken(b));
    return { rest: rest.join(','), count: parts.length - rest.length };
  }
  if (Array.isArray(breakdowns)) {
    const rest = breakdowns.filter((b) => !isToken(b));
    return { rest, count: breakdowns.length - rest.length };
  }
  return { rest: breakdowns, count: 0 };
}

/**
 * Validates report arguments whose entityId may select several publishers, every problem at once,
 * before anything is sent. One publisher is `build(input)` as before; several make the template of a
 * report of several (`publishers` set), built from the arguments with a stand-in ID; `-publisher`
 * among the breakdowns adds their rows together (`publishersTogether`), which only several can.
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
  const together = takeTogether(input?.breakdowns);
  const rule = `"${PUBLISHERS_TOGETHER}" adds the rows of several publishers together`;
  if (together.count > 1) problems.push({ argument: 'breakdowns', message: `breakdowns: "${PUBLISHERS_TOGETHER}" is listed twice` });
  if (together.count > 0 && selection?.type === 'one') {
    problems.push({
      argument: 'breakdowns',
      message: `breakdowns: ${rule}, and entityId names one publisher: give several IDs or "all", or leave "${PUBLISHERS_TOGETHER}" out`,
    });
  }
  if (selection?.type === 'one' && problems.length === 0) return build(input);
  const rest = { ...input, breakdowns: together.rest };
  const standIn = selection?.type === 'list' ? selection.ids.reduce((a, b) => (b.length > a.length ? b : a)) : SAMPLE_PUBLISHER_ID;
  let template: ReportQuery | undefined;
  try {
    template = build(selection?.type === 'one' ? rest : { ...rest, entityId: standIn });
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    problems.push(...e.problems);
  }
  if (problems.length > 0 || !template || !selection || selection.type === 'one') throw new ValidationError(problems);
  const text = selectionText(selection);
  const query: ReportQuery = {
    ...template,
    entityId: text,
    params: { ...template.params, entityId: text },
    breakdowns: together.count > 0 ? template.breakdowns : [PUBLISHER_BREAKDOWN, ...template.breakdowns],
    publishers: selection,
  };
  if (together.count > 0) query.publishersTogether = true;
  return query;
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
 * `maxRows` bounds each publisher's rows (with `-publisher`, the rows added together). Reusable by
 * whatever needs the same report of several publishers: give it the template from buildSelectedQuery.
 */
export function runPublisherReport(client: PublisherReportClient, template: ReportQuery, options: PagingOptions): ReportResult {
  if (!template.publishers) throw new RangeError('runPublisherReport needs the query of a report of several publishers');
  return runPublisherReports(client, [template], options)[0]!;
}

/**
 * Reports of the same publishers that differ in their dates (a comparison's two periods), fetched
 * together: one publishers lookup, then every page of every publisher's reports, different
 * publishers' pages in the same batches, each publisher's pages of all the reports within its one
 * budget. One result per template, in order, each as runPublisherReport gives it.
 */
export function runPublisherReports(
  client: PublisherReportClient,
  templates: readonly ReportQuery[],
  options: PagingOptions & { nowMs?: number },
): ReportResult[] {
  const first = templates[0];
  if (!first) return [];
  if (!first.publishers || templates.some((t) => t.entityId !== first.entityId || t.publishersTogether !== first.publishersTogether)) {
    throw new RangeError('reports of several publishers fetched together share their publishers');
  }
  const publishers = resolvePublishers(first.publishers, client.listPublishers({ deadlineAtMs: options.deadlineAtMs }));
  const reports = publishers.flatMap((p) => templates.map((t) => ({ query: client.queryFor(t, p.id), subject: publisherSubject(p) })));
  const { maxRows, allOrNothing: _always, ...paging } = options;
  // Rows added together are whole before maxRows keeps the first of them.
  const perPublisher = first.publishersTogether ? undefined : maxRows;
  const results = fetchWholeReports(client, reports, {
    ...paging,
    ...(perPublisher !== undefined ? { maxRows: perPublisher } : {}),
    shortfall: (fetched, planned) =>
      `only ${fetched} of its ${planned} pages fit its ${REPORT_RATE_LIMIT_REQUESTS} report requests a minute in the time there was, so no publisher's rows are shown`,
  });
  return templates.map((template, k) =>
    combinePublisherResults(
      template,
      publishers,
      publishers.map((_, i) => results[i * templates.length + k]!),
      first.publishersTogether ? maxRows : undefined,
    ),
  );
}

/**
 * One result of several publishers' results: their items with the publisher in front (or, with
 * `-publisher`, added together and sorted, then cut to `maxRows`), their sums combined.
 */
export function combinePublisherResults(
  template: ReportQuery,
  publishers: readonly PublisherRef[],
  results: readonly ReportResult[],
  maxRows?: number,
): ReportResult {
  let items: Record<string, unknown>[] = [];
  results.forEach((result, i) => {
    const publisher = { id: publishers[i]!.id, name: publishers[i]!.name };
    for (const item of result.items) {
      if (!template.publishersTogether) item[PUBLISHER_BREAKDOWN] = publisher;
      items.push(item);
    }
  });
  const decDigits = template.params.decDigits !== undefined ? Number(template.params.decDigits) : undefined;
  let totalItems = results.reduce((n, r) => n + r.totalItems, 0);
  let cut = false;
  if (template.publishersTogether) {
    items = combinePublisherRows(items, {
      kind: template.kind,
      breakdowns: template.breakdowns,
      ...(template.sort ? { sort: template.sort } : {}),
      ...(decDigits !== undefined ? { decDigits } : {}),
    });
    totalItems = items.length;
    if (maxRows !== undefined && items.length > maxRows) {
      items = items.slice(0, maxRows);
      cut = true;
    }
  }
  const sums = combineMetricsSums(
    template.kind,
    results.map((r) => r.metricsSums),
    decDigits,
  );
  const combined: ReportResult = {
    query: template,
    items,
    totalItems,
    partial: cut || results.some((r) => r.partial),
    pagesFetched: results.reduce((n, r) => n + r.pagesFetched, 0),
    pagesPlanned: results.reduce((n, r) => n + r.pagesPlanned, 0),
    publishers: publishers.map((p) => ({ id: p.id, name: p.name })),
  };
  if (sums) combined.metricsSums = sums;
  if (cut || results.some((r) => r.stoppedBecause === 'maxRows')) combined.stoppedBecause = 'maxRows';
  return combined;
}
