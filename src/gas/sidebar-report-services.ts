/**
 * Builds the report builder's use cases (core SidebarReports) from Apps Script services for one
 * execution: the user's session, the sheet writer, the document's properties (where each written block is
 * remembered) and the user's cache (run progress).
 */
import { SidebarReports } from '../core';
import { createSession } from './addon-services';
import { SpreadsheetWriter } from './sheet-writer';
import { PropertiesStore, ServiceCache, systemClock } from './stores';

export function createSidebarReports(): SidebarReports {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  return new SidebarReports({
    session: createSession(),
    writer: new SpreadsheetWriter(spreadsheet),
    documentStore: new PropertiesStore(PropertiesService.getDocumentProperties()),
    progressCache: new ServiceCache(CacheService.getUserCache()),
    clock: systemClock,
    timeZone: spreadsheet.getSpreadsheetTimeZone(),
  });
}
