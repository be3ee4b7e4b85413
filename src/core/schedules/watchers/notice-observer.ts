/**
 * The notices and alerts of saved reports, as a watcher of their refreshes (run-events.ts). After each
 * report a run refreshed or failed it decides what to tell, from what the owner's notice record
 * (notice-record.ts, in the user's properties: reachable in a run without the document too) says was
 * told before:
 * - A failure of the hourly run is told once: the same failure again tells nothing, a failure for a
 *   new reason (its message differing in more than its numbers and trace ID) is told again, and the
 *   first success after a failure that was told sends one recovery notice. With `when: 'always'`
 *   every success is told too; with 'never', no refresh is. A notice that reached no channel is tried
 *   again at the next failing run, FAILURE_TRIES times in all, never for ever. The sidebar's Run now
 *   shows its outcome where it was clicked, so it tells nothing and changes none of this.
 * - Each alert rule is evaluated on the block every refresh wrote (alerts.ts), and fires once when its
 *   condition starts to hold; it fires again only after the condition cleared (a "drops to 0" rule,
 *   also for a key it had not named). Alerts go through the same channels, whatever `when` says.
 * What one refresh has to tell goes out as one message per channel, when the run is over in the
 * spreadsheet (afterRun), so a webhook's pace never takes a report's time. Failures of one run are
 * grouped (failure-notices.ts): held by the run's collector, shared by the observers of every
 * spreadsheet the run reaches, until the whole run is over, then on each channel two or more bound for
 * the same place (the owner's email, one webhook address) go as one notice that lists the reports and
 * their spreadsheets, so the sign-in case (every due report of every spreadsheet failing at once) is
 * one message, not a burst. An observer given no collector keeps its own, sent at its afterRun.
 * Recoveries, "always" successes and alerts go one per report at afterRun, each spaced on a webhook's
 * host. Each report's record keeps the notice that told it as its last.
 */
import type { ReportRunEvent, RunObserver } from '../refresh/run-events';
import type { Clock } from '../../ports';
import { RUN_NOTICE_WAIT_MS } from '../../budgets';
import { droppedText, evaluateAlert } from './alerts';
import { formatLocal } from '../refresh/refresh-runner';
import type { AlertState, NoticeRecord } from '../saved/notice-record';
import { alertKey, describeAlert, noticeSettingsOf } from '../saved/notice-settings';
import { writeModeOf } from '../saved/write-modes';
import type { Notice, ReportNotices } from './notices';
import type { ScheduleRegistry } from '../saved/registry';
import { hashText } from '../../util/hash';
import { failureLine, type HeldReportNotice, RunFailureNotices, recordTold } from './failure-notices';

/** Notices of one failure sent at most this often when none reached a channel. */
export const FAILURE_TRIES = 3;

/** A failure's reason: its message without the trace ID and the numbers (times, counts) that change from run to run. */
export function failureReason(message: string | undefined): string {
  const text = (message ?? '').replace(/\s*\[trace ID [^\]]*\]/gi, '').replace(/\d+/g, '#');
  return hashText(text).slice(0, 10);
}

/** The latest a run's notices may wait to go out (a webhook's pace): RUN_NOTICE_WAIT_MS past its fetch deadline. */
export function noticesUntilMs(event: Pick<ReportRunEvent, 'deadlineAtMs'>, nowMs: number): number {
  return (event.deadlineAtMs ?? nowMs) + RUN_NOTICE_WAIT_MS;
}

export class NoticeObserver implements RunObserver {
  /** What the run has to tell but failures, sent when it is over here (afterRun): the reports' fetches never wait for a notice. */
  private held: HeldReportNotice[] = [];
  /** Where the run's failures wait to go out grouped: the run's (flushed at its end), or this observer's own (at afterRun). */
  private readonly failures: RunFailureNotices;
  private readonly ownFailures: boolean;

