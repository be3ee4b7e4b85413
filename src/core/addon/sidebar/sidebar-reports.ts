/**
 * The report builder's use cases behind the sidebar: the publisher picker, "Run to sheet" with
 * progress, and the formula that asks for the same rows. A run validates the request before
 * anything is sent, fetches every page, and only then writes header and rows in one batch through
 * the SheetWriter, so a failure leaves the sheet as it was. google.script.run cannot stream, so the
 * run's progress ("pages fetched of pages") goes to the user's cache under a run id the sidebar
 * chose, and the sidebar polls it from a second call.
 */
import { PUBLISHER_LIST_BUDGET_MS, SIDEBAR_RUN_BUDGET_MS } from '../../budgets';
import { BlockRecords } from '../../sheets/block-records';
import { toReportInput, withPresetOfItsDates, type BuilderRequest } from '../../builder/builder-request';
import { isDate } from '../../util/dates';
import type { EngageSession } from '../session/session';
import { ValidationError } from '../../errors';
import { reportFormula } from '../../builder/formula-text';
import type { BlockPlacement, Cache, Clock, ListableStore, SheetBlock, SheetContents, SheetWriter, WrittenBlock, Cell } from '../../ports';
import { ALL_METRICS, availableMetrics } from '../../api/requests/report-metrics';
import { reportColumnCount } from '../../sheets/report-table';
import { reportToSheetBlock } from '../../sheets/sheet-output';
import type { ReportResult } from '../../api/paging/paging';
import { compareFormula } from '../../builder/compare-request';
import { explainFormula, explainInputOf, requestedExplanation } from '../../builder/explain-formula';
import { buildExplanation, type ExplainInput } from '../../explain/explain-request';
import { explainColumnCount } from '../../explain/explain-table';
import { compareColumnCount, compareTableOptions, compareToSheetBlock } from '../../sheets/compare-table';
import { builderComparison } from '../session/comparisons';
import { formatCount } from '../../util/text';
import { reportAtCell, type ReportAtCell } from './report-at-cell';
import { StoreSnapshot } from '../stores/store-snapshot';
import {
  checkFormulaOptions,
  checkWriteOptions,
  recordedReport,
  RunPlacer,
  type RunPlacement,
  type SavedReportBlocks,
  type WriteQuestion,
} from './run-placement';
import { checkDashboardPublishers, dashboardLayout, type DashboardLayout } from '../../builder/dashboard';
import { resolvePublishers } from '../../api/requests/publisher-list';

/** How long a run's progress stays readable. */
const PROGRESS_TTL_SECONDS = 600;
const PROGRESS_PREFIX = 'engage.run.';
/** Rows of the result the sidebar shows under the actions. */
export const PREVIEW_ROWS = 50;

export interface RunProgress {
  state: 'running' | 'done' | 'failed';
  pagesFetched: number;
  pagesPlanned: number;
  /** When failed: the one-sentence message. */
  message?: string;
}

export interface RunToSheetSummary {
  /** Where the rows were written: Add chart and Save to schedule start from it. */
  block: WrittenBlock;
  /** Data rows written, without header and totals. */
  dataRows: number;
  pages: number;
  header: string[];
  /** The first rows (dates as yyyy-MM-dd, numbers as numbers). */
  preview: Array<Array<string | number | boolean>>;
  /** Each column's number format in the sheet, so the preview shows numbers as the sheet does (formatNumberAs). */
  numberFormats: Array<string | null>;
  /** Why fewer rows than the report holds were written, if so. */
  partialNote?: string;
  elapsedMs: number;
  /** The block replaced an earlier block of the add-on at the same place. */
  replaced?: boolean;
}

/** A run that wrote nothing, because the cells it would cover hold something: the sidebar asks, then runs it again. */
export interface RunNeedsAnswer {
  question: WriteQuestion;
}

export interface Publisher {
  id: string;
  name: string;
}

