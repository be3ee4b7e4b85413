/**
 * One scheduled run over the user's spreadsheets. The spreadsheet the run has as its document (if
 * Apps Script gave it one) comes first, from the document's copy of its saved reports kept in step
 * with the registry. Then, with spreadsheetAccess "all", every other spreadsheet in the user's
 * registry with reports due, opened by ID and refreshed from the registry's copy, longest overdue
 * first, so one trigger per user serves them all and a spreadsheet left for lack of time goes first
 * next hour. With "current" and no document, the run cannot refresh anything: it finds its
 * spreadsheet by the trigger's ID in the registry and says why there.
 *
 * All spreadsheets share the run's deadline and its report source (one rate budget, one sign-in
 * check). Each spreadsheet's watchers hear when the run is over there; the run's own watchers
 * (runEndObservers: the failures' notices, grouped per owner and channel) when it is over in all of
 * them, before the formulas recalculate, and also when it ends early by an error. A spreadsheet the run cannot reach (deleted, unshared, no document) is not touched: each
 * of its due reports gets the reason and what to do as its last error, and its registry entry the
 * problem and since when, which the Schedules tab of any of the user's spreadsheets shows.
 */
import type { SpreadsheetAccess } from '../../deployment';
import { SpreadsheetUnreachableError } from '../../errors';
import { SCHEDULED_FORMULAS_BUDGET_MS } from '../../budgets';
import { isAnotherDay } from '../../util/relative-days';
import type { Clock, ScheduledSpreadsheet, SpreadsheetOpener } from '../../ports';
import { RegistryReports } from './mirrored-reports';
import { dueReports } from '../refresh/due-order';
import { RefreshRunner } from '../refresh/refresh-runner';
import type { RefreshSummary, ReportSource } from '../refresh/refresh-source';
import type { Destinations } from '../refresh/destination';
import type { RegistryEntry, ScheduleRegistry } from '../saved/registry';
import { finishObservers, finishWholeRun, type RunEndObserver, type RunObserver, tellUntried } from '../refresh/run-events';
import type { SavedReportSource } from '../saved/saved-report-store';
import type { RefreshStatus, SavedReport } from '../saved/saved-reports';
import { type Withheld, withoutWithheld } from './withheld-reports';

/** A spreadsheet a run could not reach, for the run's log line. */
export interface UnreachableSpreadsheet {
  spreadsheetId: string;
  name: string;
  reason: SpreadsheetUnreachableError['reason'];
}

export interface ScheduledRunSummary extends RefreshSummary {
  /** Spreadsheets refreshed by ID (not the run's own document). */
  openedById: number;
  unreachable: UnreachableSpreadsheet[];
}

export interface ScheduledRunDeps {
  registry: ScheduleRegistry;
  source: ReportSource;
  /** Where saved reports go: each report's destination refreshes it. */
  destinations: Destinations;
  clock: Clock;
  ownerId: string;
  access: SpreadsheetAccess;
  /** The run's document, with its saved reports (the document's copy, mirrored); null without one. */
  current: { spreadsheet: ScheduledSpreadsheet; reports: SavedReportSource } | null;
  /** Opens the user's other spreadsheets by ID (spreadsheetAccess "all"). */
  opener?: SpreadsheetOpener;
  /** The trigger event's triggerUid: which spreadsheet a run without its document belongs to ("current"). */
  triggerUid?: string;
  /** Who is told of each report refreshed or failed in a spreadsheet (run-events.ts). */
  observersFor?: (spreadsheet: ScheduledSpreadsheet) => readonly RunObserver[];
  /** Who is told when the run is over in every spreadsheet it reached (run-events.ts): the failures' notices, grouped. */
  runEndObservers?: readonly RunEndObserver[];
  /** Refresh permissions the user withheld (withheld-reports.ts): the reports that need them are marked, not tried. */
  withheld?: Withheld;
}

export function emptySummary(): ScheduledRunSummary {
  return { refreshed: [], failed: [], deferred: [], needsSignIn: false, requests: 0, openedById: 0, unreachable: [] };
}

/**
 * `formulasUntilMs`: when the formulas of the spreadsheets reached must be done recalculating (their
 * waves start once every saved report is written, so formulas never take a report's time).
 */
