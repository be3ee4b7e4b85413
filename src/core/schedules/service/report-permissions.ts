/**
 * The permissions a saved report needs of the user who saved it (consent.ts): to run on a schedule
 * (its hourly trigger), to reach Engage, what its destination needs beyond that (the destination's own
 * `permissions`), and to send email as them when its notices go by email. Saving checks them all; a
 * scheduled run skips a report whose refresh needs a permission the user withheld.
 */
import { FETCH_PERMISSION, MAIL_PERMISSION, type Permission, SCHEDULE_PERMISSION } from '../../consent';
import type { Destinations } from '../refresh/destination';
import { noticeSettingsOf } from '../saved/notice-settings';
import type { SavedReportInput } from '../saved/saved-reports';

type PermissionsOf = Pick<SavedReportInput, 'destination' | 'notices'>;

/** What the report's refresh itself needs: Engage, and what its destination needs beyond it. */
export function refreshPermissions(report: PermissionsOf, destinations: Pick<Destinations, 'find'>): Permission[] {
  // A destination this installation lacks is refused at save and said at its refresh; it asks nothing here.
  return [FETCH_PERMISSION, ...(destinations.find(report)?.permissions ?? [])];
}

/** What its notices need: email, when they go by email and may be sent at all. */
export function noticePermissions(report: PermissionsOf): Permission[] {
  const notices = noticeSettingsOf(report);
  return notices.when !== 'never' && notices.channels.includes('email') ? [MAIL_PERMISSION] : [];
}

/** Everything saving the report needs: a schedule, its refresh and its notices. */
export function reportPermissions(report: PermissionsOf, destinations: Pick<Destinations, 'find'>): Permission[] {
  return [SCHEDULE_PERMISSION, ...refreshPermissions(report, destinations), ...noticePermissions(report)];
}
