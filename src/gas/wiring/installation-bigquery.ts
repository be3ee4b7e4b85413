/**
 * The installation check's BigQuery probes on the live platform, in a build with `"bigquery": true`
 * (the findings' words are the core's, src/core/destinations/bigquery/installation-rows.ts): datasets.get
 * of the dataset a saved report of this spreadsheet loads into, with the user's OAuth token over URL
 * Fetch (BigQuery's client, as the destination makes it), and Connected Sheets read without inserting
 * anything: SpreadsheetApp.enableBigQueryExecution(), then Spreadsheet.getDataSourceSheets(). What
 * Apps Script throws is reported in its words, and nothing is changed.
 */
import { bigQueryDatasetFinding, connectedSheetsFinding, type ConnectedSheetsProbe, type Finding, SavedReportStore } from '../../core';
import { PropertiesStore } from '../adapters/properties-store';
import { ServiceLock } from '../adapters/service-lock';
import { systemClock } from '../adapters/system-time';
import { createSession } from './addon-services';
import { bigQueryClient } from './destinations';

/** The part of the spreadsheet service read here (the type package of this project lists no getDataSourceSheets). */
interface WithDataSourceSheets {
  getDataSourceSheets(): unknown[];
}

function connectedSheetsProbe(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): ConnectedSheetsProbe {
  try {
    SpreadsheetApp.enableBigQueryExecution();
    return { ok: true, dataSources: (spreadsheet as unknown as WithDataSourceSheets).getDataSourceSheets().length };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/** The BigQuery rows of the check: the dataset of this spreadsheet's saved reports, and Connected Sheets. */
export function bigQueryFindings(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): Finding[] {
  const reports = new SavedReportStore({
    store: new PropertiesStore(PropertiesService.getDocumentProperties()),
    lock: new ServiceLock(LockService.getDocumentLock()),
    clock: systemClock,
  }).list();
  return [
    bigQueryDatasetFinding(reports, bigQueryClient(createSession), Date.now()),
    connectedSheetsFinding(connectedSheetsProbe(spreadsheet)),
  ];
}
