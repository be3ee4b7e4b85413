/**
 * The scheduling use cases behind the sidebar's Schedules panel and the hourly trigger: save, list,
 * edit, run now, pause and delete saved reports, and the scheduled run itself. Definitions are shared
 * with every editor of the document; each belongs to the user who saved it, whose sign-in and trigger
 * refresh it, so only that user may change, run or delete it (another editor's token must never run
 * someone else's schedule). Every change reconciles the user's one hourly trigger: installed while the
 * user has an active schedule, removed with the last. A change that needs the trigger installs it
 * first, so a full trigger quota refuses the change before anything is saved.
 *
 * Scheduled runs spend the user's daily trigger runtime (90 minutes, 6 hours on Workspace), counted
 * in the user's properties: a run takes its share of what is left when it starts (so overlapping
 * runs of one user in several documents share it), and what it cannot reach waits, first in line,
 * for the next run or for the window to reopen.
 */
import { quotaView, type DailyQuota, type QuotaView } from '../api/daily-quota';
import type { ReportInput, ReportQuery } from '../api/report-request';
import { ValidationError } from '../errors';
import type { Clock, KeyValueStore, RandomSource, ReportSheet, TriggerPort } from '../ports';
import { RUN_FETCH_BUDGET_MS, RUN_WRAP_UP_MS } from '../budgets';
import { buildComparison } from '../api/compare-periods';
import { RefreshRunner, type ReportSource, type RefreshSummary } from './refresh-runner';
import { checkSavedReport, reportInputOf, type RefreshStatus, type SavedReport, type SavedReportInput } from './saved-reports';
import { describeSchedule, nextRunAfter } from './schedule';
import type { SavedReportStore } from './saved-report-store';
import type { ReportKind } from '../spec';

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
  reports: SavedReportStore;
  /** The user's own properties (the owner id). */
  userStore: KeyValueStore;
  sheet: ReportSheet;
  trigger: TriggerPort;
  clock: Clock;
  timeZone: string;
  random?: RandomSource;
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
    rows?: number;
    durationMs?: number;
    lastError?: { message: string; traceId?: string; at: string };
    failures: number;
    /** Its owner must sign in again before it can run. */
    needsSignIn: boolean;
    running: boolean;
  };
}

export interface ScheduleList {
  reports: ScheduleView[];
  /** The current user's hourly trigger exists. */
  triggerInstalled: boolean;
  timeZone: string;
  /** The current user's trigger runtime (ms) in the current 24-hour window, against the daily quota. */
  triggerRuntime: QuotaView;
}

export class ScheduleService {
  constructor(private readonly deps: ScheduleServiceDeps) {}

  /** The current user's owner id, created on first use. */
  ownerId(): string {
    const existing = this.deps.userStore.get(OWNER_ID_KEY);
    if (existing) return existing;
    const random = this.deps.random ?? Math.random;
    let id = 'u';
    for (let i = 0; i < 16; i++) id += Math.floor(random() * 36).toString(36);
    this.deps.userStore.set(OWNER_ID_KEY, id);
    return id;
  }

  list(): ScheduleList {
    const me = this.deps.userStore.get(OWNER_ID_KEY);
    const signedIn = this.deps.account.isSignedIn();
    return {
      reports: this.deps.reports.list().map((r) => this.view(r, me, signedIn)),
      triggerInstalled: this.deps.trigger.isInstalled(),
      timeZone: this.deps.timeZone,
      triggerRuntime: quotaView(this.deps.account.triggerRuntime().usage()),
    };
  }

  /** Validates (nothing is sent), installs the trigger if needed, then saves. */
  save(input: unknown): ScheduleList {
    const report = this.validate(input);
    const owner = this.ownerId();
    this.withTrigger(report.paused !== true, () => this.deps.reports.create(report, owner));
    return this.list();
  }

  update(id: unknown, input: unknown): ScheduleList {
    const before = this.requireMine(id);
    const definition = this.validate(input);
    this.withTrigger(definition.paused !== true, () => {
      const report = this.deps.reports.update(before.id, definition);
      if (JSON.stringify(report.schedule) !== JSON.stringify(before.schedule)) this.reschedule(report);
    });
    return this.list();
  }

  /**
   * A new schedule takes effect from the last refresh: the next run is its first slot after the last
   * attempt (a report never refreshed stays due). A retry already planned after a failure is kept
   * when it comes sooner, so an edit does not postpone it.
   */
  private reschedule(report: SavedReport): void {
    const status = this.deps.reports.status(report.id);
    if (status.nextRunAtMs === undefined || status.lastAttemptAtMs === undefined) return;
    const next = nextRunAfter(report.schedule, status.lastAttemptAtMs, this.deps.timeZone);
    const retryPending = (status.failures ?? 0) > 0 && status.nextRunAtMs < next;
    if (!retryPending) this.deps.reports.setStatus(report.id, { ...status, nextRunAtMs: next });
  }

  pause(id: unknown, paused: unknown): ScheduleList {
    const report = this.requireMine(id);
    if (typeof paused !== 'boolean') throw ValidationError.single('paused', 'must be true or false');
    const { id: _id, ownerId: _owner, createdAtMs: _c, updatedAtMs: _u, ...input } = report;
    this.withTrigger(!paused, () => this.deps.reports.update(report.id, { ...input, paused }));
    return this.list();
  }

  remove(id: unknown): ScheduleList {
    const report = this.requireMine(id);
    this.deps.reports.remove(report.id);
    this.syncTrigger();
    return this.list();
  }

