/**
 * The watchers of a spreadsheet's saved-report refreshes that keep its history (ScheduleService's
 * observersFor): the run log and the revisions, both writing through the spreadsheet's own sheets
 * (own-sheets.ts), one set per run, so a sheet is looked up once and written once per run. A watcher
 * that fails says so in the execution's log and never touches the refresh (run-events.ts).
 */
import {
  type Revision,
  type ReportRunEvent,
  RevisionTracker,
  RunLog,
  type RunObserver,
  type ScheduledSpreadsheet,
  userMessage,
} from '../../core';
import { SpreadsheetOwnSheets } from '../adapters/sheets/own-sheets';
import { appsScriptSpreadsheetOf } from '../adapters/sheets/spreadsheet-opener';

/** What becomes of revisions in a report's closed months: the notices take them (notices.ts); without them, the execution's log. */
export type ClosedMonthRevisions = (revisions: Revision[], event: ReportRunEvent) => void;

export const logClosedMonthRevisions: ClosedMonthRevisions = (revisions, event) => {
  const days = [...new Set(revisions.map((r) => r.day))].join(', ');
  console.log(`Engage revisions in closed months of "${event.report.name}": ${revisions.length} figures of ${days}`);
};

/** An observer whose failures go to the execution's log, then stop there. */
function reported(observer: RunObserver, what: string): RunObserver {
  const failed = (error: unknown) => console.error(`Engage ${what} was not written: ${userMessage(error)}`);
  return {
    afterReport(event) {
      try {
        observer.afterReport(event);
      } catch (error) {
        failed(error);
      }
    },
    afterRun() {
      try {
        observer.afterRun?.();
      } catch (error) {
        failed(error);
      }
    },
  };
}

export function historyObservers(
  scheduled: ScheduledSpreadsheet,
  onClosedMonthRevisions: ClosedMonthRevisions = logClosedMonthRevisions,
): RunObserver[] {
  const spreadsheet = appsScriptSpreadsheetOf(scheduled);
  if (!spreadsheet) return [];
  const sheets = new SpreadsheetOwnSheets(spreadsheet);
  return [reported(new RunLog(sheets), 'the run log'), reported(new RevisionTracker(sheets, { onClosedMonthRevisions }), 'the revisions')];
}
