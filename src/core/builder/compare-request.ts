/**
 * A comparison built in the sidebar: the compareWith of a builder request (general report only), and
 * the ENGAGE_COMPARE formula that asks for the same rows, written as a user would type it
 * (formula-text.ts writes the other report formulas the same way): the report's arguments with
 * compareWith after toDate, skipped optional arguments as "" so the positions stay right, and the
 * refresh argument last. The metrics argument is left empty for the comparison's own default set.
 */
import { COMPARE_WITH, compareDefaultMetrics } from '../api/compare-periods';
import { effectiveBreakdowns } from '../api/report-fields';
import { ALL_METRICS, availableMetrics } from '../api/report-metrics';
import { ValidationError } from '../errors';
import type { BuilderRequest } from './builder-request';
import { isRollingDayPreset, ROLLING_PRESET_FORMULAS } from './date-presets';
import { quoteFormulaText } from './formula-text';

export const COMPARE_FORMULA_NAME = 'ENGAGE_COMPARE';

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The metrics argument of ENGAGE_COMPARE: "" for its default set, "all" for every metric, else the names. */
export function compareMetricsArgument(breakdowns: readonly string[], metrics: readonly string[] | undefined): string {
  const effective = effectiveBreakdowns('main', breakdowns);
  if (!metrics || sameList(metrics, compareDefaultMetrics(effective))) return '';
  if (sameList(metrics, availableMetrics('main', effective))) return ALL_METRICS;
  return metrics.join(',');
}

/**
 * `=ENGAGE_COMPARE("id","2026-11-01","2026-11-07","previous","day","revenue,rpmByPvs","","","","EUR",2,EngageRefresh)`.
 * `refreshReference` is a range name or A1 reference (not quoted); omitted when undefined.
 */
export function compareFormula(request: BuilderRequest, refreshReference?: string): string {
  const text = (value: string | undefined) => quoteFormulaText(value ?? '');
  const sort = request.sort ? (request.order ? `${request.sort} ${request.order}` : request.sort) : '';
  const breakdowns = request.breakdowns ?? [];
  // Signature order: entityId, fromDate, toDate, compareWith, breakdowns, metrics, filter, sort, maxRows, currencyCode, decDigits, refresh.
  // A rolling preset stays rolling, as in reportFormula: "previous" then follows it day by day.
  const rolling = isRollingDayPreset(request.preset) ? ROLLING_PRESET_FORMULAS[request.preset] : undefined;
  const args: string[] = [
    text(request.entityId),
    rolling ? rolling.fromDate : text(request.fromDate),
    rolling ? rolling.toDate : text(request.toDate),
    text(request.compareWith),
    text(breakdowns.join(',')),
    text(compareMetricsArgument(breakdowns, request.metrics)),
    text(request.filter),
    text(sort),
    request.maxRows === undefined ? '""' : String(request.maxRows),
    text(request.currencyCode),
    request.decDigits === undefined ? '""' : String(request.decDigits),
  ];
  if (refreshReference) args.push(refreshReference);
  else while (args[args.length - 1] === '""') args.pop(); // trailing empty arguments say nothing
  return `=${COMPARE_FORMULA_NAME}(${args.join(',')})`;
}

/**
 * The comparison a builder request asks for, as text for readCompareWith; undefined when it asks for
 * none. Refused when it is not text, or for the hourly reports, which have no earlier period to compare.
 */
export function requestedComparison(request: unknown): string | undefined {
  const r = (request && typeof request === 'object' ? request : {}) as Record<string, unknown>;
  const value = r.compareWith;
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string')
    throw ValidationError.single(COMPARE_WITH, 'must be text such as "previous", "year" or "2026-10-01..2026-10-07"');
  if (r.kind !== 'main')
    throw ValidationError.single(COMPARE_WITH, 'compares the general report only: the hourly reports cover one day at most');
  return value;
}
