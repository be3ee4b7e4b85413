/**
 * Scheduled refresh: the server functions of the sidebar's Schedules panel and the hourly trigger's
 * handler. Thin shells over core ScheduleService: parse, call, format; a failure reaches the sidebar
 * as one sentence. The trigger handler never throws: each saved report's status records what
 * happened, because a trigger sends no error email and nobody watches it.
 */
import {
  EXECUTION_LIMIT_MS,
  REFRESH_END_MARGIN_MS,
  type RefreshSummary,
  refreshOutcomeText,
  type ScheduleList,
  userMessage,
} from '../core';
import { touchRefreshCell } from '../gas/refresh-cell';
import { asExecution } from '../gas/execution';
import { createScheduleService } from '../gas/schedule-services';
import { withUserMessage } from './user-errors';

/**
 * Makes ENGAGE_* formulas that reference a refresh cell fetch again, a wave of at most 25 at a time,
 * until `deadlineAtMs` (without one, 25 s); the saved reports are already written.
 */
function refreshFormulas(deadlineAtMs?: number): void {
  try {
    const outcome = touchRefreshCell(SpreadsheetApp.getActiveSpreadsheet(), deadlineAtMs === undefined ? {} : { deadlineAtMs });
    if (outcome.formulas > 0) console.log(`Engage formulas: ${refreshOutcomeText(outcome)}`);
  } catch (error) {
    console.error(`Engage could not change the refresh cell: ${userMessage(error)}`);
  }
}

/**
 * Saves a report built in the sidebar with its target cell and schedule, and installs your hourly
 * trigger with your first schedule. The definition holds no secret; it runs with your sign-in.
 * @param {Object} report {name, kind, entityId, period, breakdowns?, metrics?, filter?, sort?, currencyCode?, decDigits?,
 *   pageSize?, maxRows?, target: {sheetName, cell}, schedule, incremental?, totals?, paused?}.
 * @return {Object} The saved reports of this spreadsheet.
 */
export function saveSchedule(report: unknown): ScheduleList {
  return withUserMessage(() => createScheduleService().save(report));
}

/**
 * The saved reports of this spreadsheet with their status: last success, last attempt, rows,
 * duration, next run, last error with trace ID, and whether the owner must sign in again.
 * @return {Object} {reports, triggerInstalled, timeZone, triggerRuntime}: triggerRuntime is your trigger time of the current 24 hours against the daily quota.
 */
export function listSchedules(): ScheduleList {
  return withUserMessage(() => createScheduleService().list());
}

/**
 * Replaces the definition of one of your saved reports.
 * @param {string} id The saved report's id.
 * @param {Object} report The new definition, as for saveSchedule.
 * @return {Object} The saved reports of this spreadsheet.
 */
export function updateSchedule(id: unknown, report: unknown): ScheduleList {
  return withUserMessage(() => createScheduleService().update(id, report));
}

/**
 * Refreshes one of your saved reports now, due or not. Its data is replaced only once every page
 * has arrived; a failure leaves it and is shown in the status.
 * @param {string} id The saved report's id.
 * @return {Object} {summary, list}.
 */
export function runScheduleNow(id: unknown): { summary: RefreshSummary; list: ScheduleList } {
  return withUserMessage(() => {
    const outcome = createScheduleService().runNow(id);
    if (outcome.summary.refreshed.length > 0) refreshFormulas();
    return outcome;
  });
}

/**
 * Pauses or resumes one of your saved reports; the hourly trigger goes with your last active one.
 * @param {string} id The saved report's id.
 * @param {boolean} paused True to pause, false to resume.
 * @return {Object} The saved reports of this spreadsheet.
 */
export function pauseSchedule(id: unknown, paused: unknown): ScheduleList {
  return withUserMessage(() => createScheduleService().pause(id, paused));
}

/**
 * Deletes one of your saved reports (its data stays in the sheet); deleting your last one removes
 * your hourly trigger.
 * @param {string} id The saved report's id.
 * @return {Object} The saved reports of this spreadsheet.
 */
export function deleteSchedule(id: unknown): ScheduleList {
  return withUserMessage(() => createScheduleService().remove(id));
}

/**
 * The hourly trigger: refreshes your saved reports that are due, within the shared rate budget and
 * well inside the 6-minute limit, then changes the refresh cell so ENGAGE_* formulas fetch again.
 * @param {Object} e The time-driven trigger event.
 */
export function onScheduledRefresh(e?: unknown): void {
  void e;
  const startedAtMs = Date.now();
  asExecution(() => scheduledRefresh(startedAtMs));
}

function scheduledRefresh(startedAtMs: number): void {
  try {
    const summary = createScheduleService().runDue(startedAtMs);
    // The formulas take what the saved reports left of the run's 6 minutes (no more than 25 s when the day's trigger runtime is nearly spent).
    const formulasUntilMs =
      summary.stoppedBecause === 'trigger-runtime' ? undefined : startedAtMs + EXECUTION_LIMIT_MS - REFRESH_END_MARGIN_MS;
    if (summary.refreshed.length > 0) refreshFormulas(formulasUntilMs);
    const why = { 'fetch-quota': ' (near the daily URL Fetch quota)', 'trigger-runtime': ' (the daily trigger runtime is nearly spent)' };
    const stopped = summary.stoppedBecause ? why[summary.stoppedBecause] : '';
    const signIn = summary.needsSignIn ? '; the owner must sign in again' : '';
    const counts = `${summary.refreshed.length} refreshed, ${summary.failed.length} failed, ${summary.deferred.length} left for the next run`;
    console.log(`Engage scheduled refresh: ${counts}${stopped}, ${summary.requests} requests${signIn}.`);
  } catch (error) {
    console.error(`Engage scheduled refresh failed: ${userMessage(error)}`);
  }
}
