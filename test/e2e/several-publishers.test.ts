/**
 * End to end, reports of several publishers in the built bundle, against the emulator's three demo
 * publishers (Daily Planet, the big one whose reports page; Gotham Gazette; Hostile Herald):
 * - each publisher costs ceil(its rows / page size) requests, and the table has its rows under its ID
 *   and name, with totals from the publishers' sums (rates recomputed, not summed);
 * - no publisher gets more than 30 requests in any minute by the emulator's arrival clock, while the
 *   publishers are fetched in parallel (batches that mix them), so three publishers take the time of
 *   one, not three; a saved report of all publishers is refreshed at every hourly run, each publisher's
 *   own budget checked, not one budget named "all";
 * - one failing publisher fails a formula with a message naming it, and Run to sheet and a scheduled
 *   refresh write nothing: the previous data stays;
 * - a default report of all publishers still fits a new 26-column sheet.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { allowedBreakdownCombinations } from '../support/breakdown-combinations';
import { BIG_PUBLISHER_ID, HOSTILE_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, type RequestLogEntry } from '../support/emulator';
import { JITTERY_NETWORK, MINUTE_MS, mostInAnyMinute, nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';
import { effectiveBreakdowns } from '../../src/core/api/requests/report-fields';
import { defaultMetrics } from '../../src/core/api/requests/report-metrics';
import { reportColumnCount } from '../../src/core/sheets/report-table';

const START = '2026-11-20T12:00:00.000Z';
const PUBLISHERS = [BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, HOSTILE_PUBLISHER_ID];
const NEW_SHEET_COLUMNS = 26;
const GENERAL_PAGE_MAX = 10_000;

type Cell = string | number | boolean | Date;
let h: AddonHarness;
let sheetNumber = 0;

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;

/** A new sheet of 26 columns, as Sheets inserts it. */
function newSheet(): string {
  const name = `S${++sheetNumber}`;
  h.host.state.spreadsheet.addSheet(name);
  return name;
}

/** The report requests the emulator logged, by publisher. */
async function requestsByPublisher(): Promise<Map<string, RequestLogEntry[]>> {
  const byPublisher = new Map<string, RequestLogEntry[]>();
  for (const r of await h.emulator.reportRequests()) {
    const id = String(r.query.entityId);
    byPublisher.set(id, [...(byPublisher.get(id) ?? []), r]);
  }
  return byPublisher;
}

/** Data rows of a table (header first, Total last) by its publisher.id column. */
function rowsByPublisher(values: Cell[][]): Map<string, number> {
  const column = values[0]!.indexOf('publisher.id');
  const counts = new Map<string, number>();
  for (const row of values.slice(1)) {
    if (row[0] === 'Total') continue;
    counts.set(String(row[column]), (counts.get(String(row[column])) ?? 0) + 1);
  }
  return counts;
}

