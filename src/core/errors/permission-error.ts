/**
 * The user has not granted the add-on a permission an action needs. Since August 2025 a user may grant
 * an Editor add-on only some of its scopes, also when consenting again after a grant expired
 * (developers.google.com/apps-script/reference/script/authorization-info): the action says which
 * permission to allow, in the words of Google's consent screen, and gives Google's authorization link
 * (Apps Script's getAuthorizationUrl), which the sidebar shows as a link. Trying again without it cannot help.
 */
import { EngageError } from './engage-error';

/** What ends the sentence when Google gave a link: the sidebar turns the address after it into a link. */
export const AUTHORIZATION_LINK_LEAD = "Google's authorization page: ";

export class PermissionNotGrantedError extends EngageError {
  readonly code = 'PERMISSION_NOT_GRANTED' as const;
  constructor(
    /** What each missing permission allows, as "send email as you" (consent.ts). */
    readonly permissions: readonly string[],
    /** Google's authorization link, or null when it gave none. */
    readonly authorizationUrl: string | null,
    /** What the user was doing, as "save this schedule"; left out, the action in general. */
    readonly action?: string,
  ) {
    super('PermissionNotGrantedError');
  }
  userMessage(): string {
    const allow = `allow Engage for Sheets to ${this.permissions.join(' and to ')}`;
    const sentence = this.action ? `To ${this.action}, ${allow}` : `${allow[0]!.toUpperCase()}${allow.slice(1)}`;
    return this.authorizationUrl
      ? `${sentence} in ${AUTHORIZATION_LINK_LEAD}${this.authorizationUrl}`
      : `${sentence}: reopen the spreadsheet, open the add-on's menu and allow it when Google asks.`;
  }
}
