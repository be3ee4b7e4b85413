/**
 * The ENGAGE_* formulas equivalent to a report or a comparison built in the sidebar, and those of the
 * dashboard, written the way a user would type them: text arguments in double quotes (quotes doubled),
 * skipped optional arguments as "" so the positions stay right, and the refresh argument last. With the
 * named refresh cell (EngageRefresh, changed by "Refresh all", scheduled runs and the first open of a
 * new day) as refresh argument, the formula fetches again whenever that cell changes, and its relative
 * days ("7daysAgo", "yesterday") move to the new day.
 */
import type { BuilderRequest } from './builder-request';
import { compareDefaultMetrics } from '../api/requests/compare-periods';
import { effectiveBreakdowns } from '../api/requests/report-fields';
import { ALL_METRICS, availableMetrics, defaultMetrics } from '../api/requests/report-metrics';
import { REPORT_SPECS, type ReportKind } from '../spec';
import { isRollingDayPreset, ROLLING_PRESET_DAYS } from './date-presets';

export const FORMULA_NAMES = { main: 'ENGAGE_REPORT', externalId: 'ENGAGE_EXTERNALID_REPORT', realtime: 'ENGAGE_REALTIME_REPORT' } as const;
export const COMPARE_FORMULA_NAME = 'ENGAGE_COMPARE';

/** A Sheets string literal. */
export function quoteFormulaText(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The metrics argument: "" for the default set (or none chosen), "all" for every metric, else the
 * names. A comparison's default set is its own (compareDefaultMetrics).
 */
export function metricsArgument(
  kind: ReportKind,
  breakdowns: readonly string[],
  metrics: readonly string[] | undefined,
  comparison = false,
): string {
  const effective = effectiveBreakdowns(kind, breakdowns);
  const defaults = comparison ? compareDefaultMetrics(effective) : defaultMetrics(kind, effective);
  if (!metrics || sameList(metrics, defaults)) return '';
  if (sameList(metrics, availableMetrics(kind, effective))) return ALL_METRICS;
  return metrics.join(',');
}

/**
 * `=ENGAGE_REPORT("id","2026-11-01","2026-11-07","day,country","revenue,rpmByPvs","revenue:gt:1","revenue desc","","EUR",2,EngageRefresh)`,
 * or with a rolling preset `=ENGAGE_REPORT("id","7daysAgo","yesterday",...)`: relative days, never TODAY().
 * With `comparison`, the request's ENGAGE_COMPARE (general report only), its compareWith after toDate:
 * `=ENGAGE_COMPARE("id","2026-11-01","2026-11-07","previous","day","revenue,rpmByPvs","","","","EUR",2,EngageRefresh)`.
 * `refreshReference` is a range name or A1 reference (not quoted); omitted when undefined, and then
 * so are the trailing empty arguments.
 */
export function reportFormula(request: BuilderRequest, refreshReference?: string, comparison = false): string {
  const kind: ReportKind = comparison ? 'main' : request.kind;
  const spec = REPORT_SPECS[kind];
  const text = (value: string | undefined) => quoteFormulaText(value ?? '');
  const number = (value: number | undefined) => (value === undefined ? '""' : String(value));
  const sort = request.sort ? (request.order ? `${request.sort} ${request.order}` : request.sort) : '';
  // Signature order: entityId, fromDate, toDate, [compareWith], breakdowns, metrics, filter, sort, maxRows, [currencyCode], [decDigits], refresh.
  const breakdowns = request.breakdowns ?? [];
  // A rolling preset stays rolling: its bounds are relative days, not the days of today (a comparison
  // with "previous" then follows it day by day). The refresh cell moves them to each new day.
  const rolling = kind === 'main' && isRollingDayPreset(request.preset) ? ROLLING_PRESET_DAYS[request.preset] : undefined;
  const args: string[] = [
    text(request.entityId),
    text(rolling ? rolling.fromDate : request.fromDate),
    text(rolling ? rolling.toDate : request.toDate),
    ...(comparison ? [text(request.compareWith)] : []),
    text(breakdowns.join(',')),
    text(metricsArgument(kind, breakdowns, request.metrics, comparison)),
    text(request.filter),
    text(sort),
    number(request.maxRows),
  ];
  if (spec.acceptsCurrency) args.push(text(request.currencyCode));
  if (spec.acceptsDecDigits) args.push(number(request.decDigits));
  if (refreshReference) args.push(refreshReference);
  else while (args[args.length - 1] === '""') args.pop(); // trailing empty arguments say nothing
  return `=${comparison ? COMPARE_FORMULA_NAME : FORMULA_NAMES[kind]}(${args.join(',')})`;
}
