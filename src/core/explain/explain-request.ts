/**
 * An explanation's request, checked before anything is sent: the comparison of the general report
 * it rests on (compare-periods.ts: the periods, compareWith, the report's own rules for entityId,
 * breakdowns and filter), and its own rules, every problem naming its argument and all of them said
 * at once: one metric that can be split exactly (explained-metric.ts), by it and its parts on these
 * breakdowns; breakdowns given, and none of them a date (a change over time is ENGAGE_COMPARE's);
 * topN from 1 to MAX_TOP_N.
 */
import { buildComparison, type Comparison } from '../api/requests/compare-periods';
import type { ReportInput, ReportQuery } from '../api/requests/report-request';
import { ValidationError, type ValidationProblem } from '../errors';
import { DATE_BREAKDOWNS } from '../spec';
import { type ExplainedMetric, metricOnBreakdowns, readExplainedMetric } from './explained-metric';

/** The keys shown on their own at most; the rest are the Other row. */
export const MAX_TOP_N = 1000;
export const DEFAULT_TOP_N = 10;
/** Decimal places of money when the request names none (the report's default). */
const DEFAULT_DEC_DIGITS = 2;

export interface ExplainInput {
  /** The report's arguments; its `metrics` are ignored (the explained metric decides the columns). */
  report: ReportInput;
  compareWith: unknown;
  metric: unknown;
  /** Keys shown on their own (default DEFAULT_TOP_N). */
  topN?: unknown;
}

export interface Explanation {
  comparison: Comparison;
  metric: ExplainedMetric;
  topN: number;
}

const problem = (argument: string, rule: string): ValidationProblem => ({ argument, message: `${argument}: ${rule}` });

function readTopN(value: unknown): number | ValidationProblem {
  if (value === undefined || value === null || value === '') return DEFAULT_TOP_N;
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_TOP_N)
    return problem('topN', `${JSON.stringify(value)} must be a whole number from 1 to ${MAX_TOP_N}: the keys shown before the Other row`);
  return n;
}

/** The breakdowns as named (any case), for the checks that come before the report's own. */
function namedBreakdowns(given: ReportInput['breakdowns']): string[] {
  const list = typeof given === 'string' ? given.split(',') : given ? [...given] : [];
  return list.map((b) => String(b).trim()).filter((b) => b !== '');
}

function breakdownProblems(given: ReportInput['breakdowns']): ValidationProblem[] {
  const names = namedBreakdowns(given);
  if (names.length === 0)
    return [problem('breakdowns', 'is required: what to split the change by, such as "widget" or "platform,country"')];
  const dates = names.filter((b) => DATE_BREAKDOWNS.has(b.toLowerCase()));
  if (dates.length === 0) return [];
  return [
    problem(
      'breakdowns',
      `${dates.join(' and ')} is a change over time, which ENGAGE_COMPARE shows day by day; explain by what is not time, such as widget, platform or country`,
    ),
  ];
}

/**
 * Checks an explanation and builds its comparison, whose two queries read the explained metric and
 * its parts; `build` validates one request (the session's). Throws one ValidationError with every
 * problem; nothing is sent before.
 */
export function buildExplanation(input: ExplainInput, timeZone: string, build: (input: ReportInput) => ReportQuery): Explanation {
  const decDigits = Number(input.report.decDigits ?? DEFAULT_DEC_DIGITS);
  const metric = readExplainedMetric(input.metric, Number.isInteger(decDigits) ? decDigits : DEFAULT_DEC_DIGITS);
  const topN = readTopN(input.topN);
  const problems: ValidationProblem[] = [...breakdownProblems(input.report.breakdowns)];
  if ('argument' in metric) problems.push(metric);
  if (typeof topN !== 'number') problems.push(topN);
  let comparison: Comparison | undefined;
  try {
    const { metrics: _ignored, ...report } = input.report;
    comparison = buildComparison(report, input.compareWith, timeZone, build);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    problems.unshift(...e.problems);
  }
  if (comparison && !('argument' in metric)) {
    const unavailable = metricOnBreakdowns(metric, comparison.current.breakdowns);
    if (unavailable) problems.push(unavailable);
  }
  if (problems.length > 0 || !comparison || 'argument' in metric || typeof topN !== 'number') throw new ValidationError(problems);
  comparison.current.metrics = metric.columns;
  comparison.earlier.metrics = metric.columns;
  comparison.metrics = metric.columns;
  return { comparison, metric, topN };
}
