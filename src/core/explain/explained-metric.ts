/**
 * Which metrics a change can be explained of, and how: the additive ones (counts and money amounts:
 * spec.ts's ADDITIVE_METRICS) by each key's own difference, the ratios whose numerator and
 * denominator the spec gives as metrics of the same report (publisher-totals.ts's RECOMPUTED_RATES:
 * RPM, the CTRs) by mix and rate. Every other metric (the viewability and opt-in rates, the viewable
 * CTRs and RPM) is a ratio of figures the report does not send, so no exact split exists: it is
 * refused, by name, before anything is sent. Also the precision the split is exact to: money at the
 * report's decimals and counts whole for additive metrics; a ratio's split at RATE_DECIMALS (or the
 * report's decimals when more), finer than its figures, yet still adding up exactly to its Total.
 */
import { metricAvailabilityProblem } from '../api/requests/report-fields';
import { RECOMPUTED_RATES } from '../api/paging/publisher-totals';
import type { ValidationProblem } from '../errors';
import { ADDITIVE_METRICS, MAIN_METRICS, MONEY_METRICS } from '../spec';
import { unknownNameHint } from '../util/names';
import type { MetricShape } from './decomposition';

/** The argument's name in messages. */
export const METRIC_ARGUMENT = 'metric';
/** Decimal places of a ratio's split at least: Engage sends its percentages (CTRs) with up to 4. */
export const RATE_DECIMALS = 4;

export interface ExplainedMetric {
  /** The metric, in the API's spelling. */
  name: string;
  shape: MetricShape;
  /** A ratio's parts: metrics of the same report. */
  numerator?: string;
  denominator?: string;
  /** The columns to read from each row: the metric, then a ratio's numerator and denominator. */
  columns: string[];
  /** Decimal places the split is exact to. */
  decimals: number;
}

const problem = (message: string): ValidationProblem => ({ argument: METRIC_ARGUMENT, message: `${METRIC_ARGUMENT}: ${message}` });

/** The metrics whose change can be explained, in the spec's order (for messages and docs). */
export function explainableMetrics(): string[] {
  return MAIN_METRICS.filter((m) => ADDITIVE_METRICS.has(m) || m in RECOMPUTED_RATES.main);
}

/**
 * The metric named by `given` (any case), or the problem: not one name, not a metric of the general
 * report, or a ratio whose parts the spec does not give. Needs no breakdowns: see metricOnBreakdowns.
 */
export function readExplainedMetric(given: unknown, decDigits: number): ExplainedMetric | ValidationProblem {
  const text = typeof given === 'string' ? given.trim() : '';
  if (text === '') return problem('is required: one metric name, such as "revenue" or "rpmByPvs"');
  if (text.includes(',')) return problem(`explains one metric at a time: "${text}" names several`);
  const name = MAIN_METRICS.find((m) => m.toLowerCase() === text.toLowerCase());
  if (!name) return problem(`"${text}" is not a metric of the general report${unknownNameHint(text, MAIN_METRICS, false)}`);
  if (ADDITIVE_METRICS.has(name))
    return { name, shape: { kind: 'additive' }, columns: [name], decimals: MONEY_METRICS.has(name) ? decDigits : 0 };
  const rate = RECOMPUTED_RATES.main[name];
  if (!rate) {
    return problem(
      `${name} is a ratio whose parts the API does not send as metrics, so its change cannot be split exactly; ` +
        `explain one of ${explainableMetrics().join(', ')}`,
    );
  }
  const columns = [...new Set([name, rate.numerator, rate.denominator])];
  // A ratio's split is finer than its figures (an RPM's cents move by a few parts each): at least RATE_DECIMALS.
  const decimals = Math.max(RATE_DECIMALS, MONEY_METRICS.has(name) ? decDigits : 0);
  return {
    name,
    shape: { kind: 'ratio', factor: rate.factor },
    numerator: rate.numerator,
    denominator: rate.denominator,
    columns,
    decimals,
  };
}

/** The problem of explaining this metric by these (effective) breakdowns: it, or a part of it, is not sent by them. */
export function metricOnBreakdowns(metric: ExplainedMetric, breakdowns: readonly string[]): ValidationProblem | undefined {
  for (const column of metric.columns) {
    const unavailable = metricAvailabilityProblem('main', column, breakdowns);
    if (!unavailable) continue;
    const part = column === metric.name ? '' : ` (its ${column === metric.numerator ? 'numerator' : 'denominator'} ${column})`;
    const twin = metric.name === 'rpmByPvs' ? 'reqsRpm' : metric.name === 'paidCtrByPvs' ? 'reqsPaidCtr' : undefined;
    const hint = twin && breakdowns.includes('widget') ? `; by widget, explain ${twin}` : '';
    return problem(`${metric.name}${part} ${unavailable}${hint}`);
  }
  return undefined;
}
