/**
 * Runs a load job to its end, atomically: every check is made and the table's new rows are computed
 * first, and only then are they put in place, so a failed job changes nothing ("Each action is atomic
 * and only occurs if BigQuery is able to complete the job successfully. Creation, truncation and
 * append actions occur as one atomic update upon job completion": JobConfigurationLoad.writeDisposition
 * in the discovery document). A destination `table$yyyymmdd` addresses one DAY partition
 * (https://cloud.google.com/bigquery/docs/managing-partitioned-table-data#partition_decorators):
 * WRITE_TRUNCATE then replaces that partition alone, and every row must belong to it ("Some rows
 * belong to different partitions rather than destination partition ..."). DAY partitions exist from
 * 1960-01-01 to 2159-12-31: values outside go to __UNPARTITIONED__
 * (https://cloud.google.com/bigquery/docs/partitioned-tables#date_timestamp_partitioned_tables), so a
 * decorator outside that range names no partition and is refused.
 */
import { BigQueryError, type ErrorProto } from './errors';
import { checkClustering, checkTableId, checkTimePartitioning, normaliseFields, type FieldSchema } from './naming';
import { withDatasetDefaults } from './expiration';
import { dayOfValue, isCalendarDate, parseNdjson } from './rows';
import { type BigQueryState, rowCount, type StoredDataset, type StoredJob, type StoredPartition, type StoredTable } from './state';

export const FIRST_DAY_PARTITION = '19600101';
export const LAST_DAY_PARTITION = '21591231';
export const WRITE_DISPOSITIONS = ['WRITE_TRUNCATE', 'WRITE_TRUNCATE_DATA', 'WRITE_APPEND', 'WRITE_EMPTY'];
export const CREATE_DISPOSITIONS = ['CREATE_IF_NEEDED', 'CREATE_NEVER'];

export interface LoadConfig {
  destinationTable?: { projectId?: string; datasetId?: string; tableId?: string };
  schema?: { fields?: FieldSchema[] };
  timePartitioning?: { type: string; field?: string };
  clustering?: { fields?: string[] };
  writeDisposition?: string;
  createDisposition?: string;
  sourceFormat?: string;
  maxBadRecords?: number;
  ignoreUnknownValues?: boolean;
}

export function sameFields(a: FieldSchema[], b: FieldSchema[]): string | null {
  for (const field of b) {
    const other = a.find((f) => f.name.toLowerCase() === field.name.toLowerCase());
    if (!other) return `Field ${field.name} is missing in new schema`;
    if (other.type !== field.type) return `Field ${field.name} has changed type from ${field.type} to ${other.type}`;
    if ((other.mode ?? 'NULLABLE') !== (field.mode ?? 'NULLABLE')) {
      return `Field ${field.name} has changed mode from ${field.mode ?? 'NULLABLE'} to ${other.mode ?? 'NULLABLE'}`;
    }
  }
  const added = a.find((f) => !b.some((g) => g.name.toLowerCase() === f.name.toLowerCase()));
  return added ? `Field ${added.name} is not in the table's schema (schemaUpdateOptions are not set)` : null;
}

/** Checks a configuration's shape before the job is accepted (what jobs.insert answers 400 to). */
export function checkLoadConfig(config: LoadConfig): void {
  const ref = config.destinationTable;
  if (!ref?.projectId || !ref.datasetId || !ref.tableId) {
    throw new BigQueryError(
      'invalid',
      'Required parameter is missing: configuration.load.destinationTable (projectId, datasetId and tableId)',
    );
  }
  if (config.writeDisposition !== undefined && !WRITE_DISPOSITIONS.includes(config.writeDisposition)) {
    throw new BigQueryError('invalid', `Invalid value for writeDisposition: ${config.writeDisposition}`);
  }
  if (config.createDisposition !== undefined && !CREATE_DISPOSITIONS.includes(config.createDisposition)) {
    throw new BigQueryError('invalid', `Invalid value for createDisposition: ${config.createDisposition}`);
  }
  if ((config.sourceFormat ?? 'CSV') !== 'NEWLINE_DELIMITED_JSON') {
    throw new BigQueryError(
      'invalid',
      `The BigQuery stand-in loads sourceFormat NEWLINE_DELIMITED_JSON only, got ${config.sourceFormat ?? 'none (BigQuery defaults to CSV)'}`,
    );
  }
}

export function fail(message: string, reason: ErrorProto['reason'] = 'invalid'): never {
  throw new BigQueryError(reason as 'invalid', message);
}

