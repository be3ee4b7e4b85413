/**
 * Builds the scheduling use cases (core ScheduleService) from Apps Script services for one
 * execution: saved reports in the document's properties under the document lock, the owner id in
 * the user's properties, the report sheet, and the user's hourly trigger.
 */
import { SavedReportStore, ScheduleService } from '../core';
import { createSession } from './addon-services';
import { SavedReportSheet } from './report-sheet';
import { PropertiesStore, ServiceLock, systemClock } from './stores';
import { HourlyTrigger } from './triggers';

export function createScheduleService(): ScheduleService {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  return new ScheduleService({
    account: createSession(),
    reports: new SavedReportStore({
      store: new PropertiesStore(PropertiesService.getDocumentProperties()),
      lock: new ServiceLock(LockService.getDocumentLock()),
      clock: systemClock,
    }),
    userStore: new PropertiesStore(PropertiesService.getUserProperties()),
    sheet: new SavedReportSheet(spreadsheet),
    trigger: new HourlyTrigger(spreadsheet),
    clock: systemClock,
    timeZone: spreadsheet.getSpreadsheetTimeZone(),
  });
}
