/**
 * Scheduled refresh: the server functions of the sidebar's Schedules panel and the hourly trigger's
 * handler. Thin shells over core ScheduleService: parse, call, format; a failure reaches the sidebar
 * as one sentence. The trigger handler never throws: each saved report's status, and the user's
 * registry for a spreadsheet the run could not reach, record what happened, because a trigger sends no
 * error email and nobody watches it. After a run wrote reports into a spreadsheet, its refresh cell
 * changes (touchRefreshCell, through the core's ScheduledSpreadsheet) so its ENGAGE_* formulas fetch again.
 */
import {
  type OpenInSheetsAnswer,
  type RefreshSummary,
  FETCH_PERMISSION,
  requirePermissions,
  type ScheduleList,
  userMessage,
} from '../core';
import { scriptConsent } from '../gas/adapters/consent';
import { openReportTableInSheets } from '../gas/wiring/destinations';
import { scheduledSpreadsheet } from '../gas/adapters/sheets/spreadsheet-opener';
import { asExecution } from '../gas/adapters/execution';
import { recordTriggerContext } from '../gas/wiring/installation-check';
import { createScheduleService } from '../gas/wiring/schedule-services';
import { triggeredOutsideCells } from './outside-cells';
import { withUserMessage } from './user-errors';

/**
 * Saves a report built in the sidebar with its target cell and schedule, and installs your hourly
 * trigger with your first schedule. The definition holds no secret; it runs with your sign-in.
 * writeMode says how each run meets the rows already in the sheet: 'replace' (left out: the default),
 * 'append' (each run's rows below the earlier ones, after a first column snapshotAt with the run's
 * time) or 'upsert' (merged by the report's breakdowns and its day, month or hour); maxStoredRows
 * (1 to 1,000,000, left out: 100,000) is the most rows an append or upsert keeps, the oldest going first.
 * @param {Object} report {name, kind, entityId, period, breakdowns?, metrics?, filter?, sort?, currencyCode?, decDigits?,
 *   pageSize?, maxRows?, compareWith?, target: {sheetName, cell}, schedule, writeMode?, maxStoredRows?, incremental?,
 *   totals?, paused?, closedThrough?, notices?: {when?, email?, webhook?}, alerts?, bigquery?: {projectId, datasetId,
 *   tableId, location}}.
 *   schedule: {every: 'hour'}, {every: 'hours', hours}, {every: 'day', hour}, {every: 'week', weekday, hour} or
 *   {every: 'month', day, hour} (day 1 to 31; past a shorter month's end, its last day); hours on the spreadsheet's clock.
 *   compareWith: as ENGAGE_COMPARE's ("previous", "year", "yearWeekday" or "2026-10-01..2026-10-07").
 *   A webhook's address is kept in your user properties; the report keeps only its host.
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
 * Refreshes one of your saved reports now, due or not. Its data is replaced (appended to, upserted)
 * only once every page has arrived; a failure leaves it and is shown in the status.
 * @param {string} id The saved report's id.
 * @return {Object} {summary, list}.
 */
export function runScheduleNow(id: unknown): { summary: RefreshSummary; list: ScheduleList } {
  return withUserMessage(() => {
    requirePermissions(scriptConsent, [FETCH_PERMISSION], 'run this report');
    return createScheduleService().runNow(id);
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
 * Removes from your schedules a spreadsheet of yours that the hourly run can no longer reach (deleted,
 * or no longer shared with you): it is no longer tried. Its own saved reports, if it still exists,
 * stay in it.
 * @param {string} spreadsheetId The spreadsheet's ID, as the Schedules tab lists it.
 * @return {Object} The saved reports of this spreadsheet.
 */
export function removeSpreadsheetSchedules(spreadsheetId: unknown): ScheduleList {
  return withUserMessage(() => createScheduleService().forgetSpreadsheet(spreadsheetId));
}

/**
 * Opens the BigQuery table of a saved report in this spreadsheet as a data source sheet (Connected
 * Sheets), named after the report; its queries run in BigQuery with your credentials, billed to the
 * report's project. Where your account or domain does not allow Connected Sheets, nothing is added and
 * the answer says so, with the table's address and a ready query for BigQuery's console.
 * @param {string} id The saved report's id (a report saved with a BigQuery table).
 * @return {Object} {opened, sheetName?, message, address, query}.
 */
export function openReportInSheets(id: unknown): OpenInSheetsAnswer {
  return withUserMessage(() => openReportTableInSheets(id));
}

/**
 * The hourly trigger: refreshes your saved reports that are due, within the shared rate budget and
 * well inside the 6-minute limit, in the spreadsheet it runs in and (spreadsheetAccess "all") in each
 * of your other spreadsheets with schedules, opened by ID; then changes the refresh cell of each
 * spreadsheet it wrote to, so ENGAGE_* formulas fetch again.
 * @param {Object} e The time-driven trigger event.
 */
export function onScheduledRefresh(e?: unknown): void {
  // Typed into a cell it would refresh the owner's saved reports with the owner's sign-in.
  triggeredOutsideCells(e);
  const startedAtMs = Date.now();
  const uid = (e as { triggerUid?: unknown } | undefined)?.triggerUid;
  asExecution(() => scheduledRefresh(startedAtMs, uid === undefined || uid === null ? undefined : String(uid)));
}

function scheduledRefresh(startedAtMs: number, triggerUid: string | undefined): void {
  try {
    // The installation check, when it could not install a trigger of its own, waits for this run's word.
    recordTriggerContext('schedule');
  } catch (error) {
    console.error(`Engage installation check: the trigger's finding could not be recorded: ${userMessage(error)}`);
  }
  try {
    const summary = createScheduleService().runDue(startedAtMs, triggerUid === undefined ? {} : { triggerUid });
    const why = { 'fetch-quota': ' (near the daily URL Fetch quota)', 'trigger-runtime': ' (the daily trigger runtime is nearly spent)' };
    const stopped = summary.stoppedBecause ? why[summary.stoppedBecause] : '';
    const signIn = summary.needsSignIn ? '; the owner must sign in again' : '';
    const counts = `${summary.refreshed.length} refreshed, ${summary.failed.length} failed, ${summary.deferred.length} left for the next run`;
    const opened = summary.openedById > 0 ? `, ${summary.openedById} spreadsheets opened by ID` : '';
    const missed = summary.unreachable.map((u) => `"${u.name}" (${u.reason})`).join(', ');
    const unreachable = missed ? `; could not reach ${missed}` : '';
    console.log(`Engage scheduled refresh: ${counts}${stopped}, ${summary.requests} requests${opened}${signIn}${unreachable}.`);
  } catch (error) {
    console.error(`Engage scheduled refresh failed: ${userMessage(error)}`);
    // Relative days still move to a new day in the run's own spreadsheet, whatever failed.
    const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
    if (spreadsheet) scheduledSpreadsheet(spreadsheet).refreshFormulas(false);
  }
}