export function runScheduled(
  deps: ScheduledRunDeps,
  options: { startedAtMs: number; fetchBudgetMs: number; formulasUntilMs?: number },
): ScheduledRunSummary {
  const { registry, clock, current } = deps;
  const summary = emptySummary();
  const reached: Array<{ spreadsheet: ScheduledSpreadsheet; wrote: boolean }> = [];
  try {
    if (current) reached.push(refresh(deps, current.spreadsheet, current.reports, options, summary));
    if (deps.access === 'all' && deps.opener) refreshOthers(deps, deps.opener, options, summary, reached);
    else if (!current) ownWithoutDocument(deps, summary);
  } finally {
    // Every spreadsheet is done: what waited for the whole run (the failures' notices) goes out now.
    finishWholeRun(deps.runEndObservers);
  }
  // One spreadsheet's formulas at a time, each waited for before the next's start (at most 25 compute at
  // once for the user), within the run's share and at most SCHEDULED_FORMULAS_BUDGET_MS.
  const formulasUntilMs = Math.min(options.formulasUntilMs ?? Number.POSITIVE_INFINITY, clock.now() + SCHEDULED_FORMULAS_BUDGET_MS);
  reached.forEach(({ spreadsheet, wrote }, index) => {
    const current = spreadsheet.refreshFormulas(wrote, formulasUntilMs, { awaitLastWave: index < reached.length - 1 });
    // The day its formulas were last brought to, once they all were: one property write a day per spreadsheet.
    const entry = registry.entry(spreadsheet.ref.id);
    if (current && entry && isAnotherDay(entry.formulasDayAtMs ?? 0, clock.now(), entry.timeZone))
      registry.putEntry({ ...entry, formulasDayAtMs: clock.now() });
  });
  return summary;
}

/** With spreadsheetAccess "all": the user's other spreadsheets with reports due (or a new day), longest overdue first, by ID. */
function refreshOthers(
  deps: ScheduledRunDeps,
  opener: SpreadsheetOpener,
  options: { startedAtMs: number; fetchBudgetMs: number },
  summary: ScheduledRunSummary,
  reached: Array<{ spreadsheet: ScheduledSpreadsheet; wrote: boolean }>,
): void {
  const { registry, clock, ownerId, current } = deps;
  const deadlineAtMs = options.startedAtMs + options.fetchBudgetMs;
  const others = registry
    .spreadsheets()
    .filter((entry) => entry.id !== current?.spreadsheet.ref.id)
    .map((entry) => ({ entry, due: dueReports(new RegistryReports(registry, entry.id, clock), ownerId, clock.now(), deps.destinations) }))
    .filter(({ due }) => due.length > 0)
    .sort((a, b) => overdueSince(a.due, registry, a.entry) - overdueSince(b.due, registry, b.entry));
  // A spreadsheet with nothing due is opened once a day on its clock, for its formulas' relative days.
  const now = clock.now();
  const newDay = registry
    .spreadsheets()
    .filter((entry) => entry.id !== current?.spreadsheet.ref.id && entry.active > 0 && !others.some((o) => o.entry.id === entry.id))
    .filter((entry) => isAnotherDay(entry.formulasDayAtMs ?? 0, now, entry.timeZone))
    .map((entry) => ({ entry, due: [] as SavedReport[] }));
  for (const { entry, due } of [...others, ...newDay]) {
    if (summary.stoppedBecause === 'fetch-quota' || clock.now() >= deadlineAtMs) {
      // Nothing sent: they keep their place, the longest overdue first in the next run.
      summary.deferred.push(...due.map((r) => r.id));
      continue;
    }
    let opened: ScheduledSpreadsheet;
    try {
      opened = opener.open(entry.id);
    } catch (error) {
      const why = error instanceof SpreadsheetUnreachableError ? error : new SpreadsheetUnreachableError('not-opened', messageOf(error));
      unreachable(deps, entry, due, why, summary);
      continue;
    }
    const { problem: _solved, ...solved } = entry;
    registry.putEntry({ ...solved, ...opened.ref });
    summary.openedById++;
    reached.push(refresh(deps, opened, new RegistryReports(registry, entry.id, clock), options, summary));
  }
}

