/**
 * Comparisons in the add-on's use cases (the ENGAGE_COMPARE formula, "Run to sheet" and "Insert
 * formula" of a comparison built in the sidebar): the two requests validated by the session, which
 * also checks each address fits what URL Fetch sends. The table options that follow from them are
 * compare-table.ts's compareTableOptions, which a saved comparison's refresh takes too.
 */
import { buildComparison, type Comparison } from '../../api/requests/compare-periods';
import type { ReportInput } from '../../api/requests/report-request';
import { toReportInput } from '../../builder/builder-request';
import { requestedComparison } from '../../builder/compare-request';
import type { EngageSession } from './session';

/** A comparison of the general report, checked before anything is sent. */
export function checkedComparison(session: EngageSession, timeZone: string, input: ReportInput, compareWith: unknown): Comparison {
  return buildComparison(input, compareWith, timeZone, (i) => session.buildQuery('main', i));
}

/** The comparison a builder request asks for, checked; undefined when it asks for none. */
export function builderComparison(session: EngageSession, timeZone: string, request: unknown): Comparison | undefined {
  const { input } = toReportInput(request);
  const compareWith = requestedComparison(request);
  return compareWith === undefined ? undefined : checkedComparison(session, timeZone, input, compareWith);
}
