/**
 * Alert rules on a saved report's figures, evaluated on the block a refresh wrote (built here from
 * report items, as a refresh builds it): each kind fires on data built to trigger it and stays clear on
 * data that does not. Thresholds read the Total row (or the rows added up without one); a change
 * compares the latest settled day (ended 4 hours ago: today, partial, never) with the day before or
 * the same weekday a week earlier; "drops to 0" names each key whose metric was above 0 the day before
 * and is 0, or missing, on the settled day. Day cells show their UTC day on the spreadsheet's clock.
 */
import { evaluateAlert, SETTLE_HOURS, type AlertContext } from '../../../../../src/core/schedules/watchers/alerts';
import { buildReportQuery } from '../../../../../src/core/api/requests/report-request';
import { reportToSheetBlock } from '../../../../../src/core/sheets/sheet-output';
import type { AlertRule } from '../../../../../src/core/schedules/saved/notice-settings';
import type { Period } from '../../../../../src/core/schedules/saved/period';

const NOW = Date.UTC(2026, 10, 20, 12);
const ZONE = 'Europe/Berlin';
const PERIOD: Period = { type: 'lastDays', days: 14, endingYesterday: true };

function context(
  items: Record<string, unknown>[],
  options: { breakdowns?: string[]; metrics?: string[]; sums?: Record<string, number>; nowMs?: number; period?: Period } = {},
): AlertContext {
  const nowMs = options.nowMs ?? NOW;
  const query = buildReportQuery(
    'main',
    {
      entityId: 'p1',
      fromDate: '20261106',
      toDate: '20261119',
      breakdowns: options.breakdowns ?? ['day'],
      metrics:
        options.metrics ??
        ((options.breakdowns ?? []).includes('widget') ? ['paidReqs', 'revenue', 'reqsRpm'] : ['paidPvs', 'revenue', 'rpmByPvs']),
    },
    { nowMs, timeZone: 'UTC' },
  );
  const block = reportToSheetBlock(
    {
      query,
      items,
      totalItems: items.length,
      partial: false,
      pagesFetched: 1,
      pagesPlanned: 1,
      ...(options.sums ? { metricsSums: options.sums } : {}),
    },
    { timeZone: ZONE, totals: options.sums !== undefined },
  );
  return { block, kind: 'main', period: options.period ?? PERIOD, nowMs, timeZone: ZONE };
}

const day = (d: string, revenue: number, extra: Record<string, unknown> = {}) => ({ day: d, revenue, paidPvs: 1000, ...extra });
const state = (rule: AlertRule, c: AlertContext) => evaluateAlert(rule, c).state;

describe('a threshold on the Total row', () => {
  const rows = [day('20261118', 30), day('20261119', 20)];
  it('fires below or above its number, from the Total row the report writes', () => {
    const withTotals = context(rows, { sums: { revenue: 50, paidPvs: 2000, rpmByPvs: 25 } });
    expect(evaluateAlert({ kind: 'below', metric: 'revenue', value: 100 }, withTotals)).toEqual({
      state: 'fires',
      detail: 'revenue is 50 (Total row), below 100',
    });
    expect(state({ kind: 'above', metric: 'revenue', value: 40 }, withTotals)).toBe('fires');
    expect(state({ kind: 'below', metric: 'revenue', value: 50 }, withTotals)).toBe('clear');
    expect(state({ kind: 'above', metric: 'revenue', value: 100 }, withTotals)).toBe('clear');
    // The Total row is the service's own figure, not the rows': it covers rows a page may not hold.
    expect(state({ kind: 'above', metric: 'revenue', value: 49 }, context(rows.slice(0, 1), { sums: { revenue: 50 } }))).toBe('fires');
  });

  it('adds the rows up as the Total row would without one: amounts summed, a rate from its summed parts', () => {
    const noTotals = context([day('20261118', 30, { paidPvs: 1000 }), day('20261119', 20, { paidPvs: 3000 })]);
    expect(evaluateAlert({ kind: 'below', metric: 'revenue', value: 60 }, noTotals)).toMatchObject({
      state: 'fires',
      detail: 'revenue is 50 (Total row), below 60',
    });
    // 50 / 4000 * 1000: the RPM of the whole, not the average of the days' RPMs.
    expect(evaluateAlert({ kind: 'below', metric: 'rpmByPvs', value: 13 }, noTotals)).toMatchObject({
      detail: 'rpmByPvs is 12.5 (Total row), below 13',
    });
    expect(state({ kind: 'below', metric: 'rpmByPvs', value: 12 }, noTotals)).toBe('clear');
  });
});

