/**
 * Reports of several publishers through the client, against a fake service that answers each
 * publisher's report by its own size: the pages each publisher costs, the batches that mix
 * publishers, each publisher's own rate budget, and the whole-or-nothing rule.
 */
import { RateLimitError, type ValidationError } from '../../../../../src/core/errors';
import { shareOut } from '../../../../../src/core/api/paging/multi-paging';
import { buildReportTable, reportResultToTable } from '../../../../../src/core/sheets/report-table';
import type { HttpRequest } from '../../../../../src/core/ports';
import { errorResponse, jsonResponse, queryOf, type FakeAnswer } from '../../../../support/fakes';
import { harness } from '../client/harness';

const A = 'aaaa1111';
const B = 'bbbb2222';
const C = 'cccc3333';
const NAMES: Record<string, string> = { [A]: 'Alpha', [B]: 'Bravo', [C]: 'Charlie' };

/** A service where publisher A has `rows[A]` rows, and so on; /publishers lists the three (C first). */
function service(rows: Record<string, number>, fail?: (request: HttpRequest) => FakeAnswer | undefined) {
  return (request: HttpRequest): FakeAnswer => {
    const failure = fail?.(request);
    if (failure) return failure;
    if (request.url.includes('/publishers')) {
      return jsonResponse(200, { publishers: [C, A, B].map((id) => ({ id, name: NAMES[id] })) });
    }
    const q = queryOf(request);
    const total = rows[q.entityId!] ?? 0;
    const offset = Number(q.offset);
    const items = [];
    for (let i = offset; i < Math.min(total, offset + Number(q.limit)); i++)
      items.push({ day: '20261101', revenue: 1, paidPvs: 10, row: i });
    return jsonResponse(200, { items, totalItems: total, metricsSums: { revenue: total, paidPvs: total * 10, rpmByPvs: 100 } });
  };
}

const input = (entityId: string) => ({ entityId, fromDate: '20261101', toDate: '20261107', metrics: 'revenue,rpmByPvs' });
const reportRequests = (requests: HttpRequest[]) => requests.filter((r) => r.url.includes('/reports/'));
const byPublisher = (requests: HttpRequest[]) => {
  const counts: Record<string, number> = {};
  for (const r of reportRequests(requests)) counts[queryOf(r).entityId!] = (counts[queryOf(r).entityId!] ?? 0) + 1;
  return counts;
};

