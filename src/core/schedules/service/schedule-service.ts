/**
 * The scheduling use cases behind the sidebar's Schedules panel and the hourly trigger: save, list,
 * edit, run now, pause and delete saved reports, and the scheduled run itself. Definitions are shared
 * with every editor of the document; each belongs to the user who saved it, whose sign-in and trigger
 * refresh it, so only that user may change, run or delete it (another editor's token must never run
 * someone else's schedule). Every change reconciles the user's hourly trigger: installed while the
 * user has an active schedule, removed with the last. A change that needs the trigger installs it
 * first, so a full trigger quota refuses the change before anything is saved.
 *
 * The user's own saved reports are mirrored in their registry (user properties, registry.ts), kept in
 * step whenever the document is at hand, so that a run without the document can refresh them: with
 * spreadsheetAccess "all" one trigger per user serves every spreadsheet of theirs, opening each by ID
 * (scheduled-run.ts); with "current" each spreadsheet keeps its own trigger and a run without its
 * document says so in the reports' statuses. The Schedules tab of any of the user's spreadsheets shows
 * the spreadsheets a run could not reach, and lets the user remove their schedules.
 *
 * Scheduled runs spend the user's daily trigger runtime (90 minutes, 6 hours on Workspace), counted
 * in the user's properties: a run takes its share of what is left when it starts (so overlapping
 * runs of one user share it), and what it cannot reach waits, first in line, for the next run or for
 * the window to reopen.
 */
import { quotaView } from '../../api/transport/daily-quota';
import { ValidationError } from '../../errors';
import { EXECUTION_LIMIT_MS, REFRESH_END_MARGIN_MS, RUN_FETCH_BUDGET_MS, RUN_WRAP_UP_MS } from '../../budgets';
import { buildComparison } from '../../api/requests/compare-periods';
import { MirroredReports, mirrorDocument, type MirrorOutcome } from './mirrored-reports';
import { RefreshRunner } from '../refresh/refresh-runner';
import type { RefreshSummary } from '../refresh/refresh-source';
import { checkNameFree } from '../saved/report-names';
import { checkClosedThrough, checkSavedReport, reportInputOf, type SavedReport, type SavedReportInput } from '../saved/saved-reports';
import { nextRunAfter } from '../saved/schedule';
import { reportPermissions } from './report-permissions';
import { missingPermissions, requirePermissions, SCHEDULE_PERMISSION } from '../../consent';
import { withheldPermissions } from './withheld-reports';
import { finishObservers, finishWholeRun } from '../refresh/run-events';
import { splitSecrets, storeSecrets } from '../watchers/notice-secrets';
import { runScheduled, type ScheduledRunSummary } from './scheduled-run';
import { scheduleView, unreachableViews, type ScheduleList } from './schedule-view';
import { OWNER_ID_KEY, type ScheduleServiceDeps, type TriggerEvent } from './schedule-deps';

