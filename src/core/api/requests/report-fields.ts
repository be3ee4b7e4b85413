/**
 * Which field names a report knows, for `sort` and for filter conditions: its metrics (with the
 * general report's availability rules: page-view metrics not on the widget breakdown, request metrics
 * only on it, opt-in rates not on doc), its breakdowns, and fields of entity breakdowns written
 * `country.name`. Entity fields are not listed by the spec, so any `<entity>.<name>` is accepted as
 * long as the entity is one of the requested breakdowns. Also the general report's rules on combining
 * breakdowns, which both the request check and the sidebar's breakdown choices apply.
 */
import {
  ENTITY_BREAKDOWNS,
  MAIN_FORBIDDEN_BREAKDOWN_PAIRS,
  MAIN_MAX_BREAKDOWNS,
  MAIN_METRICS_NOT_ON_DOC,
  MAIN_METRICS_NOT_ON_WIDGET,
  MAIN_METRICS_ONLY_ON_WIDGET,
  REPORT_SPECS,
  type ReportKind,
} from '../../spec';
import { closest, unknownNameHint } from '../../util/names';

/**
 * The breakdowns a report is actually broken down by, in column order, for known names: the general
 * report is by day when none is given; the hourly reports always have externalId, first unless the
 * realtime report's list places it.
 */
export function effectiveBreakdowns(kind: ReportKind, breakdowns: readonly string[]): string[] {
  if (kind === 'main') return breakdowns.length === 0 ? [...REPORT_SPECS.main.defaultBreakdowns] : [...breakdowns];
  if (kind === 'externalId') return ['externalId', ...breakdowns.filter((b) => b !== 'externalId')];
  return breakdowns.includes('externalId') ? [...breakdowns] : ['externalId', ...breakdowns];
}

/** A combination rule that a list of breakdowns breaks. */
export type BreakdownCombinationProblem = { rule: 'count'; count: number; max: number } | { rule: 'pair'; pair: readonly [string, string] };

/**
 * The general report's rules on combining known breakdowns: at most MAIN_MAX_BREAKDOWNS, and none
 * of the forbidden pairs; the hourly reports have no such rule. The count comes first, then each pair
 * in the spec's order.
 */
export function breakdownCombinationProblems(kind: ReportKind, breakdowns: readonly string[]): BreakdownCombinationProblem[] {
  if (kind !== 'main') return [];
  const problems: BreakdownCombinationProblem[] = [];
  if (breakdowns.length > MAIN_MAX_BREAKDOWNS) problems.push({ rule: 'count', count: breakdowns.length, max: MAIN_MAX_BREAKDOWNS });
  for (const pair of MAIN_FORBIDDEN_BREAKDOWN_PAIRS) {
    if (breakdowns.includes(pair[0]) && breakdowns.includes(pair[1])) problems.push({ rule: 'pair', pair });
  }
  return problems;
}

/** Why `field` cannot be used with this report and these breakdowns, or null when it can. */
export function fieldProblem(kind: ReportKind, field: string, breakdowns: readonly string[]): string | null {
  const spec = REPORT_SPECS[kind];
  const dot = field.indexOf('.');
  if (dot >= 0) {
    const entity = field.slice(0, dot);
    if (!ENTITY_BREAKDOWNS.has(entity) || !spec.breakdowns.includes(entity)) {
      const near = closest(
        entity,
        spec.breakdowns.filter((b) => ENTITY_BREAKDOWNS.has(b)),
      );
      if (near) return `is not a field of the ${spec.title} (did you mean '${near}${field.slice(dot)}'?)`;
      return `is not a field of the ${spec.title} ('${entity}' is not one of its entity breakdowns)`;
    }
    if (!breakdowns.includes(entity)) return `needs the '${entity}' breakdown`;
    return null;
  }
  if (spec.metrics.includes(field)) return metricAvailabilityProblem(kind, field, breakdowns);
  if (spec.breakdowns.includes(field)) {
    return breakdowns.includes(field) ? null : `needs the '${field}' breakdown`;
  }
  return `is not a metric or field of the ${spec.title}${unknownNameHint(field, [...spec.metrics, ...spec.breakdowns], false)}`;
}

/**
 * Why a metric of the report is missing with these breakdowns (the general report's Availability
 * column), or null when the API sends it.
 */
export function metricAvailabilityProblem(kind: ReportKind, metric: string, breakdowns: readonly string[]): string | null {
  if (kind !== 'main') return null;
  if (MAIN_METRICS_NOT_ON_WIDGET.has(metric) && breakdowns.includes('widget')) return `is not available with the 'widget' breakdown`;
  if (MAIN_METRICS_ONLY_ON_WIDGET.has(metric) && !breakdowns.includes('widget')) return `is only available with the 'widget' breakdown`;
  if (MAIN_METRICS_NOT_ON_DOC.has(metric) && breakdowns.includes('doc')) return `is not available with the 'doc' breakdown`;
  return null;
}
