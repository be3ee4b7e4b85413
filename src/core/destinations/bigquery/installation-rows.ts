/**
 * The installation check's BigQuery rows, in a build with `"bigquery": true`: one authorized GET to
 * BigQuery within the manifest's allowlist (datasets.get of the dataset a saved report of this
 * spreadsheet loads into), which tells the dataset's location and the expirations it gives new tables
 * (warehouse/expiration.ts: the BigQuery sandbox deletes each day 60 days after it); and whether
 * Connected Sheets answers for this user, read without inserting anything. A probe Google refuses is
 * reported in its own words; nothing is created, changed or saved.
 */
import { EngageError } from '../../errors';
import type { SavedReport } from '../../schedules/saved/saved-reports';
import { tableOf } from '../../schedules/saved/destination-union';
import type { BigQueryClient } from '../../warehouse/bigquery-client';
import { expirationText, keptDaysBeforeToday } from '../../warehouse/expiration';
import type { Finding } from '../../finding';

/** What the dataset probe may take: a GET and its retries, well within the check's execution. */
export const BIGQUERY_PROBE_BUDGET_MS = 20_000;

const DATASET_CHECK = 'BigQuery answers for the dataset of your saved reports';

/** The dataset a saved report of this spreadsheet loads into (the first), if any. */
function configuredDataset(reports: readonly SavedReport[]): { projectId: string; datasetId: string } | undefined {
  for (const report of reports) {
    const table = tableOf(report);
    if (table) return { projectId: table.projectId.trim(), datasetId: table.datasetId.trim() };
  }
  return undefined;
}

/** datasets.get of the configured dataset, with this user's token, as one finding. */
export function bigQueryDatasetFinding(reports: readonly SavedReport[], client: () => BigQueryClient, nowMs: number): Finding {
  const target = configuredDataset(reports);
  if (!target) {
    return {
      check: DATASET_CHECK,
      status: 'pending',
      result: 'No saved report of this spreadsheet loads into BigQuery, so no dataset was asked for.',
      meaning: 'Save a report with a BigQuery table (Schedule section, Destination), then run the check again to see its dataset.',
    };
  }
  const name = `${target.projectId}.${target.datasetId}`;
  let info: ReturnType<BigQueryClient['getDataset']>;
  try {
    info = client().getDataset(target.projectId, target.datasetId, nowMs + BIGQUERY_PROBE_BUDGET_MS);
  } catch (e) {
    if (!(e instanceof EngageError)) throw e;
    return {
      check: DATASET_CHECK,
      status: 'attention',
      result: `datasets.get of ${name} was refused: ${e.userMessage()}`,
      meaning:
        'Saved reports cannot load into this dataset for you: check the deploy config\'s "bigquery", your BigQuery roles (Data Editor and Job User) and what you allowed Engage to do.',
    };
  }
  if (info === undefined) {
    return {
      check: DATASET_CHECK,
      status: 'attention',
      result: `datasets.get of ${name}: BigQuery answered 404, not found.`,
      meaning: 'The dataset does not exist, or your Google account cannot see it: create it in the BigQuery console or check the project.',
    };
  }
  return datasetSeen(name, info);
}

/** The dataset as BigQuery described it: its location and what it deletes. */
function datasetSeen(name: string, info: NonNullable<ReturnType<BigQueryClient['getDataset']>>): Finding {
  const partition = info.defaultPartitionExpirationMs;
  const table = info.defaultTableExpirationMs;
  const result =
    `datasets.get of ${name} answered with your token: in ${info.location || 'no location given'}; ` +
    `partitions of new tables kept ${partition === undefined ? 'for good' : expirationText(partition)}; ` +
    `new tables kept ${table === undefined ? 'for good' : expirationText(table)}${partition !== undefined && table !== undefined ? ' (not partitioned ones: a new partitioned table takes the partition expiration only)' : ''}.`;
  if (partition === undefined && table === undefined) {
    return { check: DATASET_CHECK, status: 'ok', result, meaning: 'BigQuery keeps every day Engage loads into this dataset.' };
  }
  const kept = partition === undefined ? undefined : keptDaysBeforeToday(partition);
  return {
    check: DATASET_CHECK,
    status: 'attention',
    result,
    meaning:
      kept === undefined
        ? "BigQuery deletes new tables of this dataset after a while: Engage's partitioned tables are not concerned, other tables are."
        : `BigQuery deletes each day's partition ${expirationText(partition!)} after the day (the BigQuery sandbox sets 60 days): saved reports into this dataset may cover at most the last ${Math.max(kept, 0)} days; raise or remove the dataset's default partition expiration to keep more.`,
  };
}

/** What reading the spreadsheet's data sources answered: their number, or Google's words. */
export type ConnectedSheetsProbe = { ok: true; dataSources: number } | { ok: false; message: string };

/** Whether Connected Sheets answers for this user: its connected sheets read after enableBigQueryExecution, nothing inserted. */
export function connectedSheetsFinding(probe: ConnectedSheetsProbe): Finding {
  const check = 'Connected Sheets answers for you (Open in Sheets)';
  if (probe.ok) {
    return {
      check,
      status: 'ok',
      result: `The spreadsheet service's enableBigQueryExecution() and this spreadsheet's getDataSourceSheets() answered: ${probe.dataSources} connected sheet${probe.dataSources === 1 ? '' : 's'}.`,
      meaning:
        "Apps Script lets Engage read this spreadsheet's BigQuery data sources. Whether Sheets runs a query for you is seen when Open in Sheets first adds one: Connected Sheets needs a Workspace edition that includes it; where it does not, Open in Sheets offers a ready query instead.",
    };
  }
  return {
    check,
    status: 'attention',
    result: `Reading this spreadsheet's connected sheets was refused: ${probe.message}`,
    meaning: 'Open in Sheets will not add a connected sheet for you here; it offers a ready query to paste into BigQuery instead.',
  };
}
