/**
 * Every breakdown choice a user can make, for the tests that must hold for all of them: for the
 * general report each subset of up to 4 breakdowns that avoids the forbidden pairs (the empty one is
 * the default, by day), for the hourly reports each subset of their three breakdowns.
 */
import { MAIN_FORBIDDEN_BREAKDOWN_PAIRS, MAIN_MAX_BREAKDOWNS, REPORT_SPECS, type ReportKind } from '../../src/core/spec';

function subsets<T>(items: readonly T[], maxSize: number): T[][] {
  const out: T[][] = [[]];
  for (const item of items) {
    for (const subset of [...out]) if (subset.length < maxSize) out.push([...subset, item]);
  }
  return out;
}

export function allowedBreakdownCombinations(kind: ReportKind): string[][] {
  const spec = REPORT_SPECS[kind];
  if (kind !== 'main') return subsets(spec.breakdowns, spec.breakdowns.length);
  return subsets(spec.breakdowns, MAIN_MAX_BREAKDOWNS).filter(
    (combo) => !MAIN_FORBIDDEN_BREAKDOWN_PAIRS.some(([a, b]) => combo.includes(a) && combo.includes(b)),
  );
}
