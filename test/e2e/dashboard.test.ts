/**
 * End to end, "Create dashboard" in the built bundle against the emulator (clock 2026-11-20 12:00 UTC,
 * the spreadsheet in Europe/Berlin, so today is 20 November there): the sheet is written in one batch,
 * its formulas' dates are relative days ("7daysAgo", "yesterday") with no TODAY(), the
 * refresh cell is created when missing and left alone when there, every formula evaluates without an
 * error (no #ERROR!, no #REF!, no #NAME?), and every figure is what the emulator answers for the same
 * days, fetched here directly: the key figures of 13 to 19 November against 6 to 12 November, the 30
 * days of the chart, the top 10 lists. For all publishers the figures add the publishers up (rates from
 * the summed parts, viewability blank), widgets are each publisher's top 10, and each publisher costs
 * the same six report requests. Refresh all makes every dashboard formula fetch again.
 */
import { EDITOR, OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, DEMO_USER, HOSTILE_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, TOKEN_HEADER } from '../support/emulator';

const NOW = '2026-11-20T12:00:00Z';
const ZONE = 'Europe/Berlin';
const PUBLISHERS = [BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, HOSTILE_PUBLISHER_ID];
const LAST_7 = ['20261113', '20261119'] as const;
const BEFORE_7 = ['20261106', '20261112'] as const;
const LAST_30 = ['20261021', '20261119'] as const;
const KPI = ['revenue', 'rpmByPvs', 'totalPvs', 'paidCtrByPvs', 'viewabilityRate'];

type Cell = string | number | boolean | Date;
type Item = Record<string, unknown> & { day?: string; country?: { id: string }; widget?: { id: string } };
let h: AddonHarness;
let token = '';

beforeAll(async () => {
  h = await startAddon({ clock: 'virtual', startTime: new Date(NOW), timeZone: ZONE, maxColumns: 26, maxRows: 1000, sheets: ['Sheet1'] });
  await h.emulator.setClock(NOW);
  h.signIn();
  token = await h.emulator.login(DEMO_USER.username, DEMO_USER.password);
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.emulator.clearRequests();
});

/** The emulator's own answer: every row on one page, sorted as asked. */
async function api(
  entityId: string,
  [fromDate, toDate]: readonly [string, string],
  breakdowns: string,
  extra: Record<string, string> = {},
) {
  const query = new URLSearchParams({ entityId, fromDate, toDate, breakdowns, limit: '10000', ...extra });
  const response = await fetch(`${h.emulator.baseUrl}/reports/main?${query}`, { headers: { [TOKEN_HEADER]: token } });
  expect(response.status).toBe(200);
  return (await response.json()) as { items: Item[]; totalItems: number; metricsSums: Record<string, number> };
}

const money = (n: number) => Number(n.toFixed(2));
const shownDay = (cell: Cell) =>
  cell instanceof Date ? new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(cell).replace(/-/g, '') : cell;
const change = (now: number, before: number) => [
  Number((now - before).toPrecision(12)),
  Number((((now - before) / before) * 100).toPrecision(12)),
];

/** Creates the dashboard and lets Sheets run its formulas: each formula cell and what it shows. */
async function create(entityId: string) {
  const created = h.host.call('createDashboard', [entityId], { user: OWNER }) as { sheetName: string; formulas: number; charts: number };
  const results = await h.host.recalculate(undefined, { user: OWNER });
  return { created, results, values: h.host.getValues(created.sheetName) as Cell[][] };
}

/** The block a formula at `a1` spilled: its header and its rows, the Total row last. */
function block(values: Cell[][], a1: string): Cell[][] {
  const column = a1.charCodeAt(0) - 64;
  const row = Number(a1.slice(1));
  const width = values[row - 1]!.slice(column - 1).indexOf('');
  const out: Cell[][] = [];
  for (let r = row - 1; r < values.length && values[r]![column - 1] !== ''; r++) out.push(values[r]!.slice(column - 1, column - 1 + width));
  return out;
}

