/**
 * The metrics of the three reports: which are present for which breakdowns (the spec's Availability
 * column), and how each is computed from summed base counts. Derived metrics always use the spec's
 * formula over the summed counts of the row (or of all filtered rows for metricsSums), never a sum
 * or average of ratios. Money figures are converted from USD with the fixed rate table and rounded
 * to decDigits; other ratios are rounded to RATIO_DECIMALS so the JSON stays readable.
 */
import { D, H } from '../synthetic-data';

export const RATIO_DECIMALS = 4;

export type MetricKind = 'count' | 'money' | 'ratio';

export interface MoneyContext {
  rateFromUsd: number;
  decDigits: number;
}

export interface MetricDefinition {
  name: string;
  kind: MetricKind;
  /** Whether the metric is present for the given breakdowns. */
  available: (breakdowns: readonly string[]) => boolean;
  /** Value from summed base counts; money inputs are already converted. */
  compute: (sums: Float64Array, offset: number, money: MoneyContext) => number;
}

/** x / y, or 0 when nothing was counted (the service reports 0 rather than NaN). */
export function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : numerator / denominator;
}

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round((value + Number.EPSILON * Math.sign(value)) * factor) / factor;
}

const always = (_breakdowns: readonly string[]) => true;
const notWidget = (b: readonly string[]) => !b.includes('widget');
const onlyWidget = (b: readonly string[]) => b.includes('widget');
const notDoc = (b: readonly string[]) => !b.includes('doc');

function count(name: string, index: number, available = always): MetricDefinition {
  return { name, kind: 'count', available, compute: (s, o) => s[o + index]! };
}

function money(name: string, compute: (s: Float64Array, o: number, m: MoneyContext) => number): MetricDefinition {
  return { name, kind: 'money', available: always, compute };
}

function rate(name: string, compute: (s: Float64Array, o: number) => number, available = always): MetricDefinition {
  return { name, kind: 'ratio', available, compute };
}

const usd = (s: Float64Array, index: number, m: MoneyContext) => s[index]! * m.rateFromUsd;

function viewabilityRate(s: Float64Array, exposed: number, served: number): number {
  return ratio(s[exposed]!, s[served]!) * 100;
}

/** General report metrics in the spec's order. */
export const MAIN_METRICS: MetricDefinition[] = [
  count('paidPvs', D.paidPvs, notWidget),
  count('totalPvs', D.totalPvs, notWidget),
  count('organicPvs', D.organicPvs, notWidget),
  count('paidReqs', D.paidReqs, onlyWidget),
  count('totalReqs', D.totalReqs, onlyWidget),
  count('organicReqs', D.organicReqs, onlyWidget),
  money('revenue', (s, o, m) => usd(s, o + D.revenue, m)),
  money('rpmByPvs', (s, o, m) => ratio(usd(s, o + D.revenue, m), s[o + D.paidPvs]!) * 1000),
  money('reqsRpm', (s, o, m) => ratio(usd(s, o + D.revenue, m), s[o + D.paidReqs]!) * 1000),
  count('paidClicks', D.paidClicks),
  count('organicClicks', D.organicClicks),
  count('totalClicks', D.totalClicks),
  rate('paidCtrByPvs', (s, o) => ratio(s[o + D.paidClicks]!, s[o + D.paidPvs]!) * 100),
  rate('totalCtrByPvs', (s, o) => ratio(s[o + D.totalClicks]!, s[o + D.totalPvs]!) * 100),
  rate('organicCtrByPvs', (s, o) => ratio(s[o + D.organicClicks]!, s[o + D.organicPvs]!) * 100),
  rate('reqsPaidCtr', (s, o) => ratio(s[o + D.paidClicks]!, s[o + D.paidReqs]!) * 100),
  rate('reqsTotalCtr', (s, o) => ratio(s[o + D.totalClicks]!, s[o + D.totalReqs]!) * 100),
  rate('reqsOrganicCtr', (s, o) => ratio(s[o + D.organicClicks]!, s[o + D.organicReqs]!) * 100),
  money('videoRevenue', (s, o, m) => usd(s, o + D.videoRevenue, m)),
  count('videoPlays', D.videoPlays),
  rate('viewabilityRate', (s, o) => viewabilityRate(s, o + D.exposed, o + D.served)),
  rate('paidViewabilityRate', (s, o) => viewabilityRate(s, o + D.paidExposed, o + D.paidServed)),
  rate('organicViewabilityRate', (s, o) => viewabilityRate(s, o + D.organicExposed, o + D.organicServed)),
  // The spec's formulas taken literally: the rate is a percentage, so these are clicks per
  // viewable request (not a percentage) once the * 100 cancels the percent.
  rate('viewableCtr', (s, o) => ratio(s[o + D.totalClicks]!, s[o + D.totalReqs]! * viewabilityRate(s, o + D.exposed, o + D.served)) * 100),
  rate(
    'viewableOrganicCtr',
    (s, o) => ratio(s[o + D.organicClicks]!, s[o + D.organicReqs]! * viewabilityRate(s, o + D.organicExposed, o + D.organicServed)) * 100,
  ),
  rate(
    'viewablePaidCtr',
    (s, o) => ratio(s[o + D.paidClicks]!, s[o + D.paidReqs]! * viewabilityRate(s, o + D.paidExposed, o + D.paidServed)) * 100,
  ),
  money('viewableRpm', (s, o, m) => ratio(usd(s, o + D.revenue, m), s[o + D.paidExposed]!) * 1000),
  rate('optInRateByReqs', (s, o) => ratio(s[o + D.optInReqs]!, s[o + D.totalReqs]!) * 100, notDoc),
  rate('optInRateByPvs', (s, o) => ratio(s[o + D.optInPvs]!, s[o + D.totalPvs]!) * 100, notDoc),
];

