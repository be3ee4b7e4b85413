/**
 * The permissions the add-on's actions need, and the check each makes before it starts. Since August
 * 2025 a user may grant an Editor add-on only some of the scopes its manifest asks for ("Some script
 * executions can start without a user's consent to all required scopes",
 * developers.google.com/apps-script/reference/script/authorization-info): an action checks the scopes it
 * needs first, through the ConsentPort (ScriptApp.getAuthorizationInfo), and refuses in one sentence
 * naming the permission to allow, with Google's authorization link, before anything is sent or saved.
 */
import { PermissionNotGrantedError } from './errors';
import type { ConsentAnswer, ConsentPort } from './ports';
import { BIGQUERY_READONLY_SCOPE, BIGQUERY_SCOPE } from './deployment';

export type Permission = 'fetch' | 'schedule' | 'mail' | 'bigquery';

const AUTH = 'https://www.googleapis.com/auth/';
/** The manifest's scopes behind each permission (appsscript.json; BigQuery's two with `"bigquery": true`). */
export const PERMISSION_SCOPES: Readonly<Record<Permission, readonly string[]>> = {
  fetch: [`${AUTH}script.external_request`],
  schedule: [`${AUTH}script.scriptapp`],
  mail: [`${AUTH}script.send_mail`],
  bigquery: [BIGQUERY_SCOPE, BIGQUERY_READONLY_SCOPE],
};

/** What each permission lets the add-on do, after "allow Engage for Sheets to". */
export const PERMISSION_WORDS: Readonly<Record<Permission, string>> = {
  fetch: 'connect to an external service',
  schedule: 'run on a schedule',
  mail: 'send email as you',
  bigquery: 'view and manage your data in BigQuery',
};

/** The permissions of `needs` the user has not granted, with Google's link; none when `consent` cannot say. */
export function missingPermissions(
  consent: ConsentPort | undefined,
  needs: readonly Permission[],
): { missing: Permission[]; url: string | null } {
  const wanted = [...new Set(needs)];
  if (!consent || wanted.length === 0) return { missing: [], url: null };
  let answer: ConsentAnswer;
  try {
    answer = consent.check(wanted.flatMap((need) => PERMISSION_SCOPES[need]));
  } catch {
    // Apps Script would not say: the action goes on, and a service refused says so in Google's words.
    return { missing: [], url: null };
  }
  const missing = wanted.filter((need) => PERMISSION_SCOPES[need].some((scope) => answer.missing.includes(scope)));
  return { missing, url: missing.length > 0 ? answer.authorizationUrl : null };
}

/** Refuses `action` in one sentence, before it starts, when the user has not granted a permission it needs. */
export function requirePermissions(consent: ConsentPort | undefined, needs: readonly Permission[], action?: string): void {
  const { missing, url } = missingPermissions(consent, needs);
  if (missing.length > 0)
    throw new PermissionNotGrantedError(
      missing.map((need) => PERMISSION_WORDS[need]),
      url,
      action,
    );
}
