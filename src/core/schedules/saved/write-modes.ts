/**
 * How a saved report's runs meet the rows already in its sheet, and the rules that tie the mode to the
 * rest of its definition (checkSavedReport and the sidebar's Schedule section share them):
 * - replace (the default, and every report saved before modes): each run's rows replace the last run's;
 * - append: each run adds its rows below the earlier runs', after a first column snapshotAt holding
 *   the run's time;
 * - upsert: rows are merged by the report's key (upsertKeyText): a run's figures replace those of
 *   the same key, keys it did not bring stay. An incremental report (fetch only the new days and the
 *   3 before) is an upsert of its recent days, whose sheet holds its period.
 * Append and upsert keep at most maxStoredRows rows, the oldest going first (kept-rows.ts). A
 * comparison cannot be upserted: its rows pair the days of two periods by position, anew at each run,
 * and rows of the earlier period alone have no key of this one; append keeps each run's comparison.
 */
import { formatCount } from '../../util/text';
import { cellReference } from '../../util/a1-notation';
import { ValidationError } from '../../errors';
import type { WrittenBlock } from '../../ports';
import { PUBLISHER_BREAKDOWN, selectsSeveral } from '../../api/requests/publisher-list';
import { REPORT_SPECS, type ReportKind } from '../../spec';

export const WRITE_MODES = ['replace', 'append', 'upsert'] as const;
export type WriteMode = (typeof WRITE_MODES)[number];

/**
 * Rows an append or upsert keeps when the report says nothing: as many as a report's row limit
 * (maxRows) allows one run, a block a run reads back and writes again well within its time.
 */
export const DEFAULT_MAX_STORED_ROWS = 100_000;
/** The largest cap: 10,000,000 cells hold a million rows of ten columns; the cell guard still applies. */
export const MAX_STORED_ROWS_LIMIT = 1_000_000;

/** The sheet destination's fields the mode rules read. */
export interface SheetModeFields {
  writeMode?: WriteMode | undefined;
  maxStoredRows?: number | undefined;
  incremental?: boolean | undefined;
}

/** The fields of a saved report the mode rules read. */
export interface ModeFields {
  kind: ReportKind;
  entityId?: string;
  breakdowns?: readonly string[];
  compareWith?: string;
  totals?: boolean;
  destination: SheetModeFields;
}

/** The mode a saved report is written in: its own, else an upsert of the recent days for an incremental one, else replace. */
export function writeModeOf(report: { destination: SheetModeFields }): WriteMode {
  const { writeMode, incremental } = report.destination;
  return writeMode ?? (incremental ? 'upsert' : 'replace');
}

/** Rows an append or upsert keeps at most; an incremental report without a cap keeps its period, as it did before caps. */
export function storedRowsCap(report: { destination: SheetModeFields }): number {
  const { maxStoredRows, incremental } = report.destination;
  return maxStoredRows ?? (incremental ? Number.POSITIVE_INFINITY : DEFAULT_MAX_STORED_ROWS);
}

/** Why a report cannot be written in `mode`, naming the field, or undefined when it can. */
export function writeModeProblem(
  report: ModeFields,
  mode: WriteMode = writeModeOf(report),
): { argument: string; rule: string } | undefined {
  if (report.destination.incremental && mode !== 'upsert') {
    return {
      argument: 'writeMode',
      rule: `'${mode}' cannot be combined with incremental, which is an upsert of the recent days: use 'upsert', or leave incremental out`,
    };
  }
  if (mode === 'upsert' && report.compareWith) {
    return {
      argument: 'writeMode',
      rule:
        "'upsert' cannot take a comparison: its rows pair the days of two periods by position, anew at each run, and rows of the " +
        "earlier period alone have no key of this one; use 'append' to keep each run's comparison",
    };
  }
  if (mode === 'replace' && report.destination.maxStoredRows !== undefined) {
    return {
      argument: 'maxStoredRows',
      rule: "applies to writeMode 'append' or 'upsert' only: a replace holds one run's rows (limit those with maxRows)",
    };
  }
  if (mode !== 'replace' && report.totals) {
    return {
      argument: 'totals',
      rule:
        mode === 'append'
          ? "cannot be combined with writeMode 'append': a Total row in every snapshot would be counted with its rows"
          : "cannot be combined with writeMode 'upsert': totals of rates cannot be merged",
    };
  }
  return undefined;
}

/** The columns that identify a row in an upsert, by their headers: ["day", "country.id"] or ["externalId", "widget.id"]. */
export function upsertKeyNames(report: Pick<ModeFields, 'kind' | 'entityId' | 'breakdowns'>): string[] {
  const spec = REPORT_SPECS[report.kind];
  const chosen = report.breakdowns && report.breakdowns.length > 0 ? [...report.breakdowns] : [...spec.defaultBreakdowns];
  // The external-ID reports always break down by externalId first.
  if (spec.hourly && !chosen.includes('externalId')) chosen.unshift('externalId');
  const several = report.entityId !== undefined && selectsSeveral(report.entityId) ? [PUBLISHER_BREAKDOWN] : [];
  return [...several, ...chosen].map((b) =>
    b === 'day' || b === 'month' || b === 'externalId' || b === 'externalSecondaryId' ? b : `${b}.id`,
  );
}

/** What identifies a row in an upsert, in words: "day, country.id" or "externalId, widget.id, and the hour where Engage sends one". */
export function upsertKeyText(report: Pick<ModeFields, 'kind' | 'entityId' | 'breakdowns'>): string {
  const names = upsertKeyNames(report).join(', ');
  return REPORT_SPECS[report.kind].hourly ? `${names}, and the hour where Engage sends one` : names;
}

/** The mode in a few words for the Schedules list and the note ("" for replace): "append, up to 100,000 rows". */
export function writeModeSummary(report: { destination: SheetModeFields }): string {
  const mode = writeModeOf(report);
  if (mode === 'replace') return '';
  const cap = storedRowsCap(report);
  const upTo = Number.isFinite(cap) ? `, up to ${formatCount(cap)} rows` : '';
  return `${report.destination.incremental ? 'incremental' : mode}${upTo}`;
}

/** The sheet's mode fields with the cell they write at. */
type PlacedModeFields = SheetModeFields & { target: { sheetName: string; cell: string } };

/**
 * Refuses a change that would have the next run write over the rows an append or an upsert kept: a
 * report keeping history (append, or an upsert that is not incremental) changed to another mode, or
 * to an incremental upsert (which holds only its period), at the place it wrote. Its history stays
 * where it is once the report points at another sheet or cell.
 */
export function keepHistory(
  before: { destination: PlacedModeFields },
  after: { destination: PlacedModeFields },
  status: { written?: WrittenBlock },
): void {
  const was = writeModeOf(before);
  const keeps = was === 'append' || (was === 'upsert' && !before.destination.incremental);
  if (!keeps || (writeModeOf(after) === was && !after.destination.incremental)) return;
  const [from, to] = [before.destination.target, after.destination.target];
  const samePlace = from.sheetName.trim() === to.sheetName.trim() && from.cell.trim().toUpperCase() === to.cell.trim().toUpperCase();
  const rows = (status.written?.rows ?? 0) - 1;
  if (!samePlace || rows < 1) return;
  const now = after.destination.incremental ? 'an incremental upsert' : `'${writeModeOf(after)}'`;
  throw ValidationError.single(
    'writeMode',
    `cannot turn '${was}' into ${now} at ${cellReference(from.sheetName, from.cell)}: the next run would write over ` +
      `the ${formatCount(rows)} rows it kept there. Point it at another sheet or cell first (the kept rows stay where they are)`,
  );
}
