/**
 * MailApp's side of the host: every message a script sent, with its sender, for tests to read instead
 * of a mail server (`host.mails`), and the user's daily email recipients, counted across the
 * deployment like the other daily quotas (quotas.ts). A message whose recipients would pass what is
 * left of the day is refused as a whole, with Apps Script's words, and recorded nowhere.
 */
import { GasException, type MailMessage, type MailOps, type ServedOps } from '../protocol/protocol';
import { storeUser, type DocumentIdentity } from './document';
import { MAIL_QUOTA_MESSAGE, type DailyQuotas } from './quotas';

/** The addresses a message goes to: to, cc and bcc, each a comma-separated list (Google's MailApp reference). */
export function mailRecipients(message: MailMessage): string[] {
  return ['to', 'cc', 'bcc'].flatMap((field) =>
    typeof message[field] === 'string'
      ? (message[field] as string)
          .split(',')
          .map((address) => address.trim())
          .filter((address) => address !== '')
      : [],
  );
}

export class MailOutbox {
  readonly sent: MailMessage[] = [];

  constructor(
    private readonly document: DocumentIdentity,
    private readonly quotas: DailyQuotas,
  ) {}

  readonly ops: ServedOps<keyof MailOps> = {
    mailSend: (execution, message) => {
      const recipients = mailRecipients(message);
      // The words users report for a message without an address (UNCONFIRMED on an official page).
      if (recipients.length === 0) throw new GasException('Failed to send email: no recipient');
      const user = storeUser(this.document, execution);
      if (recipients.length > this.quotas.left(user, 'mailRecipients')) throw new GasException(MAIL_QUOTA_MESSAGE);
      this.quotas.spendDaily(user, 'mailRecipients', recipients.length);
      this.sent.push({ ...message, from: execution.user });
    },
    mailRemaining: (execution) => Math.max(0, this.quotas.left(storeUser(this.document, execution), 'mailRecipients')),
  };
}
