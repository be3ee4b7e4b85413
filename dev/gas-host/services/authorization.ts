/**
 * ScriptApp's word on consent: getAuthorizationInfo(authMode, oauthScopes?) and getInstallationSource(),
 * from Google's reference pages (developers.google.com/apps-script/reference/script/script-app,
 * .../authorization-info, .../installation-source). An AuthorizationInfo says REQUIRED when the user
 * holds not every scope asked about (the manifest's, without a list), gives an authorization URL then
 * ("If no authorization is required, this method returns null"), and the authorized scopes among those
 * asked about. Only FULL asks for consent ("no other authorization mode requires that users grant
 * authorization"): another mode is NOT_REQUIRED. The URL's shape is the host's own (UNCONFIRMED).
 */
import { fromRealm, type FacadeKit } from './kit';

const AUTH_MODES = ['NONE', 'LIMITED', 'FULL', 'CUSTOM_FUNCTION'];

/** Where the host's authorization links point: Google's consent page for this script (shape UNCONFIRMED). */
export const AUTHORIZATION_URL = 'https://script.google.com/macros/d/gas-host-script/authorize?scopes=';

/** ScriptApp's consent methods, for its facade. */
export function authorizationMethods(kit: FacadeKit) {
  const held = (): string[] | null => {
    const declared = kit.settings.oauthScopes;
    if (!declared) return null;
    return kit.settings.strict.partialConsent ? kit.ops.consentGranted() : [...declared];
  };
  const authorizationInfo = (authMode: unknown, oauthScopes?: unknown) => {
    if (kit.request.authMode === 'CUSTOM_FUNCTION') kit.deny('ScriptApp.getAuthorizationInfo');
    if (!AUTH_MODES.includes(String(authMode))) throw kit.realmError('Exception', 'Invalid argument: authMode');
    const asked = oauthScopes === undefined ? undefined : fromRealm(oauthScopes);
    if (asked !== undefined && (!Array.isArray(asked) || asked.some((s) => typeof s !== 'string'))) {
      throw kit.realmError('Exception', 'Invalid argument: oauthScopes');
    }
    const holding = held();
    const wanted = (asked as string[] | undefined) ?? kit.settings.oauthScopes ?? [];
    const authorized = holding === null ? [...wanted] : wanted.filter((scope) => holding.includes(scope));
    const missing = String(authMode) === 'FULL' ? wanted.filter((scope) => !authorized.includes(scope)) : [];
    return kit.api('AuthorizationInfo', {
      getAuthorizationStatus: () => (missing.length > 0 ? 'REQUIRED' : 'NOT_REQUIRED'),
      getAuthorizationUrl: () => (missing.length > 0 ? AUTHORIZATION_URL + encodeURIComponent(missing.join(' ')) : null),
      getAuthorizedScopes: () => authorized,
    });
  };
  return {
    getAuthorizationInfo: authorizationInfo,
    getInstallationSource: () => {
      if (kit.request.authMode === 'CUSTOM_FUNCTION') kit.deny('ScriptApp.getInstallationSource');
      return kit.settings.installationSource;
    },
  };
}
