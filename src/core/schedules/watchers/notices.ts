/**
 * Sends a notice about a saved report through the channels its notices turn on (an email to its
 * owner, the user the run executes as; a POST to its webhook ...: channels/), one attempt each, never
 * retried here. Every notice names the spreadsheet, the report and a link to the spreadsheet; what
 * happened is the caller's (the run's notices and alerts, notice-observer.ts; a revisions watcher's
 * restated month). Nothing secret goes out: addresses in the text lose their query (where a key or
 * token would be), and a channel's secret is read from the owner's notice record only to send.
 */
import type { Clock, SpreadsheetRef } from '../../ports';
import { type ChannelId, type ChannelOutcomes, type ChannelSenders, isSecretChannel } from '../../channels/channels';
import type { NoticeRecord } from '../saved/notice-record';
import { withoutSecrets } from '../../channels/channel';
import { noticeSettingsOf } from '../saved/notice-settings';
import type { ScheduleRegistry } from '../saved/registry';
import type { SavedReport } from '../saved/saved-reports';

/** What a notice says: its subject and lines; the spreadsheet, the report and the link are added. */
export interface Notice {
  subject: string;
  lines: string[];
}

export interface ReportNoticesDeps {
  /** The owner's registry: where the channels' secrets are kept (notice-record.ts). */
  registry: ScheduleRegistry;
  /** Each channel's sender over its own port (email.ts's emailSender, webhook.ts's webhookSender ...). */
  senders: ChannelSenders;
  clock: Clock;
}

export class ReportNotices {
  constructor(private readonly deps: ReportNoticesDeps) {}

  /**
   * Sends `notice` through the report's channels, whatever its `when`: the caller decides whether
   * there is something to tell. Never throws for a channel: each one's outcome is "sent" or why not;
   * channels the report does not use are left out.
   */
  send(report: SavedReport, spreadsheet: SpreadsheetRef, notice: Notice): ChannelOutcomes {
    const { channels } = noticeSettingsOf(report);
    const outcomes: ChannelOutcomes = {};
    if (channels.length === 0) return outcomes;
    // Read only for a channel with a secret, and only when it sends.
    let record: NoticeRecord | undefined;
    const secretOf = (id: ChannelId) => {
      if (!isSecretChannel(id)) return undefined;
      record ??= this.deps.registry.notice(spreadsheet.id, report.id);
      return record[id];
    };
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
    for (const id of channels) {
      const about = { id: report.id, name: report.name };
      outcomes[id] = this.deps.senders[id]({ subject, lines, spreadsheet, report: about, secret: secretOf(id) });
    }
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
}
