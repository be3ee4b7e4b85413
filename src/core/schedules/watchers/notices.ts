/**
 * Sends a notice about a saved report through the channels its notices turn on (an email to its
 * owner, the user the run executes as; a POST to its webhook ...: channels/), one attempt each, never
 * retried here (a webhook keeps its own pace: channels/webhook-pace.ts). Several reports' notices of one
 * run, in one spreadsheet or several, may go as one per channel and place (sendGrouped): a burst of
 * failures is one message. Every notice names the spreadsheet (or each of them), the report (or each
 * of them) and a link to the spreadsheet (each); what
 * happened is the caller's (the run's notices and alerts, notice-observer.ts; a revisions watcher's
 * restated month). Nothing secret goes out: addresses in the text lose their query (where a key or
 * token would be), and a channel's secret is read from the owner's notice record only to send.
 */
import type { Clock, SpreadsheetRef } from '../../ports';
import { RUN_NOTICE_WAIT_MS } from '../../budgets';
import { CHANNEL_IDS, type ChannelId, type ChannelOutcomes, type ChannelSenders, isSecretChannel } from '../../channels/channels';
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

/** One report's notice among several of a run, which a channel may take as one notice listing them (sendGrouped). */
export interface HeldNotice {
  report: SavedReport;
  /** The spreadsheet the report lives in: where its secrets are kept, and what the notice names. */
  spreadsheet: SpreadsheetRef;
  notice: Notice;
}

/** How a report's notice went, sent grouped: each channel's outcome, and how many others the notice named (and in how many spreadsheets). */
export interface GroupedOutcome {
  outcomes: ChannelOutcomes;
  /** Other reports its notice named, on the channel that named the most. */
  others: number;
  /** The spreadsheets that notice named. */
  spreadsheets: number;
}

export interface ReportNoticesDeps {
  /** The owner's registry: where the channels' secrets are kept (notice-record.ts). */
  registry: ScheduleRegistry;
  /** Each channel's sender over its own port (email.ts's emailSender, webhook.ts's webhookSender ...). */
  senders: ChannelSenders;
  clock: Clock;
}

const FOOTER = 'You get this from the notices of this saved report. Change them in the Engage sidebar: Schedules, Edit.';
const FOOTER_SEVERAL = 'You get this from the notices of these saved reports. Change them in the Engage sidebar: Schedules, Edit.';

export class ReportNotices {
  constructor(private readonly deps: ReportNoticesDeps) {}

  /**
   * Sends `notice` through the report's channels, whatever its `when`: the caller decides whether
   * there is something to tell. Never throws for a channel: each one's outcome is "sent" or why not;
   * channels the report does not use are left out. `untilMs`: the latest a channel may wait to send
   * (a webhook's pace); left out, RUN_NOTICE_WAIT_MS from now.
   */
  send(report: SavedReport, spreadsheet: SpreadsheetRef, notice: Notice, untilMs?: number): ChannelOutcomes {
    const outcomes: ChannelOutcomes = {};
    const secrets = this.secretsOf(spreadsheet);
    for (const id of noticeSettingsOf(report).channels) {
      outcomes[id] = this.sendOne(id, [{ report, spreadsheet }], decorated(notice, report, spreadsheet), secrets(id, report), untilMs);
    }
    return outcomes;
  }

  /**
   * Sends several reports' notices of one run, of one spreadsheet or several: on each channel, the
   * notices bound for the same place (the owner's email; one webhook address) go as ONE notice that
   * `combine` makes of them when there are two or more, else each alone, as send() would. Returns, in
   * `held`'s order, how each report's notice went.
   */
  sendGrouped(held: readonly HeldNotice[], combine: (held: readonly HeldNotice[]) => Notice, untilMs?: number): GroupedOutcome[] {
    const told: GroupedOutcome[] = held.map(() => ({ outcomes: {}, others: 0, spreadsheets: 1 }));
    const secrets = new Map<string, (id: ChannelId, report: SavedReport) => string | undefined>();
    const secretOf = (id: ChannelId, { report, spreadsheet }: HeldNotice) => {
      if (!secrets.has(spreadsheet.id)) secrets.set(spreadsheet.id, this.secretsOf(spreadsheet));
      return secrets.get(spreadsheet.id)!(id, report);
    };
    for (const id of CHANNEL_IDS) {
      const places = new Map<string, number[]>();
      held.forEach((h, index) => {
        if (!noticeSettingsOf(h.report).channels.includes(id)) return;
        const place = secretOf(id, h) ?? '';
        places.set(place, [...(places.get(place) ?? []), index]);
      });
      for (const [place, indexes] of places) {
        const group = indexes.map((i) => held[i]!);
        const sheets = [...new Map(group.map((h) => [h.spreadsheet.id, h.spreadsheet])).values()];
        const notice =
          group.length === 1 ? decorated(group[0]!.notice, group[0]!.report, sheets[0]!) : decoratedSeveral(combine(group), sheets);
        const outcome = this.sendOne(id, group, notice, place || undefined, untilMs);
        for (const i of indexes) {
          told[i]!.outcomes[id] = outcome;
          if (indexes.length - 1 > told[i]!.others) told[i] = { ...told[i]!, others: indexes.length - 1, spreadsheets: sheets.length };
        }
      }
    }
    return told;
  }

