/**
 * Copy jobs (`jobs.insert` with `configuration.copy`, JobConfigurationTableCopy in the discovery
 * document): one or more source tables, or partitions `table$yyyymmdd`, into a destination table or
 * partition. As the discovery document gives them: writeDisposition WRITE_TRUNCATE (the destination
 * table's data, or the decorated partition alone, replaced; a whole table also takes the source's
 * schema), WRITE_APPEND, or WRITE_EMPTY (the default: a destination with rows fails with duplicate);
 * createDisposition CREATE_IF_NEEDED (the default: a missing destination is made with the source's
 * schema, partitioning and clustering) or CREATE_NEVER (notFound); "Each action is atomic and only
 * occurs if BigQuery is able to complete the job successfully". Copying partitions
 * (https://cloud.google.com/bigquery/docs/managing-partitioned-tables#copy_partitions) needs tables of
 * one partitioning; the stand-in also asks the same clustering and the same schema of an existing
 * destination, the stricter reading (UNCONFIRMED in README.md).
 */
import { BigQueryError } from './errors';
import { CREATE_DISPOSITIONS, checkDecorator, decoratorOf, fail, type PartitionQuota, partitionOf, sameFields } from './load-job';
import { checkTableId } from './naming';
import { type BigQueryState, rowCount, type StoredJob, type StoredPartition, type StoredTable } from './state';

type Ref = { projectId?: string; datasetId?: string; tableId?: string };

export interface CopyConfig {
  sourceTable?: Ref;
  sourceTables?: Ref[];
  destinationTable?: Ref;
  writeDisposition?: string;
  createDisposition?: string;
  operationType?: string;
  destinationExpirationTime?: string;
}

/** The write dispositions JobConfigurationTableCopy.writeDisposition describes (WRITE_TRUNCATE_DATA is the load's and the query's). */
export const COPY_WRITE_DISPOSITIONS = ['WRITE_TRUNCATE', 'WRITE_APPEND', 'WRITE_EMPTY'];

const fullRef = (ref: Ref | undefined): ref is Required<Ref> => Boolean(ref?.projectId && ref.datasetId && ref.tableId);

/** Checks a copy configuration's shape before the job is accepted (what jobs.insert answers 400 to). */
export function checkCopyConfig(config: CopyConfig): void {
  if (!fullRef(config.destinationTable)) {
    throw new BigQueryError(
      'invalid',
      'Required parameter is missing: configuration.copy.destinationTable (projectId, datasetId and tableId)',
    );
  }
  // sourceTable and sourceTables: "[Pick one]".
  if ((config.sourceTable === undefined) === (config.sourceTables === undefined)) {
    throw new BigQueryError('invalid', 'Exactly one of configuration.copy.sourceTable and configuration.copy.sourceTables must be set');
  }
  const sources = config.sourceTables ?? [config.sourceTable];
  if (sources.length === 0 || !sources.every(fullRef)) {
    throw new BigQueryError('invalid', 'Required parameter is missing: every copy source needs projectId, datasetId and tableId');
  }
  if (config.writeDisposition !== undefined && !COPY_WRITE_DISPOSITIONS.includes(config.writeDisposition)) {
    throw new BigQueryError('invalid', `Invalid value for writeDisposition: ${config.writeDisposition}`);
  }
  if (config.createDisposition !== undefined && !CREATE_DISPOSITIONS.includes(config.createDisposition)) {
    throw new BigQueryError('invalid', `Invalid value for createDisposition: ${config.createDisposition}`);
  }
  if (config.destinationExpirationTime !== undefined) {
    throw new BigQueryError('invalid', 'The BigQuery stand-in does not model configuration.copy.destinationExpirationTime');
  }
  if (config.operationType !== undefined && config.operationType !== 'COPY' && config.operationType !== 'OPERATION_TYPE_UNSPECIFIED') {
    throw new BigQueryError('invalid', `The BigQuery stand-in models copy operationType COPY only, got ${config.operationType}`);
  }
}

