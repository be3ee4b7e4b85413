/**
 * The hourly external-ID report into BigQuery (src/core/destinations/bigquery/warehouse-refresh.ts): each
 * day fetched as its 24 UTC hours, one request each (fromDate yyyyMMddHH, toDate the next hour,
 * exclusive), every hour's items written with that hour as a TIMESTAMP and the day loaded as one job
 * into `table$yyyyMMdd`; a day cut short by the rate budget is not loaded and stays next. Against a
 * fake report source and a fake BigQuery transport; and the saved report's rules for the hourly report
 * with a BigQuery destination, each refusal naming its field.
 */
import { FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../../support/fakes';
import type { HttpRequest } from '../../../../../src/core/ports';
import type { ReportResult } from '../../../../../src/core/api/paging/paging';
import type { ReportQuery } from '../../../../../src/core/api/requests/report-request';
import { BigQueryClient } from '../../../../../src/core/warehouse/bigquery-client';
import { hoursOfDay, refreshIntoBigQuery } from '../../../../../src/core/destinations/bigquery/warehouse-refresh';
import type { ReportSource, RefreshSummary } from '../../../../../src/core/schedules/refresh/refresh-source';
import type { RefreshStatus, SavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { checkRangeOf } from '../../../../../src/core/destinations/bigquery/definition';
import { checkAtSave } from '../../../../support/destinations';

const checkSavedReport = checkAtSave;

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

/** The report's table, its status at the cell of its target. */
const INTO_TABLE = {
  kind: 'bigquery',
  target: { sheetName: 'BigQuery', cell: 'A1' },
  table: { projectId: 'news-data-42', datasetId: 'engage', tableId: 'ids_hourly', location: 'EU' },
} as const;
/** The same cell as a sheet destination. */
const INTO_SHEET = { kind: 'sheet', target: INTO_TABLE.target } as const;

const hourlyInput = (extra: Record<string, unknown> = {}) => ({
  name: 'IDs',
  kind: 'externalId',
  entityId: 'c0ffee5eed1a2b3c4d5e6f708192a3b4',
  period: { type: 'fixed', fromDate: '20261110', toDate: '20261111' },
  breakdowns: ['widget'],
  metrics: ['totalReqs', 'revenue'],
  destination: INTO_TABLE,
  schedule: { every: 'day', hour: 6 },
  ...extra,
});

function bigQuery() {
  const transport = new FakeTransport((request: HttpRequest) => {
    if (request.method === 'get' && request.url.endsWith('/datasets/engage')) return jsonResponse(200, { location: 'EU' });
    if (request.method === 'get')
      return jsonResponse(404, { error: { code: 404, message: 'Not found', errors: [{ reason: 'notFound' }] } });
    if (request.url.endsWith('/tables')) return jsonResponse(200, JSON.parse(request.payload!));
    const jobId = /"jobId":"([^"]+)"/.exec(request.payload!)![1];
    return jsonResponse(200, { jobReference: { jobId }, status: { state: 'DONE' } });
  });
  const clock = new ManualClock(NOW);
  const client = new BigQueryClient({ transport, token: { oauthToken: () => 'tok' }, clock, sleeper: new ManualSleeper(clock) });
  return { transport, client };
}

