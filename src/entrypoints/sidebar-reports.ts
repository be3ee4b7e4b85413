/**
 * Server functions of the sidebar's report builder: the publisher picker, "Run to sheet" and its
 * progress, "Insert formula", "Explain the change" and "Add chart". Thin: read the arguments, call the core
 * (SidebarReports) or the spreadsheet adapters, and turn a failure into one sentence.
 */
import {
  builderMessage,
  type ComparisonAtCell,
  comparisonAtCell,
  checkRunId,
  FETCH_PERMISSION,
  requirePermissions,
  type Publisher,
  type ReportAtCell,
  type RunNeedsAnswer,
  type RunProgress,
  type RunToSheetSummary,
  runExplanationToSheet as writeExplanation,
} from '../core';
import {
  addRevenueChart,
  formulaCell,
  placementOf,
  resolvePlacement,
  sheetContext,
  writeFormulaAtCell,
} from '../gas/adapters/sheets/report-targets';
import { ensureRefreshGroup, REFRESH_RANGE_NAME, refreshCellReference } from '../gas/adapters/sheets/refresh-cell';
import { createSidebarReports, sidebarReportsDeps } from '../gas/wiring/sidebar-report-services';
import { scriptConsent } from '../gas/adapters/consent';
import { withUserMessage } from './user-errors';
import { createAddon } from '../gas/wiring/addon-services';

/**
 * The publishers you may report on, for the sidebar's picker.
 * @return {Object[]} Publishers as {id, name}, by name.
 */
export function listPublishers(): Publisher[] {
  return withUserMessage(() => {
    requirePermissions(scriptConsent, [FETCH_PERMISSION], 'list your publishers');
    return createSidebarReports().listPublishers();
  });
}

/**
 * The sheets of this spreadsheet and the active cell, for the sidebar's target picker, the report
 * whose block holds the active cell (written by Run to sheet or by a saved report), to reopen it, and
 * the comparison the active cell's ENGAGE_COMPARE formula asks for, to explain its change.
 * @return {Object} {sheets, activeCell, reportHere, comparisonHere}: each null when the cell has none.
 */
export function getSheetContext(): {
  sheets: string[];
  activeCell: string;
  reportHere: ReportAtCell | null;
  comparisonHere: ComparisonAtCell | null;
} {
  return withUserMessage(() => {
    const { at, comparison, ...context } = sheetContext(SpreadsheetApp.getActiveSpreadsheet());
    return {
      ...context,
      reportHere: at ? createSidebarReports().reportAt(at) : null,
      comparisonHere: at && comparison ? (comparisonAtCell(comparison.formula, at, comparison.columns) ?? null) : null,
    };
  });
}

/**
 * Runs a report built in the sidebar and writes header and rows in one batch, once every page has
 * arrived. Progress can be read meanwhile with getRunProgress(runId). Cells that hold something other
 * than this report's earlier block at the same place are not written over unasked: the run writes
 * nothing and returns {question}, and the sidebar runs it again with the user's choice.
 * @param {Object} request The report (see BuilderRequest).
 * @param {Object} target {type: 'newSheet'|'existingSheet'|'activeCell', sheetName, cell}.
 * @param {string} runId An id the sidebar chose for this run.
 * @param {Object=} options {choice: 'replace'|'append'|'newSheet', editing: true when the report was reopened from its block}.
 * @return {Object} What was written, with a preview of the first rows; or {question} when nothing was.
 */
export function runReportToSheet(request: unknown, target: unknown, runId: unknown, options?: unknown): RunToSheetSummary | RunNeedsAnswer {
  return withUserMessage(() => {
    const r = createSidebarReports();
    // The report and the run id are checked before the target, so a bad report is what the user hears of first.
    r.formula(request);
    checkRunId(runId);
    requirePermissions(scriptConsent, [FETCH_PERMISSION], 'run this report');
    return r.runToSheet(request, resolvePlacement(SpreadsheetApp.getActiveSpreadsheet(), target), runId, options);
  }, builderMessage);
}

/**
 * The progress of a run started with runReportToSheet.
 * @param {string} runId The run's id.
 * @return {Object} {state, pagesFetched, pagesPlanned, message}, or null before the run starts.
 */
export function getRunProgress(runId: unknown): RunProgress | null {
  return withUserMessage(() => createSidebarReports().progress(runId));
}

