/**
 * End to end, the write modes of saved reports in the built bundle, on a virtual clock with the
 * emulator's in step. Each report has a twin in replace mode run at the same moments: what the twin
 * shows after each run is what Engage answered then, the figures the append and upsert sheets must
 * hold. Append: three runs give three snapshots, each run's rows under its time in snapshotAt (a
 * date-time on the spreadsheet's clock). Upsert: an hourly external-ID report refreshed over a week
 * (7 runs of 24 hours) holds each external ID seen once, with the figures of the last run that
 * brought it. Each mode keeps to its row cap and to the 10,000,000-cell guard (the cell count of the
 * local host's spreadsheet), and a failed page adds nothing: the kept rows stay exactly.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { HOUR_MS, useScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';
/** The harness spreadsheet's zone (addon-host.ts). */
const ZONE = 'Europe/Berlin';
let h: AddonHarness;

type Cell = string | number | boolean | Date;
interface View {
  id: string;
  name: string;
  status: { rows?: number; failures: number; lastError?: { message: string; traceId?: string } };
}
interface List {
  reports: View[];
}

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const byName = (list: List, name: string) => list.reports.find((r) => r.name === name)!;
/** Saved paused, so only "Run now" refreshes it and no trigger runs while the clock moves. */
function save(name: string, extra: Record<string, unknown>): string {
  const definition = {
    name,
    kind: 'main',
    entityId: MEDIUM_PUBLISHER_ID,
    period: { type: 'lastDays', days: 2 },
    breakdowns: ['day'],
    metrics: ['revenue', 'totalPvs'],
    target: { sheetName: name, cell: 'A1' },
    schedule: { every: 'hour' },
    paused: true,
    ...extra,
  };
  return byName(call<List>('saveSchedule', definition), name).id;
}
const runNow = (id: string) => call<{ summary: { refreshed: string[]; failed: string[] }; list: List }>('runScheduleNow', id);
/** The data rows of a block at A1 (its header first): the sheet's rows down to the first empty one. */
function block(sheet: string): Cell[][] {
  const values = h.host.getValues(sheet) as Cell[][];
  const end = values.findIndex((row, i) => i > 0 && row.every((v) => v === ''));
  const rows = end < 0 ? values : values.slice(0, end);
  const width = rows[0]!.indexOf('') < 0 ? rows[0]!.length : rows[0]!.indexOf('');
  return rows.map((row) => row.slice(0, width));
}
const ms = (cell: Cell | undefined) => (cell instanceof Date ? cell.getTime() : Number.NaN);

useScheduledAddon(START, {}, (harness) => {
  h = harness;
});

describe('append', () => {
  it('gives three snapshots after three runs: the rows of each run under its time', () => {
    const appended = save('Appended', { writeMode: 'append' });
    const twin = save('Appended twin', { totals: false });
    const runs: Array<{ atMs: number; rows: Cell[][] }> = [];
    for (let run = 0; run < 3; run++) {
      const atMs = h.host.clock.now();
      expect(runNow(appended).summary.refreshed).toEqual([appended]);
      runNow(twin);
      runs.push({ atMs, rows: block('Appended twin').slice(1) });
      h.host.advanceTime(HOUR_MS);
    }
    const sheet = block('Appended');
    expect(sheet[0]).toEqual(['snapshotAt', 'day', 'revenue', 'totalPvs']);
    // Each run's rows, in its order, after its time; the runs one under the other, the first on top.
    expect(sheet.slice(1)).toEqual(runs.flatMap((run) => run.rows.map((row) => [new Date(run.atMs), ...row])));
    expect(new Set(sheet.slice(1).map((row) => ms(row[0]))).size).toBe(3);
    expect(runs.every((run) => run.rows.length === 2)).toBe(true);
    // A date-time value, shown on the spreadsheet's clock to the second.
    expect(h.host.getCell('Appended', 'A2').numberFormat).toBe('yyyy-mm-dd hh:mm:ss');
    expect(byName(call<List>('listSchedules'), 'Appended').status.rows).toBe(6);
    for (const id of [appended, twin]) call('deleteSchedule', id);
  });
});

describe('upsert', () => {
  it('keeps each external ID of a week of hourly reports once, with the figures of the last run that brought it', () => {
    const hourly = {
      kind: 'externalId',
      period: { type: 'lastHours', hours: 24 },
      breakdowns: ['externalId'],
      metrics: ['revenue', 'totalReqs'],
    };
    const upserted = save('Upserted IDs', { ...hourly, writeMode: 'upsert' });
    const twin = save('IDs twin', { ...hourly, totals: false });
    const latest = new Map<string, Cell[]>();
    let largestRun = 0;
    // 7 runs of the last 24 hours, a day apart: every hour of the week.
    for (let day = 0; day < 7; day++) {
      expect(runNow(upserted).summary.refreshed).toEqual([upserted]);
      runNow(twin);
      const rows = block('IDs twin').slice(1);
      largestRun = Math.max(largestRun, rows.length);
      for (const row of rows) latest.set(String(row[0]), row);
      h.host.advanceTime(24 * HOUR_MS);
    }
    const sheet = block('Upserted IDs');
    expect(sheet[0]).toEqual(['externalId', 'revenue', 'totalReqs']);
    const keys = sheet.slice(1).map((row) => row[0]);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...latest.keys()].sort());
    // More IDs than any one run brought: those a later run did not bring kept their last figures.
    expect(keys.length).toBeGreaterThan(largestRun);
    for (const row of sheet.slice(1)) expect(row).toEqual(latest.get(String(row[0])));
    console.log(`upsert of a week of external IDs: ${keys.length} IDs kept; the largest run brought ${largestRun}`);
    for (const id of [upserted, twin]) call('deleteSchedule', id);
  });
});

