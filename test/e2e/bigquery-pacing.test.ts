/**
 * A backfill longer than BigQuery lets one table take in a day (issue 24): BigQuery's quotas page
 * allows 1,500 load jobs, and 1,500 table operations, per table per day, failed jobs included
 * (https://cloud.google.com/bigquery/quotas#load_jobs; the stand-in holds both, over a rolling 24
 * hours: dev/bigquery/model/quotas.ts). A saved report of 1,553 days by day alone (one row a day, so the
 * loads, not the rows, are what counts) is backfilled across hourly runs against the stand-in at
 * those documented figures: the add-on sends at most 700 loads into the table in a day
 * (warehouse/backfill.ts, LOADS_PER_WINDOW), says it waits, and finishes on the third day with no job
 * refused, every day loaded once.
 */
import { OWNER } from '../support/addon-host';
import { bigQueryOf } from '../support/bigquery';
import { bigQueryBundle } from '../support/bundles';
import { WAREHOUSE_PUBLISHER_ID, WAREHOUSE_USER } from '../support/emulator';
import { nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(300_000);

const START = '2026-11-20T05:30:00.000Z';
const PROJECT = 'engage-pacing-1';
const DATASET = 'engage_reports';
const TABLE = 'daily_history';
const DAY_MS = 86_400_000;
/** 2022-07-01 to 2026-09-30. */
const DAYS = 1_553;
/** BigQuery's load jobs per table per day (quotas page, Load jobs). */
const BIGQUERY_LOADS_PER_TABLE_PER_DAY = 1_500;

const HISTORY = {
  name: 'History',
  kind: 'main',
  entityId: WAREHOUSE_PUBLISHER_ID,
  period: { type: 'fixed', fromDate: '20220701', toDate: '20260930' },
  breakdowns: ['day'],
  metrics: ['revenue'],
  target: { sheetName: 'BQ history', cell: 'A1' },
  schedule: { every: 'day', hour: 6 },
  bigquery: { projectId: PROJECT, datasetId: DATASET, tableId: TABLE, location: 'EU' },
};

interface ListView {
  reports: { id: string; name: string; status: { progress?: string; lastError?: { message: string }; nextRun?: string } }[];
}

it('backfills 1,553 days into one table over three days, never past BigQuery’s 1,500 loads a table a day, each day once', async () => {
  const h = await startScheduledAddon(START, {}, undefined, (emulator) => bigQueryBundle(bigQueryOf(emulator).rootUrl));
  try {
    const bq = bigQueryOf(h.emulator);
    await bq.createDataset(PROJECT, DATASET, 'EU');
    expect((await bq.quotas()).limits.loadJobsPerTablePerDay).toBe(BIGQUERY_LOADS_PER_TABLE_PER_DAY);
    h.configure();
    h.host.call('signIn', [WAREHOUSE_USER.username, WAREHOUSE_USER.password], { user: OWNER });
    const saved = h.host.call('saveSchedule', [HISTORY], { user: OWNER }) as ListView;
    const id = saved.reports[0]!.id;
    const status = () => (h.host.call('listSchedules', [], { user: OWNER }) as ListView).reports.find((r) => r.id === id)!.status;

    const paused: string[] = [];
    let runs = 0;
    let checkedPause = false;
    while (!/1553 of 1553 days loaded/.test(status().progress ?? '') && runs < 120) {
      nextTriggerRun(h);
      runs++;
      const now = status();
      expect(now.lastError?.message).toBeUndefined();
      const told = `${now.progress} | next run ${now.nextRun}`;
      if (/paused/.test(now.progress ?? '') && paused.at(-1) !== told) paused.push(told);
      if (/paused/.test(now.progress ?? '') && !checkedPause) {
        checkedPause = true;
        // Due again when the window of the first load ends, a day after it.
        const firstLoadMs = Math.min(...(await bq.jobs()).map((j) => Number(j.statistics.creationTime)));
        expect(Math.abs(Date.parse(now.nextRun!) - (firstLoadMs + DAY_MS))).toBeLessThan(60_000);
        // Run now in the pause loads nothing, says it was put off, and keeps the time it goes on.
        const jobsBefore = (await bq.jobs()).length;
        const ran = h.host.call('runScheduleNow', [id], { user: OWNER }) as { summary: { deferred: string[] } };
        expect(ran.summary.deferred).toEqual([id]);
        expect((await bq.jobs()).length).toBe(jobsBefore);
        expect(status().nextRun).toBe(now.nextRun);
        // A new schedule does not postpone a backfill under way (a week would, were it taken as is).
        h.host.call('updateSchedule', [id, { ...HISTORY, schedule: { every: 'week', weekday: 'monday', hour: 6 } }], { user: OWNER });
        expect(status().nextRun).toBe(now.nextRun);
      }
    }
    expect(checkedPause).toBe(true);
    const elapsedDays = (h.host.clock.now() - Date.parse(START)) / DAY_MS;
    console.log(`BigQuery pacing: ${runs} hourly runs over ${elapsedDays.toFixed(2)} days; ${JSON.stringify(paused)}`);
    expect(status().progress).toBe(`BigQuery: ${DAYS} of ${DAYS} days loaded (2022-07-01 to 2026-09-30)`);

    // The user was told why it waits, and when it goes on.
    const [progress, nextRun] = paused[0]!.split(' | next run ');
    // The time it goes on, on the spreadsheet's clock, is the Next run's.
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: h.host.state.spreadsheet.timeZone,
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(new Date(nextRun!));
    expect(progress).toBe(
      `BigQuery: 700 of 1553 days loaded (2022-07-01 to 2026-09-30); 853 left, next 2024-05-31; paused until ${local}: Engage sends at most 700 loads a day into one table (BigQuery allows 1,500)`,
    );

    const jobs = (await bq.jobs()).filter((j) => j.configuration?.load?.destinationTable?.tableId?.startsWith(`${TABLE}$`));
    expect(jobs.filter((j) => j.status?.errorResult)).toEqual([]);
    const loadedDays = jobs.map((j) => String(j.configuration.load.destinationTable.tableId).slice(TABLE.length + 1));
    // A day without rows is not a zero-byte load: its partition is deleted, as BigQuery's "Delete a partition" documents.
    const emptied = (await bq.requests())
      // A partition that never held a row answers 404, which the add-on takes as emptied.
      .filter((r) => r.method === 'DELETE' && (r.status === 204 || r.status === 200 || r.status === 404))
      .map((r) => decodeURIComponent(String(r.path)).match(new RegExp(`/tables/${TABLE}\\$(\\d{8})$`))?.[1])
      .filter((day): day is string => day !== undefined);
    expect(emptied.length).toBeGreaterThan(0);
    expect(loadedDays.filter((day) => emptied.includes(day))).toEqual([]);
    // Every day of the period once: loaded, or emptied.
    expect(new Set([...loadedDays, ...emptied]).size).toBe(DAYS);
    expect(loadedDays.length + emptied.length).toBe(DAYS);
    // The most loads into the table within any 24 hours, by the jobs' creation times.
    const times = jobs.map((j) => Number(j.statistics.creationTime)).sort((a, b) => a - b);
    let most = 0;
    for (let start = 0, end = 0; end < times.length; end++) {
      while (times[end]! - times[start]! >= DAY_MS) start++;
      most = Math.max(most, end - start + 1);
    }
    console.log(
      `BigQuery pacing: at most ${most} loads into the table in any 24 hours (BigQuery allows ${BIGQUERY_LOADS_PER_TABLE_PER_DAY})`,
    );
    expect(most).toBeLessThanOrEqual(1_400);
    expect(elapsedDays).toBeGreaterThan(2);
    expect(elapsedDays).toBeLessThan(3);
  } finally {
    await h.close();
  }
});
