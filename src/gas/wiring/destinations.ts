/**
 * The destinations this build's saved reports may have, each given its own dependencies: the sheet
 * always; BigQuery only in a build whose deployment says `"bigquery": true`, with BigQuery's client
 * (core BigQueryClient) over URL Fetch, on the user's OAuth token (oauth-token.ts), counted against
 * the same daily URL Fetch quota as Engage's calls. The build folds __ENGAGE_BIGQUERY__ (scripts/build.ts),
 * so a build without BigQuery leaves the BigQuery destination's code out of the bundle, and no
 * BigQuery call can be made.
 */
import {
  BigQueryClient,
  bigQueryDestination,
  bigqueryRootUrl,
  type ConnectedSheets,
  Destinations,
  type EngageSession,
  type OpenInSheetsAnswer,
  SavedReportStore,
  sheetDestination,
} from '../../core';
import { DEPLOYMENT } from '../adapters/deployment';
import { ScriptOAuthToken } from '../adapters/fetch/oauth-token';
import { UrlFetchTransport } from '../adapters/fetch/url-fetch-transport';
import { PropertiesStore } from '../adapters/properties-store';
import { connectedSheets } from '../adapters/sheets/connected-sheets';
import { ServiceLock } from '../adapters/service-lock';
import { blockingSleeper, systemClock } from '../adapters/system-time';
import { createSession } from './addon-services';

/** Whether the deployment loads into BigQuery; read where it is used, so that esbuild folds it there. */
declare const __ENGAGE_BIGQUERY__: boolean;

/** `session` is asked for only when BigQuery's client is made (a BigQuery report saved or refreshed). */
export function destinations(session: () => EngageSession): Destinations {
  // In a branch, not after an early return: esbuild leaves out only what a folded-away branch names.
  if (__ENGAGE_BIGQUERY__) return new Destinations([sheetDestination(), bigQueryDestination({ client: bigQueryClient(session) })]);
  return new Destinations([sheetDestination()]);
}

/** BigQuery's client, made when a BigQuery report is saved or refreshed (or the check probes): ScriptApp.getOAuthToken is read at each call. */
export function bigQueryClient(session: () => EngageSession): () => BigQueryClient {
  const rootUrl = bigqueryRootUrl(DEPLOYMENT);
  return () =>
    new BigQueryClient({
      transport: new UrlFetchTransport(UrlFetchApp),
      token: new ScriptOAuthToken(),
      clock: systemClock,
      sleeper: blockingSleeper,
      counter: session().fetchQuota,
      ...(rootUrl ? { rootUrl } : {}),
    });
}

/** Opens saved report `id`'s BigQuery table in the active spreadsheet, or says why not. */
export function openReportTableInSheets(id: unknown): OpenInSheetsAnswer {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const reports = new SavedReportStore({
    store: new PropertiesStore(PropertiesService.getDocumentProperties()),
    lock: new ServiceLock(LockService.getDocumentLock()),
    clock: systemClock,
  });
  // Only a build with BigQuery has Connected Sheets' adapter; any other refuses before a sheet is asked.
  const sheets = (): ConnectedSheets => {
    if (__ENGAGE_BIGQUERY__) return connectedSheets(spreadsheet);
    throw new Error('Engage: this installation does not open tables in Sheets');
  };
  return destinations(createSession).openSaved(reports, id, sheets);
}
