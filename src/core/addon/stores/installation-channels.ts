/**
 * The installation check's findings on the notice channels, in words a deployer can act on: how many
 * emails the user may still send today (MailApp's getRemainingDailyQuota, which needs the
 * `script.send_mail` scope the user may not have granted), and each webhook prefix the deployment
 * configured, read from the build alone: whether it is an https prefix with a path and is in the
 * manifest's urlFetchWhitelist, and what pace a run keeps to it. Nothing is posted: a post to a real
 * webhook would reach its chat. The probes are src/gas/wiring/installation-check.ts's; a probe
 * Google refuses comes here as Google's words, never as a crash.
 */
import { type AccountType, allowedByWhitelist } from '../../deployment';
import { formatCount } from '../../util/text';
import type { Finding } from '../../finding';

/**
 * Email recipients a user may send to in 24 hours with MailApp (Apps Script's quotas page,
 * developers.google.com/apps-script/guides/services/quotas): 100 for a consumer account, 1,500 for
 * Google Workspace.
 */
export const MAIL_RECIPIENTS_PER_DAY: Record<AccountType, number> = { consumer: 100, workspace: 1_500 };

/** What MailApp.getRemainingDailyQuota gave: the count, or Google's refusal in its own words. */
export type MailQuotaOutcome = { remaining: number } | { refused: string };

export function mailQuotaFinding(outcome: MailQuotaOutcome, accountType: AccountType): Finding {
  const check = 'Email notices can be sent today';
  const perDay = formatCount(MAIL_RECIPIENTS_PER_DAY[accountType]);
  if ('refused' in outcome) {
    return {
      check,
      status: 'attention',
      result: `MailApp.getRemainingDailyQuota() was refused: ${outcome.refused}`,
      meaning:
        'Apps Script will not send email as you: most often the permission "Send email as you" (script.send_mail) was not granted. Email notices are not sent until it is: open the sidebar and allow it when asked, or remove and add the add-on again.',
    };
  }
  const { remaining } = outcome;
  if (remaining < 1) {
    return {
      check,
      status: 'attention',
      result: `MailApp.getRemainingDailyQuota() says no email is left today (of ${perDay} a day on this account type).`,
      meaning:
        'Email notices wait until the quota refills, 24 hours after its first email; a failure not told by any channel is tried again at the next failing runs. A webhook notice does not count against it.',
    };
  }
  return {
    check,
    status: 'ok',
    result: `MailApp.getRemainingDailyQuota() says ${formatCount(remaining)} emails are left today (of ${perDay} a day on this account type).`,
    meaning:
      'Each email notice takes one: a run that fails many reports at once sends one email that lists them, so a burst of failures does not spend the quota.',
  };
}

/** Hosts whose incoming webhooks the add-on knows by their limits. */
function knownService(prefix: string): string | undefined {
  if (/^https:\/\/chat\.googleapis\.com\//i.test(prefix)) return 'Google Chat (60 messages a minute per space)';
  if (/^https:\/\/hooks\.slack\.com\//i.test(prefix)) return 'Slack (about 1 message a second per webhook)';
  return undefined;
}

/**
 * One finding per configured webhook prefix, or one saying there is none. `whitelist`: the manifest's
 * urlFetchWhitelist as this build wrote it.
 */
export function webhookPrefixFindings(prefixes: readonly string[], whitelist: readonly string[]): Finding[] {
  if (prefixes.length === 0) {
    return [
      {
        check: 'Webhook notices',
        status: 'ok',
        result: 'No webhook prefix is configured (webhookPrefixes in the deploy config).',
        meaning:
          'Notices go by email only. To let owners post to Google Chat or Slack, list their prefixes in webhookPrefixes, build and push again.',
      },
    ];
  }
  return prefixes.map((prefix) => {
    const check = `Webhook notices may post under ${prefix}`;
    if (!/^https:\/\/[^/?#\s]+\/\S*\/$/i.test(prefix)) {
      return {
        check,
        status: 'attention',
        result: `${prefix} is not an https prefix with a path ending in "/".`,
        meaning:
          'Apps Script allows only https prefixes with a path in urlFetchWhitelist: correct webhookPrefixes in the deploy config, build and push again.',
      };
    }
    if (!allowedByWhitelist(prefix, whitelist)) {
      return {
        check,
        status: 'attention',
        result: `${prefix} is configured but not in the manifest's urlFetchWhitelist.`,
        meaning: 'Apps Script would refuse every post under it: build with this deploy config and push the manifest the build wrote.',
      };
    }
    const service = knownService(prefix);
    return {
      check,
      status: 'ok',
      result: `${prefix} is configured, https, and in the manifest's urlFetchWhitelist; nothing was posted (a post would reach the chat).`,
      meaning: `${service ? `${service}: ` : ''}a run posts at most one notice a second to a host, tries a 429 once more after its Retry-After, and sends a burst of failures as one notice.`,
    };
  });
}
