/**
 * Session and User: the execution's user (active and effective are the same here), a temporary key
 * derived from it, and the script's time zone.
 */
import crypto from 'node:crypto';
import type { Facade, FacadeKit } from './kit';

export type UserFacade = (email: string) => Facade;

export function userFacade(kit: FacadeKit): UserFacade {
  return (email) => kit.api('User', { getEmail: () => email, getUserLoginId: () => email });
}

export function sessionService(kit: FacadeKit, user: UserFacade) {
  const { request } = kit;
  return kit.api('Session', {
    getActiveUser: () => (kit.guard('session', 'Session.getActiveUser'), user(request.user)),
    getEffectiveUser: () => (kit.guard('session', 'Session.getEffectiveUser'), user(request.user)),
    getTemporaryActiveUserKey: () => (
      kit.guard('session', 'Session.getTemporaryActiveUserKey'), crypto.createHash('sha1').update(request.user).digest('hex')
    ),
    getActiveUserLocale: () => 'en',
    getScriptTimeZone: () => kit.ops.spreadsheetInfo().scriptTimeZone,
  });
}
