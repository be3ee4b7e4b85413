/**
 * Fetching several reports together (multi-paging.ts), as a comparison's two periods are: their first
 * pages in one fetchAll batch, then every other page of both in batches the publisher's rate budget
 * allows, ceil(rows / page size) requests for each period, and nothing partial: a budget that cannot
 * carry every page before the deadline fails the whole before a page is spent on it. Then the two
 * periods of several publishers: each publisher's pages of both periods within its one budget, pages
 * of different publishers in the same batches, a failing publisher named.
 */
import { RateLimitError } from '../../../../../src/core/errors';
import { REPORT_RATE_RULE, type RateLimiter } from '../../../../../src/core/api/transport/rate-limiter';
import type { HttpResponse } from '../../../../../src/core/ports';
import { errorResponse, type FakeHandler, jsonResponse, queryOf, reportHandler } from '../../../../support/fakes';
import { harness, PUBLISHER } from '../client/harness';

const CURRENT = { entityId: PUBLISHER, fromDate: '20261101', toDate: '20261107' };
const EARLIER = { entityId: PUBLISHER, fromDate: '20261025', toDate: '20261031' };

/** The current period has `now` rows, the earlier one `before`. */
function twoPeriods(now: number, before: number) {
  const current = reportHandler(now, (i) => ({ day: '20261101', revenue: i }), { revenue: 1 });
  const earlier = reportHandler(before, (i) => ({ day: '20261025', revenue: -i }), { revenue: 2 });
  return harness((request, index) => (queryOf(request).fromDate === '20261101' ? current : earlier)(request, index));
}

const pagesOf = (requests: { url: string }[]) =>
  requests.map((r) => {
    const q = queryOf({ url: r.url, method: 'get' });
    return `${q.fromDate}@${q.offset}+${q.limit}`;
  });

