/**
 * The installation check's findings on consent and installation: what the user granted, one row per
 * scope the add-on's actions need (Apps Script's getAuthorizationInfo: since August 2025 a user may grant
 * an Editor add-on only some of its scopes), and how the add-on came to be installed
 * (Apps Script's getInstallationSource). A test deployment runs no installable trigger ("Test deployments
 * ... have limitations such as not supporting installable triggers",
 * developers.google.com/workspace/add-ons/how-tos/testing-editor-addons): the trigger's row says so.
 * A probe Google refuses is reported in Google's words.
 */
import type { Permission } from '../../consent';
import { SPREADSHEET_SCOPES, type SpreadsheetAccess } from '../../deployment';
import type { ConsentAnswer } from '../../ports';
import type { Finding } from '../../finding';

/**
 * The scopes the check asks about, with the permission each belongs to (the spreadsheet's, none):
 * `permissions` are every build's (consent.ts BASE_PERMISSIONS) and its destinations'.
 */
export function checkedScopes(
  access: SpreadsheetAccess,
  permissions: readonly Permission[],
): Array<{ scope: string; permission?: Permission }> {
  return [
    { scope: SPREADSHEET_SCOPES[access] },
    ...permissions.flatMap((permission) => permission.scopes.map((scope) => ({ scope, permission }))),
  ];
}

/** One row per scope: granted or not, and what a missing one stops; or Google's words when it would not say. */
export function consentFindings(
  scopes: ReadonlyArray<{ scope: string; permission?: Permission }>,
  answer: ConsentAnswer | { error: string },
): Finding[] {
  if ('error' in answer) {
    return [
      {
        check: 'Permissions you granted',
        status: 'attention',
        result: `Apps Script would not say: ${answer.error}`,
        meaning: 'Each action checks its permission when it starts, and says which one to allow if it is missing.',
      },
    ];
  }
  return scopes.map(({ scope, permission }) => {
    const check = `Permission granted: ${scope.replace('https://www.googleapis.com/auth/', '')}`;
    const what = permission ? permission.words : 'see and change this spreadsheet';
    if (!answer.missing.includes(scope)) {
      return {
        check,
        status: 'ok',
        result: `You allowed Engage for Sheets to ${what}.`,
        meaning: 'Everything that needs it works for you.',
      };
    }
    const link = answer.authorizationUrl ? `: ${answer.authorizationUrl}` : ': reopen the spreadsheet and allow it when Google asks';
    return {
      check,
      status: 'attention',
      result: `You have not allowed Engage for Sheets to ${what}.`,
      meaning: `${permission ? permission.serves : 'the add-on needs it for everything'}; allow it in Google's authorization page${link}`,
    };
  });
}

/**
 * How the add-on was installed, by Apps Script's InstallationSource names (APPS_MARKETPLACE_DOMAIN_ADD_ON,
 * NONE "Script is not running as an add-on", WEB_STORE_ADD_ON); a test deployment (NONE) is flagged:
 * triggers need the add-on installed.
 */
export function installationSourceFinding(source: string | { error: string }): Finding {
  const check = 'How Engage for Sheets is installed';
  if (typeof source !== 'string') {
    return {
      check,
      status: 'attention',
      result: `Apps Script would not say: ${source.error}`,
      meaning: 'Run the check from the installed add-on.',
    };
  }
  if (source === 'NONE') {
    return {
      check,
      status: 'attention',
      result: 'Not as an installed add-on (its installation source is NONE): a test deployment, or the script itself.',
      meaning: TEST_DEPLOYMENT,
    };
  }
  const by = source === 'APPS_MARKETPLACE_DOMAIN_ADD_ON' ? 'by an administrator for the domain' : 'by you, from the Marketplace';
  return {
    check,
    status: 'ok',
    result: `Installed ${by} (${source}).`,
    meaning: 'Triggers run: schedules, backfills and notices work here.',
  };
}

const TEST_DEPLOYMENT =
  'Test deployments run no installable triggers: schedules, backfills, notices and the trigger row need the add-on installed ' +
  '(a private or unlisted Marketplace install), not a test deployment.';

/** The trigger's row in a test deployment: flagged, whatever it waits for. */
export function flagTestDeployment(trigger: Finding, source: string | { error: string }): Finding {
  if (source !== 'NONE') return trigger;
  return { ...trigger, status: 'attention', meaning: `Triggers need the add-on installed, not a test deployment. ${trigger.meaning}` };
}