/** "current" without a document: the trigger's own spreadsheet, known by the trigger's ID, says why it was not refreshed. */
function ownWithoutDocument(deps: ScheduledRunDeps, summary: ScheduledRunSummary): void {
  const { registry, clock, ownerId } = deps;
  const entries = registry.spreadsheets();
  const own = entries.filter((e) => e.triggerUid !== undefined && e.triggerUid === deps.triggerUid);
  // A trigger the registry does not know yet is the only spreadsheet without a known trigger, or it
  // cannot be told: then nothing is written, rather than marking spreadsheets whose triggers may work.
  const unknown = entries.filter((e) => e.triggerUid === undefined);
  for (const entry of own.length > 0 ? own : unknown.length === 1 ? unknown : []) {
    const due = dueReports(new RegistryReports(registry, entry.id, clock), ownerId, clock.now(), deps.destinations);
    if (due.length > 0) unreachable(deps, entry, due, new SpreadsheetUnreachableError('no-document'), summary);
  }
}

/**
 * Refreshes what is due in one spreadsheet within the run's deadline; says whether it wrote anything,
 * for its formulas, which recalculate when the run is over: when anything was written, or when the day
 * has changed since they last fetched (relative days move with it).
 */
function refresh(
  deps: ScheduledRunDeps,
  spreadsheet: ScheduledSpreadsheet,
  store: SavedReportSource,
  options: { startedAtMs: number; fetchBudgetMs: number },
  summary: ScheduledRunSummary,
): { spreadsheet: ScheduledSpreadsheet; wrote: boolean } {
  const { source, destinations, clock, ownerId } = deps;
  const observers = deps.observersFor?.(spreadsheet) ?? [];
  // A report marked for a withheld permission is told of as one that failed untried: its notices go once.
  const told = (report: SavedReport, previous: RefreshStatus, status: RefreshStatus) =>
    tellUntried(
      { spreadsheet: spreadsheet.ref, observers },
      report,
      'schedule',
      { atMs: clock.now(), deadlineAtMs: options.startedAtMs + options.fetchBudgetMs },
      previous,
      status,
    );
  const runner = new RefreshRunner({
    store: deps.withheld ? withoutWithheld(store, deps.withheld, clock, summary.failed, told) : store,
    source,
    destinations,
    sheet: spreadsheet.sheet,
    clock,
    timeZone: spreadsheet.ref.timeZone,
    ownerId,
    spreadsheet: spreadsheet.ref,
    observers,
  });
  let outcome: RefreshSummary;
  try {
    outcome = runner.run(options);
  } finally {
    finishObservers(observers);
  }
  summary.refreshed.push(...outcome.refreshed);
  summary.failed.push(...outcome.failed);
  summary.deferred.push(...outcome.deferred);
  summary.requests += outcome.requests;
  summary.needsSignIn ||= outcome.needsSignIn;
  summary.stoppedBecause ??= outcome.stoppedBecause;
  return { spreadsheet, wrote: outcome.refreshed.length > 0 };
}

/**
 * Says where people look that a spreadsheet could not be reached: each due report's status (once per
 * problem: the same reason is not written again every hour) and the registry entry, whose problem
 * keeps the time it began. Its reports stay due, so the next run tries again.
 */
function unreachable(
  deps: ScheduledRunDeps,
  entry: RegistryEntry,
  due: SavedReport[],
  error: SpreadsheetUnreachableError,
  summary: ScheduledRunSummary,
): void {
  const { registry, clock } = deps;
  const now = clock.now();
  const store = new RegistryReports(registry, entry.id, clock);
  for (const report of due) {
    summary.failed.push(report.id);
    const status = store.status(report.id);
    if (status.lastError?.message === error.message) continue;
    const { runningUntilMs: _claim, ...rest } = status;
    store.setStatus(report.id, {
      ...rest,
      lastAttemptAtMs: now,
      failures: (status.failures ?? 0) + 1,
      lastError: { message: error.message, atMs: now },
    });
  }
  const same = entry.problem?.reason === error.reason;
  registry.putEntry({
    ...entry,
    problem: { reason: error.reason, why: error.why(), sinceMs: same ? entry.problem!.sinceMs : now, lastAtMs: now },
  });
  summary.unreachable.push({ spreadsheetId: entry.id, name: entry.name, reason: error.reason });
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** When the longest overdue of these reports fell due. */
function overdueSince(due: SavedReport[], registry: ScheduleRegistry, entry: RegistryEntry): number {
  return Math.min(...due.map((r) => registry.status(entry.id, r.id).nextRunAtMs ?? r.createdAtMs));
}