describe('a change of the latest settled day', () => {
  const week = (settled: number, before: number, weekAgo: number) => [
    day('20261112', weekAgo),
    ...['20261113', '20261114', '20261115', '20261116', '20261117'].map((d) => day(d, 100)),
    day('20261118', before),
    day('20261119', settled),
    // Today's partial figures never count.
    day('20261120', 1),
  ];
  const rule = (percent: number, extra: Partial<AlertRule> = {}): AlertRule =>
    ({ kind: 'change', metric: 'revenue', against: 'previousDay', percent, ...extra }) as AlertRule;

  it('against the day before: a drop of 40% fires a rule of 30% down, and says which days it compared', () => {
    const c = context(week(60, 100, 100));
    expect(evaluateAlert(rule(30), c)).toEqual({
      state: 'fires',
      detail: 'revenue was 60 on 2026-11-19 against 100 on 2026-11-18 (-40%)',
    });
    expect(state(rule(50), c)).toBe('clear');
    expect(state(rule(30, { direction: 'up' }), c)).toBe('clear');
    expect(state(rule(30, { direction: 'either' }), c)).toBe('fires');
    expect(state(rule(30), context(week(90, 100, 100)))).toBe('clear');
    expect(state(rule(20, { direction: 'up' }), context(week(130, 100, 100)))).toBe('fires');
  });

  it('against the same weekday a week earlier, not the day before', () => {
    const c = context(week(100, 100, 200));
    const sameWeekday = rule(30, { against: 'sameWeekday' });
    expect(evaluateAlert(sameWeekday, c)).toMatchObject({
      state: 'fires',
      detail: 'revenue was 100 on 2026-11-19 against 200 on 2026-11-12 (-50%)',
    });
    expect(state(rule(30), c)).toBe('clear');
    expect(state(sameWeekday, context(week(100, 50, 110)))).toBe('clear');
  });

  it(`waits ${SETTLE_HOURS} hours after a day ends: at 03:00 UTC the day before yesterday is the latest settled one`, () => {
    const early = Date.UTC(2026, 10, 20, 3);
    // Yesterday dropped, but its last hours may not have arrived yet: the days before it are compared.
    const c = context(week(10, 100, 100), { nowMs: early });
    expect(evaluateAlert(rule(30), c)).toMatchObject({ state: 'clear' });
    expect(evaluateAlert(rule(30), context(week(100, 50, 100), { nowMs: early }))).toMatchObject({
      state: 'fires',
      detail: 'revenue was 50 on 2026-11-18 against 100 on 2026-11-17 (-50%)',
    });
  });

  it('takes a day without rows as none of a count or an amount, and is unknown when the period does not reach back', () => {
    const missing = context(week(60, 100, 100).filter((r) => r.day !== '20261119'));
    expect(evaluateAlert(rule(90), missing)).toMatchObject({
      state: 'fires',
      detail: 'revenue was 0 on 2026-11-19 against 100 on 2026-11-18 (-100%)',
    });
    const short = context(week(60, 100, 100), { period: { type: 'lastDays', days: 1, endingYesterday: true } });
    expect(evaluateAlert(rule(30), short)).toEqual({
      state: 'unknown',
      why: 'the period does not reach back to 2026-11-18, the day 2026-11-19 is compared with',
    });
  });

  it('adds up the rows of a day broken down further, a rate from its parts', () => {
    const byWidget = (d: string, a: number, b: number) => [
      { day: d, widget: { id: 'APP_1', name: 'Top' }, revenue: a, paidReqs: 1000 },
      { day: d, widget: { id: 'APP_2', name: 'Side' }, revenue: b, paidReqs: 1000 },
    ];
    const c = context([...byWidget('20261118', 10, 10), ...byWidget('20261119', 10, 2)], { breakdowns: ['day', 'widget'] });
    // RPM 10 then 6: down 40%.
    expect(evaluateAlert({ kind: 'change', metric: 'reqsRpm', against: 'previousDay', percent: 35 }, c)).toMatchObject({
      state: 'fires',
      detail: 'reqsRpm was 6 on 2026-11-19 against 10 on 2026-11-18 (-40%)',
    });
  });
});

