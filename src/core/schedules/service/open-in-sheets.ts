/**
 * A BigQuery report viewed from Sheets. Where the user's account allows Connected Sheets, "Open in
 * Sheets" adds a data source sheet on the report's table, named after the report; where it does not
 * (an account or domain where it is not turned on, or a user without BigQuery roles on the project) or the call fails
 * for any other reason, the answer carries the table's address and a ready query to paste into
 * BigQuery's console, with a sentence saying what to do. Which words Sheets throws for an account
 * without Connected Sheets no official page says, so no word of it is read: any failure of the insert
 * is that answer, and the words are shown only as what Sheets said. The sheet's queries run in BigQuery
 * with the credentials of whoever views them, billed to the report's project, so any editor may open
 * any report's table; a deployment without `"bigquery": true` refuses before anything is asked.
 */
import { ValidationError } from '../../errors';
import type { Deployment } from '../../deployment';
import type { ConnectedSheets } from '../../ports';
import { quoted } from '../../util/text';
import { readyQuery } from '../../warehouse/report-load';
import { tableAddress } from '../../warehouse/destination';
import { checkBigQueryAllowed, reportShapeOf } from '../saved/bigquery-destination';
import type { RefreshStatus, SavedReport } from '../saved/saved-reports';
import { backfillView } from '../../warehouse/backfill';

/** The table of a BigQuery report as the Schedules tab shows it: its address and a query to paste. */
export interface WarehouseView {
  /** "project.dataset.table". */
  address: string;
  /** The last month of the table, newest first (readyQuery). */
  query: string;
}

/** What "Open in Sheets" answers: the new sheet, or why there is none; the address and query either way. */
export type OpenInSheetsAnswer = WarehouseView & { message: string } & ({ opened: true; sheetName: string } | { opened: false });

/** Sheets' longest sheet name is taken as 100 characters (as the sidebar's name fields allow); room is kept for " (12)". */
const SHEET_NAME_BASE_MAX_CHARS = 94;
/** What Sheets said, shown at most this long: its words are not ours to trust in length. */
const PLATFORM_WORDS_MAX_CHARS = 300;

export function warehouseView(report: Pick<SavedReport, 'bigquery' | 'kind' | 'breakdowns' | 'metrics'>): WarehouseView | undefined {
  if (!report.bigquery) return undefined;
  return { address: tableAddress(report.bigquery), query: readyQuery(report.bigquery, reportShapeOf(report)) };
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
  const raw = error instanceof Error ? error.message : String(error);
  // Control characters (line breaks among them) as spaces: the sentence stays one line.
  const visible = [...raw].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c)).join('');
  const text = visible
    .replace(/^(Exception|Error):\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > PLATFORM_WORDS_MAX_CHARS ? `${text.slice(0, PLATFORM_WORDS_MAX_CHARS)}…` : text;
}

/** Adds a data source sheet on the report's table, or says why not, with the address and query either way. */
export function openInSheets(
  deps: {
    deployment: Pick<Deployment, 'bigquery'>;
    reports: { findOrThrow(id: unknown): SavedReport; status(id: string): RefreshStatus };
    sheets: ConnectedSheets;
  },
  id: unknown,
): OpenInSheetsAnswer {
  checkBigQueryAllowed(deps.deployment);
  const report = deps.reports.findOrThrow(id);
  const view = warehouseView(report);
  if (!report.bigquery || !view) {
    throw ValidationError.single(
      'id',
      `${quoted(report.name)} writes to a sheet, not to BigQuery: only a report saved with a BigQuery table opens in Sheets through Connected Sheets`,
    );
  }
  const { projectId, datasetId, tableId } = report.bigquery;
  try {
    const sheetName = deps.sheets.insertDataSourceSheet(
      // The report's project pays for the queries: the user chose it for the loads, so it has BigQuery on.
      { billingProjectId: projectId, projectId, datasetId, tableId },
      uniqueSheetName(report.name, deps.sheets.sheetNames()),
    );
    return {
      ...view,
      opened: true,
      sheetName,
      message:
        // Whole, however long: the user looks for this name among the sheet tabs.
        `Added the sheet '${sheetName}', connected to the BigQuery table ${view.address} (Connected Sheets): it shows a preview of the rows, ` +
        `and its queries run in BigQuery, billed to the project ${projectId}.`,
    };
  } catch (error) {
    // A report that has loaded no day may have no table yet: its first run makes it.
    const backfill = deps.reports.status(report.id).backfill;
    const unloaded = !backfill || backfillView(backfill).loadedDays === 0;
    return {
      ...view,
      opened: false,
      message:
        `Sheets could not connect a sheet to ${view.address}: Connected Sheets may not be allowed for your account or your domain ` +
        "(your administrator must turn Google Cloud on for you, and you need BigQuery's Job User and Data Viewer roles on the project)" +
        (unloaded ? ", or the table is not there yet (the report's first run makes it: choose Run now). " : '. ') +
        `Use the ready query below in BigQuery's console (console.cloud.google.com/bigquery) instead. Sheets said: "${platformWords(error)}"`,
    };
  }
}
