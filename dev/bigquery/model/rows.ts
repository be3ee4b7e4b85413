/**
 * Reads newline-delimited JSON rows against a table schema, as a load job does: every line is one
 * JSON object; a name not in the schema, a value of the wrong type, or a REQUIRED field missing or
 * null makes the row bad (https://cloud.google.com/bigquery/docs/loading-data-cloud-storage-json).
 * With maxBadRecords at its default 0 one bad row fails the job. A row longer than the load-job
 * limit for JSON, "Maximum row size: 100 MB" (https://cloud.google.com/bigquery/quotas#load_jobs), is
 * refused; MB is read as 10^6 bytes, the stricter reading. Values are stored as JSON sent them,
 * except that INTEGER text becomes the canonical decimal string BigQuery answers with.
 */
import type { ErrorProto } from './errors';
import type { FieldSchema } from './naming';

export const MAX_JSON_ROW_BYTES = 100_000_000;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?( ?(Z|UTC|[+-]\d{2}(:?\d{2})?))?$/;
const NUMERIC = /^[+-]?(\d{1,29})(\.\d{1,9})?$/;
const FLOAT_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^[+-]?(NaN|Infinity|inf)$/;

export type Row = Record<string, unknown>;

export interface ParsedRows {
  rows: Row[];
  /** Each good row's size: its line's bytes (what numBytes adds up). */
  rowBytes: number[];
  errors: ErrorProto[];
}

export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function badValue(field: FieldSchema, value: unknown): { error: string } {
  return {
    error: `Could not convert value '${JSON.stringify(value)}' to ${field.type === 'INTEGER' ? 'integer' : field.type.toLowerCase()}. Field: ${field.name}; Value: ${JSON.stringify(value)}`,
  };
}

/** Returns the value to store, or an error text. (No closure per value: a load reads millions.) */
function readValue(field: FieldSchema, value: unknown, ignoreUnknown: boolean): { value: unknown } | { error: string } {
  switch (field.type) {
    case 'STRING':
    case 'JSON':
    case 'GEOGRAPHY':
    case 'BYTES':
      return typeof value === 'string' ? { value } : badValue(field, value);
    case 'INTEGER': {
      // A safe integer's decimal text is already canonical (-0 too: "0").
      if (typeof value === 'number') return Number.isSafeInteger(value) ? { value: String(value) } : badValue(field, value);
      const text = typeof value === 'string' ? value.trim() : '';
      if (!/^[+-]?\d+$/.test(text)) return badValue(field, value);
      const big = BigInt(text);
      return big < INT64_MIN || big > INT64_MAX ? badValue(field, value) : { value: big.toString() };
    }
    case 'FLOAT':
      return typeof value === 'number' || (typeof value === 'string' && FLOAT_TEXT.test(value.trim())) ? { value } : badValue(field, value);
    case 'NUMERIC': {
      const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
      return NUMERIC.test(text) ? { value } : badValue(field, value);
    }
    case 'BIGNUMERIC':
      return typeof value === 'number' || (typeof value === 'string' && /^[+-]?\d+(\.\d+)?$/.test(value.trim()))
        ? { value }
        : badValue(field, value);
    case 'BOOLEAN':
      return typeof value === 'boolean' || value === 'true' || value === 'false' ? { value } : badValue(field, value);
    case 'DATE':
      return typeof value === 'string' && isCalendarDate(value) ? { value } : badValue(field, value);
    case 'TIME':
      return typeof value === 'string' && TIME.test(value) ? { value } : badValue(field, value);
    case 'DATETIME': {
      const match = typeof value === 'string' ? DATETIME.exec(value) : null;
      return match && isCalendarDate(match[1]!) ? { value } : badValue(field, value);
    }
    case 'TIMESTAMP': {
      if (typeof value === 'number' && Number.isFinite(value)) return { value };
      const match = typeof value === 'string' ? TIMESTAMP.exec(value) : null;
      return match && isCalendarDate(match[1]!) ? { value } : badValue(field, value);
    }
    case 'RECORD': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return badValue(field, value);
      const problem = readRecord(field.fields ?? [], value as Row, ignoreUnknown);
      return 'error' in problem ? problem : { value: problem.row };
    }
    default:
      return { error: `The BigQuery stand-in does not load type ${field.type} (field ${field.name})` };
  }
}

