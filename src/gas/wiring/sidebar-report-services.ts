/**
 * Builds the report builder's use cases (core SidebarReports) from Apps Script services for one
 * execution: the user's session, the sheet writer (which also reads what the cells to be written hold),
 * the document's properties (where each written block is remembered, and the saved reports whose
 * blocks a run must not write over unasked) and the user's cache (run progress).
 */
import { OWNER_ID_KEY, SavedReportStore, SidebarReports, type SidebarReportsDeps } from '../../core';
import { createSession } from './addon-services';
import { SpreadsheetWriter } from '../adapters/sheets/sheet-writer';
import { PropertiesStore } from '../adapters/properties-store';
import { ServiceCache } from '../adapters/service-cache';
import { ServiceLock } from '../adapters/service-lock';
import { systemClock } from '../adapters/system-time';

export function createSidebarReports(): SidebarReports {
  return new SidebarReports(sidebarReportsDeps());
}

/** What the builder's use cases are made with (also Explain the change's run to a sheet, explain-run.ts). */
export function sidebarReportsDeps(): SidebarReportsDeps {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const writer = new SpreadsheetWriter(spreadsheet);
  const documentStore = new PropertiesStore(PropertiesService.getDocumentProperties());
  return {
    session: createSession(),
    writer,
    contents: writer,
    // Read only here (where saved reports last wrote), through the core's snapshot of the document's
    // properties; the lock guards their index when it changes.
    savedReports: (store) => new SavedReportStore({ store, lock: new ServiceLock(LockService.getDocumentLock()), clock: systemClock }),
    ownerId: () => PropertiesService.getUserProperties().getProperty(OWNER_ID_KEY),
    documentStore,
    progressCache: new ServiceCache(CacheService.getUserCache()),
    clock: systemClock,
    timeZone: spreadsheet.getSpreadsheetTimeZone(),
  };
}