/**
 * Puts the ENGAGE_* formula equivalent to the report into the active cell (or the cell `options.at`
 * names: ENGAGE_EXPLAIN beside the comparison of the active cell). It takes a named refresh
 * cell with room as its refresh argument (each serves at most 25 formulas, so Refresh all recalculates
 * them a wave at a time), created when there is none yet, so Refresh all fetches it again and a rolling
 * period ("7daysAgo" to "yesterday") moves to each new day. The sheet first gets the columns the result
 * needs, as a formula cannot add them. Cells the result would fill that hold something are not written
 * over unasked: nothing is written, {question} says where the result goes, and the sidebar calls again
 * with the user's answer ({choice: 'replace'} empties those cells first).
 * @param {Object} request The report (see BuilderRequest).
 * @param {Object=} options {choice: 'replace'}, the answer to the question; {at: {sheetName, cell}}, the cell to write.
 * @return {Object} {formula, cell, columnsAdded}; or {question} when nothing was written.
 */
export function insertFormula(
  request: unknown,
  options?: unknown,
): { formula: string; cell: string; columnsAdded: number } | RunNeedsAnswer {
  return withUserMessage(() => {
    const ss = SpreadsheetApp.getActiveSpreadsheet();
    const refreshCell = refreshCellReference(ss) ?? REFRESH_RANGE_NAME;
    const reports = createSidebarReports();
    // The request is checked first: a refused one changes nothing, not even the refresh cells.
    const { formula, columns } = reports.formula(request, refreshCell);
    // `at` of an options object only: the text 'replace' has a method of that name, refused below as options.
    const at = typeof options === 'object' && options !== null ? (options as { at?: unknown }).at : undefined;
    const cell = formulaCell(ss, at);
    const { question, clear } = reports.formulaPlacement(placementOf(cell), columns, options);
    if (question) return { question };
    // The refresh cell may be a new one (the first, or one with room): made once the formula is known good.
    return { formula, ...writeFormulaAtCell(ss, cell, formula, columns, () => ensureRefreshGroup(ss, refreshCell), clear) };
  }, builderMessage);
}

/**
 * Adds a native chart of revenue and RPM by day beside a block written by runReportToSheet.
 * @param {Object} block The block returned by runReportToSheet.
 * @return {Object} {chartTitle}.
 */
export function addChart(block: unknown): { chartTitle: string } {
  return withUserMessage(() => addRevenueChart(SpreadsheetApp.getActiveSpreadsheet(), block), builderMessage);
}

/**
 * "Explain the change" of a comparison: ENGAGE_EXPLAIN's table for the request's `explain` (a metric
 * and what to split it by), fetched, cached and rate-limited as the formula is, for the sidebar's list.
 * @param {Object} request The comparison (see BuilderRequest) with explain: {metric, breakdowns}.
 * @return {Object} {values}: the header, the top keys, Other and Total, as plain cells.
 */
export function explainChange(request: unknown): { values: Array<Array<string | number | boolean>> } {
  return withUserMessage(() => {
    requirePermissions(scriptConsent, [FETCH_PERMISSION], 'explain the change');
    const { input, deadlineAtMs } = createSidebarReports().explainInput(request);
    const values = createAddon().formulaExplain(input, { deadlineAtMs });
    return { values: values.map((row) => row.map((c) => (typeof c === 'number' || typeof c === 'boolean' ? c : String(c ?? '')))) };
  }, builderMessage);
}

/**
 * "Explain the change" run to a sheet: ENGAGE_EXPLAIN's table for the request's `explain`, fetched as
 * the formula fetches it, written as Run to sheet writes a report: a taken sheet name or cells that
 * hold something are not written over unasked (the run writes nothing and returns {question}; the
 * sidebar runs it again with the user's choice).
 * @param {Object} request The comparison (see BuilderRequest) with explain: {metric, breakdowns}.
 * @param {Object} target {type: 'newSheet'|'existingSheet'|'activeCell', sheetName, cell}.
 * @param {Object=} options {choice: 'replace'|'append'|'newSheet'}.
 * @return {Object} What was written, with its first rows; or {question} when nothing was.
 */
export function runExplanationToSheet(request: unknown, target: unknown, options?: unknown): RunToSheetSummary | RunNeedsAnswer {
  return withUserMessage(() => {
    // The explanation is checked before the target, so a bad one is what the user hears of first.
    const { input, deadlineAtMs } = createSidebarReports().explainInput(request);
    requirePermissions(scriptConsent, [FETCH_PERMISSION], 'explain the change');
    const placement = resolvePlacement(SpreadsheetApp.getActiveSpreadsheet(), target);
    return writeExplanation(sidebarReportsDeps(), request, placement, () => createAddon().formulaExplain(input, { deadlineAtMs }), options);
  }, builderMessage);
}
