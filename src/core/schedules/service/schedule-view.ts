/**
 * What the sidebar's Schedules tab shows, as plain data (times as ISO strings): each saved report of
 * the spreadsheet with its status, and each of the user's spreadsheets a scheduled run could not
 * reach, from the user's registry, with why and since when, so that the tab of any of their
 * spreadsheets says it.
 */
import type { QuotaView } from '../../api/transport/daily-quota';
import type { SpreadsheetAccess } from '../../deployment';
import type { UnreachableReason } from '../../errors';
import type { RegistryEntry } from '../saved/registry';
import type { RefreshStatus, SavedReport, SavedReportInput } from '../saved/saved-reports';
import { describeSchedule, nextRunAfter } from '../saved/schedule';
import type { NoticeRecord } from '../saved/notice-record';
import { alertKey, describeAlert, noticeSettingsOf, type NoticeWhen } from '../saved/notice-settings';
import { type ChannelOutcomes, type ChannelViews, channelViews } from '../../channels/channels';
import type { Destinations, TableView } from '../refresh/destination';

/** A saved report's notices and alerts as the sidebar shows them; what each channel shows, under its id (channels/). */
export type NoticesView = NoticesViewBase & ChannelViews;
interface NoticesViewBase {
  when: NoticeWhen;
  /** The last notice sent: when, its subject, how each channel took it ("sent", or why not). */
  last?: { at: string; subject: string } & ChannelOutcomes;
  alerts: Array<{ text: string; firing: boolean; lastFired?: string }>;
  /** What was sent and when alerts fired is kept by whoever saved the report: false for another editor's. */
  known: boolean;
}

/** A saved report as the sidebar shows it: plain data, times as ISO strings and as sheet-local text. */
export interface ScheduleView {
  id: string;
  name: string;
  /** The definition, for the edit form. */
  definition: SavedReportInput;
  scheduleText: string;
  target: string;
  paused: boolean;
  /** Saved by the current user (who alone may change, run or delete it). */
  mine: boolean;
  status: {
    lastSuccess?: string;
    lastAttempt?: string;
    nextRun?: string;
    /**
     * When it is due now (a report never refreshed is due at once, to fill it): its schedule's first
     * slot after now, when it runs again after that (a daily 06:00 schedule saved at 10:45: tomorrow 06:00).
     */
    slotAfter?: string;
    rows?: number;
    durationMs?: number;
    lastError?: { message: string; traceId?: string; at: string };
    failures: number;
    /** Its owner must sign in again before it can run. */
    needsSignIn: boolean;
    running: boolean;
    /** A destination loaded in parts: how far it is (the days loaded of the period's and what is left). */
    progress?: string;
  };
  notices: NoticesView;
  /** A destination that is a table: its address and a ready query, for "Open in Sheets" and the table's console. */
  warehouse?: TableView;
}

/** One of the user's spreadsheets that a scheduled run could not reach. */
export interface UnreachableView {
  spreadsheetId: string;
  name: string;
  /** Its address, https only (shown as a link). */
  url?: string;
  reason: UnreachableReason;
  /** Said of the spreadsheet: "it is in the trash or was deleted". */
  why: string;
  /** Since when (ISO), and when a run last found it so. */
  since: string;
  lastTried: string;
  /** The user's saved reports there. */
  reports: number;
  /** It is the spreadsheet the sidebar is open in. */
  current: boolean;
}

export interface ScheduleList {
  reports: ScheduleView[];
  /** The current user's hourly trigger exists. */
  triggerInstalled: boolean;
  timeZone: string;
  /** The current user's trigger runtime (ms) in the current 24-hour window, against the daily quota. */
  triggerRuntime: QuotaView;
  /** Which spreadsheets this installation may open: how scheduled runs reach them. */
  spreadsheetAccess: SpreadsheetAccess;
  /** The user's spreadsheets a run could not reach, from the registry (this one too). */
  unreachable: UnreachableView[];
  /** A sentence when some of the user's reports here could not be registered (no room in the user's properties). */
  registryWarning?: string;
}

