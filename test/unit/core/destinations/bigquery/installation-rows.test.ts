/**
 * The installation check's BigQuery rows (src/core/destinations/bigquery/installation-rows.ts): no dataset
 * asked for when no saved report loads into BigQuery, a missing dataset, a refusal in BigQuery's words,
 * a dataset that keeps everything, and Connected Sheets refused.
 */
import { FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../../support/fakes';
import { bigQueryDatasetFinding, connectedSheetsFinding } from '../../../../../src/core/destinations/bigquery/installation-rows';
import { BigQueryClient } from '../../../../../src/core/warehouse/bigquery-client';
import type { SavedReport } from '../../../../../src/core/schedules/saved/saved-reports';

const REPORT = {
  destination: {
    kind: 'bigquery',
    target: { sheetName: 'BQ', cell: 'A1' },
    table: { projectId: 'my-project-123', datasetId: 'engage', tableId: 't', location: 'EU' },
  },
} as unknown as SavedReport;

function clientAnswering(answer: () => ReturnType<typeof jsonResponse>) {
  const transport = new FakeTransport(answer);
  const clock = new ManualClock();
  const client = new BigQueryClient({ transport, token: { oauthToken: () => 't' }, clock, sleeper: new ManualSleeper(clock) });
  return { transport, client: () => client };
}

describe('bigQueryDatasetFinding', () => {
  it('asks nothing when no saved report loads into BigQuery', () => {
    const { transport, client } = clientAnswering(() => jsonResponse(200, {}));
    expect(bigQueryDatasetFinding([], client, 0)).toMatchObject({ status: 'pending' });
    expect(transport.requests).toEqual([]);
  });

  it("reads the first BigQuery report's dataset once: one that keeps everything is OK", () => {
    const { transport, client } = clientAnswering(() => jsonResponse(200, { location: 'EU' }));
    expect(bigQueryDatasetFinding([REPORT], client, 0)).toMatchObject({
      status: 'ok',
      result:
        'datasets.get of my-project-123.engage answered with your token: in EU; partitions of new tables kept for good; new tables kept for good.',
    });
    expect(transport.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'get https://bigquery.googleapis.com/bigquery/v2/projects/my-project-123/datasets/engage',
    ]);
  });

  it("says a missing dataset, and a refusal in BigQuery's words", () => {
    const missing = clientAnswering(() =>
      jsonResponse(404, { error: { code: 404, message: 'Not found', errors: [{ reason: 'notFound' }] } }),
    );
    expect(bigQueryDatasetFinding([REPORT], missing.client, 0)).toMatchObject({
      status: 'attention',
      result: expect.stringMatching(/404, not found/),
    });
    const refused = clientAnswering(() =>
      jsonResponse(403, {
        error: { code: 403, message: 'Access Denied: Dataset my-project-123:engage', errors: [{ reason: 'accessDenied' }] },
      }),
    );
    expect(bigQueryDatasetFinding([REPORT], refused.client, 0)).toMatchObject({
      status: 'attention',
      result: expect.stringMatching(/^datasets\.get of my-project-123\.engage was refused: .*Access Denied: Dataset my-project-123:engage/),
    });
  });
});

describe('connectedSheetsFinding', () => {
  it("reports Apps Script's refusal in its words", () => {
    expect(connectedSheetsFinding({ ok: false, message: 'Connected Sheets is not available for this account.' })).toMatchObject({
      status: 'attention',
      result: "Reading this spreadsheet's connected sheets was refused: Connected Sheets is not available for this account.",
    });
  });
});
