/**
 * One day of a report into its partition of the BigQuery table, all or nothing. First the table is
 * made ready: the dataset must exist in the chosen location (datasets.get), and the table is read
 * (tables.get) and must fit the report, or is created (tables.insert) partitioned by day and
 * clustered. Then the day's rows go in load jobs (free, unlike streaming inserts) of
 * newline-delimited JSON, each request within URL Fetch's payload limit, and each job is waited for.
 *
 * An empty day is not a load of zero bytes (no page says BigQuery takes an empty upload): its
 * partition is emptied by tables.delete of `table$YYYYMMDD`, which "Delete a partition" documents
 * (cloud.google.com/bigquery/docs/managing-partitioned-tables#delete_a_partition). One upload carries
 * at most MULTIPART_UPLOAD_MAX_BYTES: the multipart upload is "for quick transfer of smaller files"
 * (cloud.google.com/bigquery/docs/reference/api-uploads) and no page gives its maximum, so a day
 * larger than that goes by the staging path below.
 *
 * Why the day stays whole: a load job with WRITE_TRUNCATE to `table$YYYYMMDD` replaces that partition
 * atomically, so when the day fits one request (the usual case) one job does it, and a failed job
 * changes nothing. A day too large for one request cannot be several WRITE_TRUNCATE jobs (each would
 * replace the last), nor a truncate then appends (a failure between them would leave half a day). It
 * goes instead into a staging table of its own (the table's schema, partitioning and clustering,
 * expiring after a day, so none is left behind): the first part truncates it, the others append, and
 * only when every part has loaded does one copy job (also free) replace the day's partition with
 * the staging partition, atomically. A failure before the copy leaves the table as it was, and the
 * next run starts the day again from an empty staging table.
 */
import { ValidationError } from '../errors';
import { hashText } from '../util/hash';
import type { BigQueryClient, TableRef } from './bigquery-client';
import type { TableResource } from './bigquery-resources';
import { sameLocation, tableAddress, type BigQueryDestination } from './destination';
import { type DatasetInfo, type TableKeeping, tableKeeping } from './expiration';
import { tableFitProblem, type TablePlan } from './table-schema';

/**
 * The most one URL Fetch request may carry: Apps Script's quotas page lists "URL Fetch POST size:
 * 50 MB / call" (developers.google.com/apps-script/guides/services/quotas). Read as 50,000,000 bytes,
 * the smaller reading of "MB"; the multipart envelope and the job's JSON count too.
 */
export const URL_FETCH_PAYLOAD_MAX_BYTES = 50_000_000;
/**
 * The most one multipart upload carries, envelope included: 10 MB (10,000,000 bytes). The
 * multipart upload is "for quick transfer of smaller files" (cloud.google.com/bigquery/docs/reference/api-uploads)
 * and no page gives a maximum, so uploads stay small, and a larger day is staged in parts of this size.
 */
export const MULTIPART_UPLOAD_MAX_BYTES = 10_000_000;
/** How long a staging table lives: long enough for one run, short enough to leave nothing behind. */
export const STAGING_TABLE_LIFETIME_MS = 24 * 3_600_000;
/** The room the multipart envelope and the job's JSON take in a request, counted generously. */
export const LOAD_REQUEST_OVERHEAD_BYTES = 4_096;

export interface PrepareResult {
  created: boolean;
  /** The table's schema as BigQuery holds it: a staging table copies it exactly. */
  table: TableResource;
  /** What BigQuery will delete of the table, and when (expiration.ts). */
  keeping: TableKeeping;
}

/** What the checks found: the table when it exists, and what BigQuery will delete of it. */
export interface TableCheck {
  existing: TableResource | undefined;
  dataset: DatasetInfo;
  keeping: TableKeeping;
}

/** The expirations of a table as BigQuery answered it. */
function keepingOfTable(dataset: DatasetInfo, table: TableResource | undefined): TableKeeping {
  return tableKeeping(
    dataset,
    table && {
      ...(table.partitionExpirationMs !== undefined ? { partitionExpirationMs: table.partitionExpirationMs } : {}),
      ...(table.expirationTimeMs !== undefined ? { expirationTimeMs: table.expirationTimeMs } : {}),
    },
  );
}

/** The Table resource fields of a new table for the plan (tables.insert). */
export function newTableResource(plan: TablePlan, description: string): Record<string, unknown> {
  return {
    description,
    schema: { fields: plan.columns.map((c) => c.field) },
    timePartitioning: plan.timePartitioning,
    clustering: plan.clustering,
  };
}

