/**
 * End to end, a BigQuery build whose user withheld BigQuery's scopes (granular consent, since August
 * 2025: developers.google.com/apps-script/reference/script/authorization-info). The host's
 * `partialConsent` switch is on in both readings here. Saving a report into BigQuery is refused in one
 * sentence with Google's authorization link, nothing saved; a report saved before the scopes were
 * withheld is not loaded, its status says which permission to allow, and no request reaches BigQuery,
 * while a sheet report in the same run refreshes whole; once allowed, the next runs load it.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { bigQueryBundle } from '../support/bundles';
import { WAREHOUSE_PUBLISHER_ID, WAREHOUSE_USER } from '../support/emulator';
import { nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(120_000);

const START = '2026-11-20T05:30:00.000Z';
const PROJECT = 'engage-tests-1';
const DATASET = 'engage_reports';
const BIGQUERY_SCOPES = /\/auth\/bigquery(\.readonly)?$/;

const tableReport = (tableId: string) => ({
  name: `Ledger ${tableId}`,
  kind: 'main',
  entityId: WAREHOUSE_PUBLISHER_ID,
  period: { type: 'lastDays', days: 3, endingYesterday: true },
  breakdowns: ['day', 'doc', 'platform', 'widget'],
  metrics: ['totalReqs', 'paidClicks', 'revenue'],
  target: { sheetName: `BQ ${tableId}`, cell: 'A1' },
  schedule: { every: 'hour' },
  bigquery: { projectId: PROJECT, datasetId: DATASET, tableId, location: 'EU' },
});
const sheetReport = {
  name: 'Revenue',
  kind: 'main',
  entityId: WAREHOUSE_PUBLISHER_ID,
  period: { type: 'lastDays', days: 7 },
  breakdowns: ['day'],
  metrics: ['paidClicks', 'revenue'],
  target: { sheetName: 'Revenue', cell: 'A1' },
  schedule: { every: 'hour' },
};

interface View {
  name: string;
  status: { failures: number; lastSuccess?: string; progress?: string; lastError?: { message: string } };
}

describe('a BigQuery report whose user withheld BigQuery', () => {
  let h: AddonHarness;
  let bq: BigQueryHandle;
  let scopes: string[];
  const list = () => (h.host.call('listSchedules', [], { user: OWNER }) as { reports: View[] }).reports;
  const listed = (name: string) => list().find((r) => r.name === name)!;

  beforeAll(async () => {
    h = await startScheduledAddon(START, { strict: { partialConsent: true } }, undefined, async (emulator) => {
      const bundle = await bigQueryBundle(bigQueryOf(emulator).rootUrl);
      scopes = bundle.manifest.oauthScopes as string[];
      return bundle;
    });
    bq = bigQueryOf(h.emulator);
    await bq.createDataset(PROJECT, DATASET, 'EU');
    h.configure();
    h.host.call('signIn', [WAREHOUSE_USER.username, WAREHOUSE_USER.password], { user: OWNER });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses to save one, loads nothing while withheld, refreshes the sheet report whole, and loads once allowed', async () => {
    expect(scopes.filter((s) => BIGQUERY_SCOPES.test(s))).toHaveLength(2);
    const withheld = scopes.filter((s) => !BIGQUERY_SCOPES.test(s));
    h.host.grantScopes(OWNER, withheld);
    expect(() => h.host.call('saveSchedule', [tableReport('ledger_refused')], { user: OWNER })).toThrow(
      /^To save this schedule, allow Engage for Sheets to view and manage your data in BigQuery in Google's authorization page: https:\/\/script\.google\.com\//,
    );
    expect(list()).toEqual([]);

    // Saved while allowed; then the grant comes back without BigQuery.
    h.host.grantScopes(OWNER, scopes);
    h.host.call('saveSchedule', [tableReport('ledger_consent')], { user: OWNER });
    h.host.call('saveSchedule', [sheetReport], { user: OWNER });
    h.host.grantScopes(OWNER, withheld);
    const jobsBefore = (await bq.jobs()).length;
    const fetchedBefore = h.host.fetchLog.length;
    nextTriggerRun(h);
    expect((await bq.jobs()).length).toBe(jobsBefore);
    expect(h.host.fetchLog.slice(fetchedBefore).filter((f) => f.url.includes('/bigquery/v2/'))).toEqual([]);
    const table = listed('Ledger ledger_consent');
    expect(table.status.failures).toBe(1);
    expect(table.status.lastError!.message).toMatch(
      /^To refresh this report on its schedule, allow Engage for Sheets to view and manage your data in BigQuery in Google's authorization page: /,
    );
    expect(listed('Revenue').status).toMatchObject({ failures: 0 });
    expect(listed('Revenue').status.lastSuccess).toBeDefined();
    expect(h.host.getValues('Revenue').filter((row) => row[0] !== '').length).toBeGreaterThan(7);

    h.host.grantScopes(OWNER, scopes);
    for (let run = 0; run < 3 && !/3 of 3 days loaded/.test(listed('Ledger ledger_consent').status.progress ?? ''); run++)
      nextTriggerRun(h);
    expect(listed('Ledger ledger_consent').status.progress).toMatch(/^BigQuery: 3 of 3 days loaded/);
    expect((await bq.jobs()).length).toBeGreaterThan(jobsBefore);
  });
});
