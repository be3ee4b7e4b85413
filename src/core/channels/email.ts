/**
 * The email channel: a plain-text message to the user the run executes as (the owner of the saved
 * reports it refreshes), through the Mailer port (Apps Script's mail service, src/gas). On unless
 * `notices.email` is false; it has no secret. A refusal of the mail service becomes one short reason.
 */
import * as z from '../util/zod';
import type { Mailer } from '../ports';
import { type ChannelSend, type NoticeChannel, notSent } from './channel';

export const emailChannel = {
  id: 'email',
  /** An email to the user who saved the report; default true. */
  setting: z.optional(z.boolean({ error: 'must be true or false' })),
  isOn: (setting) => setting !== false,
  turnOn: 'turn on notices.email',
  shown: (setting) => setting !== false,
} satisfies NoticeChannel<'email', boolean, boolean>;

/** Sends through `mailer`; left out where Apps Script's mail service cannot be used. */
export function emailSender(mailer: Mailer | undefined): ChannelSend {
  return ({ subject, lines }) => {
    if (!mailer) return 'not sent: email is not available here';
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
