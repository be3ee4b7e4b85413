/**
 * End to end, a dataset that deletes partitions: the BigQuery sandbox's 60 days of partition and table
 * expiration (https://cloud.google.com/bigquery/docs/sandbox; the stand-in's sandbox dataset,
 * dev/bigquery/model/expiration.ts). A partition goes at its UTC midnight plus the dataset's
 * defaultPartitionExpirationMs (https://cloud.google.com/bigquery/docs/reference/rest/v2/datasets), so a
 * year of days would be deleted as soon as it is loaded: saving it is refused, naming bigquery and the
 * limit, and nothing is saved or sent beyond the save's two GETs. The last 50 days load across runs, and
 * a day later, when the period has moved on, the next run finds every day of the period in the table;
 * the table keeps its partitions 60 days, as the dataset gave it.
 */
import { OWNER } from '../support/addon-host';
import { bigQueryOf } from '../support/bigquery';
import { bigQueryBundle } from '../support/bundles';
import { WAREHOUSE_PUBLISHER_ID, WAREHOUSE_USER } from '../support/emulator';
import { HOUR_MS, nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(180_000);

const START = '2026-11-20T05:30:00.000Z';
const PROJECT = 'engage-sandbox-1';
const DATASET = 'sandbox_reports';
const DAY_MS = 86_400_000;

function report(tableId: string, days: number) {
  return {
    name: `Sandbox ${tableId}`,
    kind: 'main',
    entityId: WAREHOUSE_PUBLISHER_ID,
    period: { type: 'lastDays', days, endingYesterday: true },
    breakdowns: ['day'],
    metrics: ['revenue', 'paidClicks'],
    target: { sheetName: `BQ ${tableId}`, cell: 'A1' },
    schedule: { every: 'day', hour: 6 },
    bigquery: { projectId: PROJECT, datasetId: DATASET, tableId, location: 'EU' },
  };
}

interface ListView {
  reports: { id: string; name: string; status: { progress?: string; lastError?: { message: string } } }[];
}

/** The days from `from` to `to` (yyyymmdd), both included. */
function daysFrom(from: string, to: string): string[] {
  const out: string[] = [];
  for (let ms = Date.parse(`${from.slice(0, 4)}-${from.slice(4, 6)}-${from.slice(6)}T00:00:00Z`); ; ms += DAY_MS) {
    const day = new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
    out.push(day);
    if (day === to) return out;
  }
}

it('refuses 365 days into a dataset keeping partitions 60 days, naming the limit; loads 50 days that are all there at the next run', async () => {
  const h = await startScheduledAddon(START, {}, undefined, (emulator) => bigQueryBundle(bigQueryOf(emulator).rootUrl));
  try {
    const bq = bigQueryOf(h.emulator);
    await bq.createDataset(PROJECT, DATASET, 'EU', { sandbox: true });
    h.configure();
    h.host.call('signIn', [WAREHOUSE_USER.username, WAREHOUSE_USER.password], { user: OWNER });
    const list = () => h.host.call('listSchedules', [], { user: OWNER }) as ListView;

    const year = h.host.run('saveSchedule', [report('sandbox_year', 365)], { user: OWNER });
    expect(year.ok).toBe(false);
    expect(year.error?.message).toBe(
      "bigquery: this dataset keeps partitions 60 days, so BigQuery would delete the older days of the last 365 days while they are still in it: choose at most the last 59 days, or the last 60 days with today, or raise the dataset's default partition expiration (or remove it)",
    );
    expect(list().reports).toEqual([]);
    // Only the save's reads: the dataset and the table, no table made, no job.
    expect((await bq.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /bigquery/v2/projects/${PROJECT}/datasets/${DATASET}`,
      `GET /bigquery/v2/projects/${PROJECT}/datasets/${DATASET}/tables/sandbox_year`,
    ]);
    expect(await bq.table(PROJECT, DATASET, 'sandbox_year')).toBeNull();

    const saved = h.host.call('saveSchedule', [report('sandbox_50', 50)], { user: OWNER }) as ListView;
    const id = saved.reports[0]!.id;
    const status = () => list().reports.find((r) => r.id === id)!.status;
    h.host.call('runScheduleNow', [id], { user: OWNER });
    for (let runs = 0; !/50 of 50 days loaded/.test(status().progress ?? '') && runs < 10; runs++) {
      expect(status().lastError?.message).toBeUndefined();
      nextTriggerRun(h);
    }
    expect(status().progress).toBe('BigQuery: 50 of 50 days loaded (2026-10-01 to 2026-11-19)');
    const loaded = (await bq.table(PROJECT, DATASET, 'sandbox_50'))!;
    expect(loaded.table.timePartitioning).toMatchObject({ type: 'DAY', field: 'day', expirationMs: String(60 * DAY_MS) });
    expect(Object.keys(loaded.partitions).sort()).toEqual(daysFrom('20261001', '20261119'));

    // A day later the period is 2026-10-02 to 2026-11-20: the next run finds every one of its days there.
    h.host.advanceTime(DAY_MS);
    nextTriggerRun(h);
    expect(status().lastError?.message).toBeUndefined();
    expect(status().progress).toMatch(/^BigQuery: \d+ of \d+ days loaded \(\d{4}-\d{2}-\d{2} to 2026-11-20\)$/);
    const later = (await bq.table(PROJECT, DATASET, 'sandbox_50'))!;
    const period = daysFrom('20261002', '20261120');
    expect(period.filter((day) => !(day in later.partitions))).toEqual([]);
    // Nine more days, hourly runs between: the period's days are still all kept, the oldest loaded one gone at its 60 days.
    for (let hour = 0; hour < 9 * 24; hour += 24) {
      h.host.advanceTime(24 * HOUR_MS);
      nextTriggerRun(h);
    }
    const weekLater = (await bq.table(PROJECT, DATASET, 'sandbox_50'))!;
    expect(daysFrom('20261011', '20261129').filter((day) => !(day in weekLater.partitions))).toEqual([]);
    expect('20261001' in weekLater.partitions).toBe(false);
  } finally {
    await h.close();
  }
});
