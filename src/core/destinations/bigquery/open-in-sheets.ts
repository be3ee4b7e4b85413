/**
 * A BigQuery report viewed from Sheets. Where the user's account allows Connected Sheets, "Open in
 * Sheets" adds a data source sheet on the report's table, named after the report, and waits a bounded
 * time for its first data execution: Sheets' insertDataSourceSheet only "starts data execution", and a
 * missing table, missing BigQuery roles or billing show up afterwards in the execution's status
 * (DataExecutionStatus), not as a throw. SUCCESS: the sheet is added. ERROR: the sheet is removed again,
 * so nothing half-made is left, and the answer carries the table's address and a ready query to paste
 * into BigQuery's console, with a sentence by the error code (DATA_NOT_FOUND: the report's first run
 * makes the table; PERMISSION_DENIED: BigQuery roles; any other: Sheets' words, quoted). Still running
 * when the wait ends: the sheet stays and the answer says it is still loading. An insert that throws (an
 * account or domain without Connected Sheets: which words then no official page says, so no word of it
 * is read) gets the same address and query. The sheet's queries run in BigQuery with the credentials of
 * whoever views them, billed to the report's project, so any editor may open any report's table; a
 * deployment without `"bigquery": true` refuses before anything is asked.
 */
import { ValidationError } from '../../errors';
import type { Deployment } from '../../deployment';
import type { ConnectedSheet, ConnectedSheets, DataExecution } from '../../ports';
import { quoted } from '../../util/text';
import { readyQuery } from '../../warehouse/report-load';
import { tableAddress } from '../../warehouse/destination';
import { checkBigQueryAllowed, reportShapeOf } from './definition';
import type { SavedReport } from '../../schedules/saved/saved-reports';
import { tableOf } from '../../schedules/saved/destination-union';
import type { OpenAnswer, TableView } from '../../schedules/refresh/destination';

/** The table of a BigQuery report as the Schedules tab shows it: its address ("project.dataset.table") and the last month of the table, newest first (readyQuery). */
export type WarehouseView = TableView;

/** What "Open in Sheets" answers: the new sheet, or why there is none; the address and query either way. */
export type OpenInSheetsAnswer = OpenAnswer;

/** Sheets' longest sheet name is taken as 100 characters (as the sidebar's name fields allow); room is kept for " (12)". */
const SHEET_NAME_BASE_MAX_CHARS = 94;
/** What Sheets said, shown at most this long: its words are not ours to trust in length. */
const PLATFORM_WORDS_MAX_CHARS = 300;
/**
 * How long "Open in Sheets" waits for the new sheet's first data execution, in seconds: a preview of a
 * report's table takes seconds in BigQuery, and the sidebar call has Apps Script's 6 minutes in all
 * (EXECUTION_LIMIT_MS), so 30 s is plenty and far inside them, and inside the 300 s that
 * DataSourceSheet.waitForCompletion allows. An execution still running then goes on in Sheets.
 */
export const OPEN_IN_SHEETS_WAIT_SECONDS = 30;
/** BigQuery's console, where the ready query runs. */
const CONSOLE = "BigQuery's console (console.cloud.google.com/bigquery)";

export function warehouseView(report: Pick<SavedReport, 'destination' | 'kind' | 'breakdowns' | 'metrics'>): WarehouseView | undefined {
  const table = tableOf(report);
  if (!table) return undefined;
  return { address: tableAddress(table), query: readyQuery(table, reportShapeOf(report)) };
}

/**
 * `base`, or `base (2)`, `(3)` … : the first name no sheet has, compared without case as Sheets
 * compares sheet names.
 */
export function uniqueSheetName(base: string, taken: readonly string[]): string {
  const trimmed = [...base.trim()].slice(0, SHEET_NAME_BASE_MAX_CHARS).join('').trim() || 'BigQuery table';
  const folded = new Set(taken.map((name) => name.toLowerCase()));
  let name = trimmed;
  for (let n = 2; folded.has(name.toLowerCase()); n++) name = `${trimmed} (${n})`;
  return name;
}

function platformWords(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error ?? '');
  // Control characters (line breaks among them) as spaces: the sentence stays one line.
  const visible = [...raw].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c)).join('');
  const text = visible
    .replace(/^(Exception|Error):\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > PLATFORM_WORDS_MAX_CHARS ? `${text.slice(0, PLATFORM_WORDS_MAX_CHARS)}…` : text;
}

