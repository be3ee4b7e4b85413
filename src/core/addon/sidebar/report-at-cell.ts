/**
 * The report behind a cell: a block written by Run to sheet (its record keeps the sidebar's report) or
 * by a saved report's refresh (its status keeps where it wrote). The sidebar asks for the report at the
 * selected cell and offers to reopen it in the builder, so a report can be changed and run again in
 * place, or a saved report edited whole. Plain data for google.script.run; no secret is in either.
 */
import type { BlockPlacement, WrittenBlock } from '../../ports';
import type { BuilderRequest } from '../../builder/builder-request';
import { blocksOverlap, type BlockRecords } from '../../sheets/block-records';
import type { SavedReportInput } from '../../schedules/saved/saved-reports';
import { rangeReference } from '../../util/a1-notation';
import type { SavedReportBlocks } from './run-placement';

export type ReportAtCell =
  | {
      source: 'run';
      /** The block's cells ("Sheet1!A1:K9"). */
      range: string;
      block: WrittenBlock;
      /** The report as the sidebar built it, with the preset its dates came from when one did. */
      report: BuilderRequest;
      /** When it was written (ISO), if known. */
      writtenAt?: string;
    }
  | {
      source: 'schedule';
      range: string;
      block: WrittenBlock;
      scheduleId: string;
      name: string;
      /** Saved by the current user, who alone may change it. */
      mine: boolean;
      definition: SavedReportInput;
    };

/** The `kind` an explanation's block record keeps in place of a report type (explain-run.ts). */
export const EXPLAIN_RECORD_KIND = 'explain';

/** The most recent report whose block holds the cell, or null when none does. */
export function reportAtCell(
  cell: BlockPlacement,
  records: BlockRecords,
  saved: SavedReportBlocks | undefined,
  ownerId: string | null,
): ReportAtCell | null {
  const one = { ...cell, rows: 1, columns: 1 };
  const record = records.find(one);
  let best: ReportAtCell | null = null;
  let bestAtMs = -1;
  // An explanation's block (explain-run.ts) is no report the builder can reopen.
  if (record?.report && record.report.kind !== EXPLAIN_RECORD_KIND) {
    const { atMs, report, ...block } = record;
    best = { source: 'run', range: rangeReference(block), block, report: report as unknown as BuilderRequest };
    if (atMs !== undefined) best.writtenAt = new Date(atMs).toISOString();
    bestAtMs = atMs ?? 0;
  }
  for (const report of saved?.list() ?? []) {
    const status = saved!.status(report.id);
    const written = status.written;
    if (!written || !blocksOverlap(written, one)) continue;
    const atMs = status.lastSuccessAtMs ?? 0;
    if (best && atMs < bestAtMs) continue;
    const { id, ownerId: owner, createdAtMs: _c, updatedAtMs: _u, ...definition } = report;
    best = {
      source: 'schedule',
      range: rangeReference(written),
      block: written,
      scheduleId: id,
      name: report.name,
      mine: owner === ownerId,
      definition,
    };
    bestAtMs = atMs;
  }
  return best;
}