describe('a key that drops to 0', () => {
  const widget = (d: string, id: string, paidReqs: number) => ({
    day: d,
    widget: { id, name: `Widget ${id}` },
    paidReqs,
    revenue: paidReqs / 10,
  });
  const rule: AlertRule = { kind: 'zero', metric: 'paidReqs', key: 'widget' };
  const at = (items: Record<string, unknown>[]) => context(items, { breakdowns: ['day', 'widget'] });

  it('names each widget whose paidReqs went from above 0 to 0, or whose row is gone', () => {
    const outcome = evaluateAlert(
      rule,
      at([
        widget('20261118', 'APP_1', 50),
        widget('20261118', 'APP_2', 40),
        widget('20261118', 'APP_3', 30),
        widget('20261119', 'APP_1', 0),
        widget('20261119', 'APP_3', 25),
      ]),
    );
    expect(outcome).toMatchObject({
      state: 'fires',
      detail: 'paidReqs dropped to 0 on 2026-11-19, from above 0 on 2026-11-18, for 2 widgets: Widget APP_1 (APP_1), Widget APP_2 (APP_2)',
    });
    expect(outcome.state === 'fires' && outcome.keys?.map((k) => k.label)).toEqual(['Widget APP_1 (APP_1)', 'Widget APP_2 (APP_2)']);
  });

  it('stays clear when every widget still has some, and for one already at 0 the day before', () => {
    expect(state(rule, at([widget('20261118', 'APP_1', 50), widget('20261119', 'APP_1', 1)]))).toBe('clear');
    expect(state(rule, at([widget('20261118', 'APP_1', 0), widget('20261119', 'APP_1', 0)]))).toBe('clear');
    // A widget new on the settled day is no drop either.
    expect(state(rule, at([widget('20261119', 'APP_9', 0)]))).toBe('clear');
  });
});

