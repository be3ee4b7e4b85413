/**
 * What a user granted, in the host. Since August 2025 a user may grant an Editor add-on only some of
 * its scopes: "Some script executions can start without a user's consent to all required scopes used by
 * the script" (developers.google.com/apps-script/reference/script/authorization-info). The strict
 * reading's `partialConsent` honours the `grantedScopes` option (and `host.grantScopes`), and a service
 * used without its scope throws "You do not have permission to call X. Required permissions: <scope>";
 * the kind reading grants every user the manifest's every scope. ScriptApp.getAuthorizationInfo
 * answers per Google's reference (REQUIRED with an authorization URL, or NOT_REQUIRED and null; the
 * authorized scopes among those asked about), and getInstallationSource gives the host's option, one of
 * the enum InstallationSource's three names.
 */
import { createDeployment, createGasHost } from '../../../dev/gas-host';

const AUTH = 'https://www.googleapis.com/auth/';
const SCOPES = ['spreadsheets.currentonly', 'script.external_request', 'script.scriptapp', 'script.send_mail'].map((s) => AUTH + s);
const MANIFEST = { oauthScopes: SCOPES };
const withheld = (scope: string) => SCOPES.filter((s) => s !== AUTH + scope);

const BUNDLE = `
function mail() { MailApp.sendEmail({ to: 'ann@example.com', subject: 's', body: 'b' }); return 'sent'; }
function trigger() { ScriptApp.newTrigger('tick').timeBased().everyHours(1).create(); return 'created'; }
function fetchIt() { return UrlFetchApp.fetch('http://127.0.0.1:9/', { muteHttpExceptions: true }).getResponseCode(); }
function info(scopes) {
  var i = scopes ? ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL, scopes) : ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL);
  return { status: String(i.getAuthorizationStatus()), url: i.getAuthorizationUrl(), scopes: i.getAuthorizedScopes() };
}
function limitedInfo() { return String(ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.LIMITED).getAuthorizationStatus()); }
function badInfo() { return ScriptApp.getAuthorizationInfo('SOMETIMES'); }
function source() { return String(ScriptApp.getInstallationSource()) + ' ' + (ScriptApp.getInstallationSource() === ScriptApp.InstallationSource.NONE); }
/** @customfunction */
function FORMULA_INFO() { return ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL).getAuthorizationStatus(); }
`;

describe('what a user granted, in the local host', () => {
  it('refuses each service whose scope the user withheld, in Google words, in the strict reading', () => {
    const host = createGasHost({
      manifest: MANIFEST,
      strict: { partialConsent: true },
      grantedScopes: { 'owner@example.com': withheld('script.send_mail') },
    });
    host.load(BUNDLE);
    expect(() => host.call('mail')).toThrow(
      `You do not have permission to call MailApp.sendEmail. Required permissions: ${AUTH}script.send_mail`,
    );
    expect(host.mails).toEqual([]);
    expect(host.call('trigger')).toBe('created');

    host.grantScopes('owner@example.com', withheld('script.scriptapp'));
    expect(() => host.call('trigger')).toThrow(
      `You do not have permission to call ScriptApp.newTrigger. Required permissions: ${AUTH}script.scriptapp`,
    );
    expect(host.state.triggers.ofDocument()).toHaveLength(1);
    expect(host.call('mail')).toBe('sent');

    host.grantScopes('owner@example.com', withheld('script.external_request'));
    expect(() => host.call('fetchIt')).toThrow(
      `You do not have permission to call UrlFetchApp.fetch. Required permissions: ${AUTH}script.external_request`,
    );
    expect(host.requestsTo('127.0.0.1:9')).toEqual([]);
    // Another user granted everything (named by no grant).
    expect(host.call('mail', [], { user: 'bob@example.com' })).toBe('sent');
  });

  it('keeps a grant per user across the documents of one deployment', () => {
    const deployment = createDeployment();
    const a = createGasHost({ deployment, documentId: 'a', manifest: MANIFEST, strict: { partialConsent: true } });
    const b = createGasHost({ deployment, documentId: 'b', manifest: MANIFEST, strict: { partialConsent: true } });
    a.load(BUNDLE);
    b.load(BUNDLE);
    a.grantScopes('owner@example.com', withheld('script.send_mail'));
    expect(() => b.call('mail')).toThrow(/Required permissions: .*script\.send_mail/);
    expect(b.grantedScopes()).toEqual(withheld('script.send_mail'));
  });

  it('grants every scope of the manifest in the kind reading, whatever the option says', () => {
    const host = createGasHost({
      manifest: MANIFEST,
      strict: false,
      grantedScopes: { 'owner@example.com': withheld('script.send_mail') },
    });
    host.load(BUNDLE);
    expect(host.call('mail')).toBe('sent');
    expect(host.call('info')).toEqual({ status: 'NOT_REQUIRED', url: null, scopes: SCOPES });
  });

  it('answers getAuthorizationInfo as Google reference describes it', () => {
    const host = createGasHost({ manifest: MANIFEST, strict: { partialConsent: true } });
    host.load(BUNDLE);
    expect(host.call('info')).toEqual({ status: 'NOT_REQUIRED', url: null, scopes: SCOPES });
    host.grantScopes('owner@example.com', withheld('script.send_mail'));
    const all = host.call('info') as { status: string; url: string; scopes: string[] };
    expect(all.status).toBe('REQUIRED');
    expect(all.url).toMatch(/^https:\/\/script\.google\.com\/.*script\.send_mail/);
    expect(all.scopes).toEqual(withheld('script.send_mail'));
    // Asked about some scopes: the status and the authorized scopes are of those alone.
    expect(host.call('info', [[`${AUTH}script.scriptapp`]])).toEqual({
      status: 'NOT_REQUIRED',
      url: null,
      scopes: [`${AUTH}script.scriptapp`],
    });
    expect(host.call('info', [[`${AUTH}script.send_mail`, `${AUTH}script.scriptapp`]])).toMatchObject({
      status: 'REQUIRED',
      scopes: [`${AUTH}script.scriptapp`],
    });
    // "no other authorization mode requires that users grant authorization"
    expect(host.call('limitedInfo')).toBe('NOT_REQUIRED');
    expect(() => host.call('badInfo')).toThrow('Invalid argument: authMode');
    expect(host.evaluateFormula('Sheet1', 'A1', '=FORMULA_INFO()').error).toMatch(
      /You do not have permission to call ScriptApp.getAuthorizationInfo/,
    );
  });

  it('says how the add-on was installed: the option, one of the enum InstallationSource names', () => {
    const installed = createGasHost();
    installed.load(BUNDLE);
    expect(installed.call('source')).toBe('WEB_STORE_ADD_ON false');
    const test = createGasHost({ installationSource: 'NONE' });
    test.load(BUNDLE);
    expect(test.call('source')).toBe('NONE true');
    expect(() => createGasHost({ installationSource: 'TEST' as 'NONE' })).toThrow(/installationSource TEST is none of/);
  });
});
