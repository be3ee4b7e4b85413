/**
 * One day's report items as the lines of a newline-delimited JSON load (one JSON object per line,
 * BigQuery's NEWLINE_DELIMITED_JSON), in the columns of the table plan. Values are written in the
 * forms BigQuery's JSON loads read ("Load JSON data", cloud.google.com/bigquery/docs/loading-data-cloud-storage-json):
 * DATE as "YYYY-MM-DD", TIMESTAMP as "YYYY-MM-DDTHH:MM:SSZ" (dashes in the date, colons in the time, UTC),
 * INT64 as an integer, NUMERIC as a decimal string of at most 9 fractional digits (its scale), FLOAT64
 * as a number, text as it came; a missing figure is null. Every line is pure ASCII (other characters
 * as JSON \u escapes, which BigQuery decodes), so a line's length is its size in bytes and the upload
 * cannot be changed by how Apps Script encodes a text payload. A row that cannot be written as its
 * column's type is refused with its column before anything is sent, rather than failing the load job.
 */
import { ValidationError } from '../errors';
import { unwrap, toNumberIfNumeric } from '../api/responses/values';
import { PUBLISHER_BREAKDOWN } from '../api/requests/publisher-list';
import { dashedDay } from '../util/dates';
import type { PlannedColumn, TablePlan } from './table-schema';

/** What one fetch of the day's rows was for. */
export interface RowContext {
  /** The day loaded, yyyyMMdd (UTC for the hourly report, as its hours). */
  day: string;
  /** The publisher the rows belong to, unless each item names its own (`publisher`, a report of several). */
  publisherId: string;
  /** Hourly report: the start of the hour fetched (epoch ms, UTC), unless the item carries its hour. */
  hourStartMs?: number;
}

/** NUMERIC holds 9 digits after the point (GoogleSQL's NUMERIC: precision 38, scale 9). */
export const NUMERIC_SCALE = 9;
const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 24 * MS_PER_HOUR;

/** Fields of hourly items that may carry their hour (yyyyMMddHH), as report-table.ts reads them. */
const HOUR_FIELDS = ['hour', 'dateHour'];

function dayStartMs(day: string): number {
  return Date.UTC(+day.slice(0, 4), +day.slice(4, 6) - 1, +day.slice(6, 8));
}

function timestampText(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}Z`;
}

/** A decimal string with at most NUMERIC_SCALE fractional digits, without trailing zeros. */
export function numericText(value: number): string {
  const fixed = value.toFixed(NUMERIC_SCALE);
  const trimmed = fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}

/** JSON text with every character past ASCII written as a \u escape. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function textOf(value: unknown): string | null {
  const v = unwrap(value);
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

function entityPart(value: unknown, part: 'id' | 'name'): string | null {
  const v = unwrap(value);
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return textOf((v as Record<string, unknown>)[part]);
  // A plain value stands for both (as lookups read entries that are plain strings).
  return textOf(v);
}

/**
 * The row of one item, as an object keyed by column. Throws a ValidationError naming the row (1-based
 * within the day), the column and the rule when a value cannot be written as the column's type.
 */
export function rowOf(plan: TablePlan, item: Record<string, unknown>, context: RowContext, rowNumber: number): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const refuse = (column: PlannedColumn, rule: string): never => {
    throw ValidationError.single('rows', `row ${rowNumber} of ${dashedDay(context.day)}, column '${column.field.name}': ${rule}`);
  };
  for (const column of plan.columns) {
    const source = column.source;
    let value: unknown = null;
    switch (source.kind) {
      case 'time':
        value = plan.timeField === 'day' ? dayValue(item, context, column, refuse) : hourValue(item, context, column, refuse);
        break;
      case 'publisherId':
        value = entityPart(item[PUBLISHER_BREAKDOWN], 'id') ?? (context.publisherId || null);
        if (value === null) refuse(column, 'no publisher: the row names none and the load was given none');
        break;
      case 'publisherName':
        value = entityPart(item[PUBLISHER_BREAKDOWN], 'name');
        break;
      case 'entity':
        value = entityPart(item[source.breakdown], source.part);
        break;
      case 'text':
        value = textOf(item[source.breakdown]);
        break;
      case 'metric':
        value = metricValue(item[source.metric], source.type, column, refuse);
        break;
    }
    row[column.field.name] = value;
  }
  return row;
}

type Refuse = (column: PlannedColumn, rule: string) => never;

function dayValue(item: Record<string, unknown>, context: RowContext, column: PlannedColumn, refuse: Refuse): string {
  const given = textOf(item.day);
  if (given !== null && given !== context.day) refuse(column, `the row is for ${given}, not the day loaded`);
  return dashedDay(context.day);
}

function hourValue(item: Record<string, unknown>, context: RowContext, column: PlannedColumn, refuse: Refuse): string {
  let startMs = context.hourStartMs;
  for (const field of HOUR_FIELDS) {
    const given = textOf(item[field]);
    if (given === null) continue;
    if (!/^\d{10}$/.test(given) || +given.slice(8) > 23) refuse(column, `'${given}' is not an hour written yyyyMMddHH`);
    startMs = dayStartMs(given.slice(0, 8)) + +given.slice(8) * MS_PER_HOUR;
    break;
  }
  if (startMs === undefined) return refuse(column, 'the row has no hour, and the load was given none');
  const dayMs = dayStartMs(context.day);
  if (startMs < dayMs || startMs >= dayMs + MS_PER_DAY) refuse(column, `${timestampText(startMs)} is not on the day loaded`);
  return timestampText(startMs);
}

function metricValue(raw: unknown, type: 'INT64' | 'NUMERIC' | 'FLOAT64', column: PlannedColumn, refuse: Refuse): number | string | null {
  const value = toNumberIfNumeric(raw);
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number') return refuse(column, `'${String(value).slice(0, 40)}' is not a number`);
  if (!Number.isFinite(value)) return null;
  if (type === 'INT64') {
    if (!Number.isSafeInteger(value)) refuse(column, `${value} is not a whole number, as a count must be`);
    return value;
  }
  return type === 'NUMERIC' ? numericText(value) : value;
}

/** The day's items as NDJSON lines (ASCII, no trailing newline), in item order. */
export function dayLines(
  plan: TablePlan,
  batches: ReadonlyArray<{ items: readonly Record<string, unknown>[]; context: RowContext }>,
): string[] {
  const lines: string[] = [];
  for (const batch of batches) {
    for (const item of batch.items) lines.push(asciiJson(rowOf(plan, item, batch.context, lines.length + 1)));
  }
  return lines;
}