/** External-ID (hourly) report metrics in the spec's order. */
export const EXTERNAL_ID_METRICS: MetricDefinition[] = [
  count('totalReqs', H.totalReqs),
  count('paidReqs', H.paidReqs),
  count('organicReqs', H.organicReqs),
  count('totalClicks', H.totalClicks),
  count('paidClicks', H.paidClicks),
  count('organicClicks', H.organicClicks),
  rate('reqsTotalCtr', (s, o) => ratio(s[o + H.totalClicks]!, s[o + H.totalReqs]!) * 100),
  rate('reqsPaidCtr', (s, o) => ratio(s[o + H.paidClicks]!, s[o + H.paidReqs]!) * 100),
  rate('reqsOrganicCtr', (s, o) => ratio(s[o + H.organicClicks]!, s[o + H.organicReqs]!) * 100),
  money('revenue', (s, o, m) => usd(s, o + H.revenue, m)),
  money('reqsRpm', (s, o, m) => ratio(usd(s, o + H.revenue, m), s[o + H.paidReqs]!) * 1000),
  money('videoRevenue', (s, o, m) => usd(s, o + H.videoRevenue, m)),
  count('widgetViewableImpressions', H.widgetViewableImpressions),
  count('organicWidgetViewableImpressions', H.organicWidgetViewableImpressions),
  count('paidWidgetViewableImpressions', H.paidWidgetViewableImpressions),
];

/** Realtime external-ID report metrics in the spec's order (revenue always USD). */
export const REALTIME_METRICS: MetricDefinition[] = [
  count('paidReqs', H.paidReqs),
  count('paidClicks', H.paidClicks),
  rate('reqsPaidCtr', (s, o) => ratio(s[o + H.paidClicks]!, s[o + H.paidReqs]!) * 100),
  money('revenue', (s, o, m) => usd(s, o + H.revenue, m)),
  money('reqsRpm', (s, o, m) => ratio(usd(s, o + H.revenue, m), s[o + H.paidReqs]!) * 1000),
  count('totalPvs', H.totalPvs),
];

/** The metric's value as it appears in a response. */
export function metricValue(metric: MetricDefinition, sums: Float64Array, offset: number, moneyContext: MoneyContext): number {
  const raw = metric.compute(sums, offset, moneyContext);
  if (metric.kind === 'money') return roundTo(raw, moneyContext.decDigits);
  if (metric.kind === 'ratio') return roundTo(raw, RATIO_DECIMALS);
  return raw;
}