/** A report source whose answer for an hour names it in its items (wrapped, as some clients see them), and that may stop at the rate limit. */
function source(client: BigQueryClient, options: { rateLimitAfter?: number } = {}) {
  const asked: Array<{ fromDate: string; toDate: string; breakdowns: unknown }> = [];
  const fake: ReportSource = {
    checkSignedIn: () => undefined,
    buildQuery: (_kind, input) => ({ input }) as unknown as ReportQuery,
    run: (query) => {
      const { input } = query as unknown as { input: { fromDate: string; toDate: string; breakdowns: unknown } };
      asked.push({ fromDate: input.fromDate, toDate: input.toDate, breakdowns: input.breakdowns });
      const limited = options.rateLimitAfter !== undefined && asked.length > options.rateLimitAfter;
      const hour = Number(input.fromDate.slice(8));
      const items = limited
        ? []
        : [
            {
              externalId: { value: `id-${hour}` },
              widget: { value: { id: 'w1', name: 'Top' } },
              totalReqs: { value: hour + 1 },
              revenue: '0,5',
            },
            // The third hour's item carries its hour, wrapped: read as that hour.
            ...(hour === 2 ? [{ externalId: 'late', hour: { value: input.fromDate }, totalReqs: 1 }] : []),
          ];
      const result = { query, items, totalItems: items.length, partial: limited, pagesFetched: 1, pagesPlanned: 1 } as ReportResult;
      if (limited) result.stoppedBecause = 'rateLimit';
      return { result, requests: 1 };
    },
    runTogether: () => {
      throw new Error('not used');
    },
    budgetFreeAtMs: () => NOW,
    fetchRoomFor: () => true,
  };
  // BigQuery's client is the destination's own, beside the report source.
  return { fake: Object.assign(fake, { client }), asked };
}

function run(src: ReportSource & { client: BigQueryClient }, status: RefreshStatus = {}) {
  const report = { ...checkSavedReport(hourlyInput()), id: 'r1', ownerId: 'o1', createdAtMs: NOW, updatedAtMs: NOW } as SavedReport;
  const saves: RefreshStatus[] = [];
  const summary: RefreshSummary = { refreshed: [], failed: [], deferred: [], needsSignIn: false, requests: 0 };
  const clock = new ManualClock(NOW);
  const outcome = refreshIntoBigQuery({
    report,
    next: status,
    save: (s) => saves.push(structuredClone(s)),
    source: src,
    client: src.client,
    clock,
    startedAtMs: NOW,
    deadlineAtMs: NOW + 300_000,
    summary,
  });
  return { outcome, saves, status, summary };
}

const loadBodies = (transport: FakeTransport) => transport.requests.filter((r) => r.url.includes('/upload/')).map((r) => r.payload!);

describe('the hourly external-ID report into BigQuery', () => {
  it('fetches each UTC day as its 24 hours, one request each, toDate the next hour (exclusive)', () => {
    expect(hoursOfDay('20261110')[0]).toEqual({ fromDate: '2026111000', toDate: '2026111001', startMs: Date.UTC(2026, 10, 10, 0) });
    expect(hoursOfDay('20261110')[23]).toEqual({ fromDate: '2026111023', toDate: '2026111100', startMs: Date.UTC(2026, 10, 10, 23) });
    const { client, transport } = bigQuery();
    const { fake, asked } = source(client);
    const { outcome, status, summary } = run(fake);
    expect(asked).toHaveLength(48);
    expect(asked.slice(0, 2)).toEqual([
      { fromDate: '2026111000', toDate: '2026111001', breakdowns: ['widget'] },
      { fromDate: '2026111001', toDate: '2026111002', breakdowns: ['widget'] },
    ]);
    expect(asked[47]).toMatchObject({ fromDate: '2026111123', toDate: '2026111200' });
    expect(summary.requests).toBe(48);
    expect(outcome).toMatchObject({ daysLoaded: 2, rows: 50, requests: 48, done: true });
    expect(status.backfill).toMatchObject({ fromDay: '20261110', toDay: '20261111' });
    expect(status.backfill!.nextDay).toBeUndefined();
    // The table: TIMESTAMP hour partitioned by day, externalId first (always), then the widget.
    const created = JSON.parse(transport.requests.find((r) => r.url.endsWith('/tables'))!.payload!);
    expect(created.schema.fields.map((f: { name: string; type: string }) => `${f.name} ${f.type}`)).toEqual([
      'hour TIMESTAMP',
      'publisher_id STRING',
      'externalId STRING',
      'widget_id STRING',
      'widget_name STRING',
      'totalReqs INT64',
      'revenue NUMERIC',
    ]);
    expect(created.timePartitioning).toEqual({ type: 'DAY', field: 'hour' });
    expect(created.clustering).toEqual({ fields: ['publisher_id', 'externalId'] });
  });

  it("splits the rows by day: one load per day into its partition, each hour's rows stamped with that hour", () => {
    const { client, transport } = bigQuery();
    const { fake } = source(client);
    run(fake);
    const bodies = loadBodies(transport);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toContain('"tableId":"ids_hourly$20261110"');
    expect(bodies[1]).toContain('"tableId":"ids_hourly$20261111"');
    const lines = (body: string) => body.split('\n').filter((l) => l.startsWith('{"hour"'));
    const first = lines(bodies[0]!);
    expect(first).toHaveLength(25);
    expect(first[0]).toBe(
      '{"hour":"2026-11-10T00:00:00Z","publisher_id":"c0ffee5eed1a2b3c4d5e6f708192a3b4","externalId":"id-0","widget_id":"w1","widget_name":"Top","totalReqs":1,"revenue":"0.5"}',
    );
    expect(first).toContain(
      '{"hour":"2026-11-10T02:00:00Z","publisher_id":"c0ffee5eed1a2b3c4d5e6f708192a3b4","externalId":"late","widget_id":null,"widget_name":null,"totalReqs":1,"revenue":null}',
    );
    expect(first.at(-1)).toContain('"hour":"2026-11-10T23:00:00Z"');
    expect(lines(bodies[1]!).every((l) => l.startsWith('{"hour":"2026-11-11T'))).toBe(true);
  });

  it('loads no day whose hours the rate budget cut short: the cursor stays on it, the days before loaded', () => {
    const { client, transport } = bigQuery();
    const { fake, asked } = source(client, { rateLimitAfter: 30 });
    const { outcome, saves } = run(fake);
    expect(asked).toHaveLength(31);
    expect(outcome).toMatchObject({ daysLoaded: 1, done: false });
    expect(loadBodies(transport)).toHaveLength(1);
    expect(saves.at(-1)!.backfill!.nextDay).toBe('20261111');
  });
});

