/**
 * The permissions a saved report needs of the user who saved it (consent.ts): to run on a schedule
 * (`script.scriptapp`, its hourly trigger), to reach Engage (`script.external_request`), to send email as
 * them when its notices go by email (`script.send_mail`), and BigQuery's two scopes when it loads a table.
 * Saving checks them all; a scheduled run skips a report whose permission the user withheld.
 */
import type { Permission } from '../../consent';
import { noticeSettingsOf, type NoticeSettingsInput } from './notice-settings';

export interface PermissionsOf {
  destination: { kind: string };
  notices?: NoticeSettingsInput;
}

/** What the report's refresh itself needs: Engage, and BigQuery for a table. */
export function refreshPermissions(report: PermissionsOf): Permission[] {
  return report.destination.kind === 'bigquery' ? ['fetch', 'bigquery'] : ['fetch'];
}

/** What its notices need: email, when they go by email and may be sent at all. */
export function noticePermissions(report: PermissionsOf): Permission[] {
  const notices = noticeSettingsOf(report);
  return notices.when !== 'never' && notices.channels.includes('email') ? ['mail'] : [];
}

/** Everything saving the report needs: a schedule, its refresh and its notices. */
export function reportPermissions(report: PermissionsOf): Permission[] {
  return ['schedule', ...refreshPermissions(report), ...noticePermissions(report)];
}
