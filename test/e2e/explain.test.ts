/**
 * End to end, ENGAGE_EXPLAIN typed into cells of the built bundle against the emulator: revenue by
 * widget and RPM by platform x country over 7 days against the 7 before. The rows, Other included,
 * add up to the Total row's change to the cent, the Total row is ENGAGE_COMPARE's for the same
 * periods, it costs at most two requests a period (none when cached) and no 429 while 60 other
 * formulas recalculate. Then a change the emulator is made to cause (one widget's revenue of one day
 * halved, by its admin API) is explained: that widget first, with at least 90 % of the change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { OWNER, recalculateInBatches, startAddon, type AddonHarness } from '../support/addon-host';
import { DEMO_USER, MEDIUM_PUBLISHER_ID, TOKEN_HEADER } from '../support/emulator';
import { placeFormulas, typeFormulas } from '../support/sixty-formulas';

const NOW = '2026-11-20T12:00:00Z';
const FROM = '2026-11-13';
const TO = '2026-11-19';
let h: AddonHarness;
let token = '';
let nextRow = 1;

beforeAll(async () => {
  // The real clock: formulas waiting for another cell's identical report really wait.
  h = await startAddon({
    maxColumns: 40,
    maxRows: 2000,
    sheets: ['Data', 'Scratch', 'Explain'],
  });
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

/** The next free block of the Explain sheet. */
function nextCell(): string {
  const a1 = `A${nextRow}`;
  nextRow += 200;
  return a1;
}

/** Types a formula into a fresh block of the Explain sheet and evaluates it. */
function formula(text: string): Cell[][] {
  const result = h.host.evaluateFormula('Explain', nextCell(), text, { user: OWNER });
  expect({ text, error: result.error }).toEqual({ text, error: undefined });
  return result.values as Cell[][];
}

/** The message a formula fails with. */
function failure(text: string): string {
  const result = h.host.evaluateFormula('Explain', nextCell(), text, { user: OWNER });
  expect(result.error).toBeDefined();
  return result.error!;
}

const column = (values: Cell[][], name: string) => {
  const index = (values[0] as string[]).indexOf(name);
  expect([name, index >= 0]).toEqual([name, true]);
  return index;
};
const cents = (value: Cell, decimals = 2) => Math.round(Number(value) * 10 ** decimals);

/** The rows (Other included) add up to the Total row exactly, in each effect column. */
function expectExact(values: Cell[][], metric: string, columns: string[], decimals: number) {
  const rows = values.slice(1, -1);
  const total = values[values.length - 1]!;
  expect(total[0]).toBe('Total');
  expect(rows[rows.length - 1]![0]).toBe('Other');
  for (const name of columns) {
    const c = column(values, `${metric}.${name}`);
    const sum = rows.reduce((a: number, row) => a + cents(row[c], decimals), 0);
    expect([name, sum]).toEqual([name, cents(total[c], decimals)]);
  }
}

/** ENGAGE_COMPARE's Total row for the same periods: [metric, metric.previous, metric.change]. */
function compareTotals(breakdowns: string, metric: string, entityId = MEDIUM_PUBLISHER_ID): Cell[] {
  const values = formula(`=ENGAGE_COMPARE("${entityId}", "${FROM}", "${TO}", "previous", "${breakdowns}", "${metric}")`);
  const total = values[values.length - 1]!;
  const c = column(values, metric);
  return [total[c], total[c + 1], total[c + 2]];
}

async function reportRequests(): Promise<Array<{ period: string; status: number | null }>> {
  return (await h.emulator.reportRequests()).map((r) => ({ period: `${r.query.fromDate}-${r.query.toDate}`, status: r.status }));
}