/**
 * Checks the dataset (it must exist, in the destination's location) and an existing table (it must fit
 * the plan), and returns that table (undefined when there is none), the dataset, and what BigQuery
 * will delete of the table (its own expirations, or the dataset's defaults for a table to make). Throws a ValidationError naming
 * the field at fault, `fieldPrefix` first (datasetId, location, tableId; "bigquery." when a saved
 * report's definition is checked), before any row is sent.
 */
export function checkDatasetAndTable(
  client: BigQueryClient,
  destination: BigQueryDestination,
  plan: TablePlan,
  deadlineAtMs: number,
  fieldPrefix = '',
): TableCheck {
  const dataset = `${destination.projectId}.${destination.datasetId}`;
  const info = client.getDataset(destination.projectId, destination.datasetId, deadlineAtMs);
  if (info === undefined) {
    throw ValidationError.single(
      `${fieldPrefix}datasetId`,
      `the dataset ${dataset} does not exist, or your Google account cannot see it; create it in the BigQuery console (in ${destination.location}) or check the project`,
    );
  }
  const { location } = info;
  // An answer without a location (BigQuery always gives one) is left to the load job, which runs in the destination's location.
  if (location !== '' && !sameLocation(location, destination.location)) {
    throw ValidationError.single(
      `${fieldPrefix}location`,
      `the dataset ${dataset} is in ${location}, not ${destination.location}: choose ${location} as the location, or a dataset in ${destination.location}`,
    );
  }
  const existing = client.getTable(destination, deadlineAtMs);
  const problem = existing && tableFitProblem(plan, existing, destination);
  if (problem) throw ValidationError.single(`${fieldPrefix}tableId`, problem);
  return { existing, dataset: info, keeping: keepingOfTable(info, existing) };
}

/** The dataset and an existing table checked (checkDatasetAndTable), and the table created when it is missing. */
export function prepareTable(
  client: BigQueryClient,
  destination: BigQueryDestination,
  plan: TablePlan,
  description: string,
  deadlineAtMs: number,
): PrepareResult {
  const { existing, dataset, keeping } = checkDatasetAndTable(client, destination, plan, deadlineAtMs);
  if (existing) return { created: false, table: existing, keeping };
  const table = client.insertTable(destination, newTableResource(plan, description), deadlineAtMs);
  // What the new table was given (the dataset's defaults), as BigQuery answered it.
  return { created: true, table, keeping: keepingOfTable(dataset, table) };
}

