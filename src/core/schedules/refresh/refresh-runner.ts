/**
 * The scheduled refresh: one hourly trigger per user per document runs this over the saved reports
 * that user owns. It refreshes what is due in a fair order (longest overdue first, publishers taking
 * turns) under the shared rate limiter, the same budget formulas and sidebar runs spend; it starts no
 * report it cannot finish before its fetch deadline (of a report of several publishers, it sends no
 * more than the first pages, each publisher's own budget deciding), well inside Apps Script's
 * 6-minute limit, and leaves the rest for the next run, first in line. A report is due once per schedule slot, so it is
 * never refreshed twice in one window.
 *
 * Near the user's daily URL Fetch quota (80% of it: the rest is kept for formulas and the sidebar) a
 * scheduled run starts no more reports, and a quota that Apps Script says is spent stops it; the
 * reports keep their place for the next run. How long a run may fetch is the caller's to say
 * (fetchBudgetMs): the trigger's run gets no more than the day's trigger runtime left.
 *
 * All or nothing per report: every page arrives first (refresh-block.ts), then one write replaces the
 * data, or in append and upsert rewrites the kept rows with the run's (write-modes.ts); a failure
 * leaves the previous data and records the error in the report's status, which the sidebar and a
 * note on the data's first cell show. A missing, expired or refused sign-in marks the owner's reports
 * "sign in again" and stops the run; nothing here ever logs in.
 */
import { RUN_CLAIM_SLACK_MS, RUN_FETCH_BUDGET_MS } from '../../budgets';
import { AuthenticationError, EngageError, FetchQuotaError, NotSignedInError, RateLimitError, RefreshDeferredError } from '../../errors';
import type { Clock, ReportSheet, SheetBlock, SpreadsheetRef, WrittenBlock } from '../../ports';
import type { RefreshStatus, SavedReport } from '../saved/saved-reports';
import { describeSchedule, nextRunAfter } from '../saved/schedule';
import { wallTimeInZone } from '../../util/dates';
import { formatCount, formatDuration } from '../../util/text';
import { writeModeSummary } from '../saved/write-modes';
import { selectsSeveral } from '../../api/requests/publisher-list';
import type { SavedReportSource } from '../saved/saved-report-store';
import { type RunObserver, tellObservers, tellUntried } from './run-events';
import { dueReports } from './due-order';
import type { RefreshSummary, ReportSource } from './refresh-source';
import type { Destinations } from './destination';

export interface RefreshRunnerDeps {
  store: SavedReportSource;
  source: ReportSource;
  /** Where saved reports go (destination.ts): the runner asks each report's own. */
  destinations: Destinations;
  sheet: ReportSheet;
  clock: Clock;
  /** The spreadsheet's IANA zone: schedules and the times in notes. */
  timeZone: string;
  /** The user this run belongs to: only their saved reports are refreshed, with their sign-in. */
  ownerId: string;
  /** The spreadsheet the reports live in, and those told of each report refreshed or failed (run-events.ts). */
  spreadsheet?: SpreadsheetRef;
  observers?: readonly RunObserver[];
}

export interface RunOptions {
  /** When the execution started (epoch ms); default now. */
  startedAtMs?: number;
  /** Refresh these reports now, due or not (the sidebar's "Run now"); paused ones too. */
  only?: string[];
  fetchBudgetMs?: number;
}

export type Outcome = 'refreshed' | 'failed' | 'deferred' | 'needsSignIn' | 'busy';

/** Tells the run's watchers of one report's outcome, with the rows written when its destination wrote them to a sheet. */
type Tell = (outcome: 'refreshed' | 'failed', written?: { block: SheetBlock; written: WrittenBlock; fetched: SheetBlock }) => void;

/** Errors that a later attempt in the same slot will not fix: the next try is at the next slot. */
function isPermanent(error: unknown): boolean {
  return (
    error instanceof EngageError &&
    [
      'BAD_REQUEST',
      'PERMISSION_DENIED',
      'NOT_FOUND',
      'INVALID_ARGUMENT',
      'ADDRESS_NOT_ALLOWED',
      'ADDRESS_NOT_FOUND',
      'INVALID_ADDRESS',
    ].includes(error.code)
  );
}

