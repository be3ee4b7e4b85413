/**
 * End to end, comparisons of several publishers in the built bundle against the emulator's three demo
 * publishers (Daily Planet, whose reports page; Gotham Gazette; Hostile Herald):
 * - `ENGAGE_COMPARE("all", ...)` costs each publisher ceil(rows / 10,000) requests for each period,
 *   every figure is the emulator's own for that publisher and period, and the Total row compares the
 *   publishers' combined sums (revenue summed, RPM from the summed parts, viewability blank);
 * - the sidebar's Run to sheet of "All publishers" with "Compare with" writes the same table;
 * - one failing publisher fails the formula, Run to sheet and a scheduled refresh of a saved
 *   comparison with a message naming it, and nothing is written: the previous data stays;
 * - a saved comparison of all publishers in small pages is refreshed at every hourly run, each
 *   publisher within its own 30 requests a minute by the emulator's arrival clock, both periods
 *   counted together, with zero 429s.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, DEMO_USER, HOSTILE_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, TOKEN_HEADER } from '../support/emulator';
import { JITTERY_NETWORK, MINUTE_MS, mostInAnyMinute, nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';
const PUBLISHERS = [BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, HOSTILE_PUBLISHER_ID];
const GENERAL_PAGE_MAX = 10_000;

type Cell = string | number | boolean | Date;
let h: AddonHarness;
let token = '';
let sheetNumber = 0;

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;

function newSheet(): string {
  const name = `C${++sheetNumber}`;
  h.host.state.spreadsheet.addSheet(name);
  return name;
}

interface ApiReport {
  items: Array<Record<string, unknown> & { country?: { id: string } }>;
  totalItems: number;
  metricsSums: Record<string, number>;
}

/** The emulator's own answer for one publisher and period, as its first page shows it. */
async function apiReport(entityId: string, fromDate: string, toDate: string, breakdowns: string): Promise<ApiReport> {
  const query = new URLSearchParams({ entityId, fromDate, toDate, breakdowns, limit: String(GENERAL_PAGE_MAX) });
  const response = await fetch(`${h.emulator.baseUrl}/reports/main?${query}`, { headers: { [TOKEN_HEADER]: token } });
  expect(response.status).toBe(200);
  return (await response.json()) as ApiReport;
}