describe('a saved hourly external-ID report with a BigQuery destination', () => {
  it.each([
    ['the last 7 days', { type: 'lastDays', days: 7, endingYesterday: true }],
    ['since a day', { type: 'since', fromDate: '20261101' }],
    ['a fixed range', { type: 'fixed', fromDate: '20261101', toDate: '20261107' }],
    ['this month', { type: 'thisMonth' }],
    ['last month', { type: 'lastMonth' }],
  ])('is kept for %s, counted in whole UTC days', (_title, period) => {
    expect(checkSavedReport(hourlyInput({ period })).period).toEqual(period);
  });

  it('is checked at save with its first day as the API takes it: 24 hours, hour 00 to the next day 00', () => {
    const report = checkSavedReport(hourlyInput({ period: { type: 'lastDays', days: 7, endingYesterday: true } }));
    expect(checkRangeOf(report, NOW)).toEqual({ fromDate: '20261115', toDate: '20261115' });
    expect(checkRangeOf({ ...report, destination: INTO_SHEET }, NOW)).toBeUndefined();
  });

  it.each([
    ['a period of hours', { period: { type: 'lastHours', hours: 24 } }, 'period', /whole UTC days.*instead of 'lastHours'/],
    [
      'a breakdown the report has not',
      { breakdowns: ['day'] },
      'breakdowns',
      /'day' is not a breakdown of the external-ID report.*externalId, widget, externalSecondaryId/,
    ],
    ['the realtime report', { kind: 'realtime' }, 'kind', /^kind: the realtime report covers only the last 48 hours/],
    ['several publishers', { entityId: 'all' }, 'entityId', /loads one publisher/],
    ['a row cap', { maxRows: 10 }, 'maxRows', /applies to a sheet only/],
    ['a write mode', { destination: { ...INTO_TABLE, writeMode: 'append' } }, 'writeMode', /applies to a sheet only/],
  ] as const)('refuses %s, naming the field', (_title, extra, argument, rule) => {
    let error: unknown;
    try {
      checkSavedReport(hourlyInput(extra));
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ argument });
    expect((error as Error).message).toMatch(rule);
  });

  it('still refuses days for the hourly report into a sheet', () => {
    expect(() => checkSavedReport(hourlyInput({ destination: INTO_SHEET }))).toThrow(
      /period: the external-ID report covers hours: use 'lastHours'/,
    );
  });
});