describe("a change's drivers in its notice", () => {
  const REPORT = { entityId: 'p1', breakdowns: ['day', 'widget'] };
  const widgets = (d: string, revenues: number[]) =>
    revenues.map((revenue, i) => ({ day: d, widget: { id: `APP_${i + 1}`, name: `W${i + 1}` }, revenue, paidReqs: 1000 }));
  const change = (percent: number, extra: Partial<AlertRule> = {}): AlertRule =>
    ({ kind: 'change', metric: 'revenue', against: 'previousDay', percent, ...extra }) as AlertRule;
  const explained = (rule: AlertRule, c: AlertContext) => {
    const outcome = evaluateAlert(rule, c);
    return outcome.state === 'fires' ? outcome.explained : `not fired: ${outcome.state}`;
  };

  it('names the top 3 keys by their part of the change, in the currency, then the rest as one part that adds up exactly', () => {
    // Down 200.5 in all: APP_2 -120, APP_4 -50.25, APP_1 -20, APP_3 -10.25, APP_5 0.
    const c = context([...widgets('20261118', [100, 200, 50, 80, 10]), ...widgets('20261119', [80, 80, 39.75, 29.75, 10])], {
      breakdowns: ['day', 'widget'],
    });
    expect(explained(change(30), { ...c, report: { ...REPORT, currencyCode: 'EUR' } })).toBe(
      'revenue \u221246% (\u2212€200.50) vs the day before: widget W2 (APP_2) \u2212€120.00 (60%), widget W4 (APP_4) \u2212€50.25 (25%), ' +
        'widget W1 (APP_1) \u2212€20.00 (10%), the other 2 \u2212€10.25 (5%)',
    );
    // Without a currency, the API's default (USD); without the report's fields, nothing more than before.
    expect(explained(change(30), { ...c, report: REPORT })).toContain('widget W2 (APP_2) \u2212$120.00 (60%)');
    expect(explained(change(30), c)).toBeUndefined();
  });

  it('keys a report of several breakdowns by each pair, and splits a ratio into mix and rate', () => {
    const rows = (d: string, reqs: [number, number], revenue: [number, number]) => [
      {
        day: d,
        widget: { id: 'APP_1', name: 'Top' },
        platform: { id: 'DESKTOP', name: 'Desktop' },
        paidReqs: reqs[0],
        revenue: revenue[0],
      },
      {
        day: d,
        widget: { id: 'APP_1', name: 'Top' },
        platform: { id: 'SMARTPHONE', name: 'Smartphone' },
        paidReqs: reqs[1],
        revenue: revenue[1],
      },
    ];
    // Desktop's RPM holds at 10 while its share halves; Smartphone's falls from 5 to 4.
    const c = context([...rows('20261118', [1000, 1000], [10, 5]), ...rows('20261119', [500, 1500], [5, 6])], {
      breakdowns: ['day', 'widget', 'platform'],
      metrics: ['paidReqs', 'revenue', 'reqsRpm'],
    });
    const text = explained(
      { kind: 'change', metric: 'reqsRpm', against: 'previousDay', percent: 20 },
      { ...c, report: { entityId: 'p1', breakdowns: ['day', 'widget', 'platform'] } },
    );
    // RPM 7.5 then 5.5: -2, Desktop's lost share (mix) and Smartphone's lower RPM (rate) and its share at it.
    expect(text).toMatch(/^reqsRpm \u221227% \(\u22122\) vs the day before: widget Top \(APP_1\) · platform /);
    const parts = [...text!.matchAll(/([\u2212+]?[\d.]+) \((\u2212?\d+)%: mix ([\u2212+]?[\d.]+), rate ([\u2212+]?[\d.]+)\)/g)].map((m) =>
      m.slice(1).map((x) => Number(x.replace('\u2212', '-'))),
    );
    expect(parts).toHaveLength(2);
    // Exact: the parts add up to the whole's change, and each part's mix and rate to it.
    expect(parts.reduce((a, p) => a + p[0]!, 0)).toBeCloseTo(-2, 10);
    for (const [part, , mix, rate] of parts) expect(mix! + rate!).toBeCloseTo(part!, 10);
    // Desktop (RPM 10, above the average of 6.5) lost a quarter of the share: all mix, (0.25 - 0.5) * (10 - 6.5).
    expect(text).toContain('platform Desktop (DESKTOP) \u22120.875 (44%: mix \u22120.875, rate 0)');
    // Smartphone gained it at an RPM below the average, (0.75 - 0.5) * (4.5 - 6.5), and its RPM fell by 1 over a mean share of 0.625.
    expect(text).toContain('platform Smartphone (SMARTPHONE) \u22121.125 (56%: mix \u22120.5, rate \u22120.625)');
  });

  it('offers the formula on a report by day only, for the two days it compared and the report’s filter', () => {
    const c = context([day('20261112', 200), day('20261118', 100), day('20261119', 100)]);
    const sameWeekday = change(30, { against: 'sameWeekday' });
    expect(explained(sameWeekday, { ...c, report: { entityId: 'p1', breakdowns: ['day'], filter: 'platform=="DESKTOP"' } })).toBe(
      'To see which widget moved it, run =ENGAGE_EXPLAIN("p1", "2026-11-19", "2026-11-19", "2026-11-12..2026-11-12", "revenue", "widget", "", "platform==""DESKTOP""") in a cell',
    );
    // rpmByPvs has no widget breakdown: the formula splits it by platform.
    const rpm = context([day('20261118', 100, { rpmByPvs: 100 }), day('20261119', 50, { rpmByPvs: 50 })]);
    expect(explained(change(30, { metric: 'rpmByPvs' }), { ...rpm, report: { entityId: 'p1' } })).toContain('"rpmByPvs", "platform")');
  });

  it('says nothing more of a metric that cannot be split exactly', () => {
    const c = context([day('20261118', 1, { viewabilityRate: 80 }), day('20261119', 1, { viewabilityRate: 40 })], {
      metrics: ['revenue', 'viewabilityRate'],
    });
    const outcome = evaluateAlert(
      { kind: 'change', metric: 'viewabilityRate', against: 'previousDay', percent: 30 },
      { ...c, report: REPORT },
    );
    expect(outcome).toMatchObject({ state: 'fires' });
    expect(outcome).not.toHaveProperty('explained');
  });
});