/** The registry's problems, for the notice: a link only to an https address. */
export function unreachableViews(entries: RegistryEntry[], currentId: string | undefined): UnreachableView[] {
  return entries.flatMap((entry) =>
    entry.problem
      ? [
          {
            spreadsheetId: entry.id,
            name: entry.name,
            ...(/^https:\/\//i.test(entry.url) ? { url: entry.url } : {}),
            reason: entry.problem.reason,
            why: entry.problem.why,
            since: new Date(entry.problem.sinceMs).toISOString(),
            lastTried: new Date(entry.problem.lastAtMs).toISOString(),
            reports: entry.reports,
            current: entry.id === currentId,
          },
        ]
      : [],
  );
}

/** The notices of a report, with what its owner's record says (undefined: another editor's report). */
export function noticesView(report: SavedReportInput, record: NoticeRecord | undefined): NoticesView {
  const settings = noticeSettingsOf(report);
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  const view: NoticesView = {
    when: settings.when,
    ...channelViews(report.notices),
    alerts: (report.alerts ?? []).map((rule) => {
      const state = record?.alerts?.[alertKey(rule)];
      const lastFired = iso(state?.firedAtMs);
      return { text: describeAlert(rule), firing: state?.on === true, ...(lastFired ? { lastFired } : {}) };
    }),
    known: record !== undefined,
  };
  if (record?.last) {
    const { atMs, ...last } = record.last;
    view.last = { at: new Date(atMs).toISOString(), ...last };
  }
  return view;
}

export function scheduleView(
  report: SavedReport,
  status: RefreshStatus,
  context: { me: string | null; signedIn: boolean; timeZone: string; nowMs: number; destinations: Destinations },
  record?: NoticeRecord,
): ScheduleView {
  // A report whose destination this installation lacks shows where its status cell is.
  const described = (context.destinations.find(report) ?? context.destinations.of({})).describe(report, status, context);
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  const mine = report.ownerId === context.me;
  // For the current user the live sign-in state decides; an old flag is stale once they signed in again.
  const needsSignIn = mine ? !context.signedIn : status.needsSignIn === true;
  const { id: _id, ownerId: _owner, createdAtMs: _c, updatedAtMs: _u, ...definition } = report;
  const view: ScheduleView = {
    id: report.id,
    name: report.name,
    definition,
    scheduleText: `${describeSchedule(report.schedule)} (${context.timeZone})`,
    target: described.target,
    paused: report.paused === true,
    mine,
    status: { failures: status.failures ?? 0, needsSignIn, running: (status.runningUntilMs ?? 0) > context.nowMs },
    notices: noticesView(definition, mine ? (record ?? {}) : undefined),
  };
  if (described.table) view.warehouse = described.table;
  const s = view.status;
  const lastSuccess = iso(status.lastSuccessAtMs);
  if (lastSuccess) s.lastSuccess = lastSuccess;
  const lastAttempt = iso(status.lastAttemptAtMs);
  if (lastAttempt) s.lastAttempt = lastAttempt;
  const nextRun = iso(status.nextRunAtMs ?? report.createdAtMs);
  if (nextRun && !view.paused) {
    s.nextRun = nextRun;
    if (Date.parse(nextRun) <= context.nowMs) s.slotAfter = iso(nextRunAfter(report.schedule, context.nowMs, context.timeZone))!;
  }
  if (status.rows !== undefined) s.rows = status.rows;
  if (status.durationMs !== undefined) s.durationMs = status.durationMs;
  if (described.progress) s.progress = described.progress;
  if (status.lastError) {
    s.lastError = {
      message: status.lastError.message,
      at: new Date(status.lastError.atMs).toISOString(),
      ...(status.lastError.traceId ? { traceId: status.lastError.traceId } : {}),
    };
  }
  return view;
}