describe('ENGAGE_EXPLAIN over 7 days against the 7 before', () => {
  it('splits revenue by widget: rows add up to the Total, which is ENGAGE_COMPARE’s, in two requests and none cached', async () => {
    const text = `=ENGAGE_EXPLAIN("${MEDIUM_PUBLISHER_ID}", "${FROM}", "${TO}", "previous", "revenue", "widget", 5)`;
    const values = formula(text);
    expect(values[0]).toEqual(['widget.id', 'widget.name', 'revenue', 'revenue.previous', 'revenue.change', 'revenue.share%']);
    expectExact(values, 'revenue', ['change'], 2);
    const sent = await reportRequests();
    expect(sent.length).toBeLessThanOrEqual(4);
    expect(new Set(sent.map((s) => s.period))).toEqual(new Set(['20261113-20261119', '20261106-20261112']));
    const total = values[values.length - 1]!;
    expect(total.slice(2, 5)).toEqual(compareTotals('widget', 'revenue'));
    // Largest part first.
    const change = column(values, 'revenue.change');
    const parts = values.slice(1, -2).map((r) => Math.abs(Number(r[change])));
    expect(parts).toEqual([...parts].sort((a, b) => b - a));

    await h.emulator.clearRequests();
    expect(formula(text)).toEqual(values);
    expect(await reportRequests()).toEqual([]);
  });

  it('splits RPM by platform x country into mix and rate that add up, row by row and to ENGAGE_COMPARE’s Total', async () => {
    const text = `=ENGAGE_EXPLAIN("${MEDIUM_PUBLISHER_ID}", "${FROM}", "${TO}", "previous", "rpmByPvs", "platform,country", 8)`;
    const values = formula(text);
    expect(values[0]).toEqual([
      'platform.id',
      'platform.name',
      'country.id',
      'country.name',
      'rpmByPvs',
      'rpmByPvs.previous',
      'rpmByPvs.change',
      'rpmByPvs.share%',
      'rpmByPvs.mix',
      'rpmByPvs.rate',
    ]);
    // 8 keys, Other and Total.
    expect(values.length).toBe(11);
    // The split is finer than an RPM's cents: to 4 decimals, still exact.
    expectExact(values, 'rpmByPvs', ['change', 'mix', 'rate'], 4);
    const [change, mix, rate] = ['change', 'mix', 'rate'].map((m) => column(values, `rpmByPvs.${m}`));
    for (const row of values.slice(1)) expect(cents(row[mix!], 4) + cents(row[rate!], 4)).toBe(cents(row[change!], 4));
    const sent = await reportRequests();
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(4);
    expect(values[values.length - 1]!.slice(4, 7)).toEqual(compareTotals('platform,country', 'rpmByPvs'));

    await h.emulator.clearRequests();
    expect(formula(text)).toEqual(values);
    expect(await reportRequests()).toEqual([]);
  });

  it('takes "all" publishers, each one more key, its Total that of ENGAGE_COMPARE("all", …)', () => {
    const values = formula(`=ENGAGE_EXPLAIN("all", "${FROM}", "${TO}", "previous", "revenue", "platform", 1000)`);
    expect((values[0] as string[]).slice(0, 4)).toEqual(['publisher.id', 'publisher.name', 'platform.id', 'platform.name']);
    expect(new Set(values.slice(1, -2).map((r) => r[0])).size).toBeGreaterThan(1);
    expectExact(values, 'revenue', ['change'], 2);
    expect(values[values.length - 1]!.slice(4, 7)).toEqual(compareTotals('platform', 'revenue', 'all'));
  });

  it('sends nothing for bad input and names the argument and its rule', async () => {
    const explain = (args: string) => failure(`=ENGAGE_EXPLAIN("${MEDIUM_PUBLISHER_ID}", "${FROM}", "${TO}", "previous", ${args})`);
    expect(explain('"revnue", "widget"')).toMatch(/metric: "revnue" is not a metric of the general report \(did you mean 'revenue'\?\)/);
    expect(explain('"viewabilityRate", "widget"')).toMatch(/metric: viewabilityRate is a ratio whose parts the API does not send/);
    expect(explain('"rpmByPvs", "widget"')).toMatch(
      /metric: rpmByPvs \(its denominator paidPvs\) is not available with the 'widget' breakdown; by widget, explain reqsRpm/,
    );
    expect(explain('"revenue", "widget", 0')).toMatch(/topN: 0 must be a whole number from 1 to 1000/);
    expect(explain('"revenue", "widget", 1001')).toMatch(/topN: 1001 must be a whole number from 1 to 1000/);
    expect(explain('"revenue", "day,widget"')).toMatch(/breakdowns: day is a change over time, which ENGAGE_COMPARE shows/);
    expect(explain('"revenue", "colour"')).toMatch(/breakdowns: .*colour/);
    expect(explain('"revenue", ""')).toMatch(/breakdowns: is required/);
    expect(await reportRequests()).toEqual([]);
  });

  it('makes no 429 while 60 other formulas recalculate with it', async () => {
    const others = placeFormulas(60);
    typeFormulas(h.host, others, '"wave"');
    const explain = [
      `=ENGAGE_EXPLAIN("${MEDIUM_PUBLISHER_ID}", "${FROM}", "${TO}", "previous", "revenue", "widget", , , "wave")`,
      `=ENGAGE_EXPLAIN("${MEDIUM_PUBLISHER_ID}", "${FROM}", "${TO}", "previous", "rpmByPvs", "platform,country", , , "wave")`,
    ].map((text) => {
      const a1 = nextCell();
      h.host.setCell('Explain', a1, text);
      return { sheet: 'Explain', a1 };
    });
    const results = await recalculateInBatches(h.host, [...explain, ...others.map((f) => ({ sheet: f.sheet, a1: f.a1 }))], { user: OWNER });
    expect(results.filter((r) => r.error !== undefined).map((r) => `${r.a1}: ${r.error}`)).toEqual([]);
    for (const [i, metric] of ['revenue', 'rpmByPvs'].entries()) expect(results[i]!.values[0]).toContain(`${metric}.change`);
    const sent = await reportRequests();
    expect(sent.length).toBeGreaterThan(4);
    expect(sent.filter((r) => r.status === 429)).toEqual([]);
    expect(h.host.fetchLog.filter((f) => f.status === 429)).toEqual([]);
  });
});

