/**
 * The channels of saved reports' notices over Apps Script: email to the user the execution runs as
 * (the MailApp adapter, adapters/mail.ts) and webhook posts through UrlFetchApp, allowed only
 * under the deployment's webhookPrefixes, counted as the add-on's URL fetches, and paced with
 * Utilities.sleep (one sender for the execution, so the pace holds across its spreadsheets). The
 * failures of a scheduled run wait in one collector for the execution (runFailureNotices), shared by
 * the notices' watchers of every spreadsheet the run reaches and sent grouped when the run is over in
 * all of them. A closed month's restatement (history-observers.ts) is told through the same report's channels.
 */
import {
  type ChannelSenders,
  closedMonthNotice,
  emailSender,
  type EngageSession,
  NoticeObserver,
  noticesUntilMs,
  ReportNotices,
  RunFailureNotices,
  type RunObserver,
  type ScheduleRegistry,
  webhookSender,
} from '../../core';
import { DEPLOYMENT } from '../adapters/deployment';
import { mailApp } from '../adapters/mail';
import { scriptConsent } from '../adapters/consent';
import { blockingSleeper, systemClock } from '../adapters/system-time';
import { UrlFetchTransport } from '../adapters/fetch/url-fetch-transport';
import type { ClosedMonthRevisions } from './history-observers';

/** Each notice channel over its Apps Script service: one line a channel (the core's ChannelSenders names them all). */
function channelSenders(session: EngageSession): ChannelSenders {
  return {
    email: emailSender(mailApp, scriptConsent),
    webhook: webhookSender({
      transport: new UrlFetchTransport(UrlFetchApp, DEPLOYMENT.webhookPrefixes ?? []),
      counter: session.fetchQuota,
      clock: systemClock,
      sleeper: blockingSleeper,
    }),
  };
}

/** The notices of the user's saved reports, their secrets read from the registry, webhook posts counted in the session's fetches. */
export function createReportNotices(registry: ScheduleRegistry, session: EngageSession): ReportNotices {
  return new ReportNotices({ registry, senders: channelSenders(session), clock: systemClock });
}

/**
 * Where a run's failures wait to go out grouped per owner and channel, over every spreadsheet it reaches:
 * one for the execution (one run), given to each spreadsheet's notices' watcher and told of the run's end.
 */
export function runFailureNotices(notices: ReportNotices, registry: ScheduleRegistry): RunFailureNotices {
  return new RunFailureNotices(notices, registry, systemClock);
}

/** The watchers of a spreadsheet's saved reports that tell their owner: notices and alerts, failures held in the run's `failures`. */
export function noticeObservers(notices: ReportNotices, registry: ScheduleRegistry, failures: RunFailureNotices): RunObserver[] {
  return [new NoticeObserver(notices, registry, systemClock, failures)];
}

/**
 * Revisions of a report's closed months (history-observers.ts) become one notice through the report's
 * channels, whatever its notices' `when`: closing a month is asking to hear of its restatements. It is
 * kept as the report's last notice, shown in the Schedules tab. The
 * execution's log says how each channel took it (never the webhook's address).
 */
export function closedMonthNotices(notices: ReportNotices): ClosedMonthRevisions {
  return (revisions, event) => {
    const untilMs = noticesUntilMs(event, systemClock.now());
    const outcomes = notices.sendAndRecord(event.report, event.spreadsheet, closedMonthNotice(revisions), untilMs);
    const told = Object.entries(outcomes).map(([channel, outcome]) => `${channel} ${outcome}`);
    console.log(
      `Engage: ${revisions.length} revisions in closed months of "${event.report.name}"; ${told.join(', ') || 'no notice channel is on'}`,
    );
  };
}