describe('formulas, Run to sheet and Run now over several publishers', () => {
  beforeAll(async () => {
    h = await startScheduledAddon(START, { maxColumns: NEW_SHEET_COLUMNS, maxRows: 1000, sheets: ['Sheet1'] });
    h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    h.host.advanceTime(2 * MINUTE_MS);
    await h.emulator.clearFaults();
    await h.emulator.clearRequests();
  });

  it('costs each publisher ceil(rows / 10,000) requests for "all", the big one paging, in one table with the publisher in front', async () => {
    const result = h.host.evaluateFormula(
      newSheet(),
      'A1',
      '=ENGAGE_REPORT("all", "2026-10-01", "2026-10-31", "day,country,platform,widget")',
    );
    expect(result.error).toBeUndefined();
    const values = result.values as Cell[][];
    expect(values[0]!.slice(0, 3)).toEqual(['publisher.id', 'publisher.name', 'day']);
    expect(values.at(-1)![0]).toBe('Total');
    const rows = rowsByPublisher(values);
    const requests = await requestsByPublisher();
    const perPublisher = PUBLISHERS.map((id) => ({
      id,
      rows: rows.get(id) ?? 0,
      requests: requests.get(id)?.length ?? 0,
      expected: Math.ceil((rows.get(id) ?? 0) / GENERAL_PAGE_MAX),
    }));
    console.log(`"all", October by day, country, platform and widget: ${JSON.stringify(perPublisher)}`);
    for (const p of perPublisher) expect(p.requests).toBe(p.expected);
    expect(perPublisher[0]!.requests).toBeGreaterThan(1);
    // "all" goes by name: Daily Planet, Gotham Gazette, Hostile Herald, each as one block of rows.
    const order = values.slice(1, -1).map((row) => row[0]);
    expect([...new Set(order)]).toEqual(PUBLISHERS);
    // The publishers lookup named them, and was asked once.
    expect(values[1]![1]).toBe('Daily Planet');
    expect((await h.emulator.requests()).filter((r) => r.path.endsWith('/publishers'))).toHaveLength(1);
  });

  it('takes a comma list or a range in its own order, and totals counts and money by summing, rates from the summed parts', () => {
    const sheet = newSheet();
    h.host.setCell(sheet, 'Z1', MEDIUM_PUBLISHER_ID);
    h.host.setCell(sheet, 'Z3', BIG_PUBLISHER_ID);
    const metrics = 'revenue,paidPvs,paidClicks,rpmByPvs,paidCtrByPvs,viewabilityRate';
    const args = `"2026-11-01", "2026-11-07", "day", "${metrics}"`;
    const fromRange = h.host.evaluateFormula(sheet, 'A1', `=ENGAGE_REPORT(Z1:Z3, ${args})`).values as Cell[][];
    const fromList = h.host.evaluateFormula(newSheet(), 'A1', `=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}, ${BIG_PUBLISHER_ID}", ${args})`)
      .values as Cell[][];
    expect(fromList).toEqual(fromRange);
    expect([...new Set(fromList.slice(1, -1).map((row) => row[0]))]).toEqual([MEDIUM_PUBLISHER_ID, BIG_PUBLISHER_ID]);

    const totals = (id: string) =>
      (h.host.evaluateFormula(newSheet(), 'A1', `=ENGAGE_REPORT("${id}", ${args})`).values as Cell[][]).at(-1)!.slice(1) as number[];
    const [medium, big] = [totals(MEDIUM_PUBLISHER_ID), totals(BIG_PUBLISHER_ID)];
    const [revenue, paidPvs, paidClicks, rpm, ctr, viewability] = fromList.at(-1)!.slice(3);
    expect(revenue).toBeCloseTo(medium[0]! + big[0]!, 6);
    expect(paidPvs).toBe(medium[1]! + big[1]!);
    expect(paidClicks).toBe(medium[2]! + big[2]!);
    expect(rpm).toBe(Number((((medium[0]! + big[0]!) / (medium[1]! + big[1]!)) * 1000).toFixed(2)));
    expect(rpm).not.toBeCloseTo(medium[3]! + big[3]!, 1);
    expect(ctr).toBeCloseTo(((medium[2]! + big[2]!) / (medium[1]! + big[1]!)) * 100, 10);
    // A viewability rate's parts are not metrics: its total is blank, never a sum or an average.
    expect(viewability).toBe('');
  });

  it('fits a new 26-column sheet with the default metrics for every breakdown combination, and the widest are evaluated so', () => {
    for (const kind of ['main', 'externalId', 'realtime'] as const) {
      const widths = allowedBreakdownCombinations(kind).map((combination) => {
        const effective = effectiveBreakdowns(kind, combination);
        return reportColumnCount(kind, ['publisher', ...effective], defaultMetrics(kind, effective));
      });
      expect(Math.max(...widths)).toBeLessThanOrEqual(NEW_SHEET_COLUMNS);
    }
    const widest = [
      '=ENGAGE_REPORT("all", "2026-11-18", "2026-11-18", "platform,country,section,widget")',
      '=ENGAGE_EXTERNALID_REPORT("all", "2026111800", "2026111802", "externalId,widget,externalSecondaryId")',
      '=ENGAGE_REALTIME_REPORT("all", "2026112000", "2026112002", "externalId,widget,externalSecondaryId")',
    ];
    for (const formula of widest) {
      const sheet = newSheet();
      const result = h.host.evaluateFormula(sheet, 'A1', formula);
      expect([formula, result.error, result.value]).toEqual([formula, undefined, 'publisher.id']);
      console.log(`${formula}: ${(result.values![0] as string[]).length} columns`);
      expect(h.host.state.spreadsheet.sheetByName(sheet)!.maxColumns).toBe(NEW_SHEET_COLUMNS);
    }
  });

  it('fails a formula, a Run to sheet and a scheduled refresh with a message naming the failing publisher, and writes nothing', async () => {
    const failure = new RegExp(`^Publisher 'Gotham Gazette' \\(${MEDIUM_PUBLISHER_ID}\\): Engage answered with an error \\(HTTP 500`);
    // First every part succeeds: the formula, a run to the sheet "Runs", a saved report refreshed into "Saved".
    const formulaSheet = newSheet();
    const formula = (refresh: string) =>
      h.host.evaluateFormula(
        formulaSheet,
        'A1',
        `=ENGAGE_REPORT("all", "2026-11-01", "2026-11-07", "day,country", , , , , , , "${refresh}")`,
      );
    expect(formula('first').error).toBeUndefined();
    h.host.state.spreadsheet.addSheet('Runs');
    const request = { kind: 'main', entityId: 'all', fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: ['day', 'country'] };
    const run = (runId: string) =>
      call<{ dataRows: number }>('runReportToSheet', request, { type: 'existingSheet', sheetName: 'Runs' }, runId);
    // 7 days of Daily Planet's 40 countries, Gotham Gazette's 7 (Australia closed after October) and Hostile Herald's 3.
    expect(run('multi-run-1').dataRows).toBe(7 * (40 + 7 + 3));
    const saved = call<{ reports: Array<{ id: string; name: string }> }>('saveSchedule', {
      name: 'All publishers daily',
      kind: 'main',
      entityId: 'all',
      period: { type: 'lastDays', days: 7, endingYesterday: true },
      breakdowns: ['day', 'country'],
      target: { sheetName: 'Saved', cell: 'B2' },
      schedule: { every: 'day', hour: 6 },
    });
    const id = saved.reports.find((r) => r.name === 'All publishers daily')!.id;
    type Status = { rows?: number; lastSuccess?: string; lastError?: { message: string; traceId?: string } };
    const status = (list: { reports: Array<{ id: string; status: Status }> }) => list.reports.find((r) => r.id === id)!.status;
    expect(status(call<{ list: { reports: Array<{ id: string; status: Status }> } }>('runScheduleNow', id).list).rows).toBe(
      7 * (40 + 7 + 3),
    );
    const before = { runs: h.host.getValues('Runs'), saved: h.host.getValues('Saved') };
    expect(before.runs[0]!.slice(0, 3)).toEqual(['publisher.id', 'publisher.name', 'day']);

    // Then Gotham Gazette's reports fail, and only its.
    h.host.advanceTime(2 * MINUTE_MS);
    await h.emulator.setFaults([{ match: `entityId=${MEDIUM_PUBLISHER_ID}`, status: 500, times: 1000 }]);
    await h.emulator.clearRequests();

    const failed = formula('second');
    expect(failed.value).toBe('#ERROR!');
    expect(failed.error).toMatch(failure);
    expect(failed.error).toMatch(/\[trace ID [\w-]+\]/);
    expect(h.host.getValues(formulaSheet, 'A1:C2')).toEqual([
      ['#ERROR!', '', ''],
      ['', '', ''],
    ]);

    expect(() => run('multi-run-2')).toThrow(failure);
    const after = call<{ list: { reports: Array<{ id: string; status: Status }> } }>('runScheduleNow', id);
    expect(status(after.list).lastError!.message).toMatch(failure);
    expect(h.host.getValues('Runs')).toEqual(before.runs);
    expect(h.host.getValues('Saved')).toEqual(before.saved);
    // The others' first pages were asked for (they went in the same batches), and Gotham Gazette's was refused each time.
    const requests = await requestsByPublisher();
    expect(requests.get(MEDIUM_PUBLISHER_ID)!.every((r) => r.status === 500)).toBe(true);
    expect(requests.get(BIG_PUBLISHER_ID)!.length).toBeGreaterThan(0);
  });
});

