/**
 * "Explain the change" of a comparison built in the sidebar: the builder's request with `explain`
 * (a metric and what to split it by) asks for ENGAGE_EXPLAIN of the same periods, compareWith and
 * filter instead of ENGAGE_COMPARE. Its formula is written as the other report formulas are (a
 * rolling preset's relative days, quotes doubled, the refresh reference last), and its input is the
 * formula's, so Insert formula and a run in the sidebar ask for the same rows.
 */
import { ValidationError } from '../errors';
import type { ExplainInput } from '../explain/explain-request';
import { type BuilderRequest, toReportInput } from './builder-request';
import { requestedComparison } from './compare-request';
import { isRollingDayPreset, ROLLING_PRESET_DAYS } from './date-presets';
import { quoteFormulaText } from './formula-text';

export const EXPLAIN_FORMULA_NAME = 'ENGAGE_EXPLAIN';

/** What to explain: one metric, split by one to four breakdowns. */
export interface ExplainChoice {
  metric: string;
  breakdowns: string[];
}

/** The request's `explain`, checked; undefined when it asks for none. */
export function requestedExplanation(request: unknown): ExplainChoice | undefined {
  const r = (request && typeof request === 'object' ? request : {}) as Record<string, unknown>;
  if (r.explain === undefined || r.explain === null) return undefined;
  const e = (typeof r.explain === 'object' ? r.explain : {}) as Record<string, unknown>;
  const breakdowns = e.breakdowns;
  if (typeof e.metric !== 'string' || !Array.isArray(breakdowns) || !breakdowns.every((b) => typeof b === 'string'))
    throw ValidationError.single(
      'explain',
      'must name a metric and a list of breakdowns, such as {metric: "revenue", breakdowns: ["widget"]}',
    );
  if (requestedComparison(request) === undefined)
    throw ValidationError.single('explain', 'explains a comparison: choose what to compare with first');
  return { metric: e.metric, breakdowns: breakdowns as string[] };
}

/** ENGAGE_EXPLAIN's input for the request: its report's publisher, days and filter, its compareWith. */
export function explainInputOf(request: BuilderRequest, choice: ExplainChoice): ExplainInput {
  const { input } = toReportInput(request);
  // The formula takes no currency or decimals: its figures are Engage's defaults, in the sidebar too.
  const { metrics: _m, sort: _s, order: _o, breakdowns: _b, currencyCode: _c, decDigits: _d, ...report } = input;
  return { report: { ...report, breakdowns: choice.breakdowns }, compareWith: request.compareWith, metric: choice.metric };
}

/**
 * `=ENGAGE_EXPLAIN("id","7daysAgo","yesterday","previous","revenue","widget","","",EngageRefresh)`:
 * the request's publisher, days (a rolling preset's relative days), compareWith and filter, topN its
 * default. `refreshReference` is a range name or A1 reference; left out, so are trailing empty arguments.
 */
export function explainFormula(request: BuilderRequest, choice: ExplainChoice, refreshReference?: string): string {
  const rolling = isRollingDayPreset(request.preset) ? ROLLING_PRESET_DAYS[request.preset] : undefined;
  const args = [
    request.entityId,
    rolling ? rolling.fromDate : request.fromDate,
    rolling ? rolling.toDate : request.toDate,
    request.compareWith ?? '',
    choice.metric,
    choice.breakdowns.join(','),
  ].map(quoteFormulaText);
  args.push('""', quoteFormulaText(request.filter ?? ''));
  if (refreshReference) args.push(refreshReference);
  else while (args[args.length - 1] === '""') args.pop();
  return `=${EXPLAIN_FORMULA_NAME}(${args.join(',')})`;
}