export function decoratorOf(tableId: string): { base: string; decorator?: string } {
  const dollar = tableId.indexOf('$');
  return dollar < 0 ? { base: tableId } : { base: tableId.slice(0, dollar), decorator: tableId.slice(dollar + 1) };
}

export function checkDecorator(decorator: string, table: StoredTable): void {
  const partitioning = table.timePartitioning;
  if (!partitioning)
    fail(
      `Cannot read partition information from a table that is not partitioned: ${table.projectId}:${table.datasetId}.${table.tableId}$${decorator}`,
    );
  if (partitioning.type !== 'DAY')
    fail(`The BigQuery stand-in models DAY partition decorators only; the table is partitioned by ${partitioning.type}`);
  const iso = `${decorator.slice(0, 4)}-${decorator.slice(4, 6)}-${decorator.slice(6, 8)}`;
  if (!/^\d{8}$/.test(decorator) || !isCalendarDate(iso)) {
    fail(`Invalid partition decorator: ${decorator} (a DAY partition is yyyymmdd)`);
  }
  if (decorator < FIRST_DAY_PARTITION || decorator > LAST_DAY_PARTITION) {
    fail(`Partition decorator ${decorator} is out of range: DAY partitions run from ${FIRST_DAY_PARTITION} to ${LAST_DAY_PARTITION}`);
  }
}

export function partitionOf(table: StoredTable, row: Record<string, unknown>, decorator: string | undefined, todayDay: string): string {
  const partitioning = table.timePartitioning;
  if (!partitioning) return 'null';
  if (partitioning.field === undefined) return decorator ?? todayDay;
  const day = dayOfValue(row[partitioning.field]);
  if (day === null) return '__NULL__';
  return day < FIRST_DAY_PARTITION || day > LAST_DAY_PARTITION ? '__UNPARTITIONED__' : day;
}

function newTable(dataset: StoredDataset, tableId: string, config: LoadConfig, nowMs: number): StoredTable {
  if (!config.schema?.fields) fail('No schema specified on job or table.');
  const schema = normaliseFields(config.schema.fields);
  return {
    projectId: dataset.projectId,
    datasetId: dataset.datasetId,
    tableId,
    schema,
    ...(config.timePartitioning ? { timePartitioning: checkTimePartitioning(config.timePartitioning, schema) } : {}),
    ...(config.clustering ? { clustering: checkClustering(config.clustering, schema) } : {}),
    extra: {},
    creationTimeMs: nowMs,
    lastModifiedTimeMs: nowMs,
    partitions: new Map(),
  };
}

/**
 * Checks a job's partition modifications against the daily quota and counts them, just before the job
 * changes its table (the last check: a job refused here changes nothing). `modified` is the number of
 * partitions the job writes; only a table partitioned by a column is counted (quotas.ts).
 */
export type PartitionQuota = (table: StoredTable, modified: number) => void;

/** The schema a load into an existing table writes with: the one given when it replaces the table or the table has none, else the table's, which the given one must match. */
function loadSchema(fields: FieldSchema[], table: StoredTable, replacesWholeTable: boolean, tableName: string): StoredTable['schema'] {
  const given = normaliseFields(fields);
  // A table made without a schema takes the first one a job gives it.
  if (replacesWholeTable || table.schema.length === 0) return given;
  const mismatch = sameFields(given, table.schema);
  if (mismatch) fail(`Provided Schema does not match Table ${tableName}. ${mismatch}.`);
  return table.schema;
}

/** The job's rows; past maxBadRecords bad ones the job fails, under it they are listed in its errors and skipped. */
function parseRows(job: StoredJob, config: LoadConfig, schema: StoredTable['schema']): ReturnType<typeof parseNdjson> {
  const parsed = parseNdjson(job.data, schema, { ignoreUnknownValues: config.ignoreUnknownValues });
  if (parsed.errors.length > (config.maxBadRecords ?? 0)) {
    job.errors = [
      {
        reason: 'invalid',
        message: `Error while reading data, error message: JSON table encountered too many errors, giving up. Rows: ${parsed.rows.length + parsed.errors.length}; errors: ${parsed.errors.length}. Please look into the errors[] collection for more details.`,
      },
      ...parsed.errors,
    ];
    fail(job.errors[0]!.message);
  }
  // Skipped bad rows are listed in status.errors of a job that still succeeds (JobStatus.errors).
  if (parsed.errors.length > 0) job.errors = parsed.errors;
  job.badRecords = parsed.errors.length;
  return parsed;
}

