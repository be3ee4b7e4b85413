/**
 * MailApp: messages are recorded by the host (state/mail.ts), from the execution's user; nothing is
 * sent. Both methods need the `script.send_mail` scope (Google's MailApp reference) when the manifest
 * lists scopes, and count against the user's daily email recipients.
 */
import type { MailMessage } from '../protocol/protocol';
import { fromRealm, type FacadeKit } from './kit';

/** Google's MailApp reference: sendEmail and getRemainingDailyQuota need this scope. */
const SEND_MAIL = ['https://www.googleapis.com/auth/script.send_mail'];

export function mailService(kit: FacadeKit) {
  const check = (method: string) => {
    kit.guard('mail', `MailApp.${method}`);
    kit.requireScopes(`MailApp.${method}`, SEND_MAIL);
  };
  return kit.api('MailApp', {
    sendEmail: (a: unknown, b?: unknown, c?: unknown, d?: unknown) => {
      check('sendEmail');
      let message: MailMessage;
      if (typeof a === 'object' && a !== null) message = fromRealm(a) as MailMessage;
      else if (typeof d === 'string') message = { to: String(a), replyTo: String(b), subject: String(c), body: d };
      else message = { to: String(a), subject: String(b ?? ''), body: String(c ?? ''), ...((fromRealm(d) ?? {}) as object) };
      kit.ops.mailSend(message);
    },
    getRemainingDailyQuota: () => (check('getRemainingDailyQuota'), kit.ops.mailRemaining()),
  });
}
