/**
 * Builds the scheduling use cases (core ScheduleService) from Apps Script services for one
 * execution: saved reports in the document's properties under the document lock (when the execution
 * has a document), the user's registry and owner id in the user's properties, the spreadsheet and its
 * report sheet, the user's hourly trigger, with spreadsheetAccess "all" the user's other
 * spreadsheets opened by ID, and the watchers of each spreadsheet's refreshes (its run log and revisions).
 */
import { SavedReportStore, ScheduleRegistry, ScheduleService } from '../core';
import { createSession } from './addon-services';
import { DEPLOYMENT } from './deployment';
import { historyObservers } from './history-observers';
import { scheduledSpreadsheet, spreadsheetOpener } from './spreadsheet-opener';
import { PropertiesStore, ServiceLock, systemClock } from './stores';
import { HourlyTrigger } from './triggers';

export function createScheduleService(): ScheduleService {
  // Null in a trigger's run that Apps Script started without a document.
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const documentProperties = spreadsheet ? PropertiesService.getDocumentProperties() : null;
  const documentLock = spreadsheet ? LockService.getDocumentLock() : null;
  const access = DEPLOYMENT.spreadsheetAccess ?? 'all';
  const userStore = new PropertiesStore(PropertiesService.getUserProperties());
  return new ScheduleService({
    account: createSession(),
    ...(spreadsheet && documentProperties && documentLock
      ? {
          document: {
            reports: new SavedReportStore({
              store: new PropertiesStore(documentProperties),
              lock: new ServiceLock(documentLock),
              clock: systemClock,
            }),
            spreadsheet: scheduledSpreadsheet(spreadsheet),
          },
        }
      : {}),
    registry: new ScheduleRegistry({ store: userStore }),
    userStore,
    trigger: new HourlyTrigger(spreadsheet, access),
    access,
    ...(access === 'all' ? { opener: spreadsheetOpener } : {}),
    // The run log and the revisions of each spreadsheet a run reaches (history-observers.ts).
    observersFor: historyObservers,
    clock: systemClock,
  });
}
