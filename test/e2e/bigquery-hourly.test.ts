/**
 * End to end, the hourly external-ID report into BigQuery: the built bundle with "bigquery": true (its
 * BigQuery calls sent to the emulator's stand-in) in the local host on a virtual clock, a report of
 * one publisher by external ID and widget for the last 7 days saved with a BigQuery table, run by Run
 * now and then the hourly trigger until every day is loaded. The add-on asks for each UTC hour alone
 * (the report's items carry no hour); every day's partition must equal the emulator's own rows for
 * that day's 24 hours, each row's hour a TIMESTAMP of its day, with zero 429s and one load job per
 * day. The emulator's rows are computed from its report code (dev/emulator/model/reports/) for each hour
 * at the clock its request arrived at (the hourly report hides IDs injected less than 48 hours
 * before), so the comparison costs the emulator no request.
 */
import { runExternalIdReport } from '../../dev/emulator/model/reports/external-id-report';
import { findPublisher } from '../../dev/emulator/model/seed';
import { OWNER, type AddonHarness } from '../support/addon-host';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { bigQueryBundle } from '../support/bundles';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(120_000);

const START = '2026-11-20T05:30:00.000Z';
const PROJECT = 'engage-tests-1';
const DATASET = 'engage_reports';
const TABLE = 'ids_hourly';
const METRICS = ['totalReqs', 'paidClicks', 'revenue'];
const DAYS = ['20261113', '20261114', '20261115', '20261116', '20261117', '20261118', '20261119'];

type Item = Record<string, unknown>;
interface ListView {
  reports: { id: string; name: string; status: { progress?: string; lastError?: { message: string } } }[];
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const idOf = (v: unknown) => (v !== null && typeof v === 'object' ? String((v as { id: unknown }).id) : String(v));
/** A row as a comparable line: its hour (ISO, UTC), external ID, widget, then its figures. */
const line = (hour: string, externalId: unknown, widget: unknown, row: Item) =>
  [hour, String(externalId), idOf(widget), ...METRICS.map((m) => Number(row[m] ?? 0).toFixed(2))].join('|');

let h: AddonHarness;
let bq: BigQueryHandle;

beforeAll(async () => {
  h = await startScheduledAddon(START, {}, undefined, (emulator) => bigQueryBundle(bigQueryOf(emulator).rootUrl));
  bq = bigQueryOf(h.emulator);
  await bq.createDataset(PROJECT, DATASET, 'EU');
  h.signIn();
});
afterAll(async () => {
  await h?.close();
});

it('loads 7 days of the hourly external-ID report, each day its own partition equal to the emulator hour by hour, with TIMESTAMP hours, zero 429s and one load a day', async () => {
  await h.emulator.clearRequests();
  const saved = h.host.call(
    'saveSchedule',
    [
      {
        name: 'IDs by hour',
        kind: 'externalId',
        entityId: MEDIUM_PUBLISHER_ID,
        period: { type: 'lastDays', days: 7, endingYesterday: true },
        breakdowns: ['widget'],
        metrics: METRICS,
        target: { sheetName: 'IDs', cell: 'A1' },
        schedule: { every: 'day', hour: 6 },
        bigquery: { projectId: PROJECT, datasetId: DATASET, tableId: TABLE, location: 'EU' },
      },
    ],
    { user: OWNER },
  ) as ListView;
  const id = saved.reports.find((r) => r.name === 'IDs by hour')!.id;
  const status = () => (h.host.call('listSchedules', [], { user: OWNER }) as ListView).reports.find((r) => r.id === id)!.status;

  h.host.call('runScheduleNow', [id], { user: OWNER });
  let runs = 1;
  while (!/7 of 7 days loaded/.test(status().progress ?? '') && runs < 6) {
    expect(status().lastError?.message).toBeUndefined();
    nextTriggerRun(h);
    runs++;
  }
  expect(status().progress).toBe('BigQuery: 7 of 7 days loaded (2026-11-13 to 2026-11-19)');
  await settle();

  // 24 requests a day, one per UTC hour (each hour's rows fit one page), none refused.
  const requests = (await h.emulator.reportRequests()).filter((r) => r.path.endsWith('/reports/externalId'));
  expect(requests.filter((r) => r.status === 429)).toHaveLength(0);
  expect(requests).toHaveLength(7 * 24);
  const hoursAsked = requests.map((r) => `${r.query.fromDate}-${r.query.toDate}`);
  expect(new Set(hoursAsked).size).toBe(7 * 24);
  expect(hoursAsked[0]).toBe('2026111300-2026111301');

  // The emulator's own rows of each hour, at the clock its request arrived at.
  const pub = findPublisher(MEDIUM_PUBLISHER_ID)!;
  const expected = new Map<string, string[]>(DAYS.map((d) => [d, []]));
  for (const request of requests) {
    const query = request.query as Record<string, string>;
    const hour = query.fromDate!;
    const iso = `${hour.slice(0, 4)}-${hour.slice(4, 6)}-${hour.slice(6, 8)}T${hour.slice(8)}:00:00Z`;
    const page = JSON.parse(runExternalIdReport(pub, query, Date.parse(request.time), 'hourly').response.toString('utf8')) as {
      items: Item[];
      totalItems: number;
    };
    expect(page.items).toHaveLength(page.totalItems);
    for (const item of page.items) expected.get(hour.slice(0, 8))!.push(line(iso, item.externalId, item.widget, item));
  }

  const stored = (await bq.table(PROJECT, DATASET, TABLE))!;
  expect(stored.table.schema.fields.slice(0, 3).map((f: { name: string; type: string }) => `${f.name} ${f.type}`)).toEqual([
    'hour TIMESTAMP',
    'publisher_id STRING',
    'externalId STRING',
  ]);
  expect(stored.table.timePartitioning).toMatchObject({ type: 'DAY', field: 'hour' });
  expect(Object.keys(stored.partitions).sort()).toEqual(DAYS);
  for (const day of DAYS) {
    const rows = (await bq.table(PROJECT, DATASET, TABLE, day))!.rows;
    const dashed = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`;
    for (const row of rows) expect(String(row.hour)).toMatch(new RegExp(`^${dashed}T\\d{2}:00:00(\\.0+)?Z$`));
    const got = rows.map((row) => line(String(row.hour).replace(/\.0+Z$/, 'Z'), row.externalId, row.widget_id, row)).sort();
    expect(rows.length).toBeGreaterThan(24);
    expect({ day, got }).toEqual({ day, got: expected.get(day)!.sort() });
  }

  const loads = (await bq.jobs()).filter((j) => j.configuration?.load?.destinationTable?.tableId?.startsWith(`${TABLE}$`));
  expect(loads.map((j) => j.configuration.load.destinationTable.tableId.slice(TABLE.length + 1)).sort()).toEqual(DAYS);
  expect(loads.every((j) => j.status?.state === 'DONE' && !j.status?.errorResult)).toBe(true);
  console.log(
    `BigQuery hourly: ${requests.length} report requests, ${runs} runs, ${Object.values(stored.partitions).reduce((a, b) => a + b, 0)} rows`,
  );
});