describe('fetching a comparison together', () => {
  it('sends both first pages in one batch, then the other pages of both in one more: ceil(rows / 10000) requests per period', () => {
    const { client, transport } = twoPeriods(25_000, 12_000);
    const [now, before] = client.runTogether([client.buildQuery('main', CURRENT), client.buildQuery('main', EARLIER)]);
    expect(now!.items).toHaveLength(25_000);
    expect(before!.items).toHaveLength(12_000);
    // Each period's rows in its own page order.
    expect(now!.items[24_999]!.revenue).toBe(24_999);
    expect(before!.items[11_999]!.revenue).toBe(-11_999);
    expect(now!.metricsSums).toEqual({ revenue: 1 });
    expect(before!.metricsSums).toEqual({ revenue: 2 });
    expect(transport.fetchCalls).toBe(0);
    expect(transport.batchSizes).toEqual([2, 3]);
    expect(pagesOf(transport.requests)).toEqual([
      '20261101@0+10000',
      '20261025@0+10000',
      '20261101@10000+10000',
      '20261101@20000+5000',
      '20261025@10000+2000',
    ]);
    expect(now).toMatchObject({ partial: false, pagesFetched: 3, pagesPlanned: 3, totalItems: 25_000 });
    expect(before).toMatchObject({ partial: false, pagesFetched: 2, pagesPlanned: 2, totalItems: 12_000 });
  });

  it.each([
    [0, 0, 2],
    [10_000, 1, 2],
    [10_001, 9_999, 3],
    [45_000, 20_000, 7],
  ])('takes ceil(rows / 10000) requests, at least one, for %i and %i rows: %i', (now, before, requests) => {
    const { client, transport } = twoPeriods(now, before);
    client.runTogether([client.buildQuery('main', CURRENT), client.buildQuery('main', EARLIER)]);
    expect(transport.requestCount).toBe(requests);
  });

  it('reports progress in pages over both periods', () => {
    const { client } = twoPeriods(25_000, 12_000);
    const progress: Array<[number, number]> = [];
    client.runTogether([client.buildQuery('main', CURRENT), client.buildQuery('main', EARLIER)], {
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(progress).toEqual([
      [2, 2],
      [2, 5],
      [5, 5],
    ]);
  });

  /** 25 report requests of this publisher were sent and answered a moment ago by other executions. */
  function othersSent(client: unknown, nowMs: number, count: number): void {
    const limiter = (client as { limiter: RateLimiter }).limiter;
    limiter.settle(limiter.acquire(REPORT_RATE_RULE, PUBLISHER, count, nowMs), { counted: count, atMs: nowMs });
  }

  it('spends nothing more when the first pages show the rest cannot come before the deadline, and says when to try again', () => {
    const { client, transport, clock } = twoPeriods(55_000, 30_000);
    othersSent(client, clock.now(), 25);
    let error: unknown;
    try {
      client.runTogether([client.buildQuery('main', CURRENT), client.buildQuery('main', EARLIER)]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).local).toBe(true);
    expect((error as Error).message).toMatch(
      /7 of the 9 pages of the compared periods could not be fetched within the 30 report requests a minute.*try again after 12:01:00 UTC/,
    );
    // The two first pages, which told the size, and nothing else.
    expect(transport.requestCount).toBe(2);
  });

  it('waits for the budget when the deadline leaves time, and then has every page', () => {
    const { client, transport, clock, sleeper } = twoPeriods(55_000, 30_000);
    othersSent(client, clock.now(), 25);
    const [now, before] = client.runTogether([client.buildQuery('main', CURRENT), client.buildQuery('main', EARLIER)], {
      deadlineAtMs: clock.now() + 5 * 60_000,
    });
    expect(now!.items).toHaveLength(55_000);
    expect(before!.items).toHaveLength(30_000);
    expect(transport.requestCount).toBe(9);
    expect(sleeper.sleeps.length).toBeGreaterThan(0);
    expect(transport.batchSizes).toEqual([2, 3, 4]);
  });

  it('asks for the other pages from the totals the first pages state at their end, with the same rows as when a total comes first', () => {
    const totalFirst =
      (handler: FakeHandler): FakeHandler =>
      (request, index) => {
        const answer = handler(request, index) as HttpResponse;
        const { totalItems, ...rest } = JSON.parse(answer.body) as Record<string, unknown>;
        return { ...answer, body: JSON.stringify({ totalItems, ...rest }) };
      };
    const runs = [false, true].map((first) => {
      const current = reportHandler(25_000, (i) => ({ day: '20261101', revenue: i }));
      const earlier = reportHandler(12_000, (i) => ({ day: '20261025', revenue: -i }));
      const { client, transport } = harness((request, index) => {
        const handler = queryOf(request).fromDate === '20261101' ? current : earlier;
        return (first ? totalFirst(handler) : handler)(request, index);
      });
      const results = client.runTogether([client.buildQuery('main', CURRENT), client.buildQuery('main', EARLIER)]);
      return { results, batches: transport.batchSizes, pages: pagesOf(transport.requests) };
    });
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[0]!.batches).toEqual([2, 3]);
  });

  it('keeps only the first page when it comes short of a full page, whatever total it states', () => {
    // The data ended after 4,000 rows although the answer states 25,000: the rows are those 4,000.
    const current = reportHandler(25_000, (i) => ({ day: '20261101', revenue: i }));
    const earlier = reportHandler(3, (i) => ({ day: '20261025', revenue: -i }));
    const { client } = harness((request, index) => {
      const q = queryOf(request);
      if (q.fromDate !== '20261101') return earlier(request, index);
      const answer = current(request, index) as HttpResponse;
      if (q.offset !== '0') return answer;
      const page = JSON.parse(answer.body) as { items: unknown[] };
      return { ...answer, body: JSON.stringify({ ...page, items: page.items.slice(0, 4_000) }) };
    });
    const [now, before] = client.runTogether([client.buildQuery('main', CURRENT), client.buildQuery('main', EARLIER)]);
    expect(now!.items).toHaveLength(4_000);
    expect(now!.items[3_999]!.revenue).toBe(3_999);
    expect(now).toMatchObject({ partial: true, totalItems: 25_000, pagesFetched: 1, pagesPlanned: 1 });
    expect(before!.items).toHaveLength(3);
  });

  it('fails as before when a first page that stated its total holds an item that is not an object', () => {
    const current = reportHandler(25_000, (i) => (i === 7 ? (5 as unknown as Record<string, unknown>) : { day: '20261101', revenue: i }));
    const { client } = harness((request, index) => current(request, index));
    expect(() => client.runTogether([client.buildQuery('main', CURRENT), client.buildQuery('main', EARLIER)])).toThrow(
      /items\[7\] is not an object/,
    );
  });

  it('fetches reports of the same publishers only', () => {
    const { client } = twoPeriods(1, 1);
    expect(() =>
      client.runTogether([client.buildQuery('main', CURRENT), client.buildQuery('main', { ...EARLIER, entityId: 'other' })]),
    ).toThrow(/share their publishers/);
  });
});

describe('fetching the two periods of several publishers together', () => {
  const A = 'aaaa1111';
  const B = 'bbbb2222';
  const NAMES: Record<string, string> = { [A]: 'Alpha', [B]: 'Bravo' };
  /** Rows per publisher and period ("now" from 1 November, "before" the week before); /publishers lists both. */
  function service(rows: Record<string, { now: number; before: number }>, failing?: string) {
    return harness((request) => {
      if (request.url.includes('/publishers')) return jsonResponse(200, { publishers: [B, A].map((id) => ({ id, name: NAMES[id] })) });
      const q = queryOf(request);
      if (q.entityId === failing) return errorResponse(500, 'broken', 'tr-fail');
      const period = q.fromDate === '20261101' ? 'now' : 'before';
      const total = rows[q.entityId!]![period];
      const items = [];
      for (let i = Number(q.offset); i < Math.min(total, Number(q.offset) + Number(q.limit)); i++) {
        items.push({ day: q.fromDate, revenue: 1, paidPvs: 10, row: i });
      }
      return jsonResponse(200, { items, totalItems: total, metricsSums: { revenue: total, paidPvs: total * 10 } });
    });
  }
  const periods = (client: ReturnType<typeof harness>['client'], entityId: string, limit?: number) =>
    [CURRENT, EARLIER].map((p) => client.buildQuery('main', { ...p, entityId, metrics: 'revenue,rpmByPvs', ...(limit ? { limit } : {}) }));
  const reportRequests = (requests: { url: string }[]) => requests.filter((r) => r.url.includes('/reports/'));

  it('costs each publisher ceil(rows / page size) requests for each period, first pages of all in one batch, and combines each period', () => {
    const { client, transport } = service({ [A]: { now: 25_000, before: 12_000 }, [B]: { now: 3, before: 0 } });
    const [now, before] = client.runTogether(periods(client, 'all'));
    const pages = reportRequests(transport.requests).map((r) => {
      const q = queryOf({ url: r.url, method: 'get' });
      return `${q.entityId}:${q.fromDate}@${q.offset}`;
    });
    // The lookup, then the four first pages together, then Alpha's remaining pages of both periods together.
    expect(transport.batchSizes).toEqual([4, 3]);
    expect(pages.slice(0, 4).sort()).toEqual([`${A}:20261025@0`, `${A}:20261101@0`, `${B}:20261025@0`, `${B}:20261101@0`]);
    expect(pages.filter((p) => p.startsWith(A))).toHaveLength(3 + 2);
    expect(pages.filter((p) => p.startsWith(B))).toHaveLength(1 + 1);
    // Each period is one result of both publishers, by name, with the publisher on each row and the sums combined.
    expect(now!.items).toHaveLength(25_003);
    expect(before!.items).toHaveLength(12_000);
    expect(now!.items[0]!.publisher).toEqual({ id: A, name: 'Alpha' });
    expect(now!.items[25_000]!.publisher).toEqual({ id: B, name: 'Bravo' });
    expect(now!.publishers).toEqual([
      { id: A, name: 'Alpha' },
      { id: B, name: 'Bravo' },
    ]);
    expect(now!.metricsSums).toEqual({ revenue: 25_003, paidPvs: 250_030, rpmByPvs: 100 });
  });

  it("spends each publisher's own 30 a minute on its pages of both periods, the other publisher going on meanwhile", () => {
    const { client, transport, store, clock, sleeper } = service({
      [A]: { now: 1_000, before: 1_000 },
      [B]: { now: 1_000, before: 1_000 },
    });
    store.set(`engage.rate.reports.${A}`, JSON.stringify({ t: Array(25).fill(clock.now()), n: 1 }));
    const [now, before] = client.runTogether(periods(client, `${A},${B}`, 100), { deadlineAtMs: clock.now() + 5 * 60_000 });
    expect(now!.items).toHaveLength(2_000);
    expect(before!.items).toHaveLength(2_000);
    // Alpha's 5 free slots went beside Bravo's pages (2 first pages, then 3 with 7 of Bravo's); Bravo went on
    // alone while Alpha's budget was spent; only then did the run wait, once, for Alpha's window.
    expect(sleeper.sleeps).toEqual([60_000]);
    expect(transport.batchSizes).toEqual([4, 10, 10, 1, 10, 5]);
    expect(reportRequests(transport.requests)).toHaveLength(40);
  });

  it('sends nothing past the first pages when one publisher cannot have all its pages of both periods in time, and names it', () => {
    const { client, transport, store, clock } = service({ [A]: { now: 1_000, before: 1_000 }, [B]: { now: 1_000, before: 1_000 } });
    // Other executions spent 25 of Alpha's slots a moment ago: 5 are left for its 20 pages.
    store.set(`engage.rate.reports.${A}`, JSON.stringify({ t: Array(25).fill(clock.now()), n: 1 }));
    let error: unknown;
    try {
      client.runTogether(periods(client, `${A},${B}`, 100));
    } catch (e) {
      error = e;
    }
    // Alpha's 18 remaining pages cannot come before the formula's deadline: nothing past the first pages was sent, and Alpha is named.
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Publisher 'Alpha' \\(${A}\\): Engage's rate limit was reached \\(only 2 of its 20 pages fit its 30 report requests a minute`,
      ),
    );
    expect(reportRequests(transport.requests)).toHaveLength(4);
  });

  it('fails as a whole, naming the failing publisher', () => {
    const { client } = service({ [A]: { now: 5, before: 5 }, [B]: { now: 5, before: 5 } }, B);
    expect(() => client.runTogether(periods(client, 'all'))).toThrow(
      new RegExp(`^Publisher 'Bravo' \\(${B}\\): Engage answered with an error \\(HTTP 500: broken\\).*\\[trace ID tr-fail\\]`),
    );
  });
});
