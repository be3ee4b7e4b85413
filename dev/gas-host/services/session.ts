/**
 * Session and User: the execution's user (active and effective are the same here: an add-on runs as
 * the user who uses it), which needs the `userinfo.email` scope when the manifest lists scopes, a
 * temporary key derived from it, and the script's time zone.
 */
import crypto from 'node:crypto';
import type { Facade, FacadeKit } from './kit';

export type UserFacade = (email: string) => Facade;

export function userFacade(kit: FacadeKit): UserFacade {
  return (email) => kit.api('User', { getEmail: () => email, getUserLoginId: () => email });
}

/** Google's reference: getActiveUser and getEffectiveUser need this scope. */
const USERINFO_EMAIL = ['https://www.googleapis.com/auth/userinfo.email'];

export function sessionService(kit: FacadeKit, user: UserFacade) {
  const { request } = kit;
  const who = (method: string) => {
    kit.guard('session', `Session.${method}`);
    kit.requireScopes(`Session.${method}`, USERINFO_EMAIL);
    return user(request.user);
  };
  return kit.api('Session', {
    getActiveUser: () => who('getActiveUser'),
    getEffectiveUser: () => who('getEffectiveUser'),
    getTemporaryActiveUserKey: () => (
      kit.guard('session', 'Session.getTemporaryActiveUserKey'), crypto.createHash('sha1').update(request.user).digest('hex')
    ),
    getActiveUserLocale: () => 'en',
    getScriptTimeZone: () => kit.ops.spreadsheetInfo().scriptTimeZone,
  });
}
