/**
 * The ENGAGE_* formula equivalent to a report built in the sidebar, written the way a user would
 * type it: text arguments in double quotes (quotes doubled), skipped optional arguments as "" so
 * the positions stay right, and the refresh argument last. With the named refresh cell
 * (EngageRefresh, changed by "Refresh all" and scheduled runs) as refresh argument, the formula
 * fetches again whenever that cell changes.
 */
import type { BuilderRequest } from './builder-request';
import { effectiveBreakdowns } from '../api/report-fields';
import { ALL_METRICS, availableMetrics, defaultMetrics } from '../api/report-metrics';
import { REPORT_SPECS, type ReportKind } from '../spec';
import { isRollingDayPreset, ROLLING_PRESET_FORMULAS } from './date-presets';

export const FORMULA_NAMES = { main: 'ENGAGE_REPORT', externalId: 'ENGAGE_EXTERNALID_REPORT', realtime: 'ENGAGE_REALTIME_REPORT' } as const;

/** A Sheets string literal. */
export function quoteFormulaText(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The metrics argument: "" for the default set (or none chosen), "all" for every metric, else the names. */
export function metricsArgument(kind: ReportKind, breakdowns: readonly string[], metrics: readonly string[] | undefined): string {
  const effective = effectiveBreakdowns(kind, breakdowns);
  if (!metrics || sameList(metrics, defaultMetrics(kind, effective))) return '';
  if (sameList(metrics, availableMetrics(kind, effective))) return ALL_METRICS;
  return metrics.join(',');
}

/**
 * `=ENGAGE_REPORT("id","2026-11-01","2026-11-07","day,country","revenue,rpmByPvs","revenue:gt:1","revenue desc","","EUR",2,EngageRefresh)`,
 * or with a rolling preset `=ENGAGE_REPORT("id",TODAY()-7,TODAY()-1,...)`.
 * `refreshReference` is a range name or A1 reference (not quoted); omitted when undefined.
 */
export function reportFormula(request: BuilderRequest, refreshReference?: string): string {
  const spec = REPORT_SPECS[request.kind];
  const text = (value: string | undefined) => quoteFormulaText(value ?? '');
  const sort = request.sort ? (request.order ? `${request.sort} ${request.order}` : request.sort) : '';
  // Signature order: entityId, fromDate, toDate, breakdowns, metrics, filter, sort, maxRows, [currencyCode], [decDigits], refresh.
  const breakdowns = request.breakdowns ?? [];
  // A rolling preset stays rolling: its bounds are Sheets date expressions, not the days of today.
  const rolling = request.kind === 'main' && isRollingDayPreset(request.preset) ? ROLLING_PRESET_FORMULAS[request.preset] : undefined;
  const args: string[] = [
    text(request.entityId),
    rolling ? rolling.fromDate : text(request.fromDate),
    rolling ? rolling.toDate : text(request.toDate),
    text(breakdowns.join(',')),
    text(metricsArgument(request.kind, breakdowns, request.metrics)),
    text(request.filter),
    text(sort),
    request.maxRows === undefined ? '""' : String(request.maxRows),
  ];
  if (spec.acceptsCurrency) args.push(text(request.currencyCode));
  if (spec.acceptsDecDigits) args.push(request.decDigits === undefined ? '""' : String(request.decDigits));
  if (refreshReference) args.push(refreshReference);
  else while (args[args.length - 1] === '""') args.pop(); // trailing empty arguments say nothing
  return `=${FORMULA_NAMES[request.kind]}(${args.join(',')})`;
}
