/**
 * Fetching a comparison's two periods together (paging-together.ts): their first pages in one
 * fetchAll batch, then every other page of both in batches the publisher's rate budget allows,
 * ceil(rows / page size) requests for each period, and nothing partial: a budget that cannot carry
 * every page before the deadline fails the whole before a page is spent on it.
 */
import { RateLimitError } from '../../../../src/core/errors';
import { REPORT_RATE_RULE, type RateLimiter } from '../../../../src/core/api/rate-limiter';
import { queryOf, reportHandler } from '../../../support/fakes';
import { harness, PUBLISHER } from './harness';

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

  it('fetches reports of one publisher only', () => {
    const { client } = twoPeriods(1, 1);
    expect(() =>
      client.runTogether([client.buildQuery('main', CURRENT), client.buildQuery('main', { ...EARLIER, entityId: 'other' })]),
    ).toThrow(/share one publisher/);
  });
});