function traceIdOf(error: unknown): string | undefined {
  const id = (error as { traceId?: unknown } | null)?.traceId;
  return typeof id === 'string' ? id : undefined;
}

/** "2026-11-20 14:05" on the sheet's clock. */
export function formatLocal(ms: number, timeZone: string): string {
  const w = wallTimeInZone(ms, timeZone);
  const p = (n: number) => (n < 10 ? `0${n}` : String(n));
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}`;
}

/** The note beside a saved report's data. */
export function statusNote(report: SavedReport, status: RefreshStatus, timeZone: string): string {
  const when = (ms: number | undefined) => (ms === undefined ? 'never' : formatLocal(ms, timeZone));
  const lines = [
    `Engage saved report "${report.name}", ${report.paused ? 'paused' : describeSchedule(report.schedule)} (times in ${timeZone})`,
  ];
  const success =
    status.lastSuccessAtMs === undefined
      ? 'never'
      : `${when(status.lastSuccessAtMs)}, ${formatCount(status.rows ?? 0)} rows ${formatDuration(status.durationMs ?? 0)}`;
  lines.push(`Last success: ${success}`);
  lines.push(`Last attempt: ${when(status.lastAttemptAtMs)}`);
  const kept = writeModeSummary(report);
  if (kept) lines.push(`Write mode: ${kept}`);
  if (!report.paused)
    lines.push(`Next run: ${status.nextRunAtMs === undefined ? 'at the next hourly run' : `from ${when(status.nextRunAtMs)}`}`);
  if (status.needsSignIn) lines.push("Sign in again: the owner's Engage sign-in is missing, expired or was refused.");
  if (status.lastError) {
    lines.push(`Last error (${when(status.lastError.atMs)}): ${status.lastError.message}`);
  }
  return lines.join('\n');
}

export class RefreshRunner {
  /** The sign-in failure that stopped the run, for the other reports' statuses. */
  private signInError: unknown;
  /** This run is the sidebar's "Run now", not the trigger's. */
  private runningNow = false;
  /** Publishers whose budget ran out in this run: a report of unknown size would only spend a request finding out. */
  private readonly outOfBudget = new Set<string>();
  /** When this run starts no more requests: its watchers measure their own waits from it. */
  private deadlineAtMs = 0;

  constructor(private readonly deps: RefreshRunnerDeps) {}

  /** The reports of this owner due now, in the order a run takes them. */
  dueReports(nowMs: number): SavedReport[] {
    return dueReports(this.deps.store, this.deps.ownerId, nowMs, this.deps.destinations);
  }

  run(options: RunOptions = {}): RefreshSummary {
    const { store, clock, ownerId } = this.deps;
    const startedAtMs = options.startedAtMs ?? clock.now();
    const deadlineAtMs = startedAtMs + (options.fetchBudgetMs ?? RUN_FETCH_BUDGET_MS);
    this.deadlineAtMs = deadlineAtMs;
    const summary: RefreshSummary = { refreshed: [], failed: [], deferred: [], needsSignIn: false, requests: 0 };
    this.runningNow = options.only !== undefined;
    const queue = options.only ? options.only.map((id) => store.findOrThrow(id)) : this.dueReports(clock.now());
    if (queue.length === 0) return summary;
    try {
      this.deps.source.checkSignedIn();
    } catch (e) {
      if (e instanceof NotSignedInError || e instanceof AuthenticationError) {
        // The reports due now failed for it as surely as if each had tried: their watchers hear of it.
        this.markSignInNeeded(e, new Set(queue.map((r) => r.id)));
        summary.needsSignIn = true;
        return summary;
      }
      throw e;
    }
    for (let i = 0; i < queue.length; i++) {
      const report = queue[i]!;
      if (report.ownerId !== ownerId) {
        summary.failed.push(report.id);
        continue;
      }
      // Near the daily URL Fetch quota a scheduled run stops and leaves the rest, in order, for later;
      // "Run now" is the user's own request and spends the reserve like a formula.
      if (!this.runningNow && !this.deps.source.fetchRoomFor(Math.max(1, this.deps.store.status(report.id).requests ?? 1))) {
        summary.stoppedBecause = 'fetch-quota';
        summary.deferred.push(...queue.slice(i).map((r) => r.id));
        break;
      }
      const outcome = this.refreshOne(report, deadlineAtMs, summary);
      if (outcome === 'deferred' && summary.stoppedBecause === 'fetch-quota') {
        summary.deferred.push(...queue.slice(i).map((r) => r.id));
        break;
      }
      if (outcome === 'refreshed') summary.refreshed.push(report.id);
      else if (outcome === 'failed') summary.failed.push(report.id);
      else if (outcome === 'deferred' || outcome === 'busy') summary.deferred.push(report.id);
      else {
        // The service refused the sign-in: every report of this owner waits for a new one.
        summary.needsSignIn = true;
        this.markSignInNeeded(this.signInError);
        summary.deferred.push(...queue.slice(i + 1).map((r) => r.id));
        break;
      }
    }
    return summary;
  }

  /** Refreshes one report into its destination; never throws for the report's own failures. */
  private refreshOne(report: SavedReport, deadlineAtMs: number, summary: RefreshSummary): Outcome {
    const { store, clock, timeZone } = this.deps;
    const startMs = clock.now();
    const status = store.status(report.id);
    if (status.runningUntilMs !== undefined && status.runningUntilMs > startMs) return 'busy';
    if (this.overBudget(report, status, startMs, deadlineAtMs)) {
      this.outOfBudget.add(report.entityId);
      return 'deferred';
    }
    const claim = deadlineAtMs + RUN_CLAIM_SLACK_MS;
    store.setStatus(report.id, { ...status, runningUntilMs: claim });
    const next: RefreshStatus = { ...status, lastAttemptAtMs: startMs };
    delete next.runningUntilMs;
    const tell = this.teller(report, status, next, startMs, summary);
    try {
      const refreshed = this.deps.destinations.of(report, 'refresh').refresh({
        report,
        status,
        next,
        save: (current) => store.setStatus(report.id, { ...current, runningUntilMs: claim }),
        source: this.deps.source,
        sheet: this.deps.sheet,
        clock,
        timeZone,
        startedAtMs: startMs,
        deadlineAtMs,
        summary,
      });
      if (refreshed.outcome === 'deferred') {
        store.setStatus(report.id, refreshed.kept);
        if (refreshed.outOfBudget) this.outOfBudget.add(report.entityId);
        return 'deferred';
      }
      next.written = refreshed.written;
      next.lastSuccessAtMs = clock.now();
      next.rows = refreshed.rows;
      next.durationMs = clock.now() - startMs;
      next.requests = refreshed.requests;
      next.failures = 0;
      if (refreshed.nextRunAtMs === undefined) delete next.nextRunAtMs;
      else next.nextRunAtMs = refreshed.nextRunAtMs;
      delete next.needsSignIn;
      this.finish(report, next);
      tell('refreshed', refreshed.rowsWritten);
      return 'refreshed';
    } catch (e) {
      return this.failed(e, report, status, next, startMs, summary, tell);
    }
  }

  /**
   * Whether the report's requests would not fit the budget before the deadline: asked before sending
   * anything. A report of several publishers spends each publisher's own budget, which no one scope
   * named after its entityId holds: its first pages show what each publisher needs, and the paging
   * sends nothing more unless every publisher's pages fit (multi-paging.ts), else the run defers it.
   */
  private overBudget(report: SavedReport, status: RefreshStatus, startMs: number, deadlineAtMs: number): boolean {
    const expected = Math.max(1, status.requests ?? 1);
    return (
      startMs >= deadlineAtMs ||
      (!selectsSeveral(report.entityId) && this.deps.source.budgetFreeAtMs(report.entityId, expected) > deadlineAtMs) ||
      (status.requests === undefined && this.outOfBudget.has(report.entityId))
    );
  }

  /** Tells the run's watchers how the report's refresh went (run-events.ts). */
  private teller(report: SavedReport, previous: RefreshStatus, next: RefreshStatus, startMs: number, summary: RefreshSummary): Tell {
    const requestsBefore = summary.requests;
    return (outcome, written) => {
      const { spreadsheet, observers, clock } = this.deps;
      if (!spreadsheet || !observers?.length) return;
      tellObservers(observers, {
        report,
        spreadsheet,
        outcome,
        by: this.runningNow ? 'run-now' : 'schedule',
        startedAtMs: startMs,
        endedAtMs: clock.now(),
        deadlineAtMs: this.deadlineAtMs,
        requests: summary.requests - requestsBefore,
        previous,
        status: next,
        ...(written ?? {}),
      });
    };
  }

  /** A refresh that threw: deferred (nothing written, its place kept), or failed with the error in its status. */
  private failed(
    e: unknown,
    report: SavedReport,
    status: RefreshStatus,
    next: RefreshStatus,
    startMs: number,
    summary: RefreshSummary,
    tell: Tell,
  ): Outcome {
    const { store, clock, timeZone } = this.deps;
    // A scheduled run waits out a spent URL Fetch quota; "Run now" shows it, as a formula would.
    const quotaWait = e instanceof FetchQuotaError && !this.runningNow;
    if (e instanceof RefreshDeferredError || (e instanceof RateLimitError && e.local) || quotaWait) {
      // Nothing was written, and the report keeps its place at the head of the next run.
      const kept = { ...status };
      delete kept.runningUntilMs;
      // A destination loaded day by day keeps the days it loaded before the budget ran out.
      if (next.backfill) kept.backfill = next.backfill;
      if (e instanceof RefreshDeferredError && e.requests !== undefined) kept.requests = e.requests;
      store.setStatus(report.id, kept);
      if (quotaWait) summary.stoppedBecause = 'fetch-quota';
      else this.outOfBudget.add(report.entityId);
      return 'deferred';
    }
    next.failures = (status.failures ?? 0) + 1;
    next.lastError = {
      message: e instanceof Error ? e.message : String(e),
      atMs: clock.now(),
      ...(traceIdOf(e) ? { traceId: traceIdOf(e)! } : {}),
    };
    if (e instanceof NotSignedInError || e instanceof AuthenticationError) {
      this.signInError = e;
      next.needsSignIn = true;
      this.finish(report, next);
      tell('failed');
      return 'needsSignIn';
    }
    // Transient failures are tried again at the next hourly run; permanent ones at the next slot.
    if (isPermanent(e)) next.nextRunAtMs = nextRunAfter(report.schedule, startMs, timeZone);
    this.finish(report, next);
    tell('failed');
    return 'failed';
  }

  private finish(report: SavedReport, status: RefreshStatus): void {
    this.deps.store.setStatus(report.id, status);
    if (status.written) {
      try {
        this.deps.sheet.note(status.written, statusNote(report, status, this.deps.timeZone));
      } catch {
        // The note is a courtesy: the status in the sidebar is the record.
      }
    }
  }

  /** Every saved report of this owner says "sign in again" until a run succeeds; those in `failed` failed for it now. */
  private markSignInNeeded(error: unknown, failed?: ReadonlySet<string>): void {
    const { store, clock, ownerId } = this.deps;
    const now = clock.now();
    for (const report of store.list()) {
      if (report.ownerId !== ownerId || report.paused) continue;
      const status = store.status(report.id);
      const next: RefreshStatus = { ...status, needsSignIn: true };
      if (error) {
        next.lastAttemptAtMs = now;
        next.lastError = {
          message: error instanceof Error ? error.message : String(error),
          atMs: now,
          ...(traceIdOf(error) ? { traceId: traceIdOf(error)! } : {}),
        };
      }
      delete next.runningUntilMs;
      this.finish(report, next);
      if (failed?.has(report.id)) {
        const at = { atMs: now, deadlineAtMs: this.deadlineAtMs };
        tellUntried(this.deps, report, this.runningNow ? 'run-now' : 'schedule', at, status, next);
      }
    }
  }
}
