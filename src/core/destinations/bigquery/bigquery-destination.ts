/**
 * The BigQuery destination: a saved report loaded into a table, one partition per day, its target
 * cell showing the load's status. It is given BigQuery's client (its own dependency, made where the
 * program is wired: src/gas), and answers for its reports what the runner, the scheduling use cases
 * and the Schedules tab ask of any destination (schedules/refresh/destination.ts): the definition's
 * rules (definition.ts), one table per report and what BigQuery says at save, a backfill started again
 * by an edit (warehouse-edits.ts), the refresh of the days due (warehouse-refresh.ts), the status
 * text, and Open in Sheets (open-in-sheets.ts).
 */
import { MS_PER_SECOND } from '../../util/dates';
import { cellReference } from '../../util/a1-notation';
import type { BigQueryClient } from '../../warehouse/bigquery-client';
import { BIGQUERY_PERMISSION } from '../../warehouse/bigquery-errors';
import { tableAddress } from '../../warehouse/destination';
import type { Destination, DestinationRefresh, DestinationRefreshContext } from '../../schedules/refresh/destination';
import { placementOf, sameCorner } from '../../schedules/refresh/refresh-block';
import type { RefreshStatus, SavedReport } from '../../schedules/saved/saved-reports';
import { tableOf } from '../../schedules/saved/destination-union';
import { nextRunAfter } from '../../schedules/saved/schedule';
import { checkBigQueryReport, checkBigQueryTable, checkRangeOf } from './definition';
import { openReportTable, warehouseView } from './open-in-sheets';
import { checkTableFree, statusAfterEdit } from './warehouse-edits';
import { backfillKey, refreshIntoBigQuery, warehouseProgress } from './warehouse-refresh';

/** Saving a BigQuery report asks BigQuery where its dataset is and what its table holds: two GETs, retries included, within this. */
export const BIGQUERY_SAVE_CHECK_BUDGET_MS = 20 * MS_PER_SECOND;

export interface BigQueryDestinationDeps {
  /** BigQuery's client on the user's OAuth token, made when a report is saved or refreshed. */
  client: () => BigQueryClient;
}

export function bigQueryDestination(deps: BigQueryDestinationDeps): Destination {
  return {
    kind: 'bigquery',
    permissions: [BIGQUERY_PERMISSION],
    checkDefinition: (report) => {
      const table = checkBigQueryReport(report);
      if (report.destination.kind === 'bigquery') report.destination.table = table;
    },
    checkRange: (report, nowMs) => checkRangeOf(report, nowMs),
    checkAmong: (report, others, selfId) => checkTableFree(report, others(), selfId),
    checkWithService: (report, nowMs) => checkBigQueryTable(deps.client(), tableOf(report)!, report, nowMs + BIGQUERY_SAVE_CHECK_BUDGET_MS),
    // What a table keeps is its partitions, which a change leaves where they are.
    checkChange: () => undefined,
    statusAfterEdit: (before, after, status, nowMs) => statusAfterEdit(before, after, status, nowMs),
    dueAnyway: (report, status) => loadsOtherContents(report, status),
    refresh: (context) => refreshTable(context, deps.client()),
    describe: (report, status, now) => ({
      target: `BigQuery ${tableAddress(tableOf(report)!)} (status in ${cellReference(report.destination.target.sheetName, report.destination.target.cell)})`,
      progress: warehouseProgress(status.backfill, now) ?? 'BigQuery: no day loaded yet',
      table: warehouseView(report)!,
    }),
    open: (report, sheets) => openReportTable(report, sheets),
  };
}

/**
 * A report whose days were loaded for another table, publisher or breakdowns (an edit that a run
 * under way wrote over: warehouse-refresh.ts, planPass) is due at once, whatever its slot.
 */
function loadsOtherContents(report: SavedReport, status: RefreshStatus): boolean {
  const key = status.backfill?.key;
  return key !== undefined && key !== backfillKey(report);
}

/**
 * The days this run can load, each saved in the status as it is done (warehouse-refresh.ts); the
 * target cell then shows the load's progress.
 */
function refreshTable(context: DestinationRefreshContext, client: BigQueryClient): DestinationRefresh {
  const { report, status, next, startedAtMs, timeZone } = context;
  const loaded = refreshIntoBigQuery({ ...context, client });
  if (loaded.daysLoaded === 0 && !loaded.done) {
    // Nothing loaded: no time or budget left in this run, and the report keeps its place for the
    // next; or the table's loads of the day are spent, and it waits for them, not holding up the publisher's other reports.
    const kept: RefreshStatus = { ...status, ...(next.backfill ? { backfill: next.backfill } : {}) };
    delete kept.runningUntilMs;
    if (loaded.waitUntilMs !== undefined) kept.nextRunAtMs = loaded.waitUntilMs;
    return { outcome: 'deferred', kept, outOfBudget: loaded.waitUntilMs === undefined };
  }
  const placement = placementOf(report);
  const written = context.sheet.write(placement, loaded.block, sameCorner(status.written, placement) ? status.written : undefined);
  // Until every day is loaded, the report stays due at each hourly run; then it keeps its schedule.
  const nextRunAtMs = loaded.done ? nextRunAfter(report.schedule, startedAtMs, timeZone) : loaded.waitUntilMs;
  // A backfill takes what each run's budget allows: one request is all it waits for.
  return { outcome: 'refreshed', rows: loaded.rows, requests: 1, written, nextRunAtMs };
}
