/**
 * Partial consent in the core: since August 2025 a user may grant an Editor add-on only some of its
 * scopes ("Some script executions can start without a user's consent to all required scopes",
 * developers.google.com/apps-script/reference/script/authorization-info). An action checks the scopes it
 * needs first and refuses in one sentence naming the permission, with Google's authorization link; a
 * scheduled run marks only the reports whose refresh needs a withheld permission, once; an email notice
 * without the permission to send email is not tried; a BigQuery 403 for a scope is a missing permission,
 * not a missing role; and the installation check's rows say what was granted and how the add-on is installed.
 */
import { emailSender } from '../../../../src/core/channels/email';
import {
  BASE_PERMISSIONS,
  FETCH_PERMISSION,
  MAIL_PERMISSION,
  missingPermissions,
  requirePermissions,
  SCHEDULE_PERMISSION,
} from '../../../../src/core/consent';
import { PermissionNotGrantedError } from '../../../../src/core/errors';
import type { ConsentPort, Mailer, SpreadsheetRef } from '../../../../src/core/ports';
import { Destinations } from '../../../../src/core/schedules/refresh/destination';
import { reportPermissions } from '../../../../src/core/schedules/service/report-permissions';
import { sheetDestination } from '../../../../src/core/destinations/sheet/sheet-destination';
import type { RefreshStatus, SavedReport } from '../../../../src/core/schedules/saved/saved-reports';
import type { SavedReportSource } from '../../../../src/core/schedules/saved/saved-report-store';
import { withoutWithheld } from '../../../../src/core/schedules/service/withheld-reports';
import { BIGQUERY_PERMISSION, httpFailure } from '../../../../src/core/warehouse/bigquery-errors';
import {
  checkedScopes,
  consentFindings,
  flagTestDeployment,
  installationSourceFinding,
} from '../../../../src/core/addon/stores/installation-consent';
import { ManualClock } from '../../../support/fakes';
import { BOTH_DESTINATIONS } from '../../../support/destinations';

const AUTH = 'https://www.googleapis.com/auth/';
const URL = 'https://script.google.com/macros/d/x/authorize?scopes=a%20b';

/** A consent port over the scopes granted, counting its questions. */
function consent(granted: string[]): ConsentPort & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    check(scopes) {
      asked.push([...scopes]);
      const missing = scopes.filter((s) => !granted.includes(s));
      return { missing, authorizationUrl: missing.length > 0 ? URL : null };
    },
  };
}
const ALL = [...BASE_PERMISSIONS, BIGQUERY_PERMISSION].flatMap((permission) => permission.scopes);
const BOTH = BOTH_DESTINATIONS;
const names = (permissions: ReadonlyArray<{ name: string }>) => permissions.map((permission) => permission.name);
const without = (...scopes: string[]) => ALL.filter((s) => !scopes.includes(s));

