/**
 * The totals of a report of several publishers, from each publisher's own `metricsSums` (which cover
 * every filtered row of that publisher, not just the rows fetched). Counts and money amounts add up
 * across publishers (spec.ts's ADDITIVE_METRICS). Rates do not: a rate the spec defines as a ratio of two metrics of the same report is
 * computed again from the summed numerator and denominator ("RPM = revenue / paidPvs * 1000" over all
 * publishers); every other rate is left out, so its Total cell stays blank rather than show a figure
 * no publisher's data supports. Left out are the viewability rates (their parts, widgets exposed and
 * served, are not metrics), the viewable CTRs (defined through a viewability rate), the viewable RPM
 * and the opt-in rates (their parts are not metrics either), and the hourly reports' `reqsRpm`, which
 * the spec calls "revenue per thousand requests" without saying which requests. A metric is totalled
 * only when every publisher's sums give a number for it, and a rate only when its denominator is not 0.
 */
import { ADDITIVE_METRICS, MONEY_METRICS, REPORT_SPECS, type ReportKind } from '../../spec';
import { normaliseMetrics } from '../responses/values';

/** A rate as the spec defines it: (numerator / denominator) * factor. */
interface RateDefinition {
  numerator: string;
  denominator: string;
  factor: number;
}

const rate = (numerator: string, denominator: string, factor: number): RateDefinition => ({ numerator, denominator, factor });

/** The rates the spec defines from two metrics of the same report's items. */
export const RECOMPUTED_RATES: Record<ReportKind, Readonly<Record<string, RateDefinition>>> = {
  main: {
    rpmByPvs: rate('revenue', 'paidPvs', 1000),
    reqsRpm: rate('revenue', 'paidReqs', 1000),
    paidCtrByPvs: rate('paidClicks', 'paidPvs', 100),
    totalCtrByPvs: rate('totalClicks', 'totalPvs', 100),
    organicCtrByPvs: rate('organicClicks', 'organicPvs', 100),
    reqsPaidCtr: rate('paidClicks', 'paidReqs', 100),
    reqsTotalCtr: rate('totalClicks', 'totalReqs', 100),
    reqsOrganicCtr: rate('organicClicks', 'organicReqs', 100),
  },
  externalId: {
    reqsTotalCtr: rate('totalClicks', 'totalReqs', 100),
    reqsPaidCtr: rate('paidClicks', 'paidReqs', 100),
    reqsOrganicCtr: rate('organicClicks', 'organicReqs', 100),
  },
  realtime: {
    reqsPaidCtr: rate('paidClicks', 'paidReqs', 100),
  },
};

/** The metrics whose totals are left blank in a report of several publishers, per report (for docs/publishers.md and the tests). */
export function blankTotals(kind: ReportKind): string[] {
  return REPORT_SPECS[kind].metrics.filter((m) => !ADDITIVE_METRICS.has(m) && !(m in RECOMPUTED_RATES[kind]));
}

/**
 * The sums of several publishers' reports: additive metrics summed, rates recomputed, the rest left
 * out. Undefined when no publisher's answer had sums (a report without them has no Total row).
 */
export function combineMetricsSums(
  kind: ReportKind,
  sums: ReadonlyArray<Record<string, unknown> | undefined>,
  decDigits = 2,
): Record<string, number> | undefined {
  if (sums.length === 0 || sums.every((s) => s === undefined)) return undefined;
  const normalised = sums.map((s) => normaliseMetrics(s ?? {}));
  // Money figures are rounded as the report rounds them (decDigits of the general report, 2 otherwise).
  const round = (value: number) => Number(value.toFixed(decDigits));
  const summed: Record<string, number> = {};
  const total = (metric: string): number | undefined => {
    let sum = 0;
    for (const s of normalised) {
      const v = s[metric];
      if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
      sum += v;
    }
    return sum;
  };
  // The counts and money amounts add up.
  for (const metric of REPORT_SPECS[kind].metrics.filter((m) => ADDITIVE_METRICS.has(m))) {
    const value = total(metric);
    if (value !== undefined) summed[metric] = MONEY_METRICS.has(metric) ? round(value) : value;
  }
  for (const [metric, definition] of Object.entries(RECOMPUTED_RATES[kind])) {
    const numerator = total(definition.numerator);
    const denominator = total(definition.denominator);
    if (numerator === undefined || denominator === undefined || denominator === 0) continue;
    const value = (numerator / denominator) * definition.factor;
    summed[metric] = MONEY_METRICS.has(metric) ? round(value) : value;
  }
  return summed;
}