interface WidgetDay {
  day: string;
  widget: { id: string };
  revenue: number;
}

/** Each widget's revenue by day from the emulator itself, as `day -> widget -> revenue`. */
async function widgetDays(fromDate: string, toDate: string): Promise<Map<string, Map<string, number>>> {
  const query = new URLSearchParams({ entityId: MEDIUM_PUBLISHER_ID, fromDate, toDate, breakdowns: 'day,widget', limit: '10000' });
  const response = await fetch(`${h.emulator.baseUrl}/reports/main?${query}`, { headers: { [TOKEN_HEADER]: token } });
  expect(response.status).toBe(200);
  const days = new Map<string, Map<string, number>>();
  for (const item of ((await response.json()) as { items: WidgetDay[] }).items) {
    const widgets = days.get(item.day) ?? new Map<string, number>();
    widgets.set(item.widget.id, item.revenue);
    days.set(item.day, widgets);
  }
  return days;
}

/**
 * Two days whose widgets earned nearly the same, and the widget whose halving would stand out most
 * against what else changed between them: the emulator's days differ by up to 30 % of their revenue,
 * so a caused change is explained against a quiet pair of days, found in its own data.
 */
function quietPair(days: Map<string, Map<string, number>>): { day: string; earlier: string; widget: string } {
  const list = [...days.keys()].sort();
  let best = { day: '', earlier: '', widget: '', noise: Number.POSITIVE_INFINITY };
  for (const [i, day] of list.entries())
    for (const earlier of list.slice(0, i)) {
      const now = days.get(day)!;
      const before = days.get(earlier)!;
      const diffs = [...now.keys()].map((w) => Math.abs(now.get(w)! - (before.get(w) ?? 0)));
      for (const widget of now.keys()) {
        const noise = Math.max(...diffs) / (now.get(widget)! / 2);
        if (noise < best.noise) best = { day, earlier, widget, noise };
      }
    }
  return best;
}

describe('docs/explain.md', () => {
  it('shows the figures its worked example gives', () => {
    const page = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'explain.md'), 'utf8');
    const example = page.slice(page.indexOf('## A worked example'));
    const text = example.match(/`(=ENGAGE_EXPLAIN\([^`]+\))`/)![1]!;
    const table = example
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .map((line) =>
        line
          .slice(1, -1)
          .split('|')
          .map((c) => c.trim()),
      );
    const values = formula(text);
    const rows = table.filter((r) => !r[0]!.startsWith('---'));
    expect(rows.map((r) => r.length)).toEqual(values.map((r) => r.length));
    // Each figure as the page writes it: a number to its own decimals, text as it is.
    const asShown = (cell: Cell, written: string) => {
      if (written === '' || Number.isNaN(Number(written))) return cell;
      const decimals = written.split('.')[1]?.length ?? 0;
      return (Number(cell) * 10 ** decimals).toFixed(0) === (Number(written) * 10 ** decimals).toFixed(0) ? written : cell;
    };
    expect(values.map((row, r) => row.map((cell, c) => asShown(cell, rows[r]![c]!)))).toEqual(rows);
  });
});

describe('a change the emulator is made to cause', () => {
  it('ranks the widget whose revenue of one day was halved first, with at least 90 % of the change', async () => {
    const pair = quietPair(await widgetDays('20260801', '20261031'));
    const dashed = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}`;
    await h.emulator.reviseRevenue(MEDIUM_PUBLISHER_ID, pair.day, 0.5, pair.widget);
    const values = formula(
      `=ENGAGE_EXPLAIN("${MEDIUM_PUBLISHER_ID}", "${dashed(pair.day)}", "${dashed(pair.day)}", "${dashed(pair.earlier)}..${dashed(pair.earlier)}", "revenue", "widget")`,
    );
    await h.emulator.clearRevisions();
    expectExact(values, 'revenue', ['change'], 2);
    const first = values[1]!;
    expect(first[0]).toBe(pair.widget);
    expect(Number(first[column(values, 'revenue.change')])).toBeLessThan(0);
    expect(Number(first[column(values, 'revenue.share%')])).toBeGreaterThanOrEqual(90);
  });
});