function tableOf(
  state: BigQueryState,
  ref: Required<Ref>,
  location: string,
): { table: StoredTable | undefined; base: string; decorator?: string } {
  const { base, decorator } = decoratorOf(ref.tableId);
  checkTableId(base);
  const dataset = state.dataset(ref.projectId, ref.datasetId);
  if (!dataset) fail(`Not found: Dataset ${ref.projectId}:${ref.datasetId}`, 'notFound');
  if (dataset.location.toUpperCase() !== location.toUpperCase()) {
    fail(`Not found: Dataset ${ref.projectId}:${ref.datasetId} was not found in location ${location}`, 'notFound');
  }
  return { table: dataset.tables.get(base), base, ...(decorator !== undefined ? { decorator } : {}) };
}

const samePartitioning = (a: StoredTable, b: StoredTable) =>
  (a.timePartitioning?.type ?? null) === (b.timePartitioning?.type ?? null) &&
  (a.timePartitioning?.field ?? null) === (b.timePartitioning?.field ?? null);
const sameClustering = (a: StoredTable, b: StoredTable) => (a.clustering?.fields ?? []).join() === (b.clustering?.fields ?? []).join();

type IncomingPartition = { partition: string; rows: StoredPartition };

/** The source tables' rows by partition (only the decorated one of a decorated source), the first table standing for them all. */
function readSources(
  state: BigQueryState,
  sources: Required<Ref>[],
  location: string,
): { source: StoredTable; incoming: IncomingPartition[] } {
  const incoming: IncomingPartition[] = [];
  let first: StoredTable | undefined;
  for (const ref of sources) {
    const { table, decorator } = tableOf(state, ref, location);
    if (!table) fail(`Not found: Table ${ref.projectId}:${ref.datasetId}.${ref.tableId}`, 'notFound');
    if (decorator !== undefined) checkDecorator(decorator, table);
    if (first && (!samePartitioning(first, table) || sameFields(table.schema, first.schema))) {
      fail(`Copy sources ${first.tableId} and ${table.tableId} differ in schema or partitioning`);
    }
    first ??= table;
    for (const [key, stored] of table.partitions) {
      if (decorator === undefined || key === decorator) incoming.push({ partition: key, rows: stored });
    }
  }
  return { source: first!, incoming };
}

/** A destination that does not exist yet: the source's schema, partitioning and clustering, empty. */
function newTableLike(source: StoredTable, ref: Required<Ref>, tableId: string, nowMs: number): StoredTable {
  return {
    projectId: ref.projectId,
    datasetId: ref.datasetId,
    tableId,
    schema: source.schema,
    ...(source.timePartitioning ? { timePartitioning: source.timePartitioning } : {}),
    ...(source.clustering ? { clustering: source.clustering } : {}),
    extra: {},
    creationTimeMs: nowMs,
    lastModifiedTimeMs: nowMs,
    partitions: new Map(),
  };
}

/** A decorated destination takes only a partition of a table partitioned and clustered alike, and only rows of that partition. */
function checkDecoratedDestination(decorator: string, source: StoredTable, table: StoredTable, incoming: IncomingPartition[]): void {
  checkDecorator(decorator, table);
  if (!samePartitioning(source, table))
    fail(
      `Partition specification of ${source.tableId} does not match ${table.tableId}: a partition is copied between tables partitioned alike`,
    );
  if (!sameClustering(source, table)) fail(`Clustering specification of ${source.tableId} does not match ${table.tableId}`);
  for (const part of incoming) {
    // A row's partition is its partitioning value's day; every row must belong to the decorated partition.
    if (part.rows.rows.length > 0 && part.partition !== decorator) {
      fail(`Some rows belong to different partitions rather than destination partition ${decorator}`);
    }
  }
}