describe('a report of several publishers', () => {
  it('costs each publisher ceil(rows / page size) requests, first pages together in one batch, and gives one table', () => {
    const { client, transport } = harness(service({ [A]: 25_000, [B]: 10_000, [C]: 3 }));
    const result = client.runReport(client.buildQuery('main', input('all')));
    expect(byPublisher(transport.requests)).toEqual({ [A]: 3, [B]: 1, [C]: 1 });
    // The lookup, then one batch of the three first pages, then A's two remaining pages.
    expect(transport.requests[0]!.url).toMatch(/\/publishers$/);
    expect(transport.batchSizes).toEqual([3, 2]);
    expect(reportRequests(transport.requests).every((r) => !queryOf(r).entityId!.includes(','))).toBe(true);
    expect(result).toMatchObject({ totalItems: 35_003, pagesFetched: 5, pagesPlanned: 5, partial: false });

    const table = reportResultToTable(result, { timeZone: 'UTC' });
    expect(table.header).toEqual(['publisher.id', 'publisher.name', 'day', 'revenue', 'rpmByPvs']);
    // "all" goes by name: Alpha, Bravo, Charlie, each publisher's rows in the service's order.
    expect(table.rows).toHaveLength(35_003);
    expect(table.rows[0]!.slice(0, 2)).toEqual([A, 'Alpha']);
    expect(table.rows[25_000]!.slice(0, 2)).toEqual([B, 'Bravo']);
    expect(table.rows[35_002]!.slice(0, 2)).toEqual([C, 'Charlie']);
    // Revenue summed; the RPM from the summed revenue and page views (35,003 / 350,030 * 1000), not 3 x 100.
    expect(table.totals).toEqual(['Total', '', '', 35_003, 100]);
  });

  it("spends each publisher's own budget of 30 a minute", () => {
    const { client, transport, clock } = harness(service({ [A]: 2_000, [B]: 500, [C]: 0 }));
    const query = client.buildQuery('main', { ...input(`${B},${A}`), limit: 100 });
    const result = client.runReport(query, { deadlineAtMs: clock.now() + 25_000 });
    expect(byPublisher(transport.requests)).toEqual({ [A]: 20, [B]: 5 });
    expect(client.budgetFreeAtMs(client.queryFor(query, A), 10)).toBeLessThanOrEqual(clock.now());
    expect(client.budgetFreeAtMs(client.queryFor(query, A), 11)).toBeGreaterThan(clock.now());
    expect(client.budgetFreeAtMs(client.queryFor(query, B), 25)).toBeLessThanOrEqual(clock.now());
    // A list keeps its order.
    expect(
      buildReportTable(result.items.slice(0, 1), { kind: 'main', breakdowns: result.query.breakdowns, timeZone: 'UTC' }).rows[0]!.slice(
        0,
        2,
      ),
    ).toEqual([B, 'Bravo']);
  });

  it('goes on with the other publishers while one has no slot free, and waits only when none has', () => {
    const { client, transport, sleeper, clock, store } = harness(service({ [A]: 3_000, [B]: 3_000 }));
    const query = client.buildQuery('main', { ...input(`${A},${B}`), limit: 100 });
    // Other executions spent 25 of A's slots a moment ago.
    store.set(`engage.rate.reports.${A}`, JSON.stringify({ t: Array(25).fill(clock.now()), n: 1 }));
    client.runReport(query, { deadlineAtMs: clock.now() + 200_000 });
    expect(byPublisher(transport.requests)).toEqual({ [A]: 30, [B]: 30 });
    // A's 5 free slots went out beside B's pages; only when B was done and A spent did the run wait, once, for A's window.
    expect(sleeper.sleeps).toEqual([60_000]);
    expect(transport.batchSizes).toEqual([2, 10, 10, 10, 3, 10, 10, 5]);
  });

  it('fails as a whole, naming the publisher, when one publisher fails', () => {
    const { client } = harness(
      service({ [A]: 500, [B]: 500, [C]: 500 }, (r) =>
        r.url.includes(`entityId=${B}`) ? errorResponse(500, 'broken', 'tr-b') : undefined,
      ),
    );
    expect(() => client.runReport(client.buildQuery('main', input('all')))).toThrow(
      new RegExp(`^Publisher 'Bravo' \\(${B}\\): Engage answered with an error \\(HTTP 500: broken\\).*\\[trace ID tr-b\\]`),
    );
  });

  it.each([true, false])(
    'asks for nothing past the first pages when a publisher cannot have all its pages before the deadline, and says which (allOrNothing %s)',
    (allOrNothing) => {
      const { client, transport, clock } = harness(service({ [A]: 5_000, [B]: 100 }));
      const query = client.buildQuery('main', { ...input(`${A},${B}`), limit: 100 });
      let error: unknown;
      try {
        client.runReport(query, { deadlineAtMs: clock.now() + 25_000, allOrNothing });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).local).toBe(true);
      expect((error as Error).message).toMatch(
        new RegExp(`^Publisher 'Alpha' \\(${A}\\): Engage's rate limit was reached \\(only 1 of its 50 pages`),
      );
      expect(reportRequests(transport.requests)).toHaveLength(2);
    },
  );

  it('bounds each publisher by maxRows', () => {
    const { client, transport } = harness(service({ [A]: 25_000, [B]: 50 }));
    const result = client.runReport(client.buildQuery('main', input(`${A},${B}`)), { maxRows: 100 });
    expect(result.items).toHaveLength(150);
    expect(result).toMatchObject({ partial: true, stoppedBecause: 'maxRows' });
    expect(byPublisher(transport.requests)).toEqual({ [A]: 1, [B]: 1 });
  });

  it('checks the list with the other arguments, every problem at once, before anything is sent', () => {
    const { client, transport } = harness(service({}));
    let error: unknown;
    try {
      client.buildQuery('main', { ...input(`${A},,${A}`), fromDate: 'soon' });
    } catch (e) {
      error = e;
    }
    expect((error as ValidationError).problems.map((p) => p.argument)).toEqual(['entityId', 'entityId', 'fromDate']);
    expect(transport.requestCount).toBe(0);
    const template = client.buildQuery('main', input(`${A},${B}`));
    expect(template).toMatchObject({ entityId: `${A},${B}`, breakdowns: ['publisher', 'day'], publishers: { type: 'list', ids: [A, B] } });
    expect(client.queryFor(template, B)).toMatchObject({ entityId: B, breakdowns: ['day'], params: { entityId: B } });
  });
});