describe('caps and the cell guard', () => {
  it('drops the oldest snapshot (append) and the oldest day (upsert) past the cap', () => {
    const appended = save('Capped append', { writeMode: 'append', maxStoredRows: 5 });
    const upserted = save('Capped upsert', { writeMode: 'upsert', maxStoredRows: 3 });
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      times.push(h.host.clock.now());
      runNow(appended);
      runNow(upserted);
      h.host.advanceTime(24 * HOUR_MS);
    }
    // 2 rows a run: the third run's would make 6, so the first snapshot went, whole.
    expect(
      block('Capped append')
        .slice(1)
        .map((row) => ms(row[0])),
    ).toEqual([times[1], times[1], times[2], times[2]]);
    // The last 2 days a run, a day apart: 4 days seen, the 3 latest kept (UTC days, shown on the sheet's clock).
    const shownDay = (cell: Cell | undefined) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(cell as Date);
    const utcDay = (atMs: number) => new Date(atMs).toISOString().slice(0, 10);
    expect(
      block('Capped upsert')
        .slice(1)
        .map((row) => shownDay(row[0])),
    ).toEqual(times.map(utcDay));
    for (const id of [appended, upserted]) call('deleteSchedule', id);
  });

  it('refuses a run that would take the spreadsheet past 10,000,000 cells, keeping the rows and saying why', () => {
    const cells = () => h.host.state.spreadsheet.cellCount();
    // Sheets just large enough for a header and two rows of three columns, so a second run grows them.
    for (const name of ['Guarded append', 'Guarded upsert']) h.host.state.spreadsheet.addSheet(name, undefined, { rows: 3, columns: 4 });
    const appended = save('Guarded append', { writeMode: 'append', metrics: ['revenue'] });
    const upserted = save('Guarded upsert', { writeMode: 'upsert', metrics: ['revenue', 'totalPvs'] });
    for (const id of [appended, upserted]) expect(runNow(id).summary.refreshed).toEqual([id]);
    const before = { append: block('Guarded append'), upsert: block('Guarded upsert') };
    h.host.advanceTime(24 * HOUR_MS);
    // Another sheet takes all but 3 cells: each report's next run needs a row more at least (4 cells).
    h.host.state.spreadsheet.addSheet('Filler', undefined, { rows: 10_000_000 - cells() - 3, columns: 1 });
    for (const [id, sheet] of [
      [appended, 'Guarded append'],
      [upserted, 'Guarded upsert'],
    ] as const) {
      const view = byName(runNow(id).list, sheet);
      expect(view.status.failures).toBe(1);
      expect(view.status.lastError!.message).toMatch(
        /^target: the report needs \d+ more cells, but this spreadsheet has only 3 left of the 10,000,000/,
      );
    }
    expect(block('Guarded append')).toEqual(before.append);
    expect(block('Guarded upsert')).toEqual(before.upsert);
    expect(cells()).toBe(10_000_000 - 3);
    // With room again, the next run adds its snapshot to the kept rows.
    h.host.state.spreadsheet.resizeSheet(h.host.state.spreadsheet.sheetByName('Filler')!, 1, 1);
    expect(runNow(appended).summary.refreshed).toEqual([appended]);
    expect(block('Guarded append').slice(0, before.append.length)).toEqual(before.append);
    expect(block('Guarded append')).toHaveLength(before.append.length + 2);
    for (const id of [appended, upserted]) call('deleteSchedule', id);
  });
});

describe('a failed page', () => {
  it('adds nothing: the rows an append and an upsert kept stay exactly, and the error is recorded with its trace ID', async () => {
    // One row a page: each run's second page can fail.
    const appended = save('Failing append', { writeMode: 'append', pageSize: 1 });
    const upserted = save('Failing upsert', { writeMode: 'upsert', pageSize: 1 });
    for (const id of [appended, upserted]) runNow(id);
    h.host.advanceTime(24 * HOUR_MS);
    for (const id of [appended, upserted]) runNow(id);
    const before = { append: h.host.getValues('Failing append'), upsert: h.host.getValues('Failing upsert') };
    expect(block('Failing append')).toHaveLength(5);
    expect(block('Failing upsert')).toHaveLength(4);
    h.host.advanceTime(24 * HOUR_MS);
    await h.emulator.setFaults([{ match: 'offset=1', status: 504, times: 20 }]);
    for (const [id, sheet] of [
      [appended, 'Failing append'],
      [upserted, 'Failing upsert'],
    ] as const) {
      const outcome = runNow(id);
      expect(outcome.summary.failed).toEqual([id]);
      const view = byName(outcome.list, sheet);
      expect(view.status.rows).toBe(sheet === 'Failing append' ? 4 : 3);
      expect(view.status.lastError!.message).toMatch(/took too long/);
      expect(view.status.lastError!.traceId).toBeTruthy();
    }
    expect(h.host.getValues('Failing append')).toEqual(before.append);
    expect(h.host.getValues('Failing upsert')).toEqual(before.upsert);
    await h.emulator.clearFaults();
    for (const id of [appended, upserted]) call('deleteSchedule', id);
  });
});
