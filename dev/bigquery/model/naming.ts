/**
 * The names and schemas BigQuery accepts, each rule with its source:
 * - Table IDs: Unicode letters, marks, numbers, connector and dash punctuation and spaces (categories
 *   L, M, N, Pc, Pd, Zs), at most 1,024 characters (TableReference.tableId in the discovery document;
 *   https://cloud.google.com/bigquery/docs/tables#table_naming says 1,024 UTF-8 bytes: both are held).
 * - Dataset IDs: letters, numbers and underscores, at most 1,024 characters
 *   (https://cloud.google.com/bigquery/docs/datasets#dataset-naming).
 * - Job IDs: letters, numbers, underscores and dashes, at most 1,024 characters (JobReference.jobId).
 * - Column names: letters, numbers and underscores, starting with a letter or underscore, at most 300
 *   characters (TableFieldSchema.name), unique ignoring case (https://cloud.google.com/bigquery/docs/schemas#column_names).
 * - Field types and modes as TableFieldSchema.type and .mode list them; time partitioning by a
 *   top-level DATE, TIMESTAMP or DATETIME field that is not REPEATED (TimePartitioning.field); at most
 *   4 top-level, non-repeated clustering columns (https://cloud.google.com/bigquery/docs/clustered-tables#limitations).
 */
import { BigQueryError } from './errors';

export const MAX_ID_CHARS = 1024;
export const MAX_COLUMN_NAME_CHARS = 300;
export const MAX_CLUSTERING_FIELDS = 4;

const TABLE_ID = /^[\p{L}\p{M}\p{N}\p{Pc}\p{Pd}\p{Zs}]+$/u;
const DATASET_ID = /^[A-Za-z0-9_]+$/;
const JOB_ID = /^[A-Za-z0-9_-]+$/;
const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Canonical type names, with the aliases the reference lists for them. */
export const TYPE_ALIASES: Record<string, string> = {
  STRING: 'STRING',
  BYTES: 'BYTES',
  INTEGER: 'INTEGER',
  INT64: 'INTEGER',
  FLOAT: 'FLOAT',
  FLOAT64: 'FLOAT',
  BOOLEAN: 'BOOLEAN',
  BOOL: 'BOOLEAN',
  TIMESTAMP: 'TIMESTAMP',
  DATE: 'DATE',
  TIME: 'TIME',
  DATETIME: 'DATETIME',
  GEOGRAPHY: 'GEOGRAPHY',
  NUMERIC: 'NUMERIC',
  BIGNUMERIC: 'BIGNUMERIC',
  JSON: 'JSON',
  RECORD: 'RECORD',
  STRUCT: 'RECORD',
  RANGE: 'RANGE',
};
const MODES = ['NULLABLE', 'REQUIRED', 'REPEATED'];
const PARTITION_TYPES = ['DAY', 'HOUR', 'MONTH', 'YEAR'];

export interface FieldSchema {
  name: string;
  type: string;
  mode?: string;
  fields?: FieldSchema[];
  [other: string]: unknown;
}

export interface TimePartitioning {
  type: string;
  field?: string;
  expirationMs?: string;
  requirePartitionFilter?: boolean;
}

export function checkTableId(tableId: string): void {
  if (!TABLE_ID.test(tableId) || tableId.length > MAX_ID_CHARS || Buffer.byteLength(tableId) > MAX_ID_CHARS) {
    throw new BigQueryError(
      'invalid',
      `Invalid table ID "${tableId}". Table IDs must contain only letters, marks, numbers, connectors, dashes or spaces, and be at most 1,024 characters long. Also, Table decorators cannot be used.`,
    );
  }
}

export function checkDatasetId(datasetId: string): void {
  if (!DATASET_ID.test(datasetId) || datasetId.length > MAX_ID_CHARS) {
    throw new BigQueryError(
      'invalid',
      `Invalid dataset ID "${datasetId}". Dataset IDs must be alphanumeric (plus underscores) and must be at most 1024 characters long.`,
    );
  }
}