export type { ScheduleList, ScheduleView } from './schedule-view';

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

  /**
   * The saved reports of this spreadsheet and the user's spreadsheets a run could not reach. The
   * registry catches up with the document first (statuses a run by ID wrote come back here), and with
   * spreadsheetAccess "all" a missing trigger is installed again here (its spreadsheet may be gone).
   */
  list(): ScheduleList {
    const { reports, spreadsheet } = this.document();
    const me = this.deps.userStore.get(OWNER_ID_KEY);
    const listed = reports.list();
    const mirrored = this.mirror(listed, me);
    if (this.deps.access === 'all' && me !== null) this.reinstallTrigger();
    const signedIn = this.deps.account.isSignedIn();
    const { timeZone } = spreadsheet.ref;
    const context = { me, signedIn, timeZone, nowMs: this.deps.clock.now(), destinations: this.deps.destinations };
    return {
      reports: listed.map((r) =>
        scheduleView(r, mirrored.statuses.get(r.id) ?? reports.status(r.id), context, this.deps.registry.notice(spreadsheet.ref.id, r.id)),
      ),
      triggerInstalled: this.deps.trigger.isInstalled(),
      timeZone,
      triggerRuntime: quotaView(this.deps.account.triggerRuntime().usage()),
      spreadsheetAccess: this.deps.access,
      unreachable: unreachableViews(this.deps.registry.spreadsheets(), spreadsheet.ref.id),
      ...(mirrored.notRegistered > 0
        ? {
            registryWarning:
              `${mirrored.notRegistered} of your saved reports here could not be registered for runs without this spreadsheet open: ` +
              'your user properties are full; delete saved reports you no longer need, here or in another spreadsheet.',
          }
        : {}),
    };
  }

  /** Validates (nothing is sent), checks the room in the user's registry, installs the trigger if needed, then saves. */
  save(input: unknown): ScheduleList {
    const valid = this.validate(input);
    requirePermissions(this.deps.consent, reportPermissions(valid, this.deps.destinations), 'save this schedule');
    const { definition: report, ...secrets } = splitSecrets(valid, undefined, this.deps.deployment);
    const { reports, spreadsheet } = this.document();
    const now = this.deps.clock.now();
    // Before anything is written: the ids are not known yet, so ones of the same length stand in for the room they take.
    this.deps.registry.checkRoom(spreadsheet.ref.id, {
      ...report,
      id: `${now.toString(36)}0000`,
      ownerId: this.deps.userStore.get(OWNER_ID_KEY) ?? 'u'.padEnd(17, '0'),
      createdAtMs: now,
      updatedAtMs: now,
    });
    const destination = this.deps.destinations.of(report);
    destination.checkAmong(report, () => this.reportsAnywhere());
    checkNameFree(report.name, reports.list(), this.deps.userStore.get(OWNER_ID_KEY));
    destination.checkWithService(report, this.deps.clock.now());
    const owner = this.ownerId();
    this.withTrigger(report.paused !== true, () =>
      storeSecrets(this.deps.registry, spreadsheet.ref.id, reports.create(report, owner).id, secrets),
    );
    return this.list();
  }

  update(id: unknown, input: unknown): ScheduleList {
    const before = this.requireMine(id);
    const definition = this.validate(input);
    requirePermissions(this.deps.consent, reportPermissions(definition, this.deps.destinations), 'save this schedule');
    this.change(before, definition, true);
    return this.list();
  }

  pause(id: unknown, paused: unknown): ScheduleList {
    const report = this.requireMine(id);
    if (typeof paused !== 'boolean') throw ValidationError.single('paused', 'must be true or false');
    // Pausing the last active report removes the trigger, resuming one installs it.
    requirePermissions(this.deps.consent, [SCHEDULE_PERMISSION], paused ? 'pause this schedule' : 'resume this schedule');
    const { id: _id, ownerId: _owner, createdAtMs: _c, updatedAtMs: _u, ...input } = report;
    this.change(report, { ...input, paused });
    return this.list();
  }

  remove(id: unknown): ScheduleList {
    const report = this.requireMine(id);
    const { reports, spreadsheet } = this.document();
    reports.remove(report.id);
    this.deps.registry.removeReport(spreadsheet.ref.id, report.id);
    // Without the permission to run on a schedule no trigger of this user's can be read or removed; the
    // report goes all the same; a trigger left from an earlier grant goes at the next change made with it allowed.
    if (missingPermissions(this.deps.consent, [SCHEDULE_PERMISSION]).missing.length === 0) this.syncTrigger();
    return this.list();
  }

  /** Refreshes one saved report now, due or not; its status records the outcome (in both copies). */
  runNow(id: unknown): { summary: RefreshSummary; list: ScheduleList } {
    const report = this.requireMine(id);
    const { reports, spreadsheet } = this.document();
    const { account, registry, clock } = this.deps;
    this.mirror(reports.list(), this.ownerId());
    const store = new MirroredReports(reports, registry, spreadsheet.ref.id, clock);
    const observers = this.deps.observersFor?.(spreadsheet) ?? [];
    const runner = new RefreshRunner({
      store,
      source: account.reportSource(),
      destinations: this.deps.destinations,
      sheet: spreadsheet.sheet,
      clock,
      timeZone: spreadsheet.ref.timeZone,
      ownerId: this.ownerId(),
      spreadsheet: spreadsheet.ref,
      observers,
    });
    let summary: RefreshSummary;
    try {
      summary = runner.run({ only: [report.id] });
    } finally {
      finishObservers(observers);
      // Run now tells no failure; anything else a watcher held for the run's end goes now.
      finishWholeRun(this.deps.runEndObservers);
    }
    if (summary.refreshed.length > 0) spreadsheet.refreshFormulas(true);
    return { summary, list: this.list() };
  }

  /**
   * Removes the schedules of one of the user's other spreadsheets from their registry: one they can
   * no longer open (deleted, unshared) stops being tried. The document's own saved reports there, if
   * it still exists, are untouched, and register again when its sidebar next opens.
   */
  forgetSpreadsheet(spreadsheetId: unknown): ScheduleList {
    const { spreadsheet } = this.document();
    const entry = typeof spreadsheetId === 'string' ? this.deps.registry.entry(spreadsheetId) : undefined;
    if (!entry)
      throw ValidationError.single('spreadsheetId', 'must name one of your spreadsheets with schedules (it may have been removed already)');
    if (entry.id === spreadsheet.ref.id) {
      throw ValidationError.single('spreadsheetId', "names this spreadsheet: delete or pause its saved reports in this tab's list instead");
    }
    this.deps.registry.removeSpreadsheet(entry.id);
    this.syncTrigger();
    return this.list();
  }

  /**
   * The trigger's run: what is due for the current user, within the trigger runtime left in the
   * user's 24-hour window, then the run's time counted and the trigger reconciled. The run first takes
   * its share of what is left (a whole run's 6 minutes at most) under the user lock, so that another
   * run of the same user starting meanwhile plans with the rest: together they stay within the day's
   * runtime. No request starts later than the wrap-up time before the share runs out; the real time
   * replaces the share when the run ends. The run's document, if it has one, comes first; the user's
   * other spreadsheets follow by ID (scheduled-run.ts).
   */
  runDue(startedAtMs: number, event: TriggerEvent = {}): ScheduledRunSummary {
    const { account, registry, clock, access, opener } = this.deps;
    const runtime = account.triggerRuntime();
    const share = runtime.reserve(RUN_FETCH_BUDGET_MS + RUN_WRAP_UP_MS, startedAtMs);
    const fetchBudgetMs = Math.max(0, Math.min(RUN_FETCH_BUDGET_MS, share.amount - RUN_WRAP_UP_MS));
    const ownerId = this.ownerId();
    let summary: ScheduledRunSummary;
    try {
      const document = this.deps.document;
      // Reached now: whatever kept a run from this spreadsheet before is over.
      if (document) this.mirror(document.reports.list(), ownerId, () => false);
      const current = document
        ? {
            spreadsheet: document.spreadsheet,
            reports: new MirroredReports(document.reports, registry, document.spreadsheet.ref.id, clock),
          }
        : null;
      summary = runScheduled(
        {
          registry,
          source: account.reportSource(),
          destinations: this.deps.destinations,
          clock,
          ownerId,
          access,
          current,
          ...(opener ? { opener } : {}),
          ...(event.triggerUid ? { triggerUid: event.triggerUid } : {}),
          ...(this.deps.observersFor ? { observersFor: this.deps.observersFor } : {}),
          ...(this.deps.runEndObservers ? { runEndObservers: this.deps.runEndObservers } : {}),
          withheld: withheldPermissions(this.deps.consent, this.deps.destinations),
        },
        // The formulas take what the saved reports left of the run's share, up to its last 15 s.
        { startedAtMs, fetchBudgetMs, formulasUntilMs: startedAtMs + Math.min(EXECUTION_LIMIT_MS, share.amount) - REFRESH_END_MARGIN_MS },
      );
    } finally {
      runtime.settle(share, Math.max(0, clock.now() - startedAtMs), startedAtMs);
    }
    if (fetchBudgetMs < RUN_FETCH_BUDGET_MS && summary.deferred.length > 0) summary.stoppedBecause ??= 'trigger-runtime';
    // Only a run with its document changes triggers: it has just registered this spreadsheet's reports.
    // Without one the registry may not know every spreadsheet yet (reports saved before it), so nothing goes.
    if (this.deps.document) {
      this.syncTrigger();
      if (access === 'all' && event.triggerUid) this.deps.trigger.retire(event.triggerUid);
    }
    return summary;
  }

  /**
   * Installed while the user has an active (not paused) saved report: with spreadsheetAccess "all" in
   * any of their spreadsheets a run can reach (one trigger serves them all), with "current" in this
   * one. Removed with the last.
   */
  syncTrigger(): void {
    if (this.isActive()) this.deps.trigger.ensure();
    else this.deps.trigger.remove();
  }

  private isActive(): boolean {
    const me = this.deps.userStore.get(OWNER_ID_KEY);
    if (me === null) return false;
    const document = this.deps.document;
    if (document?.reports.list().some((r) => r.ownerId === me && !r.paused)) return true;
    if (this.deps.access !== 'all') return false;
    const here = document?.spreadsheet.ref.id;
    return this.deps.registry
      .spreadsheets()
      .some((e) => e.id !== here && e.active > 0 && e.problem?.reason !== 'deleted' && e.problem?.reason !== 'no-access');
  }

  /** With "all": the user's one trigger, installed again from here when it is gone (the spreadsheet it lived in may be). */
  private reinstallTrigger(): void {
    try {
      if (!this.deps.trigger.isInstalled() && this.isActive()) this.deps.trigger.ensure();
    } catch {
      // Listing never fails for it: the next change of a schedule installs it, or says why not.
    }
  }

  /** Applies a changed definition: room in the registry first, then the trigger, then the document; a new schedule reschedules. */
  private change(before: SavedReport, input: SavedReportInput, askService = false): void {
    const { reports, spreadsheet } = this.document();
    const { definition, ...secrets } = splitSecrets(input, before, this.deps.deployment);
    // The newer of the two copies of its status: a run by ID may have written the registry's since.
    const statuses = new MirroredReports(reports, this.deps.registry, spreadsheet.ref.id, this.deps.clock);
    const status = statuses.status(before.id);
    const { destinations } = this.deps;
    // A report whose destination this build lacks can still be paused, or pointed at a sheet (validate refused the rest).
    destinations.find(before)?.checkChange(before, definition, status);
    const destination = destinations.find(definition);
    destination?.checkAmong(definition, () => this.reportsAnywhere(), before.id);
    checkNameFree(definition.name, reports.list(), before.ownerId, before);
    // The new definition replaces the old whole (alerts or notices removed count no more), as the store's update does.
    const { id, ownerId, createdAtMs } = before;
    this.deps.registry.checkRoom(spreadsheet.ref.id, { ...definition, id, ownerId, createdAtMs, updatedAtMs: this.deps.clock.now() });
    if (askService) destination?.checkWithService(definition, this.deps.clock.now());
    this.withTrigger(definition.paused !== true, () => {
      const report = reports.update(before.id, definition);
      storeSecrets(this.deps.registry, spreadsheet.ref.id, report.id, secrets);
      // A destination may plan again after the change: a table whose days now hold something else loads them again.
      const restarted = destination?.statusAfterEdit(before, definition, statuses.status(report.id), this.deps.clock.now());
      if (restarted) statuses.setStatus(report.id, restarted);
      if (JSON.stringify(report.schedule) !== JSON.stringify(before.schedule)) this.reschedule(report);
    });
  }

  /**
   * A new schedule takes effect from the last refresh: the next run is its first slot after the last
   * attempt (a report never refreshed stays due). A retry already planned after a failure is kept
   * when it comes sooner, so an edit does not postpone it.
   */
  private reschedule(report: SavedReport): void {
    const { reports, spreadsheet } = this.document();
    const store = new MirroredReports(reports, this.deps.registry, spreadsheet.ref.id, this.deps.clock);
    const status = store.status(report.id);
    if (status.nextRunAtMs === undefined || status.lastAttemptAtMs === undefined) return;
    const next = nextRunAfter(report.schedule, status.lastAttemptAtMs, spreadsheet.ref.timeZone);
    const retryPending = (status.failures ?? 0) > 0 && status.nextRunAtMs < next;
    // A backfill under way runs hourly, or waits for its destination's loads of the day: never later for a new schedule.
    const backfilling = status.backfill?.nextDay !== undefined && status.nextRunAtMs < next;
    if (!retryPending && !backfilling) store.setStatus(report.id, { ...status, nextRunAtMs: next });
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

  /** The registry brought up to date with the document (mirrored-reports.ts). */
  private mirror(
    reports: SavedReport[],
    me: string | null,
    keepProblem = (p: { reason: string }) => p.reason === 'no-document',
  ): MirrorOutcome {
    const document = this.document();
    const uid = this.deps.access === 'current' ? this.deps.trigger.uniqueId() : undefined;
    return mirrorDocument({
      document: document.reports,
      reports,
      registry: this.deps.registry,
      ref: document.spreadsheet.ref,
      sheet: document.spreadsheet.sheet,
      ownerId: me,
      ...(uid ? { triggerUid: uid } : {}),
      keepProblem,
    });
  }

  private document(): NonNullable<ScheduleServiceDeps['document']> {
    const document = this.deps.document;
    if (!document) throw new Error('Engage schedules: this needs the spreadsheet open (no document in this run)');
    return document;
  }

  private validate(input: unknown): SavedReportInput {
    // First of all: an installation without the destination asked for says so, whatever else the report holds.
    const destination = this.deps.destinations.of(input);
    const report = checkSavedReport(input, (parsed) => destination.checkDefinition(parsed));
    checkClosedThrough(report, this.deps.clock.now());
    // Every report argument checked as a formula's would be, with today's dates; nothing is sent.
    const reportInput = reportInputOf(report, this.deps.clock.now(), destination.checkRange(report, this.deps.clock.now()));
    if (report.compareWith) buildComparison(reportInput, report.compareWith, 'UTC', (i) => this.deps.account.buildQuery('main', i));
    else this.deps.account.buildQuery(report.kind, reportInput);
    return report;
  }

  /** The user's saved reports here (every editor's) and in every spreadsheet of the registry (their own). */
  private reportsAnywhere(): SavedReport[] {
    const { registry } = this.deps;
    return [...this.document().reports.list(), ...registry.spreadsheets().flatMap((entry) => registry.reports(entry.id))];
  }

  private requireMine(id: unknown): SavedReport {
    const report = this.document().reports.findOrThrow(id);
    if (report.ownerId !== this.deps.userStore.get(OWNER_ID_KEY)) {
      throw ValidationError.single(
        'id',
        `"${report.name}" was saved by another editor: only they can change, run or delete it (it runs with their sign-in)`,
      );
    }
    return report;
  }
}
