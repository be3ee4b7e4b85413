/**
 * What saving or changing a BigQuery report means for its table and its backfill.
 *
 * One table takes one saved report: each day's load replaces the day's partition (`table$YYYYMMDD`,
 * WRITE_TRUNCATE) with this report's rows alone, so two reports into one table would erase each
 * other's days, and their loads would share the table's daily quota unknown to each other. A save
 * naming a table another of the user's saved reports loads into is refused, naming the field.
 *
 * A change of what the table holds (the table itself, the publisher, the breakdowns, metrics, filter,
 * currency or decimals) or a period that now starts earlier starts the backfill again from the
 * period's first day: the days already loaded hold the old report, or are not there at all, and a
 * backfill only ever moves forward. The loads counted in the day's window stay with the table.
 */
import { ValidationError } from '../../errors';
import { type Backfill, loadsFreeAtMs, startBackfill } from '../../warehouse/backfill';
import { tableAddress } from '../../warehouse/destination';
import { resolvePeriod } from '../../schedules/saved/period';
import { backfillKey, loadablePeriod } from './warehouse-refresh';
import type { RefreshStatus, SavedReport, SavedReportInput } from '../../schedules/saved/saved-reports';
import { tableOf } from '../../schedules/saved/destination-union';

type Table = NonNullable<ReturnType<typeof tableOf>>;

const sameTable = (a: Table | undefined, b: Table | undefined): boolean =>
  !!a &&
  !!b &&
  a.projectId.trim() === b.projectId.trim() &&
  a.datasetId.trim() === b.datasetId.trim() &&
  a.tableId.trim() === b.tableId.trim();

/**
 * Refuses `report`'s table when one of `others` (the user's saved reports, in this spreadsheet and
 * any other) loads into it, the report itself (`selfId`) aside.
 */
export function checkTableFree(
  report: SavedReportInput,
  others: ReadonlyArray<Pick<SavedReport, 'id' | 'name' | 'destination'>>,
  selfId?: string,
): void {
  const table = tableOf(report);
  const taken = others.find((other) => other.id !== selfId && sameTable(tableOf(other), table));
  if (!taken || !table) return;
  throw ValidationError.single(
    'bigquery.tableId',
    `${tableAddress(table)} already takes the saved report "${taken.name}": each day's load replaces that day with one report's rows, so two reports would erase each other's days; choose another table name`,
  );
}

/**
 * The backfill a changed BigQuery report goes on with: `undefined` to keep the one it has, or a new one
 * from the period's first day (keeping the day's loads counted, when the table is the same).
 */
export function backfillAfterEdit(
  before: SavedReportInput,
  after: SavedReportInput,
  backfill: Backfill | undefined,
  nowMs: number,
): Backfill | undefined {
  if (!tableOf(after) || !backfill) return undefined;
  const period = loadablePeriod(after.period, nowMs);
  const starts = (r: SavedReportInput) => resolvePeriod(r.period, nowMs).fromDate;
  const earlier = starts(after) < starts(before);
  if (backfillKey(before) === backfillKey(after) && !earlier) return undefined;
  const restart = startBackfill(period.fromDate, period.toDate);
  const keyed = { ...restart, key: backfillKey(after) };
  return sameTable(tableOf(before), tableOf(after)) && backfill.window ? { ...keyed, window: backfill.window } : keyed;
}

/**
 * The status a changed BigQuery report goes on with, when its backfill starts again: due at the next
 * hourly run (its slot may be a week away), or when the table's loads of the day allow; else undefined.
 */
export function statusAfterEdit(
  before: SavedReportInput,
  after: SavedReportInput,
  status: RefreshStatus,
  nowMs: number,
): RefreshStatus | undefined {
  const backfill = backfillAfterEdit(before, after, status.backfill, nowMs);
  if (!backfill) return undefined;
  const { nextRunAtMs: _slot, ...rest } = status;
  const freeAtMs = loadsFreeAtMs(backfill, nowMs);
  return { ...rest, backfill, ...(freeAtMs !== undefined ? { nextRunAtMs: freeAtMs } : {}) };
}