/** The report requests the emulator logged, by publisher and period. */
async function requestsBy(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const r of await h.emulator.reportRequests()) {
    const key = `${String(r.query.entityId)}:${String(r.query.fromDate)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

beforeAll(async () => {
  h = await startScheduledAddon(START, { maxColumns: 26, maxRows: 1000, sheets: ['Sheet1'] });
  h.signIn();
  token = await h.emulator.login(DEMO_USER.username, DEMO_USER.password);
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  h.host.advanceTime(2 * MINUTE_MS);
  await h.emulator.clearFaults();
  await h.emulator.clearRequests();
});

describe('ENGAGE_COMPARE over several publishers', () => {
  it('costs each publisher ceil(rows / 10,000) requests for each period, with its rows and the combined totals', async () => {
    const sheet = newSheet();
    const result = h.host.evaluateFormula(
      sheet,
      'A1',
      '=ENGAGE_COMPARE("all", "2026-10-01", "2026-10-31", "previous", "day,country,platform,widget", "revenue")',
      { user: OWNER },
    );
    expect(result.error).toBeUndefined();
    const values = result.values as Cell[][];
    expect(values[0]!.slice(0, 4)).toEqual(['publisher.id', 'publisher.name', 'day', 'day.previous']);
    expect(values[0]).toHaveLength(2 + 2 + 2 * 3 + 4);
    // October against September: each publisher's requests are ceil(its rows / 10,000) for each period.
    const requests = await requestsBy();
    const counted = [];
    for (const id of PUBLISHERS) {
      for (const [from, to] of [
        ['20261001', '20261031'],
        ['20260901', '20260930'],
      ] as const) {
        const rows = (await apiReport(id, from, to, 'day,country,platform,widget')).totalItems;
        counted.push({ id: id.slice(0, 6), from, rows, requests: requests.get(`${id}:${from}`) ?? 0 });
        expect(requests.get(`${id}:${from}`)).toBe(Math.max(1, Math.ceil(rows / GENERAL_PAGE_MAX)));
      }
    }
    console.log(`ENGAGE_COMPARE("all"), October against September by day, country, platform and widget: ${JSON.stringify(counted)}`);
    expect(counted[0]!.requests).toBeGreaterThan(1);
    // Each publisher's rows together, in the order of "all" (by name).
    const order = values.slice(1, -1).map((row) => row[0]);
    expect([...new Set(order)]).toEqual(PUBLISHERS);
  });

  it("shows each publisher's figures of both periods as the emulator answers them, and totals from the combined sums", async () => {
    const metrics = 'revenue,paidPvs,rpmByPvs,viewabilityRate';
    const values = h.host.evaluateFormula(
      newSheet(),
      'A1',
      `=ENGAGE_COMPARE("${MEDIUM_PUBLISHER_ID},${HOSTILE_PUBLISHER_ID}", "2026-11-01", "2026-11-07", "previous", "country", "${metrics}")`,
      { user: OWNER },
    ).values as Cell[][];
    const header = values[0] as string[];
    const at = (row: Cell[], name: string) => row[header.indexOf(name)];
    for (const id of [MEDIUM_PUBLISHER_ID, HOSTILE_PUBLISHER_ID]) {
      const now = await apiReport(id, '20261101', '20261107', 'country');
      const before = await apiReport(id, '20261025', '20261031', 'country');
      const rows = values.filter((row) => row[0] === id);
      const countries = new Set([...now.items, ...before.items].map((i) => i.country!.id));
      expect(rows).toHaveLength(countries.size);
      for (const row of rows) {
        const country = String(at(row, 'country.id'));
        expect(at(row, 'revenue')).toBe(now.items.find((i) => i.country!.id === country)?.revenue ?? '');
        expect(at(row, 'revenue.previous')).toBe(before.items.find((i) => i.country!.id === country)?.revenue ?? '');
      }
    }
    // Gotham Gazette opened Mexico on 1 November and closed Australia after October: blanks on the other side.
    const mexico = values.find((row) => row[0] === MEDIUM_PUBLISHER_ID && at(row, 'country.id') === 'MX')!;
    expect([at(mexico, 'revenue.previous'), at(mexico, 'revenue.change')]).toEqual(['', '']);
    // The Total row: each period's sums of the two publishers, combined as a report of several combines them.
    const sums = async (from: string, to: string) =>
      Promise.all([MEDIUM_PUBLISHER_ID, HOSTILE_PUBLISHER_ID].map(async (id) => (await apiReport(id, from, to, 'country')).metricsSums));
    const [now, before] = [await sums('20261101', '20261107'), await sums('20261025', '20261031')];
    const total = values.at(-1)!;
    expect(total[0]).toBe('Total');
    const revenue = (s: Record<string, number>[]) => Number((s[0]!.revenue! + s[1]!.revenue!).toFixed(2));
    const rpm = (s: Record<string, number>[]) =>
      Number((((s[0]!.revenue! + s[1]!.revenue!) / (s[0]!.paidPvs! + s[1]!.paidPvs!)) * 1000).toFixed(2));
    expect(at(total, 'revenue')).toBe(revenue(now));
    expect(at(total, 'revenue.previous')).toBe(revenue(before));
    expect(at(total, 'paidPvs')).toBe(now[0]!.paidPvs! + now[1]!.paidPvs!);
    expect(at(total, 'rpmByPvs')).toBe(rpm(now));
    expect(at(total, 'rpmByPvs.previous')).toBe(rpm(before));
    // A viewability rate's parts are not metrics: blank, never a sum or an average, and no change.
    expect([at(total, 'viewabilityRate'), at(total, 'viewabilityRate.previous'), at(total, 'viewabilityRate.change')]).toEqual([
      '',
      '',
      '',
    ]);
  });

  it('fits a new 26-column sheet with the default metrics and four entity breakdowns: the widest comparison of all publishers', () => {
    const sheet = newSheet();
    const formula = '=ENGAGE_COMPARE("all", "2026-11-18", "2026-11-18", "previous", "platform,country,section,widget")';
    const result = h.host.evaluateFormula(sheet, 'A1', formula, { user: OWNER });
    expect([result.error, result.value]).toEqual([undefined, 'publisher.id']);
    // The publisher's two columns, two for each entity, and the four default metrics' four each.
    expect(result.values![0]).toHaveLength(2 + 4 * 2 + 4 * 4);
    expect(h.host.state.spreadsheet.sheetByName(sheet)!.maxColumns).toBe(26);
  });

  it('writes the same table with Run to sheet of "All publishers" and Compare with', () => {
    const request = {
      kind: 'main',
      entityId: 'all',
      fromDate: '2026-11-01',
      toDate: '2026-11-07',
      compareWith: 'previous',
      breakdowns: ['platform'],
      metrics: ['revenue', 'rpmByPvs'],
    };
    const sheet = newSheet();
    const summary = call<{ dataRows: number; header: string[] }>(
      'runReportToSheet',
      request,
      { type: 'existingSheet', sheetName: sheet },
      'cmp-all-1',
    );
    expect(summary.header.slice(0, 4)).toEqual(['publisher.id', 'publisher.name', 'platform.id', 'platform.name']);
    // Three platforms for each of the three publishers.
    expect(summary.dataRows).toBe(9);
    const formula = h.host.evaluateFormula(
      newSheet(),
      'A1',
      '=ENGAGE_COMPARE("all", "2026-11-01", "2026-11-07", "previous", "platform", "revenue,rpmByPvs")',
      { user: OWNER },
    ).values as Cell[][];
    expect(
      h.host
        .getValues(sheet)
        .slice(0, formula.length)
        .map((row) => row.slice(0, formula[0]!.length)),
    ).toEqual(formula);
  });
});

describe('the row limit of a comparison of several publishers', () => {
  it('keeps maxRows rows of each publisher alike in the formula, Run to sheet and the refresh of a saved comparison', () => {
    const formula = h.host.evaluateFormula(
      newSheet(),
      'A1',
      '=ENGAGE_COMPARE("all", "2026-11-01", "2026-11-07", "previous", "country", "revenue", , , 2)',
      { user: OWNER },
    ).values as Cell[][];
    const runSheet = newSheet();
    call(
      'runReportToSheet',
      {
        kind: 'main',
        entityId: 'all',
        fromDate: '2026-11-01',
        toDate: '2026-11-07',
        compareWith: 'previous',
        breakdowns: ['country'],
        metrics: ['revenue'],
        maxRows: 2,
      },
      { type: 'existingSheet', sheetName: runSheet },
      'cmp-rows-1',
    );
    const saved = call<{ reports: Array<{ id: string; name: string }> }>('saveSchedule', {
      name: 'Two countries a publisher',
      kind: 'main',
      entityId: 'all',
      period: { type: 'fixed', fromDate: '20261101', toDate: '20261107' },
      compareWith: 'previous',
      breakdowns: ['country'],
      metrics: ['revenue'],
      maxRows: 2,
      target: { sheetName: 'Saved two a publisher', cell: 'A1' },
      schedule: { every: 'day', hour: 6 },
    });
    type List = { list: { reports: Array<{ id: string; status: { rows?: number } }> } };
    const id = saved.reports.find((r) => r.name === 'Two countries a publisher')!.id;
    expect(call<List>('runScheduleNow', id).list.reports.find((r) => r.id === id)!.status.rows).toBe(3 * 2);
    const savedValues = h.host.getValues('Saved two a publisher') as Cell[][];
    // Two rows of each publisher (each has more countries than that), then the Total row.
    const perPublisher = (values: Cell[][]) => PUBLISHERS.map((p) => values.filter((row) => row[0] === p).length);
    expect(perPublisher(formula)).toEqual([2, 2, 2]);
    expect(perPublisher(savedValues)).toEqual([2, 2, 2]);
    const cut = (values: Cell[][]) => values.slice(0, formula.length).map((row) => row.slice(0, formula[0]!.length));
    expect(cut(savedValues)).toEqual(formula);
    expect(cut(h.host.getValues(runSheet) as Cell[][])).toEqual(formula);
  });
});

describe('a failing publisher in a comparison of several', () => {
  it('fails the formula, Run to sheet and a scheduled refresh with a message naming it, and writes nothing', async () => {
    const failure = new RegExp(`^Publisher 'Gotham Gazette' \\(${MEDIUM_PUBLISHER_ID}\\): Engage answered with an error \\(HTTP 500`);
    const formulaSheet = newSheet();
    const formula = (refresh: string) =>
      h.host.evaluateFormula(
        formulaSheet,
        'A1',
        `=ENGAGE_COMPARE("all", "2026-11-01", "2026-11-07", "previous", "day", , , , , , , "${refresh}")`,
        { user: OWNER },
      );
    expect(formula('first').error).toBeUndefined();
    const runSheet = newSheet();
    const request = {
      kind: 'main',
      entityId: 'all',
      fromDate: '2026-11-01',
      toDate: '2026-11-07',
      compareWith: 'year',
      breakdowns: ['day'],
    };
    const run = (runId: string) =>
      call<{ dataRows: number }>('runReportToSheet', request, { type: 'existingSheet', sheetName: runSheet }, runId);
    expect(run('cmp-fail-1').dataRows).toBe(3 * 7);
    const saved = call<{ reports: Array<{ id: string; name: string }> }>('saveSchedule', {
      name: 'All publishers, week on week',
      kind: 'main',
      entityId: 'all',
      period: { type: 'lastDays', days: 7, endingYesterday: true },
      compareWith: 'previous',
      breakdowns: ['day'],
      target: { sheetName: 'Saved comparison', cell: 'A1' },
      schedule: { every: 'day', hour: 6 },
    });
    const id = saved.reports.find((r) => r.name === 'All publishers, week on week')!.id;
    type Status = { rows?: number; lastError?: { message: string } };
    type List = { list: { reports: Array<{ id: string; status: Status }> } };
    expect(call<List>('runScheduleNow', id).list.reports.find((r) => r.id === id)!.status.rows).toBe(3 * 7);
    const before = {
      formula: h.host.getValues(formulaSheet),
      run: h.host.getValues(runSheet),
      saved: h.host.getValues('Saved comparison'),
    };
    expect(before.saved[0]!.slice(0, 3)).toEqual(['publisher.id', 'publisher.name', 'day']);

    h.host.advanceTime(2 * MINUTE_MS);
    await h.emulator.setFaults([{ match: `entityId=${MEDIUM_PUBLISHER_ID}`, status: 500, times: 1000 }]);
    await h.emulator.clearRequests();

    const failed = formula('second');
    expect(failed.value).toBe('#ERROR!');
    expect(failed.error).toMatch(failure);
    expect(() => run('cmp-fail-2')).toThrow(failure);
    const after = call<List>('runScheduleNow', id);
    expect(after.list.reports.find((r) => r.id === id)!.status.lastError!.message).toMatch(failure);
    expect(h.host.getValues(runSheet)).toEqual(before.run);
    expect(h.host.getValues('Saved comparison')).toEqual(before.saved);
    // The formula cell shows the error, and nothing of a partial table spilled.
    expect(h.host.getValues(formulaSheet, 'A1:C2')).toEqual([
      ['#ERROR!', '', ''],
      ['', '', ''],
    ]);
    // Gotham Gazette's pages were refused each time; the others' first pages went in the same batches.
    const requests = await h.emulator.reportRequests();
    expect(requests.filter((r) => r.query.entityId === MEDIUM_PUBLISHER_ID).every((r) => r.status === 500)).toBe(true);
    expect(requests.some((r) => r.query.entityId === BIG_PUBLISHER_ID)).toBe(true);
  });
});

describe('the rate limit of each publisher in a comparison of all, by the emulator arrival clock', () => {
  let rated: AddonHarness | undefined;
  afterAll(async () => {
    await rated?.close();
  });

  it('refreshes a saved comparison of all publishers at every trigger run, 60 pages each over both periods, zero 429s, 30 a minute each', async () => {
    rated = await startScheduledAddon(START, { maxRows: 1000 }, JITTERY_NETWORK);
    rated.signIn();
    // The 30 days before today by day and platform, against the 30 before: 90 rows a period, 3 a page;
    // 180 requests a refresh, more than one budget of 30 a minute could carry in a run's fetch time.
    rated.host.call(
      'saveSchedule',
      [
        {
          name: 'All publishers, month on month',
          kind: 'main',
          entityId: 'all',
          period: { type: 'lastDays', days: 30, endingYesterday: true },
          compareWith: 'previous',
          breakdowns: ['day', 'platform'],
          pageSize: 3,
          target: { sheetName: 'Compared', cell: 'A1' },
          schedule: { every: 'hour' },
        },
      ],
      { user: OWNER },
    );
    await rated.emulator.clearRequests();
    const lastSuccess = () =>
      (rated!.host.call('listSchedules', [], { user: OWNER }) as { reports: Array<{ status: { lastSuccess?: string } }> }).reports[0]!
        .status.lastSuccess;
    const runs: Array<{ startedAt: number; refreshedAt: number; requests: number; minutes: number }> = [];
    let logged = 0;
    for (let i = 0; i < 3; i++) {
      const startedAt = Math.min(...rated.host.triggers.map((t) => t.nextRunAt ?? Infinity));
      const run = nextTriggerRun(rated);
      const all = await rated.emulator.reportRequests();
      runs.push({ startedAt, refreshedAt: Date.parse(lastSuccess() ?? ''), requests: all.length - logged, minutes: run.minutes });
      logged = all.length;
    }
    const requests = await rated.emulator.reportRequests();
    const summary = PUBLISHERS.map((id) => {
      const list = requests.filter((r) => r.query.entityId === id);
      return {
        id: id.slice(0, 6),
        requests: list.length,
        refused: list.filter((r) => r.status === 429).length,
        mostInAMinute: mostInAnyMinute(list.map((r) => r.time)),
      };
    });
    console.log(
      `a saved comparison of all publishers refreshed hourly, pages of 3 rows: ${JSON.stringify(
        runs.map((r) => ({ requests: r.requests, minutes: Number(r.minutes.toFixed(2)) })),
      )}; ${JSON.stringify(summary)}`,
    );
    // Every run refreshed it (its last success is that run's), with both periods of every publisher.
    for (const run of runs) {
      expect(run.refreshedAt).toBeGreaterThanOrEqual(run.startedAt);
      expect(run.requests).toBe(3 * 2 * Math.ceil(90 / 3));
    }
    for (const p of summary) {
      expect(p.requests).toBe(3 * 2 * Math.ceil(90 / 3));
      expect(p.refused).toBe(0);
      expect(p.mostInAMinute).toBeLessThanOrEqual(30);
    }
    const values = rated.host.getValues('Compared') as Cell[][];
    expect(values[0]!.slice(0, 4)).toEqual(['publisher.id', 'publisher.name', 'day', 'day.previous']);
    expect(values.filter((row) => PUBLISHERS.includes(String(row[0])))).toHaveLength(3 * 90);
  });
});