describe('checking the permissions an action needs', () => {
  it('refuses in one sentence naming the permission, with Google link last, and asks once', () => {
    const port = consent(without(`${AUTH}script.scriptapp`));
    expect(() => requirePermissions(port, [SCHEDULE_PERMISSION, FETCH_PERMISSION], 'save this schedule')).toThrow(
      `To save this schedule, allow Engage for Sheets to run on a schedule in Google's authorization page: ${URL}`,
    );
    expect(port.asked).toEqual([[`${AUTH}script.scriptapp`, `${AUTH}script.external_request`]]);
    const error = (() => {
      try {
        requirePermissions(port, [SCHEDULE_PERMISSION]);
      } catch (e) {
        return e as PermissionNotGrantedError;
      }
    })();
    expect(error).toBeInstanceOf(PermissionNotGrantedError);
    expect(error!.code).toBe('PERMISSION_NOT_GRANTED');
    expect(error!.message).toBe(`Allow Engage for Sheets to run on a schedule in Google's authorization page: ${URL}`);
  });

  it('names every permission missing, and says what to do when Google gives no link', () => {
    const port: ConsentPort = { check: (scopes) => ({ missing: [...scopes], authorizationUrl: null }) };
    expect(() => requirePermissions(port, [MAIL_PERMISSION, BIGQUERY_PERMISSION], 'save this schedule')).toThrow(
      "To save this schedule, allow Engage for Sheets to send email as you and to view and manage your data in BigQuery: reopen the spreadsheet, open the add-on's menu and allow it when Google asks.",
    );
  });

  it('lets the action go on when everything is granted, when Apps Script will not say, or with no port', () => {
    expect(() => requirePermissions(consent(ALL), [...BASE_PERMISSIONS, BIGQUERY_PERMISSION])).not.toThrow();
    const refusing: ConsentPort = {
      check: () => {
        throw new Error('You do not have permission to call ScriptApp.getAuthorizationInfo');
      },
    };
    expect(missingPermissions(refusing, [MAIL_PERMISSION])).toEqual({ missing: [], url: null });
    expect(() => requirePermissions(undefined, [MAIL_PERMISSION])).not.toThrow();
  });

  it('knows what saving a report needs: a schedule, Engage, email for email notices, BigQuery for a table', () => {
    const target = { sheetName: 'S', cell: 'A1' };
    const sheet = { kind: 'sheet' as const, target };
    const table = { kind: 'bigquery' as const, target, table: { projectId: 'p', datasetId: 'd', tableId: 't', location: 'EU' } };
    expect(names(reportPermissions({ destination: sheet }, BOTH))).toEqual(['schedule', 'fetch', 'mail']);
    expect(names(reportPermissions({ destination: sheet, notices: { email: false } }, BOTH))).toEqual(['schedule', 'fetch']);
    expect(names(reportPermissions({ destination: sheet, notices: { when: 'never' } }, BOTH))).toEqual(['schedule', 'fetch']);
    expect(names(reportPermissions({ destination: table, notices: { email: false } }, BOTH))).toEqual(['schedule', 'fetch', 'bigquery']);
    // A build without BigQuery asks nothing of it, even for a report saved elsewhere with a table.
    const sheetOnly = new Destinations([sheetDestination()]);
    expect(names(reportPermissions({ destination: table, notices: { email: false } }, sheetOnly))).toEqual(['schedule', 'fetch']);
    expect(names(BOTH.permissions())).toEqual(['bigquery']);
    expect(sheetOnly.permissions()).toEqual([]);
  });
});

describe('a scheduled run without a permission', () => {
  const report = (id: string, kind: 'sheet' | 'bigquery', paused = false) =>
    ({ id, name: id, destination: { kind }, paused }) as unknown as SavedReport;
  function source(reports: SavedReport[]): SavedReportSource & { statuses: Map<string, RefreshStatus>; writes: number } {
    const statuses = new Map<string, RefreshStatus>();
    const store = {
      statuses,
      writes: 0,
      list: () => reports,
      findOrThrow: (id: unknown) => reports.find((r) => r.id === id)!,
      status: (id: string) => statuses.get(id) ?? {},
      setStatus: (id: string, status: RefreshStatus) => {
        store.writes++;
        statuses.set(id, status);
      },
    };
    return store;
  }

  it('leaves out only the reports that need it, marks each once, and never a paused one', () => {
    const clock = new ManualClock(Date.parse('2026-11-20T12:00:00Z'));
    const store = source([report('sheet', 'sheet'), report('table', 'bigquery'), report('paused', 'bigquery', true)]);
    const skipped: string[] = [];
    const told: string[] = [];
    const tell = (report: SavedReport) => void told.push(report.id);
    const held = withoutWithheld(store, { permissions: [BIGQUERY_PERMISSION], url: URL, destinations: BOTH }, clock, skipped, tell);
    expect(held.list().map((r) => r.id)).toEqual(['sheet']);
    expect(skipped).toEqual(['table']);
    expect(store.statuses.get('table')).toEqual({
      failures: 1,
      lastError: {
        message: `To refresh this report on its schedule, allow Engage for Sheets to view and manage your data in BigQuery in Google's authorization page: ${URL}`,
        atMs: clock.now(),
      },
    });
    expect(store.statuses.has('paused')).toBe(false);
    // The next run: the same words are not written again.
    clock.advance(3_600_000);
    withoutWithheld(store, { permissions: [BIGQUERY_PERMISSION], url: URL, destinations: BOTH }, clock, [], tell);
    expect(store.writes).toBe(1);
    // Its owner is told once, as the mark is written.
    expect(told).toEqual(['table']);
    // Nothing withheld: the store itself.
    expect(withoutWithheld(store, { permissions: [], url: null, destinations: BOTH }, clock, [])).toBe(store);
  });

  it('does not try an email notice, and says which permission to allow in the outcome', () => {
    const sent: unknown[] = [];
    const mailer: Mailer = { address: () => 'ann@example.com', remainingToday: () => 100, send: (m) => void sent.push(m) };
    const spreadsheet: SpreadsheetRef = { id: 's', name: 'S', url: 'https://docs.google.com/x', timeZone: 'UTC' };
    const message = { subject: 's', lines: ['l'], spreadsheet, report: { id: 'r', name: 'R' }, secret: undefined };
    expect(emailSender(mailer, consent(without(`${AUTH}script.send_mail`)))(message)).toBe(
      'not sent: allow Engage for Sheets to send email as you',
    );
    expect(sent).toEqual([]);
    expect(emailSender(mailer, consent(ALL))(message)).toBe('sent');
    expect(sent).toHaveLength(1);
  });
});