  /** Refreshes one saved report now, due or not; its status records the outcome. */
  runNow(id: unknown): { summary: RefreshSummary; list: ScheduleList } {
    const report = this.requireMine(id);
    const summary = this.runner().run({ only: [report.id] });
    return { summary, list: this.list() };
  }

  /**
   * The trigger's run: what is due for the current user, within the trigger runtime left in the
   * user's 24-hour window, then the run's time counted and the trigger reconciled. The run first takes
   * its share of what is left (a whole run's 6 minutes at most) under the user lock, so that a run of
   * the same user in another document starting meanwhile plans with the rest: together they stay
   * within the day's runtime. No request starts later than the wrap-up time before the share runs
   * out; the real time replaces the share when the run ends.
   */
  runDue(startedAtMs: number): RefreshSummary {
    const runtime = this.deps.account.triggerRuntime();
    const share = runtime.reserve(RUN_FETCH_BUDGET_MS + RUN_WRAP_UP_MS, startedAtMs);
    const fetchBudgetMs = Math.max(0, Math.min(RUN_FETCH_BUDGET_MS, share.amount - RUN_WRAP_UP_MS));
    let summary: RefreshSummary;
    try {
      summary = this.runner().run({ startedAtMs, fetchBudgetMs });
    } finally {
      runtime.settle(share, Math.max(0, this.deps.clock.now() - startedAtMs), startedAtMs);
    }
    if (fetchBudgetMs < RUN_FETCH_BUDGET_MS && summary.deferred.length > 0) summary.stoppedBecause ??= 'trigger-runtime';
    this.syncTrigger();
    return summary;
  }

  /**
   * Makes a change that may need the user's trigger: the trigger is installed first, so a full
   * trigger quota refuses the change before anything is saved, and it is removed again when the
   * change itself fails. Nothing is ever half saved.
   */
  private withTrigger(needsTrigger: boolean, change: () => void): void {
    const created = needsTrigger && this.deps.trigger.ensure();
    try {
      change();
    } catch (e) {
      if (created) this.deps.trigger.remove();
      throw e;
    }
    this.syncTrigger();
  }

  /** Installed while the user has an active (not paused) saved report; removed with the last. */
  syncTrigger(): void {
    const me = this.deps.userStore.get(OWNER_ID_KEY);
    const active = me !== null && this.deps.reports.list().some((r) => r.ownerId === me && !r.paused);
    if (active) this.deps.trigger.ensure();
    else this.deps.trigger.remove();
  }

  private runner(): RefreshRunner {
    const { account, reports, sheet, clock, timeZone } = this.deps;
    return new RefreshRunner({ store: reports, source: account.reportSource(), sheet, clock, timeZone, ownerId: this.ownerId() });
  }

  private validate(input: unknown): SavedReportInput {
    const report = checkSavedReport(input);
    // Every report argument checked as a formula's would be, with today's dates; nothing is sent.
    const reportInput = reportInputOf(report, this.deps.clock.now());
    if (report.compareWith) buildComparison(reportInput, report.compareWith, 'UTC', (i) => this.deps.account.buildQuery('main', i));
    else this.deps.account.buildQuery(report.kind, reportInput);
    return report;
  }

  private requireMine(id: unknown): SavedReport {
    const report = this.deps.reports.findOrThrow(id);
    if (report.ownerId !== this.deps.userStore.get(OWNER_ID_KEY)) {
      throw ValidationError.single(
        'id',
        `"${report.name}" was saved by another editor: only they can change, run or delete it (it runs with their sign-in)`,
      );
    }
    return report;
  }

  private view(report: SavedReport, me: string | null, signedIn: boolean): ScheduleView {
    const status: RefreshStatus = this.deps.reports.status(report.id);
    const { timeZone, clock } = this.deps;
    const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
    const mine = report.ownerId === me;
    // For the current user the live sign-in state decides; an old flag is stale once they signed in again.
    const needsSignIn = mine ? !signedIn : status.needsSignIn === true;
    const { id: _id, ownerId: _owner, createdAtMs: _c, updatedAtMs: _u, ...definition } = report;
    const view: ScheduleView = {
      id: report.id,
      name: report.name,
      definition,
      scheduleText: `${describeSchedule(report.schedule)} (${timeZone})`,
      target: `${report.target.sheetName}!${report.target.cell.toUpperCase()}`,
      paused: report.paused === true,
      mine,
      status: { failures: status.failures ?? 0, needsSignIn, running: (status.runningUntilMs ?? 0) > clock.now() },
    };
    const s = view.status;
    const lastSuccess = iso(status.lastSuccessAtMs);
    if (lastSuccess) s.lastSuccess = lastSuccess;
    const lastAttempt = iso(status.lastAttemptAtMs);
    if (lastAttempt) s.lastAttempt = lastAttempt;
    const nextRun = iso(status.nextRunAtMs ?? report.createdAtMs);
    if (nextRun && !view.paused) s.nextRun = nextRun;
    if (status.rows !== undefined) s.rows = status.rows;
    if (status.durationMs !== undefined) s.durationMs = status.durationMs;
    if (status.lastError) {
      s.lastError = {
        message: status.lastError.message,
        at: new Date(status.lastError.atMs).toISOString(),
        ...(status.lastError.traceId ? { traceId: status.lastError.traceId } : {}),
      };
    }
    return view;
  }
}