/** What a data execution that ended in ERROR means for the user, by its DataExecutionErrorCode. */
function executionErrorSentence(execution: DataExecution, address: string, projectId: string): string {
  const words = platformWords(execution.errorMessage);
  const said = `Sheets said: "${words === '' ? execution.errorCode : words}"`;
  switch (execution.errorCode) {
    case 'DATA_NOT_FOUND':
      return (
        `The BigQuery table ${address} is not there yet: the report's first run makes it (choose Run now), then open it in Sheets again. ` +
        `The ready query below works in ${CONSOLE} once the table is there. ${said}`
      );
    case 'PERMISSION_DENIED':
      return (
        `Your account may not read the BigQuery table ${address}: you need BigQuery's Job User and Data Viewer roles on the project ${projectId} ` +
        `(ask its owner), which also pays for the sheet's queries. The ready query below runs in ${CONSOLE} once you have them. ${said}`
      );
    default:
      return `Sheets could not load the BigQuery table ${address} into a sheet. Use the ready query below in ${CONSOLE} instead. ${said}`;
  }
}

/** The sheet whose first execution failed, removed again; a sentence if Sheets would not remove it. */
function removeAgain(sheet: ConnectedSheet): string {
  try {
    sheet.remove();
    return '';
  } catch (error) {
    return ` (Sheets did not remove the sheet '${sheet.name}': delete it yourself. It said: "${platformWords(error)}")`;
  }
}

/**
 * Adds a data source sheet on the report's table and waits for its first data execution: the sheet
 * when it succeeded or still runs; when it failed, or Sheets refused the sheet, why, with the address
 * and query either way.
 */
export function openInSheets(
  deps: {
    deployment: Pick<Deployment, 'bigquery'>;
    reports: { findOrThrow(id: unknown): SavedReport };
    sheets: ConnectedSheets;
  },
  id: unknown,
): OpenInSheetsAnswer {
  checkBigQueryAllowed(deps.deployment);
  return openReportTable(deps.reports.findOrThrow(id), deps.sheets);
}

/** The same for a report at hand, once the deployment is known to load into BigQuery. */
export function openReportTable(report: SavedReport, sheets: ConnectedSheets): OpenInSheetsAnswer {
  const view = warehouseView(report);
  const table = tableOf(report);
  if (!table || !view) {
    throw ValidationError.single(
      'id',
      `${quoted(report.name)} writes to a sheet, not to BigQuery: only a report saved with a BigQuery table opens in Sheets through Connected Sheets`,
    );
  }
  const { projectId, datasetId, tableId } = table;
  let sheet: ConnectedSheet;
  try {
    sheet = sheets.insertDataSourceSheet(
      // The report's project pays for the queries: the user chose it for the loads, so it has BigQuery on.
      { billingProjectId: projectId, projectId, datasetId, tableId },
      uniqueSheetName(report.name, sheets.sheetNames()),
    );
  } catch (error) {
    return {
      ...view,
      opened: false,
      message:
        `Sheets could not connect a sheet to ${view.address}: Connected Sheets may not be allowed for your account or your domain ` +
        "(your administrator must turn Google Cloud on for you, and you need BigQuery's Job User and Data Viewer roles on the project). " +
        `Use the ready query below in ${CONSOLE} instead. Sheets said: "${platformWords(error)}"`,
    };
  }
  // Whole, however long: the user looks for this name among the sheet tabs.
  const added = `Added the sheet '${sheet.name}', connected to the BigQuery table ${view.address} (Connected Sheets)`;
  let execution: DataExecution;
  try {
    execution = sheet.waitForCompletion(OPEN_IN_SHEETS_WAIT_SECONDS);
  } catch (error) {
    // The sheet is there, its query started: Sheets shows how it goes.
    return {
      ...view,
      opened: true,
      sheetName: sheet.name,
      message: `${added}, but Sheets did not say how its first query went: see the sheet. Sheets said: "${platformWords(error)}"`,
    };
  }
  if (execution.state === 'ERROR') {
    return { ...view, opened: false, message: executionErrorSentence(execution, view.address, projectId) + removeAgain(sheet) };
  }
  const billed = `its queries run in BigQuery, billed to the project ${projectId}.`;
  if (execution.state === 'SUCCESS') {
    return { ...view, opened: true, sheetName: sheet.name, message: `${added}: it shows a preview of the rows, and ${billed}` };
  }
  // Still running after the wait (or a state Apps Script does not name): the sheet stays and fills when it ends.
  return {
    ...view,
    opened: true,
    sheetName: sheet.name,
    message: `${added}: its first query is still running in BigQuery, and the rows appear when it ends; ${billed}`,
  };
}
