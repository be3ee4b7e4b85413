/**
 * End to end, comparisons with an earlier period in the built bundle against the emulator: the
 * ENGAGE_COMPARE formula typed into a cell, and the sidebar's Run to sheet, Insert formula and Save to
 * schedule of a report with "Compare with". Each figure is checked against the emulator's own answers
 * for the two periods, fetched here directly: a `day` report aligned by position (day 1 with day 1),
 * a `country` report with a country in each period alone (Gotham Gazette opened Mexico on 2026-11-01
 * and closed Australia after 2026-10-31), and Total rows that are the API's metricsSums of each period.
 */
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, DEMO_USER, MEDIUM_PUBLISHER_ID, TOKEN_HEADER } from '../support/emulator';

const NOW = '2026-11-20T12:00:00Z';
const ZONE = 'Europe/Berlin';
const SHEETS = Array.from({ length: 30 }, (_, i) => `S${i}`);
let h: AddonHarness;
let token = '';
let nextSheet = 0;

beforeAll(async () => {
  h = await startAddon({ clock: 'virtual', startTime: new Date(NOW), maxColumns: 60, maxRows: 1000, sheets: [...SHEETS, 'Run', 'Chart'] });
  await h.emulator.setClock(NOW);
  h.signIn();
  token = await h.emulator.login(DEMO_USER.username, DEMO_USER.password);
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.emulator.clearRequests();
});

type Cell = unknown;
interface ApiReport {
  items: Array<Record<string, unknown> & { day?: string; country?: { id: string; name: string } }>;
  totalItems: number;
  metricsSums: Record<string, number>;
}

/** The emulator's own answer for one period: every row on one page. */
async function apiReport(entityId: string, fromDate: string, toDate: string, breakdowns: string, limit = 10_000): Promise<ApiReport> {
  const query = new URLSearchParams({ entityId, fromDate, toDate, breakdowns, limit: String(limit) });
  const response = await fetch(`${h.emulator.baseUrl}/reports/main?${query}`, { headers: { [TOKEN_HEADER]: token } });
  expect(response.status).toBe(200);
  return (await response.json()) as ApiReport;
}

function formula(text: string, sheet = SHEETS[nextSheet++]!) {
  const result = h.host.evaluateFormula(sheet, 'A1', text, { user: OWNER });
  expect(result.error).toBeUndefined();
  return result.values as Cell[][];
}

/** The calendar day a date cell shows in the spreadsheet's zone, "" for a blank. */
const shownDay = (cell: Cell) => (cell instanceof Date ? new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(cell) : cell);
const column = (values: Cell[][], name: string) => {
  const index = (values[0] as string[]).indexOf(name);
  expect(index).toBeGreaterThanOrEqual(0);
  return index;
};
const dashed = (compact: string) => `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}`;

async function sentPeriods(): Promise<string[]> {
  return (await h.emulator.reportRequests()).map((r) => `${r.query.fromDate}-${r.query.toDate}`);
}

/** Rows and totals of a comparison checked against the two periods' answers, joined on `keyOf`. */
function expectComparedWithApi(values: Cell[][], now: ApiReport, before: ApiReport, metrics: string[], keyOf: (row: Cell[]) => string) {
  const key = (item: Record<string, unknown>) => (item.country as { id: string } | undefined)?.id ?? dashed(String(item.day ?? ''));
  const nowBy = new Map(now.items.map((i) => [key(i), i]));
  const beforeBy = new Map(before.items.map((i) => [key(i), i]));
  const body = values.slice(1, -1);
  for (const row of body) {
    const [k, kBefore] = keyOf(row).split('|');
    for (const m of metrics) {
      const c = column(values, m);
      const nowValue = nowBy.get(k!)?.[m];
      const beforeValue = beforeBy.get(kBefore ?? k!)?.[m];
      // A side without the row is blank, never 0.
      expect([row[c], row[c + 1]]).toEqual([nowValue ?? '', beforeValue ?? '']);
      if (typeof nowValue === 'number' && typeof beforeValue === 'number') {
        expect(row[c + 2]).toBeCloseTo(nowValue - beforeValue, 6);
        if (beforeValue !== 0) expect(row[c + 3]).toBeCloseTo(((nowValue - beforeValue) / beforeValue) * 100, 6);
      } else expect([row[c + 2], row[c + 3]]).toEqual(['', '']);
    }
  }
  // The Total row: each period's metricsSums, a rate included, not a sum of the rows.
  const total = values.at(-1)!;
  expect(total[0]).toBe('Total');
  for (const m of metrics) {
    const c = column(values, m);
    expect([total[c], total[c + 1]]).toEqual([now.metricsSums[m], before.metricsSums[m]]);
  }
}

