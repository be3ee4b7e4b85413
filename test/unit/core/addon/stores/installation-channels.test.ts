/**
 * The installation check's rows on the notice channels: the mail quota left (a count, none left, or
 * Google's refusal in its own words) and each configured webhook prefix (https with a path, in the
 * manifest's urlFetchWhitelist), or one row saying none is configured.
 */
import { mailQuotaFinding, webhookPrefixFindings } from '../../../../../src/core/addon/stores/installation-channels';
import { manifestWhitelist } from '../../../../../src/core/deployment';

const CHAT = 'https://chat.googleapis.com/v1/spaces/';
const SLACK = 'https://hooks.slack.com/services/';

describe('mailQuotaFinding', () => {
  it('says how many emails are left of the account type’s day', () => {
    const found = mailQuotaFinding({ remaining: 97 }, 'consumer');
    expect(found).toMatchObject({ check: 'Email notices can be sent today', status: 'ok' });
    expect(found.result).toBe('MailApp.getRemainingDailyQuota() says 97 emails are left today (of 100 a day on this account type).');
    expect(mailQuotaFinding({ remaining: 1400 }, 'workspace').result).toContain('of 1,500 a day');
  });

  it('asks for attention when none is left, or when Google refuses the mail service, in Google’s words', () => {
    expect(mailQuotaFinding({ remaining: 0 }, 'consumer')).toMatchObject({
      status: 'attention',
      result: expect.stringContaining('no email is left today'),
    });
    const refused = mailQuotaFinding(
      {
        refused:
          'You do not have permission to call MailApp.getRemainingDailyQuota. Required permissions: https://www.googleapis.com/auth/script.send_mail',
      },
      'consumer',
    );
    expect(refused.status).toBe('attention');
    expect(refused.result).toBe(
      'MailApp.getRemainingDailyQuota() was refused: You do not have permission to call MailApp.getRemainingDailyQuota. Required permissions: https://www.googleapis.com/auth/script.send_mail',
    );
    expect(refused.meaning).toContain('Send email as you');
  });
});

describe('webhookPrefixFindings', () => {
  const whitelist = manifestWhitelist({ urlFetchWhitelist: ['https://engage.example.com/engage/v2/'], webhookPrefixes: [CHAT, SLACK] });

  it('gives one row per prefix, each configured, https and in the manifest, with its service’s pace', () => {
    const rows = webhookPrefixFindings([CHAT, SLACK], whitelist);
    expect(rows.map((r) => [r.check, r.status])).toEqual([
      [`Webhook notices may post under ${CHAT}`, 'ok'],
      [`Webhook notices may post under ${SLACK}`, 'ok'],
    ]);
    expect(rows[0]!.result).toContain('nothing was posted');
    expect(rows[0]!.meaning).toMatch(/^Google Chat \(60 messages a minute per space\): a run posts at most one notice a second/);
    expect(rows[1]!.meaning).toMatch(/^Slack/);
  });

  it('asks for attention for a prefix outside the manifest or not https with a path', () => {
    const [outside, plain] = webhookPrefixFindings(['https://hooks.example.net/notify/', 'http://hooks.example.net/'], whitelist);
    expect(outside).toMatchObject({
      status: 'attention',
      result: "https://hooks.example.net/notify/ is configured but not in the manifest's urlFetchWhitelist.",
    });
    expect(plain).toMatchObject({
      status: 'attention',
      result: 'http://hooks.example.net/ is not an https prefix with a path ending in "/".',
    });
  });

  it('says when none is configured: notices go by email only', () => {
    expect(webhookPrefixFindings([], whitelist)).toEqual([
      expect.objectContaining({ check: 'Webhook notices', status: 'ok', meaning: expect.stringMatching(/^Notices go by email only/) }),
    ]);
  });
});
