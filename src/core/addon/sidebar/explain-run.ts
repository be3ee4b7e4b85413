/**
 * "Explain the change" run to a sheet: ENGAGE_EXPLAIN's table (the rows and columns the formula
 * returns: the keys, the metric in each period, its change and share, a ratio's mix and rate, Other
 * and Total) written by Run to sheet's path: a taken sheet name asked about before anything is
 * fetched, cells that hold something asked about before the write (run-placement.ts), the block
 * written in one batch by the SheetWriter (API text neutralised, each column's number format as a
 * report's, the metrics' notes on the header, the Total row bold) and remembered, so that the same
 * explanation run again at the same place replaces its block without asking. Its record is an
 * explanation's (EXPLAIN_RECORD_KIND): no other report takes its block for its own, and the builder
 * does not offer to reopen it as a report. The table comes from `explain`, the formula's own fetching
 * and cache, so the sheet's rows are the formula's.
 */
import { ValidationError } from '../../errors';
import { requestedExplanation } from '../../builder/explain-formula';
import { MIX_SUFFIX, RATE_SUFFIX, SHARE_SUFFIX } from '../../explain/explain-table';
import { metricNote } from '../../api/requests/report-metrics';
import type { Cell, SheetBlock } from '../../ports';
import { CHANGE_SUFFIX, PREVIOUS_SUFFIX } from '../../sheets/compare-table';
import { columnKind, numberFormatOf } from '../../sheets/sheet-output';
import { BlockRecords } from '../../sheets/block-records';
import { StoreSnapshot } from '../stores/store-snapshot';
import { EXPLAIN_RECORD_KIND } from './report-at-cell';
import { checkWriteOptions, recordedReport, RunPlacer, type RunPlacement } from './run-placement';
import { plainCell, PREVIEW_ROWS, type RunNeedsAnswer, type RunToSheetSummary, type SidebarReportsDeps } from './sidebar-reports';

const SUFFIXES = [PREVIOUS_SUFFIX, CHANGE_SUFFIX, MIX_SUFFIX, RATE_SUFFIX];

/** The block of an explanation's table: key columns as text, the metric's columns in its format, the share in %. */
export function explanationBlock(values: Cell[][]): SheetBlock {
  const header = (values[0] ?? []).map(String);
  const metricAt = header.findIndex((h) => h.endsWith(CHANGE_SUFFIX)) - 2;
  const kinds = header.map((h, c) => {
    if (c < metricAt) return 'text' as const;
    if (h.endsWith(SHARE_SUFFIX)) return 'percent' as const;
    const suffix = SUFFIXES.find((s) => h.endsWith(s));
    return columnKind(suffix ? h.slice(0, -suffix.length) : h);
  });
  const metric = header[metricAt] ?? '';
  return {
    values,
    kinds,
    numberFormats: kinds.map((k) => numberFormatOf(k)),
    headerNotes: header.map((_h, c) => (c === metricAt ? metricNote(metric) : '')),
    dataRows: Math.max(0, values.length - 2),
    hasTotals: values.length > 1,
  };
}

/**
 * Writes the explanation the request asks for (its `explain`) at `placement`, or writes nothing and
 * returns the question to ask; `options.choice` is the user's answer. `explain` fetches its table.
 */
export function runExplanationToSheet(
  deps: SidebarReportsDeps,
  request: unknown,
  placement: RunPlacement,
  explain: () => Cell[][],
  options?: unknown,
): RunToSheetSummary | RunNeedsAnswer {
  const started = deps.clock.now();
  const choice = requestedExplanation(request);
  if (!choice) throw ValidationError.single('explain', 'is required: a metric and what to split it by');
  const write = checkWriteOptions(options, placement);
  const report = { ...recordedReport(request), kind: EXPLAIN_RECORD_KIND, breakdowns: choice.breakdowns, metric: choice.metric };
  const view = () => {
    const store = new StoreSnapshot(deps.documentStore);
    const blocks = new BlockRecords(store);
    return { blocks, placer: new RunPlacer(deps.contents, blocks, deps.savedReports?.(store)) };
  };
  const early = view().placer.beforeFetch(placement, deps.writer.sheetNames(), report, write);
  if (early.question) return { question: early.question };
  const block = explanationBlock(explain());
  const columns = block.values[0]?.length ?? 0;
  // Read again after fetching: another run or refresh may have written meanwhile.
  const { blocks, placer } = view();
  const place = placer.beforeWrite(early.placement, block.values.length, columns, report, write);
  if (place.question) return { question: place.question };
  const { newSheet: _newSheet, ...target } = place.placement;
  const previous = blocks.previous(target);
  const written = deps.writer.write(target, block, previous);
  blocks.remember(written, deps.clock.now(), deps.writer.sheetNames(), report);
  const summary: RunToSheetSummary = {
    block: written,
    dataRows: block.dataRows,
    // The formula's fetching does not say how many pages it fetched (its cache may have held them).
    pages: 0,
    header: (block.values[0] ?? []).map(String),
    preview: block.values.slice(1, 1 + PREVIEW_ROWS).map((row) => row.map((cell) => plainCell(cell, deps.timeZone))),
    numberFormats: block.numberFormats,
    elapsedMs: deps.clock.now() - started,
  };
  if (previous) summary.replaced = true;
  return summary;
}
