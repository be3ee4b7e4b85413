/**
 * The permissions the add-on's actions need, and the check each makes before it starts. Since August
 * 2025 a user may grant an Editor add-on only some of the scopes its manifest asks for ("Some script
 * executions can start without a user's consent to all required scopes",
 * developers.google.com/apps-script/reference/script/authorization-info): an action checks the scopes it
 * needs first, through the ConsentPort (Apps Script's getAuthorizationInfo), and refuses in one sentence
 * naming the permission to allow, with Google's authorization link, before anything is sent or saved.
 * Every build asks for the three permissions here; a destination that needs more brings its own
 * (schedules/refresh/destination.ts, `permissions`).
 */
import { PermissionNotGrantedError } from './errors';
import type { ConsentAnswer, ConsentPort } from './ports';

/** A permission as the user grants it: the manifest's scopes behind it, and what it lets the add-on do. */
export interface Permission {
  /** Its name, unique among the permissions ('fetch', 'schedule', 'mail', or a destination's). */
  readonly name: string;
  readonly scopes: readonly string[];
  /** What it lets the add-on do, after "allow Engage for Sheets to", in the words of Google's consent screen. */
  readonly words: string;
  /** What of the add-on needs it: the installation check's row of a scope not granted says so. */
  readonly serves: string;
}

const AUTH = 'https://www.googleapis.com/auth/';

/** Reaching Engage (and a notice channel's host): signing in, running reports, every refresh. */
export const FETCH_PERMISSION: Permission = {
  name: 'fetch',
  scopes: [`${AUTH}script.external_request`],
  words: 'connect to an external service',
  serves: 'signing in, running reports and every refresh reach Engage with it',
};
/** The hourly trigger of saved reports: saving, pausing and resuming them. */
export const SCHEDULE_PERMISSION: Permission = {
  name: 'schedule',
  scopes: [`${AUTH}script.scriptapp`],
  words: 'run on a schedule',
  serves: 'saving a schedule installs the hourly trigger with it',
};
/** Notices by email. */
export const MAIL_PERMISSION: Permission = {
  name: 'mail',
  scopes: [`${AUTH}script.send_mail`],
  words: 'send email as you',
  serves: 'email notices are sent with it',
};
/** What every build asks for. */
export const BASE_PERMISSIONS: readonly Permission[] = [FETCH_PERMISSION, SCHEDULE_PERMISSION, MAIL_PERMISSION];

/** The permissions of `needs` the user has not granted, with Google's link; none when `consent` cannot say. */
export function missingPermissions(
  consent: ConsentPort | undefined,
  needs: readonly Permission[],
): { missing: Permission[]; url: string | null } {
  const wanted = [...new Map(needs.map((need) => [need.name, need])).values()];
  if (!consent || wanted.length === 0) return { missing: [], url: null };
  let answer: ConsentAnswer;
  try {
    answer = consent.check(wanted.flatMap((need) => need.scopes));
  } catch {
    // Apps Script would not say: the action goes on, and a service refused says so in Google's words.
    return { missing: [], url: null };
  }
  const missing = wanted.filter((need) => need.scopes.some((scope) => answer.missing.includes(scope)));
  return { missing, url: missing.length > 0 ? answer.authorizationUrl : null };
}

/** Refuses `action` in one sentence, before it starts, when the user has not granted a permission it needs. */
export function requirePermissions(consent: ConsentPort | undefined, needs: readonly Permission[], action?: string): void {
  const { missing, url } = missingPermissions(consent, needs);
  if (missing.length > 0)
    throw new PermissionNotGrantedError(
      missing.map((need) => need.words),
      url,
      action,
    );
}
