/**
 * The scheduling account of a deployment that loads into BigQuery: the user's Engage session, whose
 * report source gains BigQuery's client (core BigQueryClient) over URL Fetch, on the user's OAuth
 * token (oauth-token.ts), counted against the same daily URL Fetch quota as Engage's calls. In a
 * deployment without `"bigquery": true` the session is the account unchanged, and no BigQuery call
 * can be made.
 */
import { BigQueryClient, bigqueryRootUrl, type EngageSession, type ScheduleAccount } from '../../core';
import { DEPLOYMENT } from '../adapters/deployment';
import { ScriptOAuthToken } from '../adapters/fetch/oauth-token';
import { blockingSleeper, systemClock } from '../adapters/system-time';
import { UrlFetchTransport } from '../adapters/fetch/url-fetch-transport';

export function scheduleAccount(session: EngageSession): ScheduleAccount {
  if (DEPLOYMENT.bigquery !== true) return session;
  const rootUrl = bigqueryRootUrl(DEPLOYMENT);
  // Made only when a BigQuery report is saved or refreshed: ScriptApp.getOAuthToken is read at each call.
  const warehouse = () =>
    new BigQueryClient({
      transport: new UrlFetchTransport(UrlFetchApp),
      token: new ScriptOAuthToken(),
      clock: systemClock,
      sleeper: blockingSleeper,
      counter: session.fetchQuota,
      ...(rootUrl ? { rootUrl } : {}),
    });
  return {
    isSignedIn: () => session.isSignedIn(),
    triggerRuntime: () => session.triggerRuntime(),
    buildQuery: (kind, input) => session.buildQuery(kind, input),
    reportSource: () => ({ ...session.reportSource(), warehouse }),
  };
}