  /**
   * Sends `notice` as send() does, and keeps it as the report's last notice in the owner's notice
   * record (what the Schedules tab shows): for a notice outside a run's own, such as a closed month
   * restated. The run's notices and alerts (notice-observer.ts) read the record after it.
   */
  sendAndRecord(report: SavedReport, spreadsheet: SpreadsheetRef, notice: Notice, untilMs?: number): ChannelOutcomes {
    const outcomes = this.send(report, spreadsheet, notice, untilMs);
    if (Object.keys(outcomes).length > 0) this.record(report, spreadsheet, notice.subject, outcomes);
    return outcomes;
  }

  /** Keeps a notice as the report's last in the owner's notice record. */
  record(report: SavedReport, spreadsheet: SpreadsheetRef, subject: string, outcomes: ChannelOutcomes): void {
    const record = this.deps.registry.notice(spreadsheet.id, report.id);
    this.deps.registry.putNotice(spreadsheet.id, report.id, { ...record, last: { atMs: this.deps.clock.now(), subject, ...outcomes } });
  }

  /** One message on one channel about `about`'s reports; the first one's spreadsheet is the message's. */
  private sendOne(
    id: ChannelId,
    about: ReadonlyArray<Pick<HeldNotice, 'report' | 'spreadsheet'>>,
    notice: Notice,
    secret: string | undefined,
    untilMs: number | undefined,
  ): string {
    const reports = about.map(({ report, spreadsheet }) => ({ id: report.id, name: report.name, spreadsheet }));
    const { spreadsheet: first, ...report } = reports[0]!;
    return this.deps.senders[id]({
      ...notice,
      spreadsheet: first,
      report,
      ...(reports.length > 1 ? { reports } : {}),
      secret,
      untilMs: untilMs ?? this.deps.clock.now() + RUN_NOTICE_WAIT_MS,
    });
  }

  /** Each report's secret of a channel, read from the owner's notice record only for a channel with one. */
  private secretsOf(spreadsheet: SpreadsheetRef): (id: ChannelId, report: SavedReport) => string | undefined {
    const records = new Map<string, NoticeRecord>();
    return (id, report) => {
      if (!isSecretChannel(id)) return undefined;
      let record = records.get(report.id);
      if (!record) {
        record = this.deps.registry.notice(spreadsheet.id, report.id);
        records.set(report.id, record);
      }
      return record[id];
    };
  }
}

/** A notice about one report as it goes out: rid of secrets, its report and spreadsheet named, with the link. */
function decorated(notice: Notice, report: SavedReport, spreadsheet: SpreadsheetRef): Notice {
  return {
    subject: withoutSecrets(`Engage: ${notice.subject}`),
    lines: [
      ...notice.lines.map(withoutSecrets),
      '',
      `Saved report: "${report.name}"`,
      `Spreadsheet: "${spreadsheet.name}"`,
      `Open it: ${spreadsheet.url}`,
      '',
      FOOTER,
    ],
  };
}

/** A notice listing several reports (its lines name them): rid of secrets, their spreadsheet (or each) named, with the link. */
function decoratedSeveral(notice: Notice, spreadsheets: readonly SpreadsheetRef[]): Notice {
  const [only] = spreadsheets;
  const where =
    spreadsheets.length === 1 && only
      ? [`Spreadsheet: "${only.name}"`, `Open it: ${only.url}`]
      : ['Spreadsheets:', ...spreadsheets.map((s) => `- "${s.name}": ${s.url}`)];
  return {
    subject: withoutSecrets(`Engage: ${notice.subject}`),
    lines: [...notice.lines.map(withoutSecrets), '', ...where, '', FOOTER_SEVERAL],
  };
}
