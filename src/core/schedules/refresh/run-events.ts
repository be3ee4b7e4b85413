/**
 * What a saved report's refresh tells those who watch it: each report a run refreshed or failed to
 * refresh (a report left for later did not run, and says nothing), with its figures, its status before
 * and after, and, when it was written, the block itself. Watchers (a run log, revisions, notices,
 * alerts) hang off each spreadsheet a run reaches (ScheduleServiceDeps.observersFor), and hear when the
 * run is over there (finishObservers); what must wait for the whole run, past every spreadsheet it
 * reaches (the failures' notices, grouped per owner and channel), hears when that is over
 * (RunEndObserver, finishWholeRun). A watcher's failure is never the report's: it is caught here, and
 * the refresh's outcome stands.
 */
import type { SheetBlock, SpreadsheetRef, WrittenBlock } from '../../ports';
import type { RefreshStatus, SavedReport } from '../saved/saved-reports';

export interface ReportRunEvent {
  report: SavedReport;
  /** The spreadsheet the report lives in. */
  spreadsheet: SpreadsheetRef;
  outcome: 'refreshed' | 'failed';
  /** The hourly trigger's run, or the sidebar's Run now. */
  by: 'schedule' | 'run-now';
  startedAtMs: number;
  endedAtMs: number;
  /** When the run starts no more requests (its fetch deadline): what its watchers' own waits are measured from. */
  deadlineAtMs?: number;
  /** Engage requests the report took (its share of the run's). */
  requests: number;
  /** Its status before the refresh, and after. */
  previous: RefreshStatus;
  status: RefreshStatus;
  /**
   * What was written, and where: a refreshed report's whole block (in append and upsert, and for an
   * incremental report, the run's rows met with those kept: write-modes.ts).
   */
  block?: SheetBlock;
  written?: WrittenBlock;
  /** The run's own rows, as fetched, before they met the kept ones (an appended block's without snapshotAt). */
  fetched?: SheetBlock;
}

/** Watches the refreshes of saved reports. */
export interface RunObserver {
  afterReport(event: ReportRunEvent): void;
  /**
   * The run is over in this spreadsheet (every report it refreshed or failed was told): what an
   * observer gathered goes out now, in one write per sheet rather than one per report.
   */
  afterRun?(): void;
}

/**
 * Watches a whole run, over every spreadsheet it reaches (a scheduled run may reach all of the owner's):
 * hears once when the run is over in all of them, before their formulas recalculate.
 */
export interface RunEndObserver {
  afterWholeRun(): void;
}

/** The whole run is over: each observer sends what it gathered; one that throws is skipped. */
export function finishWholeRun(observers: readonly RunEndObserver[] | undefined, failed: (error: unknown) => void = () => undefined): void {
  for (const observer of observers ?? []) {
    try {
      observer.afterWholeRun();
    } catch (error) {
      try {
        failed(error);
      } catch {
        // Nothing more to do: the refreshes' outcomes are already recorded.
      }
    }
  }
}

/** Tells every observer; one that throws is skipped (`failed` hears of it, for the log), never the refresh. */
export function tellObservers(
  observers: readonly RunObserver[] | undefined,
  event: ReportRunEvent,
  failed: (error: unknown) => void = () => undefined,
): void {
  for (const observer of observers ?? []) {
    try {
      observer.afterReport(event);
    } catch (error) {
      try {
        failed(error);
      } catch {
        // Nothing more to do: the refresh's outcome is already recorded.
      }
    }
  }
}

/** The run is over in the observers' spreadsheet: each writes what it gathered; one that throws is skipped. */
export function finishObservers(observers: readonly RunObserver[] | undefined, failed: (error: unknown) => void = () => undefined): void {
  for (const observer of observers ?? []) {
    try {
      observer.afterRun?.();
    } catch (error) {
      try {
        failed(error);
      } catch {
        // Nothing more to do: the refresh's outcome is already recorded.
      }
    }
  }
}

/**
 * Tells the observers of a report that failed without being tried: the run found the owner's sign-in
 * missing or refused before any request, which fails every report due as surely as trying would.
 */
export function tellUntried(
  run: { spreadsheet?: SpreadsheetRef; observers?: readonly RunObserver[] },
  report: SavedReport,
  by: ReportRunEvent['by'],
  at: { atMs: number; deadlineAtMs: number },
  previous: RefreshStatus,
  status: RefreshStatus,
): void {
  if (!run.spreadsheet) return;
  const { atMs, deadlineAtMs } = at;
  const event = { report, spreadsheet: run.spreadsheet, outcome: 'failed' as const, by, startedAtMs: atMs, endedAtMs: atMs, deadlineAtMs };
  tellObservers(run.observers, { ...event, requests: 0, previous, status });
}
