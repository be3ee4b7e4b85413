import { TransportError } from '../../../../../src/core';
import { planRemainingPages } from '../../../../../src/core/api/paging/paging';
import { REPORT_RATE_RULE, type RateLimiter } from '../../../../../src/core/api/transport/rate-limiter';
import { errorResponse, queryOf, reportHandler } from '../../../../support/fakes';
import { harness, PUBLISHER } from '../client/harness';

const input = { entityId: PUBLISHER, fromDate: '20261101', toDate: '20261121' };
const pagesOf = (requests: { url: string }[]) =>
  requests.map((r) => {
    const q = queryOf({ url: r.url, method: 'get' });
    return [Number(q.offset), Number(q.limit)];
  });

describe('paging a report', () => {
  it('fetches a 25,000-row general report in exactly 3 requests: one fetch, then one fetchAll of 2', () => {
    const { client, transport } = harness(reportHandler(25_000));
    const result = client.runReport(client.buildQuery('main', input));
    expect(result.items).toHaveLength(25_000);
    expect(result.items[24_999]!.revenue).toBe(24_999);
    expect(transport.requestCount).toBe(3);
    expect(transport.fetchCalls).toBe(1);
    expect(transport.batchSizes).toEqual([2]);
    expect(pagesOf(transport.requests)).toEqual([
      [0, 10000],
      [10000, 10000],
      [20000, 5000],
    ]);
    expect(result).toMatchObject({ partial: false, totalItems: 25_000, pagesFetched: 3, pagesPlanned: 3 });
  });

  it.each([
    [0, 1],
    [1, 1],
    [9_999, 1],
    [10_000, 1],
    [10_001, 2],
    [95_000, 10],
  ])('takes ceil(N / 10000) requests for %i rows', (rows, requests) => {
    const { client, transport } = harness(reportHandler(rows));
    expect(client.runReport(client.buildQuery('main', input)).items).toHaveLength(rows);
    expect(transport.requestCount).toBe(requests);
  });

  it('pages the external-ID reports by 5,000', () => {
    const { client, transport } = harness(reportHandler(12_000, (i) => ({ externalId: `e${i}`, revenue: 1 })));
    const q = client.buildQuery('externalId', { entityId: PUBLISHER, fromDate: '2026112100', toDate: '2026112200' });
    expect(client.runReport(q).items).toHaveLength(12_000);
    expect(pagesOf(transport.requests)).toEqual([
      [0, 5000],
      [5000, 5000],
      [10000, 2000],
    ]);
  });

  it('asks only for the rows a caller wants and says it stopped early', () => {
    const { client, transport } = harness(reportHandler(25_000));
    const result = client.runReport(client.buildQuery('main', input), { maxRows: 12_345 });
    expect(pagesOf(transport.requests)).toEqual([
      [0, 10000],
      [10000, 2345],
    ]);
    expect(result).toMatchObject({ partial: true, stoppedBecause: 'maxRows', totalItems: 25_000 });
    expect(result.items).toHaveLength(12_345);
  });

  it('asks for a small first page when maxRows is small', () => {
    const { client, transport } = harness(reportHandler(25_000));
    client.runReport(client.buildQuery('main', input), { maxRows: 10 });
    expect(pagesOf(transport.requests)).toEqual([[0, 10]]);
  });

  it('starts at the offset and pages with the limit given', () => {
    const { client, transport } = harness(reportHandler(1000));
    const result = client.runReport(client.buildQuery('main', { ...input, offset: 100, limit: 400 }));
    expect(pagesOf(transport.requests)).toEqual([
      [100, 400],
      [500, 400],
      [900, 100],
    ]);
    expect(result.items).toHaveLength(900);
  });

  it('reports progress in pages', () => {
    const { client } = harness(reportHandler(25_000));
    const progress: Array<[number, number]> = [];
    client.runReport(client.buildQuery('main', input), { onProgress: (done, total) => progress.push([done, total]) });
    expect(progress).toEqual([
      [1, 3],
      [3, 3],
    ]);
  });

  /** 25 report requests of this publisher were sent and answered a moment ago by other executions. */
  function othersSent25(client: unknown, nowMs: number): void {
    const limiter = (client as { limiter: RateLimiter }).limiter;
    limiter.settle(limiter.acquire(REPORT_RATE_RULE, PUBLISHER, 25, nowMs), { counted: 25, atMs: nowMs });
  }

  it('sends the remaining pages in groups the rate budget allows', () => {
    const { client, transport, sleeper, clock } = harness(reportHandler(95_000));
    othersSent25(client, clock.now());
    const result = client.runReport(client.buildQuery('main', input), { deadlineAtMs: Date.UTC(2026, 10, 22, 12, 5) });
    expect(result.items).toHaveLength(95_000);
    expect(transport.batchSizes).toEqual([4, 5]);
    expect(sleeper.sleeps).toEqual([60_000]);
  });

  it('keeps what it has and says when to continue when the rate budget runs out before the deadline', () => {
    const { client, transport, clock } = harness(reportHandler(95_000));
    othersSent25(client, clock.now());
    const result = client.runReport(client.buildQuery('main', input));
    expect(result).toMatchObject({
      partial: true,
      stoppedBecause: 'rateLimit',
      retryAtMs: Date.UTC(2026, 10, 22, 12, 1),
      pagesFetched: 5,
      pagesPlanned: 10,
    });
    expect(result.items).toHaveLength(50_000);
    expect(transport.requestCount).toBe(5);
  });

  it('spends nothing on the other pages when a caller that needs all of them cannot have them before the deadline', () => {
    const { client, transport, clock } = harness(reportHandler(95_000));
    othersSent25(client, clock.now());
    const result = client.runReport(client.buildQuery('main', input), { allOrNothing: true });
    expect(result).toMatchObject({
      partial: true,
      stoppedBecause: 'rateLimit',
      retryAtMs: Date.UTC(2026, 10, 22, 12, 1),
      pagesFetched: 1,
      pagesPlanned: 10,
    });
    expect(transport.requestCount).toBe(1);
    // With the time to wait for them, it fetches them all.
    const whole = client.runReport(client.buildQuery('main', input), { allOrNothing: true, deadlineAtMs: clock.now() + 5 * 60_000 });
    expect(whole.items).toHaveLength(95_000);
  });

  it('retries only the members of a batch that failed', () => {
    const { client, transport } = harness();
    const serve = reportHandler(35_000);
    let failedOnce = false;
    transport.setHandler((request, index) => {
      if (queryOf(request).offset === '20000' && !failedOnce) {
        failedOnce = true;
        return errorResponse(504, 'timeout');
      }
      return serve(request, index);
    });
    expect(client.runReport(client.buildQuery('main', input)).items).toHaveLength(35_000);
    expect(transport.batchSizes).toEqual([3, 1]);
    expect(pagesOf(transport.requests).slice(4)).toEqual([[20000, 10000]]);
  });

  it('sends the whole batch again when fetchAll itself fails', () => {
    const { client, transport } = harness();
    const serve = reportHandler(25_000);
    let calls = 0;
    transport.setHandler((request, index) => (++calls === 2 ? new TransportError('connection reset') : serve(request, index)));
    expect(client.runReport(client.buildQuery('main', input)).items).toHaveLength(25_000);
    expect(transport.batchSizes).toEqual([2, 2]);
  });
});

describe('planRemainingPages', () => {
  it('plans the pages after the first up to the target', () => {
    expect(planRemainingPages(0, 10_000, 25_000, 10_000)).toEqual([
      { offset: 10_000, limit: 10_000 },
      { offset: 20_000, limit: 5000 },
    ]);
    expect(planRemainingPages(0, 500, 500, 10_000)).toEqual([]);
  });
});