describe('several publishers added together ("-publisher")', () => {
  /** Each publisher has the same countries; Alpha and Bravo share US, Charlie has its own. */
  function countries() {
    const rows: Record<string, Array<Record<string, unknown>>> = {
      [A]: [
        { country: { id: 'US', name: 'United States' }, revenue: 10, paidPvs: 1000, rpmByPvs: 10, viewabilityRate: 50 },
        { country: { id: 'DE', name: 'Germany' }, revenue: 3, paidPvs: 100, rpmByPvs: 30, viewabilityRate: 40 },
      ],
      [B]: [{ country: { id: 'US', name: 'United States' }, revenue: '5,5', paidPvs: 500, rpmByPvs: 11, viewabilityRate: 70 }],
      [C]: [{ country: { id: 'FR', name: 'France' }, revenue: 12, paidPvs: 2000, rpmByPvs: 6, viewabilityRate: 60 }],
    };
    return harness((request) => {
      if (request.url.includes('/publishers')) return jsonResponse(200, { publishers: [C, A, B].map((id) => ({ id, name: NAMES[id] })) });
      const items = rows[queryOf(request).entityId!]!;
      return jsonResponse(200, { items, totalItems: items.length, metricsSums: { revenue: 1, paidPvs: 1 } });
    });
  }
  const together = (extra: Record<string, unknown> = {}) => ({
    entityId: 'all',
    fromDate: '20261101',
    toDate: '20261107',
    breakdowns: 'country,-publisher',
    metrics: 'revenue,paidPvs,rpmByPvs,viewabilityRate',
    ...extra,
  });

  it("adds rows of the same key together by the Total row's rules, keeps a single publisher's row as sent, and sorts them again", () => {
    const { client } = countries();
    const query = client.buildQuery('main', together());
    expect(query).toMatchObject({ breakdowns: ['country'], publishersTogether: true, publishers: { type: 'all' } });
    const table = reportResultToTable(client.runReport(query), { timeZone: 'UTC' });
    expect(table.header).toEqual(['country.id', 'country.name', 'revenue', 'paidPvs', 'rpmByPvs', 'viewabilityRate']);
    expect(table.rows).toEqual([
      // US of Alpha and Bravo: revenue and page views summed, the RPM from them (15.5 / 1500 * 1000), the viewability blank.
      ['US', 'United States', 15.5, 1500, 10.33, ''],
      ['FR', 'France', 12, 2000, 6, 60],
      ['DE', 'Germany', 3, 100, 30, 40],
    ]);
  });

  it('keeps the first maxRows of the rows added together, in the order sort asks for', () => {
    const { client, transport } = countries();
    const query = client.buildQuery('main', together({ sort: 'country.name asc' }));
    const result = client.runReport(query, { maxRows: 2 });
    expect(result.items.map((i) => (i.country as { id: string }).id)).toEqual(['FR', 'DE']);
    expect(result).toMatchObject({ totalItems: 3, partial: true, stoppedBecause: 'maxRows' });
    // Every publisher was asked for all its rows: the best of all of them needs every one of theirs.
    expect(byPublisher(transport.requests)).toEqual({ [A]: 1, [B]: 1, [C]: 1 });
    expect(reportRequests(transport.requests).every((r) => queryOf(r).limit === '10000')).toBe(true);
  });

  it('refuses "-publisher" for one publisher, or twice, before anything is sent', () => {
    const { client, transport } = countries();
    expect(() => client.buildQuery('main', together({ entityId: A }))).toThrow(/entityId names one publisher/);
    expect(() => client.buildQuery('main', together({ breakdowns: ['-publisher', 'day', ' -Publisher '] }))).toThrow(/is listed twice/);
    expect(transport.requestCount).toBe(0);
  });
});

describe('shareOut', () => {
  it('shares a batch among publishers in turns, never more than one has left', () => {
    expect(shareOut([20, 20, 20], 10)).toEqual([4, 3, 3]);
    expect(shareOut([1, 20], 10)).toEqual([1, 9]);
    expect(shareOut([2, 3], 10)).toEqual([2, 3]);
    expect(shareOut([5, 5, 5], 2)).toEqual([1, 1, 0]);
  });
});