export interface SidebarReportsDeps {
  /** The user's session: runs and the publisher picker use the stored sign-in. */
  session: EngageSession;
  writer: SheetWriter;
  /** The document's properties: where each written block is remembered, so the next run clears its leftovers. */
  documentStore: ListableStore;
  /** The user's cache: run progress. */
  progressCache: Cache;
  /** What the cells a run is about to write hold. */
  contents: SheetContents;
  /**
   * Saved reports and where each last wrote, read through the view of the document's properties it is
   * given (one snapshot per look at the sheet): their blocks are asked about, and are their own report's.
   */
  savedReports?: (documentStore: ListableStore) => SavedReportBlocks;
  /** The current user's owner id of saved reports, when they have one. */
  ownerId?: () => string | null;
  clock: Clock;
  timeZone: string;
}

export class SidebarReports {
  constructor(private readonly deps: SidebarReportsDeps) {}

  /**
   * Block records and saved reports as the document's properties hold them now, read with one
   * getProperties however many there are (store-snapshot.ts), with the run placer over them.
   */
  private documentView(): { blocks: BlockRecords; saved?: SavedReportBlocks; placer: RunPlacer } {
    const store = new StoreSnapshot(this.deps.documentStore);
    const blocks = new BlockRecords(store);
    const saved = this.deps.savedReports?.(store);
    return { blocks, ...(saved ? { saved } : {}), placer: new RunPlacer(this.deps.contents, blocks, saved) };
  }

