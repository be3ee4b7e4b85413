/**
 * What the scheduling use cases (schedule-service.ts) are given: the user's Engage account as
 * scheduling needs it (ScheduleAccount, which the add-on's session provides), the document, the
 * user's registry and stores, the trigger, the deployment's spreadsheet access and where notices may go,
 * the destinations it was built with, and the clock; what a trigger's event says of its run; and where a
 * user's owner id lives.
 */
import type { DailyQuota } from '../../api/transport/daily-quota';
import type { ReportInput, ReportQuery } from '../../api/requests/report-request';
import type { SpreadsheetAccess } from '../../deployment';
import type { Clock, ConsentPort, KeyValueStore, RandomSource, ScheduledSpreadsheet, SpreadsheetOpener, TriggerPort } from '../../ports';
import type { ReportKind } from '../../spec';
import type { ReportSource } from '../refresh/refresh-source';
import type { Destinations } from '../refresh/destination';
import type { RunEndObserver, RunObserver } from '../refresh/run-events';
import type { ScheduleRegistry } from '../saved/registry';
import type { SavedReportStore } from '../saved/saved-report-store';
import type { ChannelDeployment } from '../../channels/channel';

/** Where a user's random owner id lives (user properties): not an email, so no extra scope is needed. */
export const OWNER_ID_KEY = 'engage.schedule.ownerId';
/** Apps Script's quotas page: 20 triggers per user per script; a published add-on is one script for all its documents. */
export const TRIGGERS_PER_USER = 20;

/** What scheduling needs of the user's Engage sign-in and quotas (the add-on's EngageSession). */
export interface ScheduleAccount {
  /** Signed in, with a sign-in the service has not refused. */
  isSignedIn(): boolean;
  /** The user's trigger runtime in the current 24-hour window, which scheduled runs spend. */
  triggerRuntime(): DailyQuota;
  /** Validates report arguments (nothing is sent) and returns the query. */
  buildQuery(kind: ReportKind, input: ReportInput): ReportQuery;
  /** What a run fetches with: the stored sign-in, the document's rate budget, the URL Fetch quota. */
  reportSource(): ReportSource;
}

export interface ScheduleServiceDeps {
  account: ScheduleAccount;
  /** The document this execution runs in, with its saved reports; left out in a trigger's run without one. */
  document?: { reports: SavedReportStore; spreadsheet: ScheduledSpreadsheet };
  /** The user's schedule registry (user properties). */
  registry: ScheduleRegistry;
  /** The user's own properties (the owner id). */
  userStore: KeyValueStore;
  trigger: TriggerPort;
  /** Which spreadsheets this installation may open (engage.deploy.json): "all" runs reach them by ID. */
  access: SpreadsheetAccess;
  /** Opens the user's spreadsheets by ID (spreadsheetAccess "all"). */
  opener?: SpreadsheetOpener;
  /** Where notices may go (channels/), checked when a report's notices are saved. */
  deployment?: ChannelDeployment;
  /** The destinations this installation was built with (refresh/destination.ts): the sheet, and those its deployment adds. */
  destinations: Destinations;
  /** Who is told of each report refreshed or failed in a spreadsheet: a run log, notices (run-events.ts). */
  observersFor?: (spreadsheet: ScheduledSpreadsheet) => readonly RunObserver[];
  /**
   * Who is told when a run is over in every spreadsheet it reached (run-events.ts): the failures'
   * notices, held by the spreadsheets' notice watchers and sent grouped per owner and channel.
   */
  runEndObservers?: readonly RunEndObserver[];
  clock: Clock;
  random?: RandomSource;
  /**
   * What the user granted (Apps Script's getAuthorizationInfo): saving a report checks the permissions it
   * needs first (consent.ts). Left out: the check is not made (a run without a user to ask).
   */
  consent?: ConsentPort;
}

/** What the trigger's event says of its run. */
export interface TriggerEvent {
  /** The trigger's unique ID: which spreadsheet a run without its document belongs to (spreadsheetAccess "current"). */
  triggerUid?: string;
}
