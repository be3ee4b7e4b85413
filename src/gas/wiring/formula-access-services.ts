/**
 * Builds the Account tab's "Formulas in this spreadsheet" (core FormulaAccess) from Apps Script
 * services for one execution: the caller's user properties and the document's, the spreadsheet's ID,
 * owner and editors (Spreadsheet.getOwner/getEditors: spreadsheets.currentonly), the caller's email
 * (Session.getEffectiveUser: userinfo.email; an add-on runs as the user who uses it) and the caller's
 * publishers. Each is read only when the use case needs it.
 */
import { FormulaAccess } from '../../core';
import { createSidebarReports } from './sidebar-report-services';
import { PropertiesStore } from '../adapters/properties-store';
import { systemClock } from '../adapters/system-time';

export function createFormulaAccess(): FormulaAccess {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  return new FormulaAccess({
    userStore: new PropertiesStore(PropertiesService.getUserProperties()),
    documentStore: new PropertiesStore(PropertiesService.getDocumentProperties()),
    spreadsheetId: spreadsheet.getId(),
    owner: () => {
      const owner = spreadsheet.getOwner();
      return owner === null ? null : owner.getEmail();
    },
    you: () => Session.getEffectiveUser().getEmail(),
    editors: () => spreadsheet.getEditors().map((user) => user.getEmail()),
    publishers: () => createSidebarReports().listPublishers(),
    clock: systemClock,
  });
}