  /** `failures`: the run's collector, shared by the observers of all its spreadsheets; left out, failures are grouped here alone. */
  constructor(
    private readonly notices: ReportNotices,
    private readonly registry: ScheduleRegistry,
    private readonly clock: Clock,
    failures?: RunFailureNotices,
  ) {
    this.ownFailures = failures === undefined;
    this.failures = failures ?? new RunFailureNotices(notices, registry, clock);
  }

  afterReport(event: ReportRunEvent): void {
    const { report, spreadsheet } = event;
    const record = this.registry.notice(spreadsheet.id, report.id);
    const next: NoticeRecord = { ...record };
    const items: Notice[] = [];
    const told = event.by === 'schedule' ? this.runNotice(event, record, next) : undefined;
    if (told) items.push(told);
    if (event.outcome === 'refreshed') items.push(...this.alertNotices(event, record, next));
    // Kept now (a failure's tries, the alerts' states), so that an execution ended before the notices
    // go out leaves them as notices that reached no channel: the next failing run tries again.
    this.registry.putNotice(spreadsheet.id, report.id, next);
    if (items.length === 0) return;
    const notice: Notice =
      items.length === 1
        ? items[0]!
        : {
            subject: `${items[0]!.subject} (and ${items.length - 1} more)`,
            lines: items.flatMap((item, i) => [...(i > 0 ? [''] : []), `${item.subject}:`, ...item.lines]),
          };
    const held = { report, spreadsheet, notice, untilMs: noticesUntilMs(event, this.clock.now()) };
    if (told && event.outcome === 'failed') {
      // A scheduled failure: it goes out with the run's other failures, grouped.
      this.failures.hold({ ...held, failure: failureLine(event.status.lastError, event.endedAtMs, event.status.needsSignIn === true) });
    } else {
      this.held.push(held);
    }
  }

  /**
   * The run is over in this spreadsheet: its failures go out grouped now when this observer keeps its
   * own (else at the end of the whole run), then the other notices (a recovery, an "always" success,
   * alerts) one per report. Each report's record keeps the notice that told it as its last, with how
   * each channel took it.
   */
  afterRun(): void {
    if (this.ownFailures) this.failures.flush();
    const held = this.held;
    this.held = [];
    for (const h of held) {
      recordTold(this.registry, this.clock, h, this.notices.send(h.report, h.spreadsheet, h.notice, h.untilMs), h.notice.subject);
    }
  }

  /** The hourly run's notice of this refresh, if any, with `next.failure` brought up to date. */
  private runNotice(event: ReportRunEvent, record: NoticeRecord, next: NoticeRecord): Notice | undefined {
    const { report, spreadsheet, status } = event;
    const settings = noticeSettingsOf(report);
    const when = formatLocal(event.endedAtMs, spreadsheet.timeZone);
    const zone = spreadsheet.timeZone;
    if (event.outcome === 'failed') {
      if (settings.when === 'never') {
        delete next.failure;
        return undefined;
      }
      const reason = failureReason(status.lastError?.message);
      const same = record.failure?.reason === reason ? record.failure : undefined;
      if (same && (same.told || same.tries >= FAILURE_TRIES)) return undefined;
      // Failing since the first failure in a row, whatever its reason.
      next.failure = { reason, sinceMs: record.failure?.sinceMs ?? event.endedAtMs, told: false, tries: (same?.tries ?? 0) + 1 };
      const error = status.lastError;
      const { message } = failureLine(error, event.endedAtMs, false);
      const lines = [
        `The saved report "${report.name}" could not be refreshed by its schedule at ${when} (${zone})${(status.failures ?? 1) > 1 ? `, its ${status.failures}th failure in a row` : ''}.`,
        `What happened: ${message}`,
      ];
      if (error?.traceId) lines.push(`Trace ID: ${error.traceId} (quote it to Engage support)`);
      lines.push(
        status.needsSignIn
          ? 'Its data was left as it was. Sign in to Engage again in the sidebar: none of your saved reports refreshes until then.'
          : `Its data was left as it was.${status.nextRunAtMs !== undefined ? ` The next attempt is from ${formatLocal(status.nextRunAtMs, zone)}.` : ' The next hourly run tries again.'}`,
      );
      return { subject: `"${report.name}" could not be refreshed in "${spreadsheet.name}"`, lines };
    }
    const wasFailing = record.failure;
    delete next.failure;
    const refreshed = `at ${when} (${zone}): ${(status.rows ?? 0).toLocaleString('en-US')} rows`;
    if (wasFailing?.told && settings.when !== 'never') {
      return {
        subject: `"${report.name}" is refreshing again in "${spreadsheet.name}"`,
        lines: [
          `The saved report "${report.name}" was refreshed by its schedule ${refreshed}, after failing since ${formatLocal(wasFailing.sinceMs, zone)}.`,
        ],
      };
    }
    if (settings.when === 'always') {
      return {
        subject: `"${report.name}" was refreshed in "${spreadsheet.name}"`,
        lines: [`The saved report "${report.name}" was refreshed by its schedule ${refreshed}.`],
      };
    }
    return undefined;
  }