function hasField(fields: FieldSchema[], name: string): boolean {
  for (const field of fields) if (field.name === name) return true;
  return false;
}

function readRecord(fields: FieldSchema[], object: Row, ignoreUnknown: boolean): { row: Row } | { error: string } {
  // ignoreUnknownValues: "Named values that don't match any column names in the table schema" are dropped (JobConfigurationLoad).
  if (!ignoreUnknown) {
    for (const name in object) {
      if (Object.hasOwn(object, name) && !hasField(fields, name)) return { error: `No such field: ${name}.` };
    }
  }
  const row: Row = {};
  for (const field of fields) {
    const value = object[field.name];
    if (value === undefined || value === null) {
      if (field.mode === 'REQUIRED') return { error: `Missing required field: ${field.name}.` };
      if (field.mode === 'REPEATED') row[field.name] = [];
      else row[field.name] = null;
      continue;
    }
    if (field.mode === 'REPEATED') {
      if (!Array.isArray(value)) return { error: `Non-array value specified for repeated field: ${field.name}.` };
      const items: unknown[] = [];
      for (const item of value) {
        const read = readValue(field, item, ignoreUnknown);
        if ('error' in read) return read;
        items.push(read.value);
      }
      row[field.name] = items;
      continue;
    }
    if (Array.isArray(value)) return { error: `Array specified for non-repeated field: ${field.name}.` };
    const read = readValue(field, value, ignoreUnknown);
    if ('error' in read) return read;
    row[field.name] = read.value;
  }
  return { row };
}

const whereText = (start: number) => `JSON parsing error in row starting at position ${start}`;

/** Parses the data part. Every bad row is reported (as BigQuery lists them in status.errors); any makes the job fail. */
export function parseNdjson(
  data: string,
  fields: FieldSchema[],
  options: { ignoreUnknownValues?: boolean; maxRowBytes?: number } = {},
): ParsedRows {
  const maxRowBytes = options.maxRowBytes ?? MAX_JSON_ROW_BYTES;
  const rows: Row[] = [];
  const rowBytes: number[] = [];
  const errors: ErrorProto[] = [];
  let position = 0;
  for (const line of data.split('\n')) {
    const start = position;
    const lineBytes = Buffer.byteLength(line);
    position += lineBytes + 1;
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.trim() === '') continue;
    if (lineBytes > maxRowBytes + (text.length < line.length ? 1 : 0)) {
      errors.push({
        reason: 'invalid',
        message: `Error while reading data, error message: ${whereText(start)}: Row size is larger than: ${maxRowBytes}.`,
      });
      continue;
    }
    let object: unknown;
    try {
      object = JSON.parse(text);
    } catch {
      errors.push({
        reason: 'invalid',
        message: `Error while reading data, error message: ${whereText(start)}: Parser terminated before end of string`,
      });
      continue;
    }
    if (typeof object !== 'object' || object === null || Array.isArray(object)) {
      errors.push({
        reason: 'invalid',
        message: `Error while reading data, error message: ${whereText(start)}: Only JSON objects can be loaded as rows.`,
      });
      continue;
    }
    const read = readRecord(fields, object as Row, options.ignoreUnknownValues === true);
    if ('error' in read)
      errors.push({ reason: 'invalid', message: `Error while reading data, error message: ${whereText(start)}: ${read.error}` });
    else {
      rows.push(read.row);
      rowBytes.push(lineBytes);
    }
  }
  return { rows, rowBytes, errors };
}

/** The yyyymmdd day a partitioning value falls on (DATE, DATETIME or TIMESTAMP, all read in UTC). */
export function dayOfValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.length === 10 && DATE.test(value)) return value.slice(0, 4) + value.slice(5, 7) + value.slice(8);
  if (typeof value === 'number') return new Date(value * 1000).toISOString().slice(0, 10).replace(/-/g, '');
  const text = String(value);
  const zone = /( ?(Z|UTC|[+-]\d{2}(:?\d{2})?))$/.exec(text);
  if (zone && /[+-]\d{2}/.test(zone[2]!)) {
    const ms = Date.parse(text.replace(' ', 'T').replace(/ ?UTC$/, 'Z'));
    if (Number.isFinite(ms)) return new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
  }
  return text.slice(0, 10).replace(/-/g, '');
}
