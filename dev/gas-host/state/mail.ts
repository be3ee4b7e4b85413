/** MailApp's outbox: every message a script sent, with its sender, for tests to read instead of a mail server. */
import type { MailMessage, MailOps, ServedOps } from '../protocol';

export class MailOutbox {
  readonly sent: MailMessage[] = [];

  readonly ops: ServedOps<keyof MailOps> = {
    mailSend: (execution, message) => {
      this.sent.push({ ...message, from: execution.user });
    },
  };
}
