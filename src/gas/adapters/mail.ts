/**
 * MailApp as the core's Mailer (the `script.send_mail` scope): plain text, to and from the user the
 * execution runs as (Session.getEffectiveUser, `userinfo.email`: in a trigger's run, the user who saved
 * the reports it refreshes), named for the add-on, with the day's quota left to send.
 */
import type { Mailer } from '../../core';

export const mailApp: Mailer = {
  address: () => Session.getEffectiveUser().getEmail(),
  remainingToday: () => MailApp.getRemainingDailyQuota(),
  send: ({ to, subject, body }) => MailApp.sendEmail({ to, subject, body, name: 'Engage for Sheets' }),
};