describe('ENGAGE_COMPARE', () => {
  it('aligns a day report by position, day 1 with day 1, whatever order the API sends the days in', async () => {
    const values = formula(`=ENGAGE_COMPARE("${BIG_PUBLISHER_ID}", "2026-11-01", "2026-11-07", "previous", "day", "revenue,rpmByPvs")`);
    expect(await sentPeriods()).toEqual(['20261101-20261107', '20261025-20261031']);
    expect(values[0]).toEqual([
      'day',
      'day.previous',
      'revenue',
      'revenue.previous',
      'revenue.change',
      'revenue.change%',
      'rpmByPvs',
      'rpmByPvs.previous',
      'rpmByPvs.change',
      'rpmByPvs.change%',
    ]);
    const body = values.slice(1, -1);
    expect(body.map((r) => [shownDay(r[0]), shownDay(r[1])])).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((d) => [`2026-11-0${d}`, `2026-10-${24 + d}`]),
    );
    const now = await apiReport(BIG_PUBLISHER_ID, '20261101', '20261107', 'day');
    const before = await apiReport(BIG_PUBLISHER_ID, '20261025', '20261031', 'day');
    // The API sorts by revenue: the alignment is the comparison's, not the answer's order.
    expect(now.items.map((i) => i.day)).not.toEqual([...now.items.map((i) => i.day)].sort());
    expectComparedWithApi(values, now, before, ['revenue', 'rpmByPvs'], (row) => `${shownDay(row[0])}|${shownDay(row[1])}`);
    const rowsRpm = body.reduce((sum, r) => sum + (r[6] as number), 0);
    expect(rowsRpm).toBeGreaterThan(3 * (values.at(-1)![6] as number));
  });

  it('leaves blanks on the side of the shorter period when a custom period has another length', async () => {
    const shorter = formula(
      `=ENGAGE_COMPARE("${BIG_PUBLISHER_ID}", "2026-11-01", "2026-11-07", "2026-10-01..2026-10-04", "day", "revenue")`,
    );
    expect(await sentPeriods()).toEqual(['20261101-20261107', '20261001-20261004']);
    const body = shorter.slice(1, -1);
    expect(body).toHaveLength(7);
    expect(body.map((r) => shownDay(r[1]))).toEqual(['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-04', '', '', '']);
    expect(body.slice(4).map((r) => r.slice(2))).toEqual(body.slice(4).map((r) => [r[2], '', '', '']));
    expect(body.slice(4).every((r) => typeof r[2] === 'number')).toBe(true);

    // Two date cells as the period, nine days long: the report's side is blank beyond its seventh day.
    const sheet = SHEETS[nextSheet++]!;
    h.host.setCell(sheet, 'Z1', new Date('2026-10-09T22:00:00Z')); // 10 October in Berlin
    h.host.setCell(sheet, 'Z2', new Date('2026-10-17T22:00:00Z'));
    const longer = formula(`=ENGAGE_COMPARE("${BIG_PUBLISHER_ID}", "2026-11-01", "2026-11-07", Z1:Z2, "day", "revenue")`, sheet);
    const tail = longer.slice(-3, -1);
    expect(tail.map((r) => [shownDay(r[0]), shownDay(r[1]), r[2], typeof r[3], r[4], r[5]])).toEqual([
      ['', '2026-10-17', '', 'number', '', ''],
      ['', '2026-10-18', '', 'number', '', ''],
    ]);
  });

  it('shows a country present in one period only with blanks on the other side, never zeros', async () => {
    const values = formula(
      `=ENGAGE_COMPARE("${MEDIUM_PUBLISHER_ID}", "2026-11-01", "2026-11-07", "previous", "country", "revenue,paidClicks,rpmByPvs")`,
    );
    const now = await apiReport(MEDIUM_PUBLISHER_ID, '20261101', '20261107', 'country');
    const before = await apiReport(MEDIUM_PUBLISHER_ID, '20261025', '20261031', 'country');
    const ids = (r: ApiReport) => r.items.map((i) => i.country!.id).sort();
    // The emulator's data: Mexico only now, Australia only before.
    expect(ids(now).filter((id) => !ids(before).includes(id))).toEqual(['MX']);
    expect(ids(before).filter((id) => !ids(now).includes(id))).toEqual(['AU']);
    const body = values.slice(1, -1);
    expect(body.map((r) => r[0]).sort()).toEqual([...new Set([...ids(now), ...ids(before)])].sort());
    const row = (id: string) => body.find((r) => r[0] === id)!;
    expect(row('MX').slice(0, 6)).toEqual(['MX', 'Mexico', now.items.find((i) => i.country!.id === 'MX')!.revenue, '', '', '']);
    expect(row('AU').slice(0, 6)).toEqual(['AU', 'Australia', '', before.items.find((i) => i.country!.id === 'AU')!.revenue, '', '']);
    expectComparedWithApi(values, now, before, ['revenue', 'paidClicks', 'rpmByPvs'], (r) => String(r[0]));
  });

  it('compares 29 February with 28 February a year before, and whole months with the months before', async () => {
    const leap = formula(`=ENGAGE_COMPARE("${BIG_PUBLISHER_ID}", "2024-02-29", "2024-03-06", "year", "day", "revenue")`);
    const months = formula(`=ENGAGE_COMPARE("${BIG_PUBLISHER_ID}", "2026-10-01", "2026-10-31", "previous", "month", "revenue")`);
    expect(await sentPeriods()).toEqual(['20240229-20240306', '20230228-20230306', '20261001-20261031', '20260901-20260930']);
    expect(leap.slice(1, 3).map((r) => [shownDay(r[0]), shownDay(r[1])])).toEqual([
      ['2024-02-29', '2023-02-28'],
      ['2024-03-01', '2023-03-01'],
    ]);
    expect(months.slice(1, -1).map((r) => [shownDay(r[0]), shownDay(r[1])])).toEqual([['2026-10-01', '2026-09-01']]);
  });

  it('takes ceil(rows / 10000) requests for each period of a large comparison', async () => {
    const breakdowns = 'day,country,platform,widget';
    const values = formula(`=ENGAGE_COMPARE("${BIG_PUBLISHER_ID}", "2026-10-01", "2026-10-20", "previous", "${breakdowns}", "revenue")`);
    const sent = await sentPeriods();
    const now = (await apiReport(BIG_PUBLISHER_ID, '20261001', '20261020', breakdowns, 1)).totalItems;
    const before = (await apiReport(BIG_PUBLISHER_ID, '20260911', '20260930', breakdowns, 1)).totalItems;
    expect(Math.min(now, before)).toBeGreaterThan(10_000);
    expect(sent.filter((p) => p === '20261001-20261020')).toHaveLength(Math.ceil(now / 10_000));
    expect(sent.filter((p) => p === '20260911-20260930')).toHaveLength(Math.ceil(before / 10_000));
    expect(sent).toHaveLength(Math.ceil(now / 10_000) + Math.ceil(before / 10_000));
    // Every row of both: at least as many rows as the larger period, at most both together.
    expect(values.length - 2).toBeGreaterThanOrEqual(Math.max(now, before));
    expect(values.length - 2).toBeLessThanOrEqual(now + before);
  });

  it('answers a recalculation from the cache, and fetches both periods again when refresh changes', async () => {
    const text = (refresh: number) =>
      `=ENGAGE_COMPARE("${MEDIUM_PUBLISHER_ID}", "2026-11-01", "2026-11-03", "year", "platform", , , , , , , ${refresh})`;
    const first = formula(text(1));
    await h.emulator.clearRequests();
    expect(formula(text(1))).toEqual(first);
    expect(await h.apiRequests()).toEqual([]);
    formula(text(2));
    expect(await sentPeriods()).toEqual(['20261101-20261103', '20251101-20251103']);
  });
});