describe("a BigQuery 403 for the token's scopes", () => {
  const body = (reason: string, details?: unknown) =>
    JSON.stringify({
      error: {
        code: 403,
        message: 'Request had insufficient authentication scopes.',
        status: 'PERMISSION_DENIED',
        errors: [{ reason, message: 'Insufficient Permission' }],
        ...(details ? { details } : {}),
      },
    });

  it('is a permission to allow, not a role to ask for', () => {
    for (const answer of [
      body('insufficientPermissions'),
      body('forbidden', [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' }]),
    ]) {
      const error = httpFailure('reading dataset p.d', 403, answer);
      expect(error.code).toBe('PERMISSION_NOT_GRANTED');
      expect(error.message).toMatch(/you have not allowed Engage for Sheets to view and manage your data in BigQuery/);
      expect(error.message).not.toMatch(/Data Editor|Job User/);
    }
    const roles = httpFailure('reading dataset p.d', 403, body('accessDenied'));
    expect(roles.code).toBe('PERMISSION_DENIED');
    expect(roles.message).toMatch(/BigQuery Data Editor and Job User roles/);
  });
});

describe("the installation check's consent rows", () => {
  it('has one row per scope: granted, or what it stops and Google link', () => {
    const scopes = checkedScopes('current', BASE_PERMISSIONS);
    expect(scopes.map((s) => s.scope)).toEqual([
      `${AUTH}spreadsheets.currentonly`,
      `${AUTH}script.external_request`,
      `${AUTH}script.scriptapp`,
      `${AUTH}script.send_mail`,
    ]);
    expect(checkedScopes('all', [...BASE_PERMISSIONS, ...BOTH.permissions()])).toHaveLength(6);
    const rows = consentFindings(scopes, { missing: [`${AUTH}script.send_mail`], authorizationUrl: URL });
    expect(rows.map((r) => [r.check, r.status])).toEqual([
      ['Permission granted: spreadsheets.currentonly', 'ok'],
      ['Permission granted: script.external_request', 'ok'],
      ['Permission granted: script.scriptapp', 'ok'],
      ['Permission granted: script.send_mail', 'attention'],
    ]);
    expect(rows[3]!.meaning).toBe(`email notices are sent with it; allow it in Google's authorization page: ${URL}`);
    expect(consentFindings(scopes, { error: 'Authorization is required to perform that action.' })).toEqual([
      expect.objectContaining({
        status: 'attention',
        result: 'Apps Script would not say: Authorization is required to perform that action.',
      }),
    ]);
  });

  it('says how the add-on is installed, and flags the trigger row of a test deployment', () => {
    expect(installationSourceFinding('WEB_STORE_ADD_ON').status).toBe('ok');
    expect(installationSourceFinding('APPS_MARKETPLACE_DOMAIN_ADD_ON').result).toMatch(/by an administrator for the domain/);
    const test = installationSourceFinding('NONE');
    expect(test.status).toBe('attention');
    expect(test.meaning).toMatch(/need the add-on installed \(a private or unlisted Marketplace install\), not a test deployment/);
    expect(installationSourceFinding({ error: 'nope' })).toMatchObject({ status: 'attention', result: 'Apps Script would not say: nope' });
    const trigger = { check: 'A scheduled run has its spreadsheet', status: 'pending' as const, result: 'r', meaning: 'm' };
    expect(flagTestDeployment(trigger, 'WEB_STORE_ADD_ON')).toBe(trigger);
    expect(flagTestDeployment(trigger, 'NONE')).toEqual({
      ...trigger,
      status: 'attention',
      meaning: 'Triggers need the add-on installed, not a test deployment. m',
    });
  });
});
