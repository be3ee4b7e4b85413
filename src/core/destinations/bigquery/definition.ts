/**
 * A saved report whose rows go to BigQuery: a `destination` of kind 'bigquery' (its table beside its target), and the rules it
 * adds. The destination's names follow BigQuery's (warehouse/destination.ts) and the report must be
 * one a day-partitioned table takes (warehouse/table-schema.ts), fetched one publisher's days at a
 * time: the general report by day, or the hourly external-ID report (its hours a TIMESTAMP column,
 * partitioned by their UTC day), whose period is then counted in whole UTC days as the backfill loads
 * them. Every refusal names the field, before anything is saved or sent. The sheet target stays: it
 * holds a small status table (the BigQuery table's address, the days loaded of the period's, what is
 * left), so the spreadsheet shows where the data went. What is sheet-only (write modes, a comparison,
 * incremental, a row cap, alerts on the sheet's figures) is refused with a BigQuery destination.
 */
import { ValidationError, type ValidationProblem } from '../../errors';
import type { Deployment } from '../../deployment';
import { selectsSeveral } from '../../api/requests/publisher-list';
import type { BigQueryClient } from '../../warehouse/bigquery-client';
import { checkDatasetAndTable } from '../../warehouse/day-load';
import { checkDestination, type BigQueryDestination, tableAddress } from '../../warehouse/destination';
import { checkPeriodKept } from './expiring-periods';
import { planTable, REALTIME_REFUSAL, type ReportShape } from '../../warehouse/table-schema';
import { effectiveBreakdowns } from '../../api/requests/report-fields';
import { REPORT_SPECS } from '../../spec';
import { resolvePeriod, type Period } from '../../schedules/saved/period';
import { type SavedDestination, tableOf, unavailableDestination } from '../../schedules/saved/destination-union';

/** What a BigQuery destination refuses beside it: the sheet's ways of meeting rows already there. */
const SHEET_ONLY_FIELDS = ['compareWith', 'incremental', 'writeMode', 'maxStoredRows', 'maxRows', 'closedThrough', 'alerts'] as const;
/** Those of them the destination itself holds; the others are the report's. */
const DESTINATION_FIELDS: readonly string[] = ['incremental', 'writeMode', 'maxStoredRows', 'closedThrough'];

/** What the check reads of a saved report. */
export interface BigQueryReportFields {
  kind: ReportShape['kind'];
  entityId: string;
  period?: Period | undefined;
  breakdowns?: string[] | undefined;
  metrics?: string[] | undefined;
  destination: SavedDestination;
  compareWith?: unknown;
  maxRows?: unknown;
  alerts?: unknown;
}

/**
 * The table's shape of a saved report (its metrics, or every metric when it names none). The hourly
 * reports' breakdowns as the API answers them, externalId first whether listed or not, so the table
 * has the column every row carries.
 */
export function reportShapeOf(report: Pick<BigQueryReportFields, 'kind' | 'breakdowns' | 'metrics'>): ReportShape {
  const given = report.breakdowns ?? [];
  const breakdowns = REPORT_SPECS[report.kind].hourly ? effectiveBreakdowns(report.kind, given) : given;
  return { kind: report.kind, breakdowns, metrics: report.metrics ?? 'all' };
}

/** The periods a BigQuery table is loaded by: whole UTC days, one partition each. */
const DAY_PERIODS = "'lastDays', 'since', 'fixed', 'thisMonth' or 'lastMonth'";

/**
 * The range a saved report's arguments are checked with at save (buildQuery, nothing sent): its
 * period, except for an hourly report into BigQuery, whose period of days is fetched one UTC day at a
 * time (the API's 24 hours): its first day, from hour 00 to the next day's 00.
 */
export function checkRangeOf(
  report: Pick<BigQueryReportFields, 'kind' | 'period' | 'destination'>,
  nowMs: number,
): { fromDate: string; toDate: string } | undefined {
  if (!tableOf(report) || !REPORT_SPECS[report.kind].hourly || !report.period) return undefined;
  const { fromDate } = resolvePeriod(report.period, nowMs);
  return { fromDate: fromDate.slice(0, 8), toDate: fromDate.slice(0, 8) };
}