describe('an incremental refresh of several publishers', () => {
  beforeAll(async () => {
    h = await startScheduledAddon(START, { maxRows: 1000, sheets: ['Sheet1'] });
    h.signIn();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('merges by publisher, day and breakdown, and gives the sheet a full refresh gives', async () => {
    const definition = (name: string) => ({
      name,
      kind: 'main',
      entityId: `${MEDIUM_PUBLISHER_ID},${HOSTILE_PUBLISHER_ID}`,
      period: { type: 'since', fromDate: '20261101' },
      breakdowns: ['day', 'platform'],
      incremental: true,
      paused: true,
      target: { sheetName: name, cell: 'A1' },
      schedule: { every: 'day', hour: 6 },
    });
    type List = { reports: Array<{ id: string; name: string; status: { rows?: number } }> };
    const idOf = (list: List, name: string) => list.reports.find((r) => r.name === name)!.id;
    const incremental = idOf(call<List>('saveSchedule', definition('Incremental')), 'Incremental');
    call('runScheduleNow', incremental);
    h.host.advanceTime(24 * 60 * MINUTE_MS);
    await h.emulator.clearRequests();
    call('runScheduleNow', incremental);
    const incrementalRequests = await h.emulator.reportRequests();
    const full = idOf(call<List>('saveSchedule', definition('Full')), 'Full');
    call('runScheduleNow', full);
    // The second refresh asked only for the last days; 21 days of 2 publishers by 3 platforms are in the sheet.
    expect(incrementalRequests.every((r) => String(r.query.fromDate) > '20261101')).toBe(true);
    expect(call<List>('listSchedules').reports.find((r) => r.name === 'Full')!.status.rows).toBe(21 * 2 * 3);
    const incrementalSheet = h.host.getValues('Incremental');
    expect(incrementalSheet[0]!.slice(0, 4)).toEqual(['publisher.id', 'publisher.name', 'day', 'platform.id']);
    expect(incrementalSheet).toEqual(h.host.getValues('Full'));
  });
});

describe('the rate limit of each publisher, by the emulator arrival clock', () => {
  afterEach(async () => {
    await h?.close();
  });

  it('refreshes a saved report of all publishers, 45 pages each, with zero 429s, at most 30 arrivals a minute per publisher, in parallel', async () => {
    h = await startScheduledAddon(START, { maxRows: 1000 }, JITTERY_NETWORK);
    h.signIn();
    // The 30 days before today by day and platform: 90 rows a publisher, 2 a page: 45 requests each, 135 in all.
    call('saveSchedule', {
      name: 'All publishers by platform',
      kind: 'main',
      entityId: 'all',
      period: { type: 'lastDays', days: 30, endingYesterday: true },
      breakdowns: ['day', 'platform'],
      pageSize: 2,
      target: { sheetName: 'All', cell: 'A1' },
      schedule: { every: 'day', hour: 6 },
    });
    await h.emulator.clearRequests();

    const run = nextTriggerRun(h);

    const values = h.host.getValues('All') as Cell[][];
    const rows = rowsByPublisher(values.filter((row) => row[0] !== ''));
    const requests = await requestsByPublisher();
    const summary = PUBLISHERS.map((id) => {
      const list = requests.get(id) ?? [];
      return {
        id,
        rows: rows.get(id) ?? 0,
        requests: list.length,
        refused: list.filter((r) => r.status === 429).length,
        mostInAMinute: mostInAnyMinute(list.map((r) => r.time)),
      };
    });
    console.log(
      `a saved report of all publishers, pages of 2 rows: ${JSON.stringify(summary)}; ${run.minutes.toFixed(2)} virtual minutes in ${run.runs} run`,
    );
    for (const p of summary) {
      expect(p.rows).toBe(90);
      expect(p.requests).toBe(Math.ceil(p.rows / 2));
      expect(p.refused).toBe(0);
      expect(p.mostInAMinute).toBe(30);
    }
    // All 135 requests in one minute and a bit: each publisher's 31st to 45th wait for its own window,
    // not for the others' (one budget for all would take four and a half minutes).
    expect(run.runs).toBe(1);
    expect(run.minutes).toBeGreaterThanOrEqual(1);
    expect(run.minutes).toBeLessThan(1.5);
    // fetchAll batches held pages of several publishers.
    const batches = new Map<string, Set<string>>();
    for (const f of h.host.fetchLog.filter((e) => e.url.includes('/reports/'))) {
      const key = `${f.executionId}@${f.startedAt}`;
      batches.set(key, (batches.get(key) ?? new Set()).add(new URL(f.url).searchParams.get('entityId')!));
    }
    const mixed = [...batches.values()].filter((ids) => ids.size > 1);
    console.log(`${batches.size} fetch calls, ${mixed.length} of them with pages of several publishers`);
    expect(mixed.length).toBeGreaterThan(1);
  });

  it('refreshes a saved report of all publishers at every trigger run, 60 pages each, each publisher within its own budget', async () => {
    h = await startScheduledAddon(START, { maxRows: 1000 }, JITTERY_NETWORK);
    h.signIn();
    // The 40 days before today by day and platform: 120 rows a publisher, 2 a page: 60 requests each, 180 in all,
    // more than one budget of 30 a minute could carry in the run's fetch time, and well within three.
    call('saveSchedule', {
      name: 'All publishers hourly',
      kind: 'main',
      entityId: 'all',
      period: { type: 'lastDays', days: 40, endingYesterday: true },
      breakdowns: ['day', 'platform'],
      pageSize: 2,
      target: { sheetName: 'Hourly', cell: 'A1' },
      schedule: { every: 'hour' },
    });
    type Status = { lastSuccess?: string; rows?: number };
    const status = () => call<{ reports: Array<{ status: Status }> }>('listSchedules').reports[0]!.status;
    await h.emulator.clearRequests();
    const runs: Array<{ requests: number; minutes: number; refreshedAt?: number; startedAt: number }> = [];
    let logged = 0;
    for (let i = 0; i < 3; i++) {
      const startedAt = Math.min(...h.host.triggers.map((t) => t.nextRunAt ?? Infinity));
      const run = nextTriggerRun(h);
      const all = await h.emulator.reportRequests();
      runs.push({
        requests: all.length - logged,
        minutes: run.minutes,
        startedAt,
        ...(status().lastSuccess ? { refreshedAt: Date.parse(status().lastSuccess!) } : {}),
      });
      logged = all.length;
    }
    const requests = await requestsByPublisher();
    const summary = PUBLISHERS.map((id) => {
      const list = requests.get(id) ?? [];
      return {
        id: id.slice(0, 6),
        requests: list.length,
        refused: list.filter((r) => r.status === 429).length,
        mostInAMinute: mostInAnyMinute(list.map((r) => r.time)),
      };
    });
    console.log(
      `a saved report of all publishers refreshed hourly, pages of 2 rows: ${JSON.stringify(runs.map((r) => ({ requests: r.requests, minutes: Number(r.minutes.toFixed(2)) })))}; ${JSON.stringify(summary)}`,
    );
    // Each run refreshed it (its success is that run's), with every publisher's 60 pages.
    for (const run of runs) {
      expect(run.refreshedAt).toBeGreaterThanOrEqual(run.startedAt);
      expect(run.requests).toBe(3 * 60);
    }
    for (const p of summary) {
      expect(p.requests).toBe(3 * 60);
      expect(p.refused).toBe(0);
      expect(p.mostInAMinute).toBeLessThanOrEqual(30);
    }
    expect(rowsByPublisher((h.host.getValues('Hourly') as Cell[][]).filter((row) => row[0] !== ''))).toEqual(
      new Map(PUBLISHERS.map((id) => [id, 120])),
    );
  });
});
