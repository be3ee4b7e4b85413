/**
 * What one refresh of a saved report writes: every page of the report (an incremental one only its
 * recent days, a comparison both periods, together), then, in append and upsert, met with the rows
 * the report kept in its sheet (kept-rows.ts), read back from the block it wrote last, in the same
 * mode and at the same place. Nothing here writes: the runner writes the block once this returns, so
 * a failed page adds and changes nothing. A rate budget that runs out before the last page defers the
 * report (RefreshDeferredError) with what it needs.
 */
import { RefreshDeferredError } from '../../errors';
import { cellPosition } from '../../util/a1-notation';
import type { BlockPlacement, Cell, ColumnKind, ReportSheet, SheetBlock, WrittenBlock } from '../../ports';
import type { ReportQuery } from '../../api/requests/report-request';
import { columnKind, numberFormatOf, reportToSheetBlock } from '../../sheets/sheet-output';
import { compareColumnKind } from '../../sheets/compare-table';
import { comparisonBlock } from './compare-refresh';
import { incrementalRange, incrementalWindow } from './incremental';
import { appendRows, type KeptRowsOptions, stampSnapshot, upsertRows } from './kept-rows';
import { resolvePeriod } from '../saved/period';
import type { RefreshSummary, ReportSource } from './refresh-source';
import { reportInputOf, type RefreshStatus, type SavedReport } from '../saved/saved-reports';
import { storedRowsCap, type WriteMode, writeModeOf } from '../saved/write-modes';

export interface RefreshBlockContext {
  report: SavedReport;
  status: RefreshStatus;
  source: ReportSource;
  /** Read only here: the block the report wrote last. */
  sheet: Pick<ReportSheet, 'read'>;
  placement: BlockPlacement;
  timeZone: string;
  /** When the refresh started (epoch ms): its period, and an appended snapshot's time. */
  nowMs: number;
  deadlineAtMs: number;
  summary: RefreshSummary;
}

export interface RefreshBlock {
  /** The block to write: the run's rows, met with the kept ones in append and upsert. */
  block: SheetBlock;
  /** The run's own rows, as fetched (an incremental one's recent days). */
  fetched: SheetBlock;
  requests: number;
  /** Incremental reports: the last day the sheet now holds data fetched for. */
  fetchedThrough?: string;
}

/** The mode the block a status records was written in; statuses from before modes: an incremental merge or a replace. */
export function writtenMode(status: RefreshStatus): WriteMode {
  return status.writtenAs ?? (status.fetchedThrough ? 'upsert' : 'replace');
}

/** The block a report wrote last at its placement, when written in `mode`: what an append or upsert keeps. */
function keptBlock(context: RefreshBlockContext, mode: WriteMode): Cell[][] | null {
  const written = context.status.written;
  if (!sameCorner(written, context.placement) || writtenMode(context.status) !== mode) return null;
  return context.sheet.read(written);
}

export function refreshBlock(context: RefreshBlockContext): RefreshBlock {
  const { report, status, source, timeZone, nowMs, deadlineAtMs, summary } = context;
  const mode = writeModeOf(report);
  const blockOptions = {
    timeZone,
    // A Total row only in a replace: kept rows would count it with the others, and totals of rates cannot be merged.
    totals: mode === 'replace' && report.totals !== false,
    ...(report.currencyCode ? { currencyCode: report.currencyCode.toUpperCase() } : {}),
    ...(report.decDigits !== undefined ? { decDigits: report.decDigits } : {}),
  };
  const kept = (breakdowns: readonly string[], kindOf: (header: string) => ColumnKind): KeptRowsOptions => ({
    cap: storedRowsCap(report),
    breakdowns,
    kindOf,
    formatOf: (kind) => numberFormatOf(kind, blockOptions.currencyCode, blockOptions.decDigits),
  });
  const meet = (fetched: SheetBlock, requests: number, options: KeptRowsOptions): RefreshBlock => {
    if (mode === 'append') {
      const block = appendRows(keptBlock(context, mode), stampSnapshot(fetched, nowMs, timeZone), options);
      return { block, fetched, requests };
    }
    if (mode === 'upsert') return { block: upsertRows(keptBlock(context, mode), fetched, options)!, fetched, requests };
    return { block: fetched, fetched, requests };
  };
  if (report.compareWith) {
    const { block, requests } = comparisonBlock(report, source, { ...blockOptions, nowMs, deadlineAtMs }, summary);
    return meet(block, requests, kept([], compareColumnKind));
  }
  const fetchRange = (range?: { fromDate: string; toDate: string }): { block: SheetBlock; requests: number; query: ReportQuery } => {
    const query = source.buildQuery(report.kind, reportInputOf(report, nowMs, range));
    const { result, requests } = source.run(query, {
      deadlineAtMs,
      ...(report.maxRows !== undefined ? { maxRows: report.maxRows } : {}),
    });
    summary.requests += requests;
    if (result.stoppedBecause === 'rateLimit')
      throw new RefreshDeferredError('the rate budget ran out before the last page', requests + result.pagesPlanned - result.pagesFetched);
    return { block: reportToSheetBlock(result, blockOptions), requests, query };
  };
  if (!report.destination.incremental) {
    const { block, requests, query } = fetchRange();
    return meet(block, requests, kept(query.breakdowns, columnKind));
  }
  // Incremental: the recent days merged into the period the sheet holds, else the whole period fetched.
  const whole = resolvePeriod(report.period, nowMs);
  const range = incrementalRange(report.period, status.fetchedThrough, nowMs);
  const previous = range.full ? null : keptBlock(context, 'upsert');
  let spent = 0;
  if (previous) {
    const part = fetchRange(range);
    spent = part.requests;
    const window = incrementalWindow(whole.fromDate, range.fromDate, timeZone);
    const merged = window && upsertRows(previous, part.block, { ...kept(part.query.breakdowns, columnKind), window });
    if (merged) return { block: merged, fetched: part.block, requests: spent, fetchedThrough: whole.toDate };
    // The sheet no longer holds what we wrote (another header, edited rows): fetch the whole period.
  }
  const full = fetchRange(whole);
  return {
    block: upsertRows(null, full.block, kept(full.query.breakdowns, columnKind))!,
    fetched: full.block,
    requests: spent + full.requests,
    fetchedThrough: whole.toDate,
  };
}

export function sameCorner(written: WrittenBlock | undefined, placement: BlockPlacement): written is WrittenBlock {
  return !!written && written.sheetName === placement.sheetName && written.row === placement.row && written.column === placement.column;
}

/** Where a report's block goes: its target cell. */
export function placementOf(report: Pick<SavedReport, 'destination'>): BlockPlacement {
  // The cell was checked against A1_CELL_PATTERN when the report was saved.
  const { sheetName, cell } = report.destination.target;
  const { row, column } = cellPosition(cell)!;
  return { sheetName, row, column };
}
