/**
 * One day of a saved report into BigQuery, whole (src/core/warehouse/report-load.ts): an hourly
 * external-ID report fetched hour by hour becomes one load of its day, into a table created with
 * TIMESTAMP hours partitioned by day; bad names, a bad row or a deployment without BigQuery are refused
 * with nothing sent; a local build's stand-in gets the same requests at its own address.
 */
import { FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../support/fakes';
import type { HttpRequest } from '../../../../src/core/ports';
import { BigQueryClient } from '../../../../src/core/warehouse/bigquery-client';
import { bigqueryRootUrl, loadReportDay, readyQuery, type ReportDayLoad } from '../../../../src/core/warehouse/report-load';

const STAND_IN = 'http://127.0.0.1:9050/';

function fakeBigQuery(root: string) {
  return new FakeTransport((request: HttpRequest) => {
    if (request.method === 'get' && request.url === `${root}bigquery/v2/projects/news-data-42/datasets/engage`)
      return jsonResponse(200, { location: 'US' });
    if (request.method === 'get')
      return jsonResponse(404, { error: { code: 404, message: 'Not found', errors: [{ reason: 'notFound' }] } });
    if (request.url.endsWith('/tables')) return jsonResponse(200, JSON.parse(request.payload!));
    if (request.method === 'delete') return jsonResponse(200, {});
    const jobId = /"jobId":"([^"]+)"/.exec(request.payload!)![1];
    return jsonResponse(200, { jobReference: { jobId }, status: { state: 'DONE' }, statistics: { load: { outputRows: '3' } } });
  });
}

function clientFor(transport: FakeTransport, rootUrl?: string) {
  const clock = new ManualClock();
  return new BigQueryClient({
    transport,
    token: { oauthToken: () => 'tok' },
    clock,
    sleeper: new ManualSleeper(clock),
    ...(rootUrl ? { rootUrl } : {}),
  });
}

const LOAD: ReportDayLoad = {
  destination: { projectId: 'news-data-42', datasetId: 'engage', tableId: 'external_ids_hourly', location: 'US' },
  report: { kind: 'externalId', breakdowns: ['externalId'], metrics: ['totalReqs', 'revenue'] },
  day: '20250131',
  batches: [
    {
      items: [
        { externalId: 'a', totalReqs: 10, revenue: 1.5 },
        { externalId: 'b', totalReqs: 4, revenue: 0 },
      ],
      context: { publisherId: 'pub-1', hourStartMs: Date.UTC(2025, 0, 31, 0) },
    },
    {
      items: [{ externalId: 'a', totalReqs: 7, revenue: '0,25' }],
      context: { publisherId: 'pub-1', hourStartMs: Date.UTC(2025, 0, 31, 1) },
    },
  ],
  deadlineAtMs: Date.UTC(2030, 0, 1),
  nowMs: Date.UTC(2025, 1, 1),
  attemptStamp: 'm1abc',
};

