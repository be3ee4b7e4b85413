/**
 * The email channel: a plain-text message to the user the run executes as (the owner of the saved
 * reports it refreshes), through the Mailer port (Apps Script's mail service, src/gas). On unless
 * `notices.email` is false; it has no secret. A refusal of the mail service becomes one short reason.
 */
import * as z from '../util/zod';
import type { ConsentPort, Mailer } from '../ports';
import { MAIL_PERMISSION, missingPermissions } from '../consent';
import { type ChannelSend, type NoticeChannel, notSent } from './channel';

export const emailChannel = {
  id: 'email',
  /** An email to the user who saved the report; default true. */
  setting: z.optional(z.boolean({ error: 'must be true or false' })),
  isOn: (setting) => setting !== false,
  turnOn: 'turn on notices.email',
  shown: (setting) => setting !== false,
} satisfies NoticeChannel<'email', boolean, boolean>;

/**
 * Sends through `mailer`; left out where Apps Script's mail service cannot be used. With `consent`, a
 * user who withheld the permission to send email is not tried: the outcome says which permission to allow
 * (the Schedules tab shows it).
 */
export function emailSender(mailer: Mailer | undefined, consent?: ConsentPort): ChannelSend {
  return ({ subject, lines }) => {
    if (!mailer) return 'not sent: email is not available here';
    // An outcome is kept in 100 bytes (notice-record.ts): the permission's words, without Google's long link.
    if (missingPermissions(consent, [MAIL_PERMISSION]).missing.length > 0)
      return `not sent: allow Engage for Sheets to ${MAIL_PERMISSION.words}`;
    try {
      const to = mailer.address();
      if (!to) return 'not sent: Google did not give Engage your email address';
      if (mailer.remainingToday() < 1) return "not sent: today's email quota of Apps Script is spent";
      mailer.send({ to, subject, body: lines.join('\n') });
      return 'sent';
    } catch (error) {
      return notSent(error);
    }
  };
}
