/**
 * Server functions the sidebar calls with google.script.run. They run in AuthMode.FULL as the user
 * who has the sidebar open. Arguments and results are plain data; a failure reaches the sidebar's
 * failure handler as an Error whose message is one sentence that says what to do next.
 */
import { FETCH_PERMISSION, requirePermissions, type SidebarState, type SignInAllowance } from '../core';
import { scriptConsent } from '../gas/adapters/consent';
import { createSession } from '../gas/wiring/addon-services';
import { withUserMessage } from './user-errors';

/**
 * Signs in to Engage with user name and password. Only the token and its issue time are kept, in
 * your own user properties; the password is not stored. Engage allows 2 sign-ins an hour.
 * @param {string} username Your Engage user name.
 * @param {string} password Your Engage password.
 * @return {Object} The sidebar's state after signing in.
 */
export function signIn(username: unknown, password: unknown): SidebarState {
  return withUserMessage(() => {
    requirePermissions(scriptConsent, [FETCH_PERMISSION], 'sign in');
    return createSession().signIn(username, password);
  });
}

/**
 * How many sign-ins are left this hour for a user name, by the add-on's own count (Engage allows 2 an
 * hour and counts failed ones): shown before each attempt. Sends nothing.
 * @param {string} username The Engage user name typed in the sign-in form.
 * @return {Object} {left, limit, nextAt}: nextAt (ISO) when none is left.
 */
export function signInAllowance(username: unknown): SignInAllowance {
  return withUserMessage(() => createSession().signInAllowance(username));
}

/**
 * Signs in with an API token created in Engage's web interface, instead of a password. The token is
 * checked with one request (the publisher list) first, and kept only when Engage accepts it.
 * @param {string} token The token.
 * @return {Object} The sidebar's state after signing in.
 */
export function signInWithToken(token: unknown): SidebarState {
  return withUserMessage(() => {
    requirePermissions(scriptConsent, [FETCH_PERMISSION], 'sign in');
    return createSession().useToken(token);
  });
}

/**
 * Forgets the stored token.
 * @return {Object} The sidebar's state after signing out.
 */
export function signOut(): SidebarState {
  return withUserMessage(() => createSession().signOut());
}

/**
 * Validates and stores the settings: reporting base address, recommendations address, API key and
 * widget ID, in your own user properties. A setting left out keeps its value; "" clears it.
 * @param {Object} settings The settings to change.
 * @return {Object} The sidebar's state, without the API key.
 */
export function saveSettings(settings: unknown): SidebarState {
  return withUserMessage(() => createSession().saveSettings(settings));
}

/**
 * The sidebar's state: sign-in, token age and expiry warning, settings without secrets (with the
 * addresses the deployment may call), and your URL fetches of the current 24 hours against the quota.
 * @return {Object} The state.
 */
export function getSidebarState(): SidebarState {
  return withUserMessage(() => createSession().sidebarState());
}