  listPublishers(): Publisher[] {
    const entries = this.deps.session
      .signedIn()
      .lookup('publishers', undefined, { deadlineAtMs: this.deps.clock.now() + PUBLISHER_LIST_BUDGET_MS });
    return entries
      .map((e) => ({ id: String(e.id ?? ''), name: String(e.name ?? e.id ?? '') }))
      .filter((p) => p.id !== '')
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Fetches every page (a comparison: both periods), then writes the block at `placement` in one
   * batch; or, when the cells it would cover hold something other than this report's earlier block
   * there, writes nothing and returns the question to ask (run-placement.ts). `options.choice` is the
   * user's answer.
   */
  runToSheet(request: unknown, placement: RunPlacement, runId: unknown, options?: unknown): RunToSheetSummary | RunNeedsAnswer {
    const id = checkRunId(runId);
    const started = this.deps.clock.now();
    const { kind, input, maxRows } = toReportInput(request);
    // Validation problems are reported before the first request and before any progress appears.
    const comparison = builderComparison(this.deps.session, this.deps.timeZone, request);
    const query = comparison ? comparison.current : this.deps.session.buildQuery(kind, input);
    const write = checkWriteOptions(options, placement);
    // The block's record keeps the preset only when the dates the run asks for are its days now.
    const report = recordedReport(this.withPresetOfItsDates(request));
    const early = this.documentView().placer.beforeFetch(placement, this.deps.writer.sheetNames(), report, write);
    if (early.question) return { question: early.question };
    this.setProgress(id, { state: 'running', pagesFetched: 0, pagesPlanned: comparison ? 2 : 1 });
    try {
      const r = request as BuilderRequest;
      const money = {
        ...(r.currencyCode ? { currencyCode: r.currencyCode } : {}),
        ...(typeof r.decDigits === 'number' ? { decDigits: r.decDigits } : {}),
      };
      const fetch = { deadlineAtMs: started + SIDEBAR_RUN_BUDGET_MS, onProgress: this.progressOf(id) };
      let block: SheetBlock;
      let pages: number;
      // A comparison is whole or fails (multi-paging.ts); a report may stop early and say so.
      let result: ReportResult | undefined;
      if (comparison) {
        const [now, before] = this.deps.session.signedIn().runTogether([comparison.current, comparison.earlier], fetch);
        block = compareToSheetBlock(now!, before!, { ...compareTableOptions(comparison, this.deps.timeZone, maxRows), ...money });
        pages = now!.pagesFetched + before!.pagesFetched;
      } else {
        result = this.deps.session.signedIn().runReport(query, { ...fetch, ...(maxRows !== undefined ? { maxRows } : {}) });
        block = reportToSheetBlock(result, { timeZone: this.deps.timeZone, ...money });
        pages = result.pagesFetched ?? 1;
      }
      const columns = block.values[0]?.length ?? 0;
      // Read again after fetching: another run or refresh may have written meanwhile.
      const { blocks, placer } = this.documentView();
      const place = placer.beforeWrite(early.placement, block.values.length, columns, report, write);
      if (place.question) {
        this.setProgress(id, { state: 'done', pagesFetched: pages, pagesPlanned: pages });
        return { question: place.question };
      }
      const { newSheet: _newSheet, ...target } = place.placement;
      const previous = blocks.previous(target);
      const written = this.deps.writer.write(target, block, previous);
      blocks.remember(written, this.deps.clock.now(), this.deps.writer.sheetNames(), report);
      this.setProgress(id, { state: 'done', pagesFetched: pages, pagesPlanned: pages });
      const summary: RunToSheetSummary = {
        block: written,
        dataRows: block.dataRows,
        pages,
        header: (block.values[0] ?? []).map(String),
        preview: block.values
          .slice(1, 1 + Math.min(PREVIEW_ROWS, block.dataRows))
          .map((row) => row.map((cell, c) => plainCell(cell, this.deps.timeZone, block.kinds[c] === 'hour'))),
        numberFormats: block.numberFormats,
        elapsedMs: this.deps.clock.now() - started,
      };
      if (previous) summary.replaced = true;
      if (result?.partial) {
        const got = formatCount(result.items.length);
        const all = formatCount(result.totalItems);
        summary.partialNote =
          result.stoppedBecause === 'rateLimit'
            ? `Only ${got} of ${all} rows arrived within the 30 report requests a minute: run it again in a minute for the rest.`
            : result.stoppedBecause === 'maxRows'
              ? `The row limit kept the first ${got} of ${all} rows.`
              : `Only ${got} of ${all} rows were fetched.`;
      }
      return summary;
    } catch (e) {
      this.setProgress(id, { state: 'failed', pagesFetched: 0, pagesPlanned: 0, message: e instanceof Error ? e.message : String(e) });
      throw e;
    }
  }

  /** The report whose block holds this cell (Run to sheet's or a saved report's), or null. */
  reportAt(cell: BlockPlacement): ReportAtCell | null {
    const { blocks, saved } = this.documentView();
    return reportAtCell(cell, blocks, saved, this.deps.ownerId?.() ?? null);
  }

  /**
   * The dashboard for the chosen publishers (one ID, several, or "all"), laid out with their names
   * from the publishers lookup: the choice is checked before anything is sent, and the sign-in before
   * the lookup, so a dashboard whose formulas could only fail is never written.
   */
  dashboard(entityId: unknown, refreshReference: string): DashboardLayout {
    const selection = checkDashboardPublishers(entityId);
    const entries = this.deps.session
      .signedIn()
      .lookup('publishers', undefined, { deadlineAtMs: this.deps.clock.now() + PUBLISHER_LIST_BUDGET_MS });
    // "all" must find a publisher, and at most as many as a report covers.
    const publishers = resolvePublishers(selection, entries);
    const names = new Map(entries.map((e) => [String(e.id ?? ''), String(e.name ?? '')] as const));
    for (const p of publishers) if (p.name) names.set(p.id, p.name);
    return dashboardLayout({ selection, names, refreshReference });
  }

  progress(runId: unknown): RunProgress | null {
    const text = this.deps.progressCache.get(`${PROGRESS_PREFIX}${checkRunId(runId)}`);
    if (!text) return null;
    try {
      return JSON.parse(text) as RunProgress;
    } catch {
      return null;
    }
  }

  /**
   * The ENGAGE_* formula for the request, after the same validation a run does, and how many columns
   * its result takes (Sheets does not add columns for a formula's result): at most that many with
   * chosen metrics; with "all", fields the API sends beyond the spec's would come on top.
   */
  formula(request: unknown, refreshReference?: string): { formula: string; columns: number } {
    const explain = requestedExplanation(request);
    const comparison = builderComparison(this.deps.session, this.deps.timeZone, request);
    // Checked by now: a rolling preset whose days are not the request's dates is left out, and the formula writes the dates.
    const checked = this.withPresetOfItsDates(request);
    if (explain) {
      const session = this.deps.session;
      const built = buildExplanation(explainInputOf(checked, explain), this.deps.timeZone, (i) => session.buildQuery('main', i));
      return { formula: explainFormula(checked, explain, refreshReference), columns: explainColumnCount(built) };
    }
    if (comparison) {
      return {
        formula: compareFormula(checked, refreshReference),
        columns: compareColumnCount(comparison.current.breakdowns, comparison.metrics),
      };
    }
    const { kind, input } = toReportInput(request);
    const query = this.deps.session.buildQuery(kind, input);
    const metrics = query.metrics === ALL_METRICS ? availableMetrics(kind, query.breakdowns) : query.metrics;
    return {
      formula: reportFormula(checked, refreshReference),
      columns: reportColumnCount(kind, query.breakdowns, metrics),
    };
  }

  /**
   * "Explain the change" run in the sidebar: ENGAGE_EXPLAIN's input for the request's `explain`, checked
   * as the formula checks it (nothing is sent before), and the time by which its answer must be in.
   */
  explainInput(request: unknown): { input: ExplainInput; deadlineAtMs: number } {
    const explain = requestedExplanation(request);
    if (!explain) throw ValidationError.single('explain', 'is required: a metric and what to split it by');
    const input = explainInputOf(this.withPresetOfItsDates(request), explain);
    const session = this.deps.session;
    buildExplanation(input, this.deps.timeZone, (i) => session.buildQuery('main', i));
    return { input, deadlineAtMs: this.deps.clock.now() + SIDEBAR_RUN_BUDGET_MS };
  }

  /**
   * Where Insert formula's formula of `columns` columns may go at `at`: the question to ask when cells
   * its result would fill hold something, or, answered (`options.choice` 'replace'), the cells to clear.
   */
  formulaPlacement(at: BlockPlacement, columns: number, options?: unknown): { question?: WriteQuestion; clear?: WrittenBlock } {
    return this.documentView().placer.beforeFormula(at, columns, checkFormulaOptions(options));
  }

  /** The checked request with its preset only when its dates are the preset's days now (builder-request.ts). */
  private withPresetOfItsDates(request: unknown): BuilderRequest {
    return withPresetOfItsDates(request as BuilderRequest, this.deps.clock.now(), this.deps.timeZone);
  }

  private progressOf(runId: string): (pagesFetched: number, pagesPlanned: number) => void {
    return (pagesFetched, pagesPlanned) => this.setProgress(runId, { state: 'running', pagesFetched, pagesPlanned });
  }

  private setProgress(runId: string, progress: RunProgress): void {
    try {
      this.deps.progressCache.put(`${PROGRESS_PREFIX}${runId}`, JSON.stringify(progress), PROGRESS_TTL_SECONDS);
    } catch {
      // Progress is a courtesy: a cache failure must not fail the run.
    }
  }
}

/** The id the sidebar chose for a run; checked before a run inserts a sheet or sends anything. */
export function checkRunId(runId: unknown): string {
  if (typeof runId !== 'string' || !/^[A-Za-z0-9_-]{6,64}$/.test(runId))
    throw ValidationError.single('runId', 'must be 6 to 64 letters, digits, "-" or "_"');
  return runId;
}

/** A cell as plain data for google.script.run (which cannot carry Dates): a date as the day it shows. */
export function plainCell(cell: Cell, timeZone: string, withHour = false): string | number | boolean {
  if (isDate(cell)) {
    const parts = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(cell);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    const hour = get('hour');
    return `${get('year')}-${get('month')}-${get('day')}${withHour ? ` ${hour}:00` : ''}`;
  }
  if (cell === null || cell === undefined) return '';
  return cell as string | number | boolean;
}