/** The rows by the partition each goes to; a decorated destination takes only rows of its partition. */
function incomingPartitions(
  layout: StoredTable,
  parsed: ReturnType<typeof parseNdjson>,
  decorator: string | undefined,
  nowMs: number,
): Map<string, StoredPartition> {
  const todayDay = new Date(nowMs).toISOString().slice(0, 10).replace(/-/g, '');
  const incoming = new Map<string, StoredPartition>();
  for (const [index, values] of parsed.rows.entries()) {
    const key = partitionOf(layout, values, decorator, todayDay);
    if (decorator !== undefined && key !== decorator) {
      fail(`Some rows belong to different partitions rather than destination partition ${decorator}`);
    }
    const partition = incoming.get(key) ?? { rows: [], bytes: 0 };
    partition.rows.push(values);
    partition.bytes += parsed.rowBytes[index]!;
    incoming.set(key, partition);
  }
  return incoming;
}

/** Runs a load job's checks and, when all pass, its one update; returns the rows loaded (jobs.ts counts it first). */
export function runLoad(state: BigQueryState, job: StoredJob, nowMs: number, partitionQuota: PartitionQuota): number {
  const config = (job.configuration.load ?? {}) as LoadConfig;
  const ref = config.destinationTable!;
  const { base, decorator } = decoratorOf(ref.tableId!);
  checkTableId(base);
  const dataset = state.dataset(ref.projectId!, ref.datasetId!);
  if (!dataset) fail(`Not found: Dataset ${ref.projectId}:${ref.datasetId}`, 'notFound');
  if (dataset.location.toUpperCase() !== job.location.toUpperCase()) {
    fail(`Not found: Dataset ${ref.projectId}:${ref.datasetId} was not found in location ${job.location}`, 'notFound');
  }
  const existing = dataset.tables.get(base);
  const createDisposition = config.createDisposition ?? 'CREATE_IF_NEEDED';
  if (!existing && createDisposition === 'CREATE_NEVER') fail(`Not found: Table ${ref.projectId}:${ref.datasetId}.${base}`, 'notFound');
  const table = existing ?? withDatasetDefaults(dataset, newTable(dataset, base, config, nowMs), nowMs);
  const writeDisposition = config.writeDisposition ?? 'WRITE_APPEND';
  const replacesWholeTable = writeDisposition === 'WRITE_TRUNCATE' && decorator === undefined;
  const schema =
    existing && config.schema?.fields
      ? loadSchema(config.schema.fields, table, replacesWholeTable, `${ref.projectId}:${ref.datasetId}.${base}`)
      : table.schema;
  if (decorator !== undefined) checkDecorator(decorator, table);
  const parsed = parseRows(job, config, schema);
  const incoming = incomingPartitions({ ...table, schema }, parsed, decorator, nowMs);
  const targetRows = decorator === undefined ? rowCount(table) : (table.partitions.get(decorator)?.rows.length ?? 0);
  if (writeDisposition === 'WRITE_EMPTY' && targetRows > 0) {
    fail(`Already Exists: Table ${ref.projectId}:${ref.datasetId}.${ref.tableId}`, 'duplicate');
  }
  const truncates = writeDisposition === 'WRITE_TRUNCATE' || writeDisposition === 'WRITE_TRUNCATE_DATA';
  const next = new Map<string, StoredPartition>(truncates && decorator === undefined ? [] : table.partitions);
  if (truncates && decorator !== undefined) next.delete(decorator);
  for (const [key, added] of incoming) {
    const before = next.get(key);
    next.set(key, before ? { rows: [...before.rows, ...added.rows], bytes: before.bytes + added.bytes } : added);
  }
  // A truncated partition that received no rows keeps its place in the order, empty.
  if (truncates && decorator !== undefined && !next.has(decorator) && table.partitions.has(decorator))
    next.set(decorator, { rows: [], bytes: 0 });
  // A truncated partition counts as modified even when no row goes into it.
  const modified = new Set([...incoming.keys(), ...(truncates && decorator !== undefined ? [decorator] : [])]);
  partitionQuota(table, truncates && decorator === undefined ? Math.max(modified.size, table.partitions.size) : modified.size);
  // Every check has passed: the one update.
  table.partitions = new Map(
    [...table.partitions.keys(), ...next.keys()].filter((key) => next.has(key)).map((key) => [key, next.get(key)!]),
  );
  table.schema = schema;
  table.lastModifiedTimeMs = nowMs;
  if (!existing) dataset.tables.set(base, table);
  return parsed.rows.length;
}
