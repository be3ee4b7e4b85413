/**
 * The scheduled refresh of a saved comparison: the saved report's period at this refresh, the earlier
 * period its compareWith names ("previous" and "year" move with the period; a custom one stays), both
 * fetched together and whole, and the comparison's block (compare-table.ts) with the report's row
 * limit, as Run to sheet and ENGAGE_COMPARE write it. A rate budget that runs
 * out fails the whole refresh as the runner expects (a local RateLimitError), so the sheet keeps its
 * previous data and the report waits for the next run.
 */
import { buildComparison } from '../../api/requests/compare-periods';
import type { SheetBlock } from '../../ports';
import { compareTableOptions, compareToSheetBlock } from '../../sheets/compare-table';
import type { RefreshSummary, ReportSource } from './refresh-source';
import { reportInputOf, type SavedReport } from '../saved/saved-reports';

export interface ComparisonBlockOptions {
  nowMs: number;
  deadlineAtMs: number;
  timeZone: string;
  totals: boolean;
  currencyCode?: string;
  decDigits?: number;
}

/** The block of a saved comparison and the HTTP requests its two periods took, also added to the run's summary. */
export function comparisonBlock(
  report: SavedReport,
  source: ReportSource,
  options: ComparisonBlockOptions,
  summary: RefreshSummary,
): { block: SheetBlock; requests: number } {
  // compareWith was checked when the report was saved: a custom period is text, read the same in any zone.
  const comparison = buildComparison(reportInputOf(report, options.nowMs), report.compareWith, 'UTC', (input) =>
    source.buildQuery('main', input),
  );
  const { results, requests } = source.runTogether([comparison.current, comparison.earlier], { deadlineAtMs: options.deadlineAtMs });
  summary.requests += requests;
  const block = compareToSheetBlock(results[0]!, results[1]!, {
    ...compareTableOptions(comparison, options.timeZone, report.maxRows),
    totals: options.totals,
    ...(options.currencyCode ? { currencyCode: options.currencyCode } : {}),
    ...(options.decDigits !== undefined ? { decDigits: options.decDigits } : {}),
  });
  return { block, requests };
}
