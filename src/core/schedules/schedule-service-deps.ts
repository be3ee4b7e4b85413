/**
 * What the scheduling use cases (schedule-service.ts) are built from: the user's Engage sign-in and
 * quotas, the document and its saved reports when the execution has one, the user's registry and
 * properties, the trigger, the deployment's spreadsheet access and webhook prefixes, and the watchers
 * of refreshes. src/gas/schedule-services.ts builds them from Apps Script's services.
 */
import type { DailyQuota } from '../api/daily-quota';
import type { SpreadsheetAccess } from '../api/deployment';
import type { ReportInput, ReportQuery } from '../api/report-request';
import type { Clock, KeyValueStore, RandomSource, ScheduledSpreadsheet, SpreadsheetOpener, TriggerPort } from '../ports';
import type { ReportKind } from '../spec';
import type { WebhookSettings } from './notice-webhook';
import type { ReportSource } from './refresh-runner';
import type { ScheduleRegistry } from './registry';
import type { RunObserver } from './run-events';
import type { SavedReportStore } from './saved-report-store';

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
  /** Where notices may post (the deployment's webhookPrefixes), checked when a report's webhook is saved. */
  deployment?: WebhookSettings;
  /** Who is told of each report refreshed or failed in a spreadsheet: a run log, notices (run-events.ts). */
  observersFor?: (spreadsheet: ScheduledSpreadsheet) => readonly RunObserver[];
  clock: Clock;
  random?: RandomSource;
}

/** What the trigger's event says of its run. */
export interface TriggerEvent {
  /** The trigger's unique ID: which spreadsheet a run without its document belongs to (spreadsheetAccess "current"). */
  triggerUid?: string;
}