export function checkJobId(jobId: string): void {
  if (!JOB_ID.test(jobId) || jobId.length > MAX_ID_CHARS) {
    throw new BigQueryError(
      'invalid',
      `Invalid job ID "${jobId}". Job IDs must be alphanumeric (plus underscores and dashes) and must be at most 1024 characters long.`,
    );
  }
}

/** Checks a schema's fields (recursively for RECORD) and returns them with canonical type names and modes. */
export function normaliseFields(fields: FieldSchema[] | undefined, where = 'schema'): FieldSchema[] {
  if (!fields || fields.length === 0) throw new BigQueryError('invalid', `Schema has no fields (${where}).`);
  const seen = new Set<string>();
  return fields.map((field) => {
    if (typeof field.name !== 'string' || !COLUMN_NAME.test(field.name) || field.name.length > MAX_COLUMN_NAME_CHARS) {
      throw new BigQueryError(
        'invalid',
        `Invalid field name "${field.name}". Fields must contain only letters, numbers, and underscores, start with a letter or underscore, and be at most 300 characters long.`,
      );
    }
    const lower = field.name.toLowerCase();
    if (seen.has(lower)) throw new BigQueryError('invalid', `Field ${field.name} already exists in schema`);
    seen.add(lower);
    const type = TYPE_ALIASES[String(field.type ?? '').toUpperCase()];
    if (!type) throw new BigQueryError('invalid', `Invalid value for type: ${field.type} is not a valid value`);
    const mode = field.mode === undefined ? 'NULLABLE' : String(field.mode).toUpperCase();
    if (!MODES.includes(mode)) throw new BigQueryError('invalid', `Invalid value for mode: ${field.mode} is not a valid value`);
    const normalised: FieldSchema = { ...field, name: field.name, type, mode };
    if (type === 'RECORD') normalised.fields = normaliseFields(field.fields, `field ${field.name}`);
    else if (field.fields?.length) throw new BigQueryError('invalid', `Field ${field.name} is type ${type} but has subfields`);
    return normalised;
  });
}

export function checkTimePartitioning(partitioning: TimePartitioning, fields: FieldSchema[]): TimePartitioning {
  const type = partitioning.type;
  if (!PARTITION_TYPES.includes(type)) {
    throw new BigQueryError('invalid', `Invalid value for timePartitioning.type: ${type} (DAY, HOUR, MONTH or YEAR)`);
  }
  if (partitioning.field !== undefined) {
    const field = fields.find((f) => f.name === partitioning.field);
    if (!field)
      throw new BigQueryError('invalid', `The field specified for partitioning cannot be found in the schema: ${partitioning.field}`);
    if (!['DATE', 'TIMESTAMP', 'DATETIME'].includes(field.type) || field.mode === 'REPEATED') {
      throw new BigQueryError(
        'invalid',
        `The field specified for time partitioning can only be of type TIMESTAMP, DATE or DATETIME. The type found is: ${field.mode === 'REPEATED' ? 'REPEATED ' : ''}${field.type}.`,
      );
    }
  }
  return { ...partitioning };
}

const UNCLUSTERABLE = ['RECORD', 'JSON', 'FLOAT', 'RANGE'];

export function checkClustering(clustering: { fields?: string[] }, fields: FieldSchema[]): { fields: string[] } {
  const names = clustering.fields ?? [];
  if (names.length === 0) throw new BigQueryError('invalid', 'Clustering fields cannot be empty.');
  if (names.length > MAX_CLUSTERING_FIELDS) {
    throw new BigQueryError('invalid', `Too many clustering fields: ${names.length}, only ${MAX_CLUSTERING_FIELDS} allowed.`);
  }
  for (const name of names) {
    const field = fields.find((f) => f.name === name);
    if (!field) throw new BigQueryError('invalid', `The field specified for clustering cannot be found in the schema: ${name}`);
    if (UNCLUSTERABLE.includes(field.type) || field.mode === 'REPEATED') {
      throw new BigQueryError(
        'invalid',
        `Field ${name} is of type ${field.mode === 'REPEATED' ? 'REPEATED ' : ''}${field.type} which is not supported for clustering.`,
      );
    }
  }
  return { fields: [...names] };
}