interface Summary {
  block: { sheetName: string; row: number; column: number; rows: number; columns: number };
  dataRows: number;
  pages: number;
  header: string[];
}

// Each run writes over the one before on the sheet, as a user answering "Replace them" would.
const run = (request: Record<string, unknown>, sheetName = 'Run') =>
  h.host.call('runReportToSheet', [request, { type: 'existingSheet', sheetName }, `cmp-${nextSheet++}`, { choice: 'replace' }], {
    user: OWNER,
  }) as Summary;

describe('Run to sheet with "Compare with"', () => {
  const dayRequest = {
    kind: 'main',
    entityId: BIG_PUBLISHER_ID,
    fromDate: '2026-11-01',
    toDate: '2026-11-07',
    breakdowns: ['day'],
    metrics: ['revenue', 'rpmByPvs', 'paidCtrByPvs'],
    currencyCode: 'EUR',
    decDigits: 2,
    compareWith: 'previous',
  };

  it('writes a day comparison aligned by position, with money, percent and date formats, from the two periods together', async () => {
    const summary = run(dayRequest);
    expect(await sentPeriods()).toEqual(['20261101-20261107', '20261025-20261031']);
    expect(summary).toMatchObject({ pages: 2, dataRows: 7 });
    const values = h.host.getValues('Run', `A1:N9`);
    expect(values[0]).toEqual(summary.header);
    expect(values.slice(1, 8).map((r) => [shownDay(r[0]), shownDay(r[1])])).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((d) => [`2026-11-0${d}`, `2026-10-${24 + d}`]),
    );
    const fromApi = async (from: string, to: string) => {
      const query = new URLSearchParams({ entityId: BIG_PUBLISHER_ID, fromDate: from, toDate: to, breakdowns: 'day', currencyCode: 'EUR' });
      const response = await fetch(`${h.emulator.baseUrl}/reports/main?${query}`, { headers: { [TOKEN_HEADER]: token } });
      return (await response.json()) as ApiReport;
    };
    const now = await fromApi('20261101', '20261107');
    const before = await fromApi('20261025', '20261031');
    expectComparedWithApi(values, now, before, ['revenue', 'rpmByPvs', 'paidCtrByPvs'], (r) => `${shownDay(r[0])}|${shownDay(r[1])}`);
    // Formats per column, below the header: dates, money in EUR, percentages for the changes in %.
    const format = (name: string) => h.host.getCell('Run', `${String.fromCharCode(65 + summary.header.indexOf(name))}2`).numberFormat;
    expect(format('day.previous')).toBe('yyyy-mm-dd');
    expect(format('revenue.previous')).toBe('#,##0.00 "EUR"');
    expect(format('revenue.change')).toBe('#,##0.00 "EUR"');
    expect(format('revenue.change%')).toBe('0.00"%"');
    expect(format('paidCtrByPvs.previous')).toBe('0.00"%"');
    expect(h.host.getCell('Run', `${String.fromCharCode(65 + summary.header.indexOf('revenue.previous'))}1`).note).toMatch(
      /^Revenue: .*; earlier period 2026-10-25 to 2026-10-31$/,
    );
  });

  it('writes blanks, not zeros, for the countries of one period only, and the totals of each period', async () => {
    const summary = run({
      kind: 'main',
      entityId: MEDIUM_PUBLISHER_ID,
      fromDate: '2026-11-01',
      toDate: '2026-11-07',
      breakdowns: ['country'],
      metrics: ['revenue', 'rpmByPvs'],
      compareWith: 'previous',
    });
    const values = h.host.getValues('Run', `A1:J${summary.dataRows + 2}`);
    const now = await apiReport(MEDIUM_PUBLISHER_ID, '20261101', '20261107', 'country');
    const before = await apiReport(MEDIUM_PUBLISHER_ID, '20261025', '20261031', 'country');
    expect(summary.dataRows).toBe(8);
    const row = (id: string) => values.find((r) => r[0] === id)!;
    expect(
      row('MX')
        .slice(2, 10)
        .map((v) => v === ''),
    ).toEqual([false, true, true, true, false, true, true, true]);
    expect(
      row('AU')
        .slice(2, 10)
        .map((v) => v === ''),
    ).toEqual([true, false, true, true, true, false, true, true]);
    expectComparedWithApi(values, now, before, ['revenue', 'rpmByPvs'], (r) => String(r[0]));
  });

  it('inserts the ENGAGE_COMPARE formula, which gives the same table as the run', () => {
    run(dayRequest);
    const written = h.host.getValues('Run', 'A1:N9');
    h.host.setActiveRange(SHEETS[nextSheet]!, 'A1');
    const inserted = h.host.call('insertFormula', [dayRequest], { user: OWNER }) as { formula: string; cell: string };
    expect(inserted.formula).toBe(
      `=ENGAGE_COMPARE("${BIG_PUBLISHER_ID}","2026-11-01","2026-11-07","previous","day","revenue,rpmByPvs,paidCtrByPvs","","","","EUR",2,EngageRefresh)`,
    );
    const result = h.host.evaluateFormula(SHEETS[nextSheet++]!, 'A1', undefined, { user: OWNER });
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual(written);
  });

  it('draws no chart of a comparison, saying why', () => {
    const summary = run(dayRequest, 'Chart');
    expect(() => h.host.call('addChart', [summary.block], { user: OWNER })).toThrow(
      /^The chart draws a plain report, and this one compares two periods: run it without "Compare with" for a chart\.$/,
    );
    expect(h.host.state.spreadsheet.sheetByName('Chart')!.charts).toHaveLength(0);
  });

  it('saves the comparison with the schedule, and each refresh writes it for the period of that day', async () => {
    const list = h.host.call(
      'saveSchedule',
      [
        {
          name: 'Countries week on week',
          kind: 'main',
          entityId: MEDIUM_PUBLISHER_ID,
          period: { type: 'lastDays', days: 7, endingYesterday: true },
          breakdowns: ['country'],
          metrics: ['revenue'],
          compareWith: 'previous',
          target: { sheetName: 'Run', cell: 'P1' },
          schedule: { every: 'day', hour: 6 },
        },
      ],
      { user: OWNER },
    ) as { reports: Array<{ id: string; name: string }> };
    const id = list.reports.find((r) => r.name === 'Countries week on week')!.id;
    await h.emulator.clearRequests();
    h.host.call('runScheduleNow', [id], { user: OWNER });
    expect(await sentPeriods()).toEqual(['20261113-20261119', '20261106-20261112']);
    expect(h.host.getValues('Run', 'P1:U1')[0]).toEqual([
      'country.id',
      'country.name',
      'revenue',
      'revenue.previous',
      'revenue.change',
      'revenue.change%',
    ]);
    h.host.call('deleteSchedule', [id], { user: OWNER });
  });
});
