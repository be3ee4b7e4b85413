/**
 * The spreadsheets a scheduled run refreshes, as the core sees them (ScheduledSpreadsheet): the one
 * the execution runs in, or one of the user's others opened by ID (SpreadsheetApp.openById, which
 * needs the `spreadsheets` scope of spreadsheetAccess "all"). Apps Script's refusals to open one are
 * read into the reason the user is told: the file is gone, the user lost access, or something else.
 */
import {
  type ScheduledSpreadsheet,
  type SpreadsheetOpener,
  SpreadsheetUnreachableError,
  type UnreachableReason,
  refreshOutcomeText,
  userMessage,
} from '../../../core';
import { refreshCellIsFromAnotherDay, touchRefreshCell } from './refresh-cell';
import { SavedReportSheet } from './report-sheet';

/** The Apps Script spreadsheet behind each ScheduledSpreadsheet made here, for the watchers of its refreshes (history-observers.ts). */
const appsScriptSpreadsheets = new WeakMap<ScheduledSpreadsheet, GoogleAppsScript.Spreadsheet.Spreadsheet>();

/** The Apps Script spreadsheet a run reached, whether it runs in it or opened it by ID. */
export function appsScriptSpreadsheetOf(scheduled: ScheduledSpreadsheet): GoogleAppsScript.Spreadsheet.Spreadsheet | undefined {
  return appsScriptSpreadsheets.get(scheduled);
}

/** A spreadsheet as a scheduled run refreshes it: its identity, its report sheet, its refresh cell. */
export function scheduledSpreadsheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): ScheduledSpreadsheet {
  let ref: ScheduledSpreadsheet['ref'] | undefined;
  const scheduled: ScheduledSpreadsheet = {
    get ref() {
      ref ??= {
        id: spreadsheet.getId(),
        name: spreadsheet.getName(),
        url: spreadsheet.getUrl(),
        timeZone: spreadsheet.getSpreadsheetTimeZone(),
      };
      return ref;
    },
    sheet: new SavedReportSheet(spreadsheet),
    refreshFormulas(wrote: boolean, deadlineAtMs?: number, options: { awaitLastWave?: boolean } = {}) {
      // The saved reports are already written: formulas that do not fetch again say so in the log only.
      try {
        if (!wrote && !refreshCellIsFromAnotherDay(spreadsheet)) return true;
        const outcome = touchRefreshCell(spreadsheet, {
          ...(deadlineAtMs === undefined ? {} : { deadlineAtMs }),
          ...(options.awaitLastWave ? { awaitLastWave: true } : {}),
        });
        if (outcome.formulas > 0) console.log(`Engage formulas: ${refreshOutcomeText(outcome)}`);
        return !outcome.busy && outcome.startedWaves === outcome.waves;
      } catch (error) {
        console.error(`Engage could not change the refresh cell: ${userMessage(error)}`);
        return false;
      }
    },
  };
  appsScriptSpreadsheets.set(scheduled, spreadsheet);
  return scheduled;
}

/**
 * Why Apps Script would not open a spreadsheet, from its words (UNCONFIRMED: no page lists them;
 * users report "Document <id> is missing (perhaps it was deleted?)", "You do not have permission to
 * access the requested document." and "You do not have access to the requested document.").
 */
export function unreachableReason(message: string): UnreachableReason {
  if (/is missing|deleted|not found|does not exist/i.test(message)) return 'deleted';
  if (/Required permissions/i.test(message)) return 'not-opened';
  if (/permission|access/i.test(message)) return 'no-access';
  return 'not-opened';
}

/** Opens the user's spreadsheets by ID; a refusal becomes SpreadsheetUnreachableError with its reason. */
export const spreadsheetOpener: SpreadsheetOpener = {
  open(spreadsheetId: string): ScheduledSpreadsheet {
    let spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
    try {
      spreadsheet = SpreadsheetApp.openById(spreadsheetId);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new SpreadsheetUnreachableError(unreachableReason(message), message);
    }
    return scheduledSpreadsheet(spreadsheet);
  },
};