/**
 * The destination, trimmed, of a report saved with `bigquery`, or a ValidationError naming the field
 * (`bigquery.projectId`, `breakdowns`, `incremental` …). Nothing is sent: whether the dataset exists,
 * and where, is BigQuery's to say (checkBigQueryTable, at save; prepareTable again at every run).
 */
export function checkBigQueryReport(report: BigQueryReportFields): BigQueryDestination {
  const given = tableOf(report)!;
  let destination: BigQueryDestination;
  try {
    destination = checkDestination(given);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    throw new ValidationError(
      e.problems.map((p: ValidationProblem) => ({ argument: `bigquery.${p.argument}`, message: `bigquery.${p.message}` })),
    );
  }
  for (const field of SHEET_ONLY_FIELDS) {
    const holder = (DESTINATION_FIELDS.includes(field) ? report.destination : report) as unknown as Record<string, unknown>;
    if (holder[field] !== undefined && holder[field] !== false) {
      throw ValidationError.single(
        field,
        'applies to a sheet only: a BigQuery table keeps every day of the period, each day loaded again replacing its partition; leave it out',
      );
    }
  }
  if (report.kind === 'realtime') throw ValidationError.single('kind', REALTIME_REFUSAL);
  if (selectsSeveral(report.entityId)) {
    throw ValidationError.single(
      'entityId',
      'a BigQuery report loads one publisher: save one report per publisher, each into its own table',
    );
  }
  if (report.kind === 'main') {
    if (!(report.breakdowns ?? []).includes('day')) {
      throw ValidationError.single('breakdowns', "a BigQuery report is broken down by 'day': the table keeps one partition per day");
    }
  } else {
    const spec = REPORT_SPECS[report.kind];
    const other = (report.breakdowns ?? []).find((b) => !spec.breakdowns.includes(b));
    if (other !== undefined) {
      throw ValidationError.single(
        'breakdowns',
        `'${other}' is not a breakdown of the ${spec.title}, whose rows are by hour already (the table's TIMESTAMP column 'hour'): choose among ${spec.breakdowns.join(', ')} (externalId always comes first)`,
      );
    }
    if (report.period?.type === 'lastHours') {
      throw ValidationError.single(
        'period',
        `a BigQuery table is loaded by whole UTC days, each day's 24 hours replacing its partition: use ${DAY_PERIODS} instead of 'lastHours'`,
      );
    }
  }
  planTable(reportShapeOf(report));
  return destination;
}

/** Refuses a BigQuery destination where the deployment does not load into BigQuery. */
export function checkBigQueryAllowed(deployment: Pick<Deployment, 'bigquery'> | undefined): void {
  if (deployment?.bigquery !== true) throw unavailableDestination('bigquery', 'save');
}

/**
 * What only BigQuery knows, asked when the report is saved (two GETs, no row sent, nothing created):
 * the dataset exists and is in the chosen location, and a table already there has the report's
 * columns, and BigQuery keeps every day of the period (expiring-periods.ts: a period whose older days
 * a partition expiration would delete is refused, naming `bigquery`). A refusal names the field
 * (bigquery.datasetId, bigquery.location, bigquery.tableId, bigquery), and the report is not saved. Every run checks the same again before loading (day-load.ts prepareTable):
 * a dataset moved or a table changed later is refused there, before any row is sent.
 */
export function checkBigQueryTable(
  client: BigQueryClient,
  destination: BigQueryDestination,
  report: Pick<BigQueryReportFields, 'kind' | 'breakdowns' | 'metrics' | 'period'>,
  deadlineAtMs: number,
): void {
  const { keeping } = checkDatasetAndTable(client, destination, planTable(reportShapeOf(report)), deadlineAtMs, 'bigquery.');
  checkPeriodKept(report.period, keeping, tableAddress(destination));
}
