/** MailApp: messages are recorded by the host, from the execution's user; nothing is sent. */
import type { MailMessage } from '../protocol';
import { fromRealm, type FacadeKit } from './kit';

/** MailApp's daily recipients for a consumer account. */
const MAIL_RECIPIENTS_PER_DAY = 100;

export function mailService(kit: FacadeKit) {
  return kit.api('MailApp', {
    sendEmail: (a: unknown, subject?: string, body?: string, options?: unknown) => {
      kit.guard('mail', 'MailApp.sendEmail');
      const message =
        typeof a === 'object' && a !== null
          ? (fromRealm(a) as MailMessage)
          : { to: String(a), subject, body, ...((fromRealm(options) ?? {}) as object) };
      kit.ops.mailSend(message);
    },
    getRemainingDailyQuota: () => (kit.guard('mail', 'MailApp.getRemainingDailyQuota'), MAIL_RECIPIENTS_PER_DAY),
  });
}
