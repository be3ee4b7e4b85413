/**
 * One day of a saved report into its BigQuery table, the use case a refresh calls: the destination's
 * names and the report's table are checked, and every row is written as a JSON line, before anything
 * is sent; then the table is made ready (dataset location, fit, or created) and the day loaded into
 * its partition (day-load.ts). Also where a deployment's BigQuery address comes from: Google's, or a
 * local build's stand-in (bigqueryBaseUrl), and none at all when the deployment does not offer BigQuery;
 * and the ready query the sidebar offers where Connected Sheets is not available.
 */
import { ValidationError } from '../errors';
import { isValidCalendarDay } from '../util/dates';
import type { Deployment } from '../deployment';
import { REPORT_SPECS } from '../spec';
import type { BigQueryClient } from './bigquery-client';
import { checkDestination } from './destination';
import { loadDay, prepareTable, type DayLoadResult, type PrepareResult } from './day-load';
import { planTable, type ReportShape } from './table-schema';
import { dayLines, type RowContext } from './table-rows';

/** BigQuery's root for this deployment: the stand-in of a local build, else Google's (BIGQUERY_ROOT_URL, the client's default). */
export function bigqueryRootUrl(
  deployment: Pick<Deployment, 'bigquery' | 'bigqueryBaseUrl' | 'localServers'> | undefined,
): string | undefined {
  if (deployment?.bigquery !== true) {
    throw ValidationError.single(
      'destination',
      'this installation of Engage does not load into BigQuery (its deploy config does not say "bigquery": true); choose a sheet, or ask whoever deployed it',
    );
  }
  return deployment.localServers === true ? deployment.bigqueryBaseUrl : undefined;
}

export interface ReportDayLoad {
  /** As the saved report holds it; checked here. */
  destination: { projectId?: unknown; datasetId?: unknown; tableId?: unknown; location?: unknown };
  report: ReportShape;
  /** The day, yyyyMMdd. */
  day: string;
  /** The day's items as fetched: one batch per fetch (per publisher; per hour of the hourly report). */
  batches: ReadonlyArray<{ items: readonly Record<string, unknown>[]; context: Omit<RowContext, 'day'> }>;
  deadlineAtMs: number;
  nowMs: number;
  /** Unique to this attempt (job IDs and a staging table's name); the run's start in ms is enough. */
  attemptStamp: string;
  maxRequestBytes?: number;
  /**
   * The table as this run already made it ready (the previous day's result's `prepared`): the
   * dataset's location and the table's fit are not asked again for each day of a backfill.
   */
  prepared?: PrepareResult;
}

export interface ReportDayLoadResult extends DayLoadResult {
  /** Whether the table was created by this load. */
  created: boolean;
  /** "project.dataset.table", for the run log and the sidebar. */
  table: string;
  /** The table as made ready for this load, for the next day's. */
  prepared: PrepareResult;
}

/** A table's description: what it holds and who fills it. */
export function tableDescription(report: ReportShape): string {
  const spec = REPORT_SPECS[report.kind];
  const by = report.breakdowns.length > 0 ? ` by ${report.breakdowns.join(', ')}` : '';
  return `Engage ${spec.title}${by}, one partition per day, loaded by Engage for Sheets; a day loaded again replaces its partition.`;
}

/** The report's table made ready (prepareTable: the dataset's location, the table's fit, or the table created), before its days load. */
export function prepareReportTable(
  client: BigQueryClient,
  given: ReportDayLoad['destination'],
  report: ReportShape,
  deadlineAtMs: number,
): PrepareResult {
  return prepareTable(client, checkDestination(given), planTable(report), tableDescription(report), deadlineAtMs);
}

/** Loads one day of the report, replacing its partition; nothing is sent unless the names, the report and every row are fit. */
export function loadReportDay(client: BigQueryClient, load: ReportDayLoad): ReportDayLoadResult {
  if (!/^\d{8}$/.test(load.day) || !isValidCalendarDay(+load.day.slice(0, 4), +load.day.slice(4, 6), +load.day.slice(6))) {
    throw ValidationError.single('day', `'${load.day}' is not a day written yyyyMMdd`);
  }
  const destination = checkDestination(load.destination);
  const plan = planTable(load.report);
  const lines = dayLines(
    plan,
    load.batches.map((batch) => ({ items: batch.items, context: { ...batch.context, day: load.day } })),
  );
  const prepared = load.prepared ?? prepareTable(client, destination, plan, tableDescription(load.report), load.deadlineAtMs);
  const result = loadDay(client, destination, lines, {
    day: load.day,
    table: prepared.table,
    deadlineAtMs: load.deadlineAtMs,
    nowMs: load.nowMs,
    attemptStamp: load.attemptStamp,
    // Reports of several publishers may load one table: their jobs in one run must not share IDs.
    loadKey: JSON.stringify([load.batches.map((b) => b.context.publisherId), load.report]),
    ...(load.maxRequestBytes !== undefined ? { maxRequestBytes: load.maxRequestBytes } : {}),
  });
  return {
    ...result,
    created: load.prepared === undefined && prepared.created,
    table: `${destination.projectId}.${destination.datasetId}.${destination.tableId}`,
    prepared,
  };
}

/** The days a ready query reads back from today: a month, scanning (and billing) a month of partitions only. */
export const READY_QUERY_DAYS = 30;

/**
 * A query to paste into BigQuery's console: the last READY_QUERY_DAYS days of the table, newest
 * first. Its filter on the partitioning column makes BigQuery read only those days' partitions, so it
 * costs the bytes of a month, not of the whole history.
 */
export function readyQuery(destination: { projectId: string; datasetId: string; tableId: string }, report: ReportShape): string {
  const plan = planTable(report);
  const since =
    plan.timeField === 'day'
      ? `day >= DATE_SUB(CURRENT_DATE(), INTERVAL ${READY_QUERY_DAYS} DAY)`
      : `hour >= TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL ${READY_QUERY_DAYS * 24} HOUR)`;
  // Backquotes take a table name with spaces or dashes; BigQuery's names hold no backquote.
  return [
    'SELECT *',
    `FROM \`${destination.projectId}.${destination.datasetId}.${destination.tableId}\``,
    `WHERE ${since}`,
    `ORDER BY ${plan.timeField} DESC`,
  ].join('\n');
}
