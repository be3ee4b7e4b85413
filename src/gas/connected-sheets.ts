/**
 * "Open in Sheets" over the spreadsheet service: the core's ConnectedSheets port as Connected Sheets'
 * data source sheet (SpreadsheetApp.enableBigQueryExecution, newDataSourceSpec().asBigQuery(),
 * Spreadsheet.insertDataSourceSheet; developers.google.com/apps-script/guides/sheets/connected-sheets),
 * and the use case built from the document's saved reports. enableBigQueryExecution is in the code
 * because Apps Script reads it to add the bigquery.readonly scope; the manifest of a deployment with
 * `"bigquery": true` already holds the bigquery scope, which covers it. Whatever Sheets throws reaches
 * the core, which reads no word of it (src/core/schedules/service/open-in-sheets.ts).
 */
import { openInSheets, type ConnectedSheets, type DataSourceTable, type OpenInSheetsAnswer, SavedReportStore } from '../core';
import { DEPLOYMENT } from './deployment';
import { PropertiesStore, ServiceLock, systemClock } from './stores';

/** The part of Connected Sheets used here (the type package of this project lists no insertDataSourceSheet). */
interface BigQuerySpecBuilder {
  setProjectId(id: string): BigQuerySpecBuilder;
  setTableProjectId(id: string): BigQuerySpecBuilder;
  setDatasetId(id: string): BigQuerySpecBuilder;
  setTableId(id: string): BigQuerySpecBuilder;
  build(): unknown;
}
interface WithDataSources {
  newDataSourceSpec(): { asBigQuery(): BigQuerySpecBuilder };
}
interface SpreadsheetWithDataSources {
  insertDataSourceSheet(spec: unknown): { asSheet(): GoogleAppsScript.Spreadsheet.Sheet };
}

export function connectedSheets(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): ConnectedSheets {
  return {
    sheetNames: () => spreadsheet.getSheets().map((sheet) => sheet.getName()),
    insertDataSourceSheet: (table: DataSourceTable, sheetName: string) => {
      SpreadsheetApp.enableBigQueryExecution();
      const spec = (SpreadsheetApp as unknown as WithDataSources)
        .newDataSourceSpec()
        .asBigQuery()
        .setProjectId(table.billingProjectId)
        .setTableProjectId(table.projectId)
        .setDatasetId(table.datasetId)
        .setTableId(table.tableId)
        .build();
      const sheet = (spreadsheet as unknown as SpreadsheetWithDataSources).insertDataSourceSheet(spec).asSheet();
      try {
        sheet.setName(sheetName);
      } catch (error) {
        // The sheet is there and connected: it keeps the name Sheets gave it (another sheet took this one meanwhile).
        console.warn(
          `Engage: the connected sheet keeps its name ${sheet.getName()}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return sheet.getName();
    },
  };
}

/** Opens saved report `id`'s BigQuery table in the active spreadsheet, or says why not. */
export function openReportTableInSheets(id: unknown): OpenInSheetsAnswer {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const reports = new SavedReportStore({
    store: new PropertiesStore(PropertiesService.getDocumentProperties()),
    lock: new ServiceLock(LockService.getDocumentLock()),
    clock: systemClock,
  });
  return openInSheets({ deployment: DEPLOYMENT, reports, sheets: connectedSheets(spreadsheet) }, id);
}
