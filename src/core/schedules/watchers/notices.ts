/**
 * Sends a notice about a saved report through its channels: an email to its owner (the user the run
 * executes as) and/or a POST to its webhook, one attempt each, never retried here. Every notice names
 * the spreadsheet, the report and a link to the spreadsheet; what happened is the caller's (the run's
 * notices and alerts, notice-observer.ts; a revisions watcher's restated month). Nothing secret goes
 * out: addresses in the text lose their query (where a key or token would be), the webhook's own
 * address never appears, and API or user text cannot mention everyone in a chat (its angle brackets
 * are replaced). A webhook call is one URL fetch of the add-on's, counted against the user's daily
 * URL Fetch quota before it is made.
 */
import type { FetchCounter } from '../../api/transport/request-sender';
import { EngageError, TransportError } from '../../errors';
import type { Clock, HttpTransport, Mailer, SpreadsheetRef } from '../../ports';
import type { ChannelOutcomes } from '../saved/notice-record';
import { noticeSettingsOf } from '../saved/notice-settings';
import type { ScheduleRegistry } from '../saved/registry';
import type { SavedReport } from '../saved/saved-reports';

/** What a notice says: its subject and lines; the spreadsheet, the report and the link are added. */
export interface Notice {
  subject: string;
  lines: string[];
}

export interface ReportNoticesDeps {
  /** The owner's registry: where the webhook address is kept (notice-record.ts). */
  registry: ScheduleRegistry;
  /** Email; left out where Apps Script's mail service cannot be used. */
  mailer?: Mailer;
  /** Posts to webhooks (the URL Fetch service, under the manifest's whitelist). */
  transport: HttpTransport;
  /** The user's URL Fetch count: a webhook call is one fetch. */
  counter?: FetchCounter;
  clock: Clock;
}

/** Hosts whose incoming webhooks take `{"text": ...}` and nothing else (Google Chat refuses unknown fields). */
const TEXT_ONLY_HOSTS = /^https:\/\/(chat\.googleapis\.com|hooks\.slack\.com)\//i;

/** Text with every address's query taken off: a key or a token travels there. */
export function withoutSecrets(text: string): string {
  // Up to the address's end: a sentence's closing punctuation stays.
  return text.replace(/(\bhttps?:\/\/[^\s?#]+)[?#]\S*?(?=[.,;:!)\]]*(?:\s|$))/gi, '$1?…');
}

/** Chat and Slack read `<...>` as mentions and links: user and API text gets look-alike brackets instead. */
const inert = (text: string) => text.replace(/</g, '‹').replace(/>/g, '›');

export class ReportNotices {
  constructor(private readonly deps: ReportNoticesDeps) {}

  /**
   * Sends `notice` through the report's channels (its notices' email and webhook), whatever its
   * `when`: the caller decides whether there is something to tell. Never throws for a channel: each
   * one's outcome is "sent" or why not; channels the report does not use are left out.
   */
  send(report: SavedReport, spreadsheet: SpreadsheetRef, notice: Notice): ChannelOutcomes {
    const settings = noticeSettingsOf(report);
    const subject = withoutSecrets(`Engage: ${notice.subject}`);
    const lines = [
      ...notice.lines.map(withoutSecrets),
      '',
      `Saved report: "${report.name}"`,
      `Spreadsheet: "${spreadsheet.name}"`,
      `Open it: ${spreadsheet.url}`,
      '',
      'You get this from the notices of this saved report. Change them in the Engage sidebar: Schedules, Edit.',
    ];
    const outcomes: ChannelOutcomes = {};
    if (settings.email) outcomes.email = this.email(subject, lines.join('\n'));
    if (settings.webhook)
      outcomes.webhook = this.webhook(this.deps.registry.notice(spreadsheet.id, report.id).webhook, subject, lines, spreadsheet, report);
    return outcomes;
  }

  /**
   * Sends `notice` as send() does, and keeps it as the report's last notice in the owner's notice
   * record (what the Schedules tab shows): for a notice outside a run's own, such as a closed month
   * restated. The run's notices and alerts (notice-observer.ts) read the record after it.
   */
  sendAndRecord(report: SavedReport, spreadsheet: SpreadsheetRef, notice: Notice): ChannelOutcomes {
    const outcomes = this.send(report, spreadsheet, notice);
    if (Object.keys(outcomes).length > 0) {
      const record = this.deps.registry.notice(spreadsheet.id, report.id);
      this.deps.registry.putNotice(spreadsheet.id, report.id, {
        ...record,
        last: { atMs: this.deps.clock.now(), subject: notice.subject, ...outcomes },
      });
    }
    return outcomes;
  }

  private email(subject: string, body: string): string {
    const { mailer } = this.deps;
    if (!mailer) return 'not sent: email is not available here';
    try {
      const to = mailer.address();
      if (!to) return 'not sent: Google did not give Engage your email address';
      if (mailer.remainingToday() < 1) return "not sent: today's email quota of Apps Script is spent";
      mailer.send({ to, subject, body });
      return 'sent';
    } catch (error) {
      return `not sent: ${withoutSecrets(error instanceof Error ? error.message : String(error))}`;
    }
  }

  private webhook(
    url: string | undefined,
    subject: string,
    lines: readonly string[],
    spreadsheet: SpreadsheetRef,
    report: SavedReport,
  ): string {
    if (!url) return 'not sent: the webhook address is missing from your user properties; give it again in the sidebar';
    const textOnly = TEXT_ONLY_HOSTS.test(url);
    const text = [`*${inert(subject)}*`, ...lines.map(inert)].join('\n');
    const payload = textOnly
      ? { text }
      : {
          text,
          subject,
          spreadsheet: { name: spreadsheet.name, url: spreadsheet.url },
          report: { id: report.id, name: report.name },
          sentAt: new Date(this.deps.clock.now()).toISOString(),
        };
    try {
      this.deps.counter?.spend(1);
      const response = this.deps.transport.fetch({
        url,
        method: 'post',
        contentType: 'application/json',
        payload: JSON.stringify(payload),
      });
      return response.status >= 200 && response.status < 300 ? 'sent' : `not sent: the webhook answered HTTP ${response.status}`;
    } catch (error) {
      if (error instanceof TransportError) {
        if (error.kind === 'daily-quota') this.deps.counter?.spent();
        const why = {
          connection: 'no answer from it',
          'not-allowed': "its address is outside the manifest's urlFetchWhitelist",
          'daily-quota': "today's URL Fetch quota of Apps Script is spent",
          'invalid-address': 'its address is not valid',
          dns: 'its host name does not resolve',
        }[error.kind];
        return `not sent: ${why}`;
      }
      if (error instanceof EngageError) return `not sent: ${withoutSecrets(error.message)}`;
      return `not sent: ${withoutSecrets(error instanceof Error ? error.message : String(error))}`;
    }
  }
}
