/**
 * ScriptApp.getAuthorizationInfo as the core's ConsentPort: of the scopes asked about, those the user
 * has not granted (getAuthorizedScopes lists the authorized ones among them), and Google's link to
 * grant them (getAuthorizationUrl, null when none is needed). Reference:
 * developers.google.com/apps-script/reference/script/script-app#getAuthorizationInfo(AuthMode,String),
 * .../authorization-info. The Apps Script types know only the one-argument form.
 */
import type { ConsentAnswer, ConsentPort } from '../../core';

interface AuthorizationInfoOfScopes {
  getAuthorizationStatus(): GoogleAppsScript.Script.AuthorizationStatus;
  getAuthorizationUrl(): string | null;
  getAuthorizedScopes?(): string[] | null;
}
type WithScopes = { getAuthorizationInfo(authMode: GoogleAppsScript.Script.AuthMode, scopes: string[]): AuthorizationInfoOfScopes };

/** Answers of this execution by the scopes asked about: a grant changes only between executions. */
const answers = new Map<string, ConsentAnswer>();

export const scriptConsent: ConsentPort = {
  check(scopes) {
    const key = scopes.join(' ');
    const known = answers.get(key);
    if (known) return known;
    const answer = ask(scopes);
    answers.set(key, answer);
    return answer;
  },
};

function ask(scopes: readonly string[]): ConsentAnswer {
  const info = (ScriptApp as unknown as WithScopes).getAuthorizationInfo(ScriptApp.AuthMode.FULL, [...scopes]);
  if (info.getAuthorizationStatus() !== ScriptApp.AuthorizationStatus.REQUIRED) return { missing: [], authorizationUrl: null };
  const authorized = info.getAuthorizedScopes?.() ?? [];
  return { missing: scopes.filter((scope) => !authorized.includes(scope)), authorizationUrl: info.getAuthorizationUrl() };
}
