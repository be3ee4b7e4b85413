/**
 * The Spreadsheet's sharing methods (getOwner, getEditors, addEditor(s), removeEditor), kept apart
 * from spreadsheet.ts: each needs the scope Google's reference gives it (spreadsheets.currentonly or
 * spreadsheets), and the state is state/spreadsheets/sharing.ts. Users are Base User objects
 * (getEmail only).
 */
import type { Facade, FacadeKit } from '../kit';
import type { UserFacade } from '../session';

/** Google's reference: every one of these "requires one or more of the following scopes". */
const SPREADSHEET_SCOPES = ['https://www.googleapis.com/auth/spreadsheets.currentonly', 'https://www.googleapis.com/auth/spreadsheets'];

/** An email given as text or as a User (`addEditor(user)`). */
const emailOf = (who: unknown): string =>
  who !== null && typeof who === 'object' && typeof (who as { getEmail?: unknown }).getEmail === 'function'
    ? String((who as { getEmail(): unknown }).getEmail())
    : String(who);

/** The members to spread into the Spreadsheet facade; `self` returns the facade for chaining. */
export function sharingMembers(kit: FacadeKit, user: UserFacade, self: () => Facade): Record<string, (...args: never[]) => unknown> {
  const { ops } = kit;
  const checked = <T>(name: string, work: () => T): T => {
    kit.requireScopes(`Spreadsheet.${name}`, SPREADSHEET_SCOPES);
    return work();
  };
  return {
    getOwner: () =>
      checked('getOwner', () => {
        const owner = ops.sharingOwner();
        return owner === null ? null : user(owner);
      }),
    getEditors: () => checked('getEditors', () => ops.sharingEditors().map(user)),
    addEditor: (who: unknown) =>
      checked('addEditor', () => {
        kit.guardWrite('addEditor');
        ops.sharingAddEditors([emailOf(who)]);
        return self();
      }),
    addEditors: (emails: unknown[]) =>
      checked('addEditors', () => {
        kit.guardWrite('addEditors');
        ops.sharingAddEditors(Array.from(emails, emailOf));
        return self();
      }),
    removeEditor: (who: unknown) =>
      checked('removeEditor', () => {
        kit.guardWrite('removeEditor');
        ops.sharingRemoveEditor(emailOf(who));
        return self();
      }),
  };
}