/** The day's lines cut into parts, each within `maxPartBytes` once joined by newlines. */
export function splitLines(lines: readonly string[], maxPartBytes: number): string[][] {
  const parts: string[][] = [];
  let part: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    // Lines are ASCII (table-rows.ts), so characters are bytes; +1 for the newline.
    const size = line.length + 1;
    if (size > maxPartBytes) {
      throw ValidationError.single('rows', `a row is ${size} bytes, more than one request to BigQuery may carry (${maxPartBytes})`);
    }
    if (bytes + size > maxPartBytes && part.length > 0) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(line);
    bytes += size;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

export interface DayLoadOptions {
  /** The day, yyyyMMdd: the partition `table$yyyyMMdd` the rows replace. */
  day: string;
  /** The table as prepareTable found or made it. */
  table: TableResource;
  /** Epoch ms by which the load must be done (a run's own deadline). */
  deadlineAtMs: number;
  /** What makes the job IDs (and a staging table's name) unique to this attempt, such as the run's start in ms. */
  attemptStamp: string;
  /**
   * What tells this load from another's into the same table in the same attempt (the report's
   * publisher, say): hashed into the job IDs with the table's address.
   */
  loadKey?: string;
  /** Now, epoch ms (the Clock port's): a staging table expires STAGING_TABLE_LIFETIME_MS after it. */
  nowMs: number;
  /** The most one request carries; MULTIPART_UPLOAD_MAX_BYTES unless a test asks for less. */
  maxRequestBytes?: number;
}

export interface DayLoadResult {
  /** The jobs run, in order: the loads, then the copy when the day was staged. */
  jobIds: string[];
  /**
   * Every job sent into the report's own table (the day's load, or the staged day's copy), those
   * refused for BigQuery's rate limit and sent again included: each counts against the table's daily
   * quotas (loads into a staging table count against the staging table's).
   */
  tableJobsSent: number;
  rows: number;
  staged: boolean;
}

function loadConfiguration(target: TableRef, day: string, writeDisposition: 'WRITE_TRUNCATE' | 'WRITE_APPEND'): Record<string, unknown> {
  return {
    load: {
      destinationTable: { projectId: target.projectId, datasetId: target.datasetId, tableId: `${target.tableId}$${day}` },
      sourceFormat: 'NEWLINE_DELIMITED_JSON',
      writeDisposition,
      createDisposition: 'CREATE_NEVER',
    },
  };
}

/**
 * A job's ID: what it does, the day, a short hash of the table's address (and `loadKey`), and the
 * attempt's stamp, so that two loads' jobs never share an ID, whatever table, report or run they
 * belong to (BigQuery's job IDs: letters, digits, _ and -, at most 1,024 characters; JobReference.jobId).
 */
export function dayJobId(what: string, target: TableRef, day: string, attemptStamp: string, loadKey = ''): string {
  const table = hashText(`${target.projectId}:${target.datasetId}.${target.tableId}\n${loadKey}`);
  return `engage_${what}_${day}_${table}_${attemptStamp}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The staging table of one attempt at one day: a short name whatever the table's, unique to the attempt. */
export function stagingTableId(tableId: string, day: string, attemptStamp: string): string {
  return `engage_staging_${hashText(tableId)}_${day}_${attemptStamp}`.replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * Loads the day's lines into its partition, replacing what it held: one load job when they fit one
 * request, else staged loads and one copy (see the file's opening). Waits for every job; throws a
 * BigQueryError (bigquery-errors.ts; the table unchanged) when one fails or the deadline comes first.
 */
export function loadDay(
  client: BigQueryClient,
  destination: BigQueryDestination,
  lines: readonly string[],
  options: DayLoadOptions,
): DayLoadResult {
  const { day, deadlineAtMs } = options;
  if (!/^\d{8}$/.test(day)) throw ValidationError.single('day', `'${day}' is not a day written yyyyMMdd`);
  const maxRequestBytes = Math.min(options.maxRequestBytes ?? MULTIPART_UPLOAD_MAX_BYTES, URL_FETCH_PAYLOAD_MAX_BYTES);
  const parts = splitLines(lines, maxRequestBytes - LOAD_REQUEST_OVERHEAD_BYTES);
  const operation = `loading ${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)} into ${tableAddress(destination)}`;
  const { projectId, location } = destination;
  const jobIdOf = (what: string) => dayJobId(what, destination, day, options.attemptStamp, options.loadKey);
  const jobIds: string[] = [];
  // Each job within BigQuery's per-table rate limit, and sent again under a new ID when refused for it (BigQueryClient.runJob).
  const run = (jobId: string, configuration: Record<string, unknown>, data: string | undefined): string[] => {
    const sent = client.runJob(projectId, location, jobId, configuration, data, operation, deadlineAtMs).jobIds;
    jobIds.push(...sent);
    return sent;
  };

  if (parts.length === 0) {
    // An empty day still replaces the partition (a day restated to no rows must lose its old ones): the partition is deleted.
    client.deletePartition(destination, day, deadlineAtMs);
    return { jobIds, tableJobsSent: 0, rows: 0, staged: false };
  }
  if (parts.length === 1) {
    const sent = run(jobIdOf('load'), loadConfiguration(destination, day, 'WRITE_TRUNCATE'), parts[0]!.join('\n'));
    return { jobIds, tableJobsSent: sent.length, rows: lines.length, staged: false };
  }

  const staging: TableRef = {
    projectId,
    datasetId: destination.datasetId,
    tableId: stagingTableId(destination.tableId, day, options.attemptStamp),
  };
  client.insertTable(
    staging,
    {
      description: `Engage: ${day} of ${tableAddress(destination)} while it loads in ${parts.length} parts; deleted by BigQuery after a day`,
      schema: { fields: options.table.fields },
      ...(options.table.timePartitioning ? { timePartitioning: options.table.timePartitioning } : {}),
      // The same clustering too: a partition is copied between tables of one specification.
      ...(options.table.clustering ? { clustering: options.table.clustering } : {}),
      expirationTime: String(options.nowMs + STAGING_TABLE_LIFETIME_MS),
    },
    deadlineAtMs,
  );
  parts.forEach((part, i) => {
    run(jobIdOf(`stage${i + 1}`), loadConfiguration(staging, day, i === 0 ? 'WRITE_TRUNCATE' : 'WRITE_APPEND'), part.join('\n'));
  });
  const copies = run(
    jobIdOf('copy'),
    {
      copy: {
        sourceTables: [{ projectId, datasetId: staging.datasetId, tableId: `${staging.tableId}$${day}` }],
        destinationTable: { projectId, datasetId: destination.datasetId, tableId: `${destination.tableId}$${day}` },
        writeDisposition: 'WRITE_TRUNCATE',
        createDisposition: 'CREATE_NEVER',
      },
    },
    undefined,
  );
  return { jobIds, tableJobsSent: copies.length, rows: lines.length, staged: true };
}
