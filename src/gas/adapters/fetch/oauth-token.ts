/**
 * The user's OAuth access token for Google's APIs, from ScriptApp.getOAuthToken(): it carries every
 * scope the manifest asks for (the bigquery scope in a deployment with `"bigquery": true`), so the
 * core's BigQuery client calls BigQuery's REST API as the user. Read at each request and never kept:
 * Apps Script renews it, and a token belongs in no property, cache, log or message.
 */
import type { OAuthTokenSource } from '../../../core';

export class ScriptOAuthToken implements OAuthTokenSource {
  constructor(private readonly script: Pick<GoogleAppsScript.Script.ScriptApp, 'getOAuthToken'> = ScriptApp) {}

  oauthToken(): string {
    return this.script.getOAuthToken();
  }
}
