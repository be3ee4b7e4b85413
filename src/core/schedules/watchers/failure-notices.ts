/**
 * The failures' notices of one scheduled run, held until the run is over and sent grouped: on each
 * channel, two or more bound for the same place (the owner's email; one webhook address) go as ONE
 * notice that lists the reports, so the sign-in case (every due report of every spreadsheet failing at
 * once) is one message per channel and place, not a burst. The notices' observers of the spreadsheets
 * a run reaches (notice-observer.ts) hold their failures here; the run sends them at its end
 * (RunEndObserver: scheduled-run.ts, once every spreadsheet is done). An observer given none keeps its
 * own, sent when the run is over in its spreadsheet. Each listed report's record, in its own
 * spreadsheet, keeps the notice as its last, saying it went with the others, and its failure as told
 * when a channel took it. An execution that ends before they go leaves them as notices that reached no
 * channel (the failure's try was counted when it was held): the next failing run tells them.
 */
import type { Clock, SpreadsheetRef } from '../../ports';
import { type ChannelOutcomes, sentAnywhere } from '../../channels/channels';
import { formatLocal } from '../refresh/refresh-runner';
import type { RunEndObserver } from '../refresh/run-events';
import type { NoticeRecord } from '../saved/notice-record';
import type { ScheduleRegistry } from '../saved/registry';
import type { HeldNotice, Notice, ReportNotices } from './notices';

/** A failure as a notice listing several reports names it. */
export interface FailureLine {
  message: string;
  traceId?: string;
  atMs: number;
  needsSignIn: boolean;
}

/** A report's notice held until its run is over: `failure` when it tells a scheduled failure, which may go grouped. */
export interface HeldReportNotice extends HeldNotice {
  failure?: FailureLine;
  /** The latest its channels may wait to send (noticesUntilMs). */
  untilMs: number;
}

/**
 * Keeps how a notice went in the report's record (in its own spreadsheet): its last notice, and whether
 * its failure was told.
 */
export function recordTold(
  registry: ScheduleRegistry,
  clock: Clock,
  held: HeldReportNotice,
  outcomes: ChannelOutcomes,
  subject: string,
): void {
  const { spreadsheet, report } = held;
  const record = registry.notice(spreadsheet.id, report.id);
  const next: NoticeRecord = { ...record, last: { atMs: clock.now(), subject, ...outcomes } };
  if (held.failure && next.failure) next.failure = { ...next.failure, told: next.failure.told || sentAnywhere(outcomes) };
  registry.putNotice(spreadsheet.id, report.id, next);
}

/** The failures of one run, over every spreadsheet it reaches, sent grouped when it is over (flush). */
export class RunFailureNotices implements RunEndObserver {
  private held: HeldReportNotice[] = [];

  constructor(
    private readonly notices: ReportNotices,
    private readonly registry: ScheduleRegistry,
    private readonly clock: Clock,
  ) {}

  hold(failure: HeldReportNotice): void {
    this.held.push(failure);
  }

  afterWholeRun(): void {
    this.flush();
  }

  /** Sends what is held, grouped per channel and place, and records each report's notice; holds nothing after. */
  flush(): void {
    const held = this.held;
    this.held = [];
    if (held.length === 0) return;
    const untilMs = Math.max(...held.map((h) => h.untilMs));
    const told = this.notices.sendGrouped(held, (group) => failuresNotice(group as HeldReportNotice[]), untilMs);
    held.forEach((h, i) => {
      const { outcomes, others, spreadsheets } = told[i]!;
      const among = spreadsheets > 1 ? ` from ${spreadsheets} spreadsheets` : '';
      recordTold(
        this.registry,
        this.clock,
        h,
        outcomes,
        others > 0 ? `${h.notice.subject}, in one notice with ${others} other reports${among}` : h.notice.subject,
      );
    });
  }
}

function withoutTraceId(message: string): string {
  return message.replace(/\s*\[trace ID [^\]]*\]/gi, '');
}

/** The failure a report's error makes, as a grouped notice lists it. */
export function failureLine(error: { message?: string; traceId?: string } | undefined, atMs: number, needsSignIn: boolean): FailureLine {
  return {
    message: withoutTraceId(error?.message ?? 'no reason was given'),
    ...(error?.traceId ? { traceId: error.traceId } : {}),
    atMs,
    needsSignIn,
  };
}

/**
 * One notice for several reports that failed in a run: one line each, with its trace ID (and its
 * spreadsheet's name when they are in several); the reason said once when it is the same for all (a
 * refused sign-in fails every due report for one reason). The time is said in the first report's
 * spreadsheet's time zone.
 */
export function failuresNotice(
  held: ReadonlyArray<{ report: { name: string }; spreadsheet: SpreadsheetRef; failure?: FailureLine }>,
): Notice {
  const zone = held[0]!.spreadsheet.timeZone;
  const names = [...new Set(held.map((h) => h.spreadsheet.id))].map((id) => held.find((h) => h.spreadsheet.id === id)!.spreadsheet.name);
  const several = names.length > 1;
  const failures = held.map((h) => ({ name: h.report.name, in: several ? ` in "${h.spreadsheet.name}"` : '', ...h.failure! }));
  const atMs = Math.min(...failures.map((f) => f.atMs));
  const oneReason = failures.every((f) => f.message === failures[0]!.message);
  const what = `${failures.length} saved reports${several ? ` in ${names.length} spreadsheets` : ''}`;
  const lines = [`${what} could not be refreshed by their schedule at ${formatLocal(atMs, zone)} (${zone}):`];
  for (const f of failures) {
    const trace = f.traceId ? ` (trace ID ${f.traceId})` : '';
    lines.push(oneReason ? `- "${f.name}"${f.in}${trace}` : `- "${f.name}"${f.in}: ${f.message}${trace}`);
  }
  if (oneReason) lines.push(`What happened: ${failures[0]!.message}`);
  lines.push(
    failures.every((f) => f.needsSignIn)
      ? 'Their data was left as it was. Sign in to Engage again in the sidebar: none of your saved reports refreshes until then.'
      : 'Their data was left as it was. Each is tried again at its next attempt, shown in the Schedules tab.',
  );
  return { subject: several ? `${what} could not be refreshed` : `${what} could not be refreshed in "${names[0]}"`, lines };
}
