/**
 * Security evidence with BigQuery on (issue 24): the build whose deployment says `"bigquery": true`,
 * its BigQuery calls sent to the emulator's stand-in, drives a session through every BigQuery path:
 * a saved report checked against BigQuery at save (and one refused for the dataset's location), Run
 * now, the hourly trigger's backfill, a load job that fails, a request BigQuery answers 403
 * quotaExceeded, the Schedules list, Open in Sheets, and sign-out. Then everything the local host holds is scanned for
 * the OAuth tokens the stand-in saw in its Authorization headers (the host's ScriptApp.getOAuthToken()),
 * and for the Engage tokens and password of the session, as they are and encoded. The OAuth token is
 * read at each request and sent to BigQuery alone: never stored, logged, written to a cell, returned
 * to the sidebar or sent to Engage.
 */
import { type AddonHarness, OWNER } from '../support/addon-host';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { bigQueryBundle } from '../support/bundles';
import { type RequestLogEntry, WAREHOUSE_PUBLISHER_ID, WAREHOUSE_USER } from '../support/emulator';
import { startScheduledAddon } from '../support/scheduled-host';
import { everythingHeld, type Holding, placesHolding } from '../support/secret-scan';

jest.setTimeout(120_000);

const START = '2026-11-20T05:30:00.000Z';
const PROJECT = 'engage-secure-1';
const DATASET = 'engage_reports';

let h: AddonHarness;
let bq: BigQueryHandle;
/** Every message an entry point threw and every value it returned, scanned with the rest. */
const seen: Holding[] = [];
const apiLog: RequestLogEntry[] = [];

interface ListView {
  reports: { id: string; name: string; status: { progress?: string; lastError?: { message: string } } }[];
}

function call<T = unknown>(fn: string, args: unknown[] = []): T {
  try {
    const value = h.host.call(fn, args, { user: OWNER }) as T;
    seen.push({ place: `value returned by ${fn}`, text: JSON.stringify(value) ?? '' });
    return value;
  } catch (error) {
    seen.push({ place: `message of ${fn}`, text: (error as Error).message });
    throw error;
  }
}

function report(tableId: string, location: string) {
  return {
    name: `Secure ${tableId}`,
    kind: 'main',
    entityId: WAREHOUSE_PUBLISHER_ID,
    period: { type: 'lastDays', days: 3, endingYesterday: true },
    breakdowns: ['day', 'platform', 'widget'],
    metrics: ['totalReqs', 'revenue'],
    target: { sheetName: `BQ ${tableId}`, cell: 'A1' },
    schedule: { every: 'day', hour: 6 },
    bigquery: { projectId: PROJECT, datasetId: DATASET, tableId, location },
  };
}

/** Lets this process see the sockets the emulator closed while the host held it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const statusOf = (id: string) => call<ListView>('listSchedules').reports.find((r) => r.id === id)!.status;

beforeAll(async () => {
  h = await startScheduledAddon(START, {}, undefined, (emulator) => bigQueryBundle(bigQueryOf(emulator).rootUrl));
  bq = bigQueryOf(h.emulator);
  await bq.createDataset(PROJECT, DATASET, 'EU');
  h.configure();
  call('signIn', [WAREHOUSE_USER.username, WAREHOUSE_USER.password]);

  // A dataset in another location is refused at save, naming the field.
  expect(() => call('saveSchedule', [report('secure_us', 'US')])).toThrow(/location/);
  const id = call<ListView>('saveSchedule', [report('secure_daily', 'EU')]).reports.find((r) => r.name === 'Secure secure_daily')!.id;
  call('runScheduleNow', [id]);
  await settle();
  expect(statusOf(id).progress).toMatch(/^BigQuery: 3 of 3 days loaded/);

  // The next day's hourly run meets a load job that fails; Run now then meets a request BigQuery refuses
  // for its quota: each ends in the status. The day after, the hourly run loads again.
  await bq.failNextLoads(3, 'backendError');
  h.host.advanceTime(24 * 3_600_000);
  await settle();
  expect(statusOf(id).lastError?.message).toMatch(/BigQuery/);
  await bq.clearFaults();
  await bq.failNextRequests(403, 5, 'jobs', 'quotaExceeded');
  call('runScheduleNow', [id]);
  await settle();
  expect(statusOf(id).lastError?.message).toMatch(/BigQuery/);
  await bq.clearFaults();
  h.host.advanceTime(24 * 3_600_000);
  await settle();
  const recovered = statusOf(id) as { failures?: number; lastSuccess?: string; lastAttempt?: string };
  expect(recovered.failures).toBe(0);
  expect(recovered.lastSuccess).toBe(recovered.lastAttempt);
  // Open in Sheets: a data source sheet on the table, whose spec is scanned with the rest.
  call('openReportInSheets', [id]);
  expect(h.host.state.spreadsheet.sheets.filter((s) => s.dataSource)).toHaveLength(1);
  call('signOut');
  apiLog.push(...(await h.emulator.requests()));
});
afterAll(async () => {
  await h?.close();
});

describe('with BigQuery on, the OAuth token goes to BigQuery alone and is held nowhere', () => {
  let oauthTokens: string[];

  beforeAll(async () => {
    const authorizations = (await bq.requests()).map((r) => r.authorization as string | null);
    oauthTokens = [...new Set(authorizations.filter((a): a is string => !!a).map((a) => a.replace(/^Bearer\s+/i, '')))];
  });

  it('every BigQuery request carried the OAuth token, and the session went through every path', async () => {
    const requests = await bq.requests();
    expect(requests.length).toBeGreaterThan(6);
    expect(requests.every((r) => typeof r.authorization === 'string' && /^Bearer \S+$/.test(r.authorization))).toBe(true);
    expect(oauthTokens).toEqual(['gas-host-oauth-token']);
    // Loads, a failed load job and a refused request all happened.
    const jobs = await bq.jobs();
    expect(jobs.some((j) => j.status?.state === 'DONE' && !j.status?.errorResult)).toBe(true);
    expect(jobs.some((j) => j.status?.errorResult)).toBe(true);
    expect(requests.some((r) => r.status === 403)).toBe(true);
    expect(seen.some((s) => s.place === 'message of saveSchedule')).toBe(true);
  });

  it('the OAuth token, plain or encoded, is in no property, cache, log, cell, message, mail or returned value', () => {
    for (const token of oauthTokens) {
      expect({ token, places: placesHolding(everythingHeld(h.host, [OWNER], seen), token) }).toEqual({ token, places: [] });
    }
  });

  it('the OAuth token never reached Engage, and no Engage token reached BigQuery', async () => {
    const engageHeaders = apiLog.map((r) => JSON.stringify(r.headers));
    for (const token of oauthTokens) expect(engageHeaders.filter((h) => h.includes(token))).toEqual([]);
    const engageTokens = [...new Set(apiLog.map((r) => r.headers['svc-token-v1']).filter((t): t is string => typeof t === 'string'))];
    expect(engageTokens.length).toBeGreaterThan(0);
    const bigQueryText = JSON.stringify(await bq.requests());
    for (const token of engageTokens) expect(bigQueryText.includes(token)).toBe(false);
  });

  it('after sign-out, neither the Engage tokens nor the password are held anywhere', () => {
    const held = everythingHeld(h.host, [OWNER], seen);
    const engageTokens = [...new Set(apiLog.map((r) => r.headers['svc-token-v1']).filter((t): t is string => typeof t === 'string'))];
    for (const token of engageTokens) expect({ token, places: placesHolding(held, token) }).toEqual({ token, places: [] });
    expect(placesHolding(held, WAREHOUSE_USER.password)).toEqual([]);
  });
});