function expectNoErrors(sheetName: string, results: Array<{ a1: string; value: unknown; error?: string }>): void {
  for (const r of results) expect([r.a1, r.error]).toEqual([r.a1, undefined]);
  const shown = (h.host.getValues(sheetName) as Cell[][])
    .flat()
    .filter((v) => typeof v === 'string' && /^#(ERROR!|REF!|NAME\?|N\/A|VALUE!)/.test(v));
  expect(shown).toEqual([]);
}

describe('the dashboard of one publisher', () => {
  it('is written in one batch with five formulas and a chart, creating the refresh cell, and every formula evaluates', async () => {
    expect(h.host.state.spreadsheet.namedRanges.has('EngageRefresh')).toBe(false);
    h.host.resetCounters();
    const { created, results, values } = await create(BIG_PUBLISHER_ID);
    expect(created).toMatchObject({ sheetName: 'Engage dashboard', formulas: 5, charts: 1 });
    // One setValues for the labels and formulas, one setFontWeights; no cell-by-cell writes.
    const counters = h.host.counters;
    expect(counters['Range.setValues']).toBe(1);
    expect(counters['Range.setValue'] ?? 0).toBe(1); // the refresh cell, created for the first time
    expect(counters['Range.setFormula'] ?? 0).toBe(0);
    expect(h.host.state.spreadsheet.namedRanges.has('EngageRefresh')).toBe(true);
    const sheet = h.host.state.spreadsheet.sheetByName('Engage dashboard')!;
    expect(sheet.maxColumns).toBe(26);
    expect(h.host.state.spreadsheet.activeSheetId).toBe(sheet.id);
    expect(results).toHaveLength(5);
    expectNoErrors('Engage dashboard', results);
    // Its dates are relative days, never TODAY() (which Google does not promise a custom function may take), and its refresh argument the refresh cell.
    const formulas = [...sheet.cells.values()].map((c) => c.formula).filter((f): f is string => f !== undefined);
    expect(formulas).toHaveLength(5);
    for (const formula of formulas) {
      expect(formula).not.toMatch(/TODAY\(/i);
      expect(formula).toMatch(/^=ENGAGE_(REPORT|COMPARE)\("[0-9a-f]+","(7|30)daysAgo","yesterday",.*,EngageRefresh\)$/);
    }
    expect(values[0]![0]).toBe('Engage dashboard: Daily Planet');
    console.log(`dashboard of Daily Planet: ${(await h.emulator.reportRequests()).length} report requests`);
    expect(await h.emulator.reportRequests()).toHaveLength(2 + 1 + 1 + 1 + 1);
  });

  it('shows the key figures the emulator answers for the last 7 days and the 7 before, with their changes', async () => {
    const values = h.host.getValues('Engage dashboard') as Cell[][];
    const [header, total] = block(values, 'A7');
    expect(header!.slice(0, 6)).toEqual(['day', 'day.previous', 'revenue', 'revenue.previous', 'revenue.change', 'revenue.change%']);
    expect(total![0]).toBe('Total');
    const now = (await api(BIG_PUBLISHER_ID, LAST_7, 'day')).metricsSums;
    const before = (await api(BIG_PUBLISHER_ID, BEFORE_7, 'day')).metricsSums;
    const figures = KPI.map((m) => total!.slice(header!.indexOf(m), header!.indexOf(m) + 4));
    const expected = KPI.map((m) => [now[m]!, before[m]!, ...change(now[m]!, before[m]!)]);
    console.log(`key figures of Daily Planet: ${JSON.stringify(Object.fromEntries(KPI.map((m, i) => [m, figures[i]])))}`);
    expect(figures).toEqual(expected);
  });

  it('charts revenue and RPM by day over the last 30 days from its daily block, RPM on the right axis', async () => {
    const values = h.host.getValues('Engage dashboard') as Cell[][];
    const daily = block(values, 'A11');
    expect(daily[0]).toEqual(['day', 'revenue', 'rpmByPvs']);
    expect(daily).toHaveLength(1 + 30 + 1);
    const answer = await api(BIG_PUBLISHER_ID, LAST_30, 'day', { sort: 'day', order: 'asc' });
    expect(daily.slice(1, 31).map((row) => [shownDay(row[0]!), row[1], row[2]])).toEqual(
      answer.items.map((i) => [i.day, i.revenue, i.rpmByPvs]),
    );
    const [chart] = h.host.state.spreadsheet.sheetByName('Engage dashboard')!.charts;
    expect(chart).toMatchObject({
      type: 'LINE',
      ranges: ['Engage dashboard!A11:A41', 'Engage dashboard!B11:B41', 'Engage dashboard!C11:C41'],
      position: { row: 11, column: 5 },
      options: { series: { 0: { targetAxisIndex: 0 }, 1: { targetAxisIndex: 1 } } },
    });
  });

  it('lists the top 10 countries, platforms and widgets by revenue as the emulator sorts them', async () => {
    const values = h.host.getValues('Engage dashboard') as Cell[][];
    for (const [a1, breakdown, rpm] of [
      ['A46', 'country', 'rpmByPvs'],
      ['F46', 'platform', 'rpmByPvs'],
      ['K46', 'widget', 'reqsRpm'],
    ] as const) {
      const list = block(values, a1);
      expect(list[0]).toEqual([`${breakdown}.id`, `${breakdown}.name`, 'revenue', rpm]);
      const answer = await api(BIG_PUBLISHER_ID, LAST_7, breakdown, { sort: 'revenue', order: 'desc', limit: '10' });
      const entity = (i: Item) => i[breakdown] as { id: string; name: string };
      expect(list.slice(1, -1)).toEqual(answer.items.map((i) => [entity(i).id, entity(i).name, i.revenue, i[rpm]]));
      // The Total row is Engage's sum of every row, not of the ten shown: its label says so.
      const all = (answer as { totalItems?: number }).totalItems ?? answer.items.length;
      if (breakdown === 'country') expect(all).toBeGreaterThan(10);
      expect(list.at(-1)![0]).toBe(all > answer.items.length ? `Total of all ${all.toLocaleString('en-US')} rows` : 'Total');
    }
  });

  it('fetches again when Refresh all changes the refresh cell', async () => {
    h.host.advanceTime(60_000);
    h.host.call('refreshAll', [], { user: OWNER });
    const dirty = h.host.state.spreadsheet.dirtyFormulaCells().filter((c) => c.sheet.name === 'Engage dashboard');
    expect(dirty).toHaveLength(5);
    const results = await h.host.recalculate(undefined, { user: OWNER });
    expectNoErrors('Engage dashboard', results);
    expect(await h.emulator.reportRequests()).toHaveLength(6);
  });
});

describe('the dashboard of all publishers', () => {
  it('is a second sheet, keeps the refresh cell as it was, and costs each publisher six requests', async () => {
    const refresh = h.host.getValues('Engage refresh', 'A1')[0]![0];
    const { created, results, values } = await create('all');
    expect(created.sheetName).toBe('Engage dashboard (2)');
    expect(h.host.getValues('Engage refresh', 'A1')[0]![0]).toEqual(refresh);
    expectNoErrors('Engage dashboard (2)', results);
    expect(values[0]![0]).toBe('Engage dashboard: All publishers');
    const requests = await h.emulator.reportRequests();
    for (const id of PUBLISHERS) expect([id, requests.filter((r) => r.query.entityId === id).length]).toEqual([id, 6]);
  });

  it('totals the key figures over the publishers: sums, rates from the summed parts, viewability blank', async () => {
    const values = h.host.getValues('Engage dashboard (2)') as Cell[][];
    const [header, total] = block(values, 'A7');
    expect(header!.slice(0, 4)).toEqual(['publisher.id', 'publisher.name', 'day', 'day.previous']);
    const sums = async (period: readonly [string, string]) =>
      Promise.all(PUBLISHERS.map(async (id) => (await api(id, period, 'day')).metricsSums));
    const add = (list: Record<string, number>[], m: string) => list.reduce((n, s) => n + s[m]!, 0);
    const figures = async (period: readonly [string, string]) => {
      const s = await sums(period);
      return [
        money(add(s, 'revenue')),
        money((add(s, 'revenue') / add(s, 'paidPvs')) * 1000),
        add(s, 'totalPvs'),
        (add(s, 'paidClicks') / add(s, 'paidPvs')) * 100,
      ];
    };
    const [now, before] = [await figures(LAST_7), await figures(BEFORE_7)];
    const at = (m: string, k: number) => total![header!.indexOf(m) + k];
    ['revenue', 'rpmByPvs', 'totalPvs', 'paidCtrByPvs'].forEach((m, i) => {
      expect([m, at(m, 0), at(m, 1)]).toEqual([m, expect.closeTo(now[i]!, 10), expect.closeTo(before[i]!, 10)]);
    });
    expect([0, 1, 2, 3].map((k) => at('viewabilityRate', k))).toEqual(['', '', '', '']);
  });

  it("adds the publishers up day by day and country by country, and lists each publisher's top widgets", async () => {
    const values = h.host.getValues('Engage dashboard (2)') as Cell[][];
    const daily = block(values, 'A11');
    expect(daily[0]).toEqual(['day', 'revenue', 'rpmByPvs']);
    const days = await Promise.all(PUBLISHERS.map((id) => api(id, LAST_30, 'day')));
    const byDay = new Map<string, { revenue: number; paidPvs: number }>();
    for (const answer of days)
      for (const i of answer.items) {
        const d = byDay.get(i.day!) ?? { revenue: 0, paidPvs: 0 };
        byDay.set(i.day!, { revenue: d.revenue + Number(i.revenue), paidPvs: d.paidPvs + Number(i.paidPvs) });
      }
    const expectedDays = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b));
    expect(daily.slice(1, -1).map((row) => [shownDay(row[0]!), row[1], row[2]])).toEqual(
      expectedDays.map(([day, d]) => [day, money(d.revenue), money((d.revenue / d.paidPvs) * 1000)]),
    );

    const countries = await Promise.all(PUBLISHERS.map((id) => api(id, LAST_7, 'country')));
    const byCountry = new Map<string, number>();
    for (const answer of countries)
      for (const i of answer.items) byCountry.set(i.country!.id, (byCountry.get(i.country!.id) ?? 0) + Number(i.revenue));
    const top = [...byCountry.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
    const list = block(values, 'A46');
    expect(list.slice(1, -1).map((row) => [row[0], row[2]])).toEqual(top.map(([id, revenue]) => [id, money(revenue)]));

    const widgets = block(values, 'K46');
    expect(widgets[0]).toEqual(['publisher.id', 'publisher.name', 'widget.id', 'widget.name', 'revenue', 'reqsRpm']);
    const perPublisher = PUBLISHERS.map((id) => widgets.filter((row) => row[0] === id).length);
    const widgetCounts = await Promise.all(PUBLISHERS.map(async (id) => Math.min(10, (await api(id, LAST_7, 'widget')).totalItems)));
    expect(perPublisher).toEqual(widgetCounts);
  });
});

describe('a dashboard that cannot be made', () => {
  it('writes nothing for a user who has not signed in', async () => {
    const sheets = h.host.state.spreadsheet.sheets.map((s) => s.name);
    h.configure(EDITOR);
    expect(() => h.host.call('createDashboard', [BIG_PUBLISHER_ID], { user: EDITOR })).toThrow(/sign in/i);
    expect(h.host.state.spreadsheet.sheets.map((s) => s.name)).toEqual(sheets);
    expect(await h.emulator.requests()).toEqual([]);
  });
});