  /** The alerts that start to hold with this refresh, with `next.alerts` brought up to date (rules no longer saved dropped). */
  private alertNotices(event: ReportRunEvent, record: NoticeRecord, next: NoticeRecord): Notice[] {
    const rules = event.report.alerts ?? [];
    const states: Record<string, AlertState> = {};
    const notices: Notice[] = [];
    const nowMs = this.clock.now();
    const rows = alertRows(event);
    for (const rule of rules) {
      const key = alertKey(rule);
      const before = record.alerts?.[key] ?? { on: false };
      if (!rows) {
        states[key] = before;
        continue;
      }
      const outcome = evaluateAlert(rule, {
        block: rows,
        kind: event.report.kind,
        period: event.report.period,
        nowMs: event.endedAtMs,
        timeZone: event.spreadsheet.timeZone,
        report: event.report,
      });
      if (outcome.state === 'unknown') {
        states[key] = before;
        continue;
      }
      if (outcome.state === 'clear') {
        states[key] = before.firedAtMs === undefined ? { on: false } : { on: false, firedAtMs: before.firedAtMs };
        continue;
      }
      const hashes = outcome.keys?.map((k) => k.hash);
      const fresh = outcome.keys?.filter((k) => !(before.on && before.keys?.includes(k.hash)));
      const fires = !before.on || (fresh !== undefined && fresh.length > 0);
      states[key] = {
        on: true,
        ...(fires ? { firedAtMs: nowMs } : before.firedAtMs !== undefined ? { firedAtMs: before.firedAtMs } : {}),
        ...(hashes ? { keys: hashes } : {}),
      };
      if (!fires) continue;
      // A "drops to 0" rule that still holds names only the keys it had not named.
      const detail = rule.kind === 'zero' && fresh && outcome.days ? droppedText(rule, outcome.days, fresh) : outcome.detail;
      notices.push({
        subject: `Alert on "${event.report.name}" in "${event.spreadsheet.name}": ${describeAlert(rule)}`,
        lines: [`Alert: ${describeAlert(rule)}.`, `${detail}.`, ...(outcome.explained ? [`${outcome.explained}.`] : [])],
      });
    }
    if (rules.length > 0 || record.alerts) {
      if (Object.keys(states).length > 0) next.alerts = states;
      else delete next.alerts;
    }
    return notices;
  }
}

/**
 * The rows a report's alerts read: the block written, except where it holds more than this run's
 * report: an append's earlier snapshots (the same days again), and an upsert's rows kept from earlier
 * runs beyond its period. There the run's own rows, as fetched, are the report. An incremental report's
 * block is its period, the recent days fetched met with those read back.
 */
export function alertRows(event: Pick<ReportRunEvent, 'report' | 'block' | 'fetched'>): ReportRunEvent['block'] {
  const mode = writeModeOf(event.report);
  const ownRows = mode === 'append' || (mode === 'upsert' && !event.report.destination.incremental);
  return ownRows ? (event.fetched ?? event.block) : event.block;
}
