/**
 * The destinations this build's saved reports may have, each given its own dependencies: the sheet
 * always; BigQuery only in a build whose deployment says `"bigquery": true`, with BigQuery's client
 * (core BigQueryClient) over URL Fetch, on the user's OAuth token (oauth-token.ts), counted against
 * the same daily URL Fetch quota as Engage's calls. The build folds __ENGAGE_BIGQUERY__ (scripts/build.ts),
 * so a build without BigQuery leaves the BigQuery destination's code out of the bundle, and no
 * BigQuery call can be made.
 */
import { BigQueryClient, bigQueryDestination, bigqueryRootUrl, Destinations, type EngageSession, sheetDestination } from '../core';
import { DEPLOYMENT } from './deployment';
import { ScriptOAuthToken } from './oauth-token';
import { blockingSleeper, systemClock } from './stores';
import { UrlFetchTransport } from './url-fetch-transport';

/** Whether the deployment loads into BigQuery; read where it is used, so that esbuild folds it there. */
declare const __ENGAGE_BIGQUERY__: boolean;

/** `session` is asked for only when BigQuery's client is made (a BigQuery report saved or refreshed). */
export function destinations(session: () => EngageSession): Destinations {
  // In a branch, not after an early return: esbuild leaves out only what a folded-away branch names.
  if (__ENGAGE_BIGQUERY__) return new Destinations([sheetDestination(), bigQueryDestination({ client: bigQueryClient(session) })]);
  return new Destinations([sheetDestination()]);
}

/** BigQuery's client, made when a BigQuery report is saved or refreshed: ScriptApp.getOAuthToken is read at each call. */
function bigQueryClient(session: () => EngageSession): () => BigQueryClient {
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