describe('loadReportDay', () => {
  it('loads an hourly external-ID day fetched hour by hour as one job, into a table it creates with TIMESTAMP hours partitioned by day', () => {
    const transport = fakeBigQuery('https://bigquery.googleapis.com/');
    const { prepared, ...result } = loadReportDay(clientFor(transport), LOAD);
    expect(prepared.created).toBe(true);
    expect(result).toEqual({
      // The table's address (and the report's publisher) hashed between the day and the run's stamp (dayJobId).
      jobIds: [expect.stringMatching(/^engage_load_20250131_[0-9a-z]+_m1abc$/)],
      tableJobsSent: 1,
      rows: 3,
      staged: false,
      created: true,
      table: 'news-data-42.engage.external_ids_hourly',
    });
    expect(transport.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'get https://bigquery.googleapis.com/bigquery/v2/projects/news-data-42/datasets/engage',
      'get https://bigquery.googleapis.com/bigquery/v2/projects/news-data-42/datasets/engage/tables/external_ids_hourly',
      'post https://bigquery.googleapis.com/bigquery/v2/projects/news-data-42/datasets/engage/tables',
      'post https://bigquery.googleapis.com/upload/bigquery/v2/projects/news-data-42/jobs?uploadType=multipart',
    ]);
    const created = JSON.parse(transport.requests[2]!.payload!);
    expect(created.schema.fields.map((f: { name: string; type: string }) => `${f.name} ${f.type}`)).toEqual([
      'hour TIMESTAMP',
      'publisher_id STRING',
      'externalId STRING',
      'totalReqs INT64',
      'revenue NUMERIC',
    ]);
    expect(created.timePartitioning).toEqual({ type: 'DAY', field: 'hour' });
    expect(created.description).toBe(
      'Engage external-ID report by externalId, one partition per day, loaded by Engage for Sheets; a day loaded again replaces its partition.',
    );
    const body = transport.requests[3]!.payload!;
    expect(body).toContain('"tableId":"external_ids_hourly$20250131"');
    expect(body).toContain(
      [
        '{"hour":"2025-01-31T00:00:00Z","publisher_id":"pub-1","externalId":"a","totalReqs":10,"revenue":"1.5"}',
        '{"hour":"2025-01-31T00:00:00Z","publisher_id":"pub-1","externalId":"b","totalReqs":4,"revenue":"0"}',
        '{"hour":"2025-01-31T01:00:00Z","publisher_id":"pub-1","externalId":"a","totalReqs":7,"revenue":"0.25"}',
      ].join('\n'),
    );
  });

  it('takes the table as an earlier load of the run made it ready: the next day is one load job, nothing asked again', () => {
    const transport = fakeBigQuery('https://bigquery.googleapis.com/');
    const client = clientFor(transport);
    const first = loadReportDay(client, LOAD);
    const sent = transport.requests.length;
    const second = loadReportDay(client, { ...LOAD, attemptStamp: 'm1abd', prepared: first.prepared });
    expect(second.created).toBe(false);
    expect(transport.requests.slice(sent).map((r) => `${r.method} ${r.url}`)).toEqual([
      'post https://bigquery.googleapis.com/upload/bigquery/v2/projects/news-data-42/jobs?uploadType=multipart',
    ]);
  });

  it('empties a day with no rows by deleting its partition (tables.delete of table$yyyyMMdd), sending no load', () => {
    const transport = fakeBigQuery('https://bigquery.googleapis.com/');
    const client = clientFor(transport);
    const first = loadReportDay(client, LOAD);
    const sent = transport.requests.length;
    const empty = loadReportDay(client, { ...LOAD, day: '20250201', batches: [], attemptStamp: 'm1abd', prepared: first.prepared });
    expect(empty).toMatchObject({ rows: 0, jobIds: [], tableJobsSent: 0, staged: false });
    expect(transport.requests.slice(sent).map((r) => `${r.method} ${r.url}`)).toEqual([
      `delete https://bigquery.googleapis.com/bigquery/v2/projects/news-data-42/datasets/engage/tables/${encodeURIComponent('external_ids_hourly$20250201')}`,
    ]);
  });

  it('sends nothing for a bad table name, a bad row or a bad day, and names each', () => {
    const transport = fakeBigQuery('https://bigquery.googleapis.com/');
    const client = clientFor(transport);
    expect(() => loadReportDay(client, { ...LOAD, destination: { ...LOAD.destination, tableId: 'ids$hourly' } })).toThrow(
      /^tableId: 'ids\$hourly' is not a table name/,
    );
    const badRow = { ...LOAD, batches: [{ items: [{ externalId: 'a', totalReqs: 2.5 }], context: LOAD.batches[0]!.context }] };
    expect(() => loadReportDay(client, badRow)).toThrow(
      "rows: row 1 of 2025-01-31, column 'totalReqs': 2.5 is not a whole number, as a count must be",
    );
    expect(() => loadReportDay(client, { ...LOAD, day: '20250231' })).toThrow("day: '20250231' is not a day written yyyyMMdd");
    expect(transport.requests).toEqual([]);
  });

  it('sends the same requests to a local build’s stand-in, and refuses a deployment without BigQuery', () => {
    expect(bigqueryRootUrl({ bigquery: true, localServers: true, bigqueryBaseUrl: STAND_IN })).toBe(STAND_IN);
    // A build for Google calls Google even if a stand-in were named.
    expect(bigqueryRootUrl({ bigquery: true, bigqueryBaseUrl: STAND_IN })).toBeUndefined();
    expect(() => bigqueryRootUrl({})).toThrow(/^destination: this installation of Engage does not load into BigQuery/);
    const transport = fakeBigQuery(STAND_IN);
    loadReportDay(clientFor(transport, bigqueryRootUrl({ bigquery: true, localServers: true, bigqueryBaseUrl: STAND_IN })), LOAD);
    expect(transport.requests.map((r) => r.url)).toEqual([
      `${STAND_IN}bigquery/v2/projects/news-data-42/datasets/engage`,
      `${STAND_IN}bigquery/v2/projects/news-data-42/datasets/engage/tables/external_ids_hourly`,
      `${STAND_IN}bigquery/v2/projects/news-data-42/datasets/engage/tables`,
      `${STAND_IN}upload/bigquery/v2/projects/news-data-42/jobs?uploadType=multipart`,
    ]);
  });
});

describe('readyQuery', () => {
  it('reads the last 30 days of the table newest first, filtering on the partitioning column so only those partitions are billed', () => {
    expect(
      readyQuery(
        { projectId: 'news-data-42', datasetId: 'engage', tableId: 'daily by doc' },
        { kind: 'main', breakdowns: ['day', 'doc'], metrics: ['revenue'] },
      ),
    ).toBe(
      [
        'SELECT *',
        'FROM `news-data-42.engage.daily by doc`',
        'WHERE day >= DATE_SUB(CURRENT_DATE(), INTERVAL 30 DAY)',
        'ORDER BY day DESC',
      ].join('\n'),
    );
    expect(readyQuery({ projectId: 'news-data-42', datasetId: 'engage', tableId: 'ids' }, LOAD.report)).toContain(
      'WHERE hour >= TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 720 HOUR)\nORDER BY hour DESC',
    );
  });
});