/** Puts every incoming row into `next`, the destination's partitions to be; returns the rows copied and the partitions modified. */
function placeRows(
  table: StoredTable,
  incoming: IncomingPartition[],
  decorator: string | undefined,
  next: Map<string, StoredPartition>,
  modified: Set<string>,
  nowMs: number,
): number {
  let copied = 0;
  const touched = new Set<string>();
  const todayDay = new Date(nowMs).toISOString().slice(0, 10).replace(/-/g, '');
  for (const part of incoming) {
    // Each row goes to its partition in the destination, as a load would put it (a decorated destination holds them all: checked above).
    for (const values of part.rows.rows) {
      const key =
        table.timePartitioning && table.timePartitioning.field === undefined
          ? (decorator ?? (part.partition === 'null' ? todayDay : part.partition))
          : partitionOf(table, values, decorator, todayDay);
      // The first row a job puts in a partition starts a fresh copy of it: the old one stays untouched until the one update.
      if (!touched.has(key)) {
        const stored = next.get(key);
        next.set(key, { rows: [...(stored?.rows ?? [])], bytes: stored?.bytes ?? 0 });
        touched.add(key);
      }
      const partition = next.get(key)!;
      partition.rows.push(values);
      partition.bytes += Buffer.byteLength(JSON.stringify(values));
      modified.add(key);
      copied += 1;
    }
  }
  return copied;
}

/** Runs a copy job's checks and, when all pass, its one update; returns the rows copied. */
export function runCopy(state: BigQueryState, job: StoredJob, nowMs: number, partitionQuota: PartitionQuota): number {
  const config = (job.configuration.copy ?? {}) as CopyConfig;
  const sources = (config.sourceTables ?? [config.sourceTable]) as Required<Ref>[];
  const destinationRef = config.destinationTable as Required<Ref>;
  const { source, incoming } = readSources(state, sources, job.location);
  const destination = tableOf(state, destinationRef, job.location);
  const { decorator } = destination;
  const createDisposition = config.createDisposition ?? 'CREATE_IF_NEEDED';
  if (!destination.table && createDisposition === 'CREATE_NEVER') {
    fail(`Not found: Table ${destinationRef.projectId}:${destinationRef.datasetId}.${destination.base}`, 'notFound');
  }
  const table = destination.table ?? newTableLike(source, destinationRef, destination.base, nowMs);
  const writeDisposition = config.writeDisposition ?? 'WRITE_EMPTY';
  const replacesWholeTable = writeDisposition === 'WRITE_TRUNCATE' && decorator === undefined;
  if (decorator !== undefined) checkDecoratedDestination(decorator, source, table, incoming);
  if (destination.table && !replacesWholeTable) {
    const mismatch = sameFields(source.schema, table.schema);
    if (mismatch)
      fail(
        `Provided Schema does not match Table ${destinationRef.projectId}:${destinationRef.datasetId}.${destination.base}. ${mismatch}.`,
      );
  }
  const targetRows = decorator === undefined ? rowCount(table) : (table.partitions.get(decorator)?.rows.length ?? 0);
  if (writeDisposition === 'WRITE_EMPTY' && targetRows > 0) {
    fail(`Already Exists: Table ${destinationRef.projectId}:${destinationRef.datasetId}.${destinationRef.tableId}`, 'duplicate');
  }
  const truncates = writeDisposition === 'WRITE_TRUNCATE';
  const next = new Map<string, StoredPartition>(replacesWholeTable ? [] : table.partitions);
  if (truncates && decorator !== undefined) next.delete(decorator);
  const modified = new Set<string>(truncates && decorator !== undefined ? [decorator] : []);
  const copied = placeRows(table, incoming, decorator, next, modified, nowMs);
  if (truncates && decorator !== undefined && !next.has(decorator) && table.partitions.has(decorator))
    next.set(decorator, { rows: [], bytes: 0 });
  partitionQuota(table, replacesWholeTable ? Math.max(modified.size, table.partitions.size) : modified.size);
  // Every check has passed: the one update.
  table.partitions = new Map(
    [...table.partitions.keys(), ...next.keys()].filter((key) => next.has(key)).map((key) => [key, next.get(key)!]),
  );
  if (replacesWholeTable) {
    table.schema = source.schema;
  }
  table.lastModifiedTimeMs = nowMs;
  if (!destination.table) state.dataset(destinationRef.projectId, destinationRef.datasetId)!.tables.set(destination.base, table);
  return copied;
}
