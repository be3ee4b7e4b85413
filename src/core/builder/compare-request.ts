/**
 * A comparison built in the sidebar: the compareWith of a builder request (general report only), and
 * the ENGAGE_COMPARE formula that asks for the same rows (formula-text.ts writes it, as it writes the
 * other report formulas).
 */
import { COMPARE_WITH } from '../api/requests/compare-periods';
import { ValidationError } from '../errors';
import type { BuilderRequest } from './builder-request';
import { reportFormula } from './formula-text';

/**
 * `=ENGAGE_COMPARE("id","2026-11-01","2026-11-07","previous","day","revenue,rpmByPvs","","","","EUR",2,EngageRefresh)`.
 * `refreshReference` is a range name or A1 reference (not quoted); omitted when undefined.
 */
export function compareFormula(request: BuilderRequest, refreshReference?: string): string {
  return reportFormula(request, refreshReference, true);
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
    throw ValidationError.single(COMPARE_WITH, 'must be text such as "previous", "year", "yearWeekday" or "2026-10-01..2026-10-07"');
  if (r.kind !== 'main')
    throw ValidationError.single(COMPARE_WITH, 'compares the general report only: the hourly reports cover one day at most');
  return value;
}
