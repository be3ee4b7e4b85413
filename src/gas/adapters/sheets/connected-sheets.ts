/**
 * "Open in Sheets" over the spreadsheet service: the core's ConnectedSheets port as Connected Sheets'
 * data source sheet (SpreadsheetApp.enableBigQueryExecution, newDataSourceSpec().asBigQuery(),
 * Spreadsheet.insertDataSourceSheet; developers.google.com/apps-script/guides/sheets/connected-sheets),
 * (the use case that opens a saved report's table is wired in src/gas/wiring/destinations.ts). enableBigQueryExecution is in the code
 * because Apps Script reads it to add the bigquery.readonly scope; the manifest of a deployment with
 * `"bigquery": true` lists that scope beside bigquery. Whatever Sheets throws reaches
 * the core, which reads no word of it (src/core/destinations/bigquery/open-in-sheets.ts). The new sheet's
 * first data execution is waited for with DataSourceSheet.waitForCompletion, which "Throws an exception
 * if the execution is not completed when timing out, but does not cancel the data execution"
 * (developers.google.com/apps-script/reference/spreadsheet/data-source-sheet): after such a throw the
 * status is read with getStatus(), RUNNING while it goes on. A failed sheet is deleted with
 * Spreadsheet.deleteSheet(dataSourceSheet.asSheet()): asSheet "Returns the data source sheet as a
 * regular sheet object", the Sheet that deleteSheet takes.
 */
import type { ConnectedSheet, ConnectedSheets, DataExecution, DataSourceTable } from '../../../core';

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
/** DataExecutionStatus (developers.google.com/apps-script/reference/spreadsheet/data-execution-status); its enums read as their names. */
interface DataExecutionStatus {
  getExecutionState(): unknown;
  getErrorCode(): unknown;
  getErrorMessage(): string;
}
interface DataSourceSheet {
  asSheet(): GoogleAppsScript.Spreadsheet.Sheet;
  getStatus(): DataExecutionStatus;
  waitForCompletion(timeoutInSeconds: number): DataExecutionStatus;
}
interface SpreadsheetWithDataSources {
  insertDataSourceSheet(spec: unknown): DataSourceSheet;
}

function executionOf(status: DataExecutionStatus): DataExecution {
  return {
    state: String(status.getExecutionState()),
    errorCode: String(status.getErrorCode()),
    errorMessage: String(status.getErrorMessage() ?? ''),
  };
}

/** The inserted data source sheet as the core's port takes it. */
function connectedSheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, dataSourceSheet: DataSourceSheet): ConnectedSheet {
  const sheet = dataSourceSheet.asSheet();
  return {
    name: sheet.getName(),
    waitForCompletion: (timeoutSeconds: number) => {
      try {
        return executionOf(dataSourceSheet.waitForCompletion(timeoutSeconds));
      } catch (waitError) {
        // Timed out (the execution goes on) or any other throw: the status says which; if even it cannot be read, the wait's error.
        try {
          return executionOf(dataSourceSheet.getStatus());
        } catch {
          throw waitError;
        }
      }
    },
    remove: () => spreadsheet.deleteSheet(sheet),
  };
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
      const inserted = (spreadsheet as unknown as SpreadsheetWithDataSources).insertDataSourceSheet(spec);
      const sheet = inserted.asSheet();
      try {
        sheet.setName(sheetName);
      } catch (error) {
        // The sheet is there and connected: it keeps the name Sheets gave it (another sheet took this one meanwhile).
        console.warn(
          `Engage: the connected sheet keeps its name ${sheet.getName()}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return connectedSheet(spreadsheet, inserted);
    },
  };
}
