/**
 * MailApp in the host: nothing is sent, every message is recorded (`host.mails`) with its sender; both
 * methods need the `script.send_mail` scope when the manifest lists scopes (Google's MailApp
 * reference); and a user's email recipients a day are capped, 100 on consumer accounts (the quotas
 * page: "Email recipients per day (for example, with MailApp) 100* / day", 1,500 on Workspace),
 * counted per recipient (to, cc and bcc) across every document of the deployment and reset 24 hours
 * after the first. A message that would pass it is refused whole, with the words users report
 * ("Service invoked too many times for one day: email.", UNCONFIRMED on an official page).
 */
import { createDeployment, createGasHost } from '../../../dev/gas-host';
import { MAIL_RECIPIENTS_PER_DAY } from '../../../dev/gas-host/state/quotas';

const BUNDLE = `
function send(to, subject) { MailApp.sendEmail({ to: to, subject: subject, body: 'Body of ' + subject }); return MailApp.getRemainingDailyQuota(); }
function sendPlain(to) { MailApp.sendEmail(to, 'Plain', 'Plain body', { cc: 'cc@example.com' }); }
function left() { return MailApp.getRemainingDailyQuota(); }
`;
const DAY_MS = 24 * 3_600_000;

describe('MailApp in the local host', () => {
  it('records what was sent, from whom, and counts each recipient against the 100 a day of a consumer account', () => {
    expect(MAIL_RECIPIENTS_PER_DAY).toBe(100);
    const host = createGasHost({ clock: 'virtual', startTime: new Date('2026-11-20T12:00:00Z') });
    host.load(BUNDLE);
    expect(host.call('send', ['ann@example.com', 'First'], { user: 'ann@example.com' })).toBe(99);
    host.call('sendPlain', ['ann@example.com, bob@example.com'], { user: 'ann@example.com' });
    expect(host.mails).toEqual([
      { to: 'ann@example.com', subject: 'First', body: 'Body of First', from: 'ann@example.com' },
      { to: 'ann@example.com, bob@example.com', subject: 'Plain', body: 'Plain body', cc: 'cc@example.com', from: 'ann@example.com' },
    ]);
    expect(host.call('left', [], { user: 'ann@example.com' })).toBe(96);
    expect(host.state.quotas.dailyUse('ann@example.com', 'mailRecipients').used).toBe(4);
    // Another user has a day of their own.
    expect(host.call('left', [], { user: 'bob@example.com' })).toBe(100);
  });

  it('refuses a message past the day, records nothing, and takes messages again 24 hours after the first', () => {
    const deployment = createDeployment({ clock: 'virtual', startTime: new Date('2026-11-20T12:00:00Z') });
    const a = createGasHost({ deployment, documentId: 'doc-a', mailRecipientsPerDay: 3 });
    const b = createGasHost({ deployment, documentId: 'doc-b', mailRecipientsPerDay: 3 });
    a.load(BUNDLE);
    b.load(BUNDLE);
    a.call('send', ['ann@example.com, bob@example.com', 'Two'], { user: 'ann@example.com' });
    // The quota is the user's, whatever the document: one recipient is left for Ann in doc-b too.
    expect(() => b.call('send', ['ann@example.com, bob@example.com', 'Two more'], { user: 'ann@example.com' })).toThrow(
      'Service invoked too many times for one day: email.',
    );
    expect(b.mails).toEqual([]);
    expect(b.call('send', ['ann@example.com', 'Last'], { user: 'ann@example.com' })).toBe(0);
    expect(() => a.call('send', ['ann@example.com', 'Over'], { user: 'ann@example.com' })).toThrow(/too many times for one day: email/);
    a.advanceTime(DAY_MS);
    expect(a.call('send', ['ann@example.com', 'Next day'], { user: 'ann@example.com' })).toBe(2);
    expect(() => a.call('send', ['', 'Nobody'], { user: 'ann@example.com' })).toThrow('Failed to send email: no recipient');
  });

  it('needs the script.send_mail scope when the manifest lists scopes, and full authorization', () => {
    const without = createGasHost({ manifest: { oauthScopes: ['https://www.googleapis.com/auth/script.external_request'] } });
    without.load(BUNDLE);
    expect(() => without.call('send', ['ann@example.com', 'x'])).toThrow(
      'You do not have permission to call MailApp.sendEmail. Required permissions: https://www.googleapis.com/auth/script.send_mail',
    );
    expect(() => without.call('left', [])).toThrow(/MailApp\.getRemainingDailyQuota\. Required permissions: .*script\.send_mail/);
    const granted = createGasHost({ manifest: { oauthScopes: ['https://www.googleapis.com/auth/script.send_mail'] } });
    granted.load(BUNDLE);
    expect(granted.call('left', [])).toBe(100);
    expect(() => granted.call('left', [], { authMode: 'LIMITED' })).toThrow(
      'You do not have permission to call MailApp.getRemainingDailyQuota',
    );
    expect(without.mails).toEqual([]);
  });
});
