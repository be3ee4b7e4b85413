/**
 * The BigQuery table a saved report loads into, typed from the report before any row arrives: its
 * time column first (DATE `day` for the general report, TIMESTAMP `hour` for the hourly external-ID
 * report), the publisher, each breakdown (an entity as `<name>_id` and `<name>_name`, plain text as
 * itself), then the metrics in the order chosen: counts INT64, money (amounts and RPMs) NUMERIC,
 * percentages FLOAT64, by the spec's metric kinds (spec.ts). The table is partitioned by DAY on the
 * time column, so one day's load replaces one partition (`table$YYYYMMDD`), and clustered by the
 * publisher and the first breakdown, the columns a query filters on first.
 *
 * Decisions: the `month` breakdown is refused (a day's partition would hold a month's figures, and
 * adding partitions would count a month many times); so is the realtime report (48 hours of
 * provisional figures, not history). No "loaded at" column: refreshing a day twice must give the same
 * table. An existing table must fit: every column present with the same type, none of its other
 * columns REQUIRED, and the same day partitioning; the refusal names the column.
 */
import { ValidationError } from '../errors';
import { availableMetrics, metricNote } from '../api/requests/report-metrics';
import { PUBLISHER_BREAKDOWN } from '../api/requests/publisher-list';
import { COUNT_METRICS, ENTITY_BREAKDOWNS, MONEY_METRICS, REPORT_SPECS, type ReportKind } from '../spec';
import { tableAddress, type BigQueryDestination } from './destination';

/** The GoogleSQL types the add-on writes (jobs and tables take these names; tables.get may answer the legacy ones). */
export type BigQueryType = 'DATE' | 'TIMESTAMP' | 'STRING' | 'INT64' | 'NUMERIC' | 'FLOAT64';

/** A column as TableFieldSchema writes it. */
export interface TableField {
  name: string;
  type: string;
  mode?: 'NULLABLE' | 'REQUIRED' | 'REPEATED';
  description?: string;
}

/** Where a column's values come from. */
export type ColumnSource =
  | { kind: 'time' }
  | { kind: 'publisherId' }
  | { kind: 'publisherName' }
  | { kind: 'entity'; breakdown: string; part: 'id' | 'name' }
  | { kind: 'text'; breakdown: string }
  | { kind: 'metric'; metric: string; type: 'INT64' | 'NUMERIC' | 'FLOAT64' };

export interface PlannedColumn {
  field: TableField & { type: BigQueryType; mode: 'NULLABLE' | 'REQUIRED' };
  source: ColumnSource;
}

/** A report as the table needs it: what the saved report fetches. */
export interface ReportShape {
  kind: ReportKind;
  /** Breakdowns in column order; `publisher` for a report of several publishers shown apart. */
  breakdowns: readonly string[];
  /** The metric columns; 'all': every metric the report sends with these breakdowns. */
  metrics: readonly string[] | 'all';
}

export interface TablePlan {
  columns: PlannedColumn[];
  /** `day` (DATE) or `hour` (TIMESTAMP): the partitioning column. */
  timeField: 'day' | 'hour';
  timePartitioning: { type: 'DAY'; field: 'day' | 'hour' };
  clustering: { fields: string[] };
}

export const PUBLISHER_ID_COLUMN = 'publisher_id';
export const PUBLISHER_NAME_COLUMN = 'publisher_name';

/** The type of a metric's column: counts add up as integers, money keeps its decimals exactly, rates are floats. */
export function metricType(metric: string): 'INT64' | 'NUMERIC' | 'FLOAT64' {
  if (COUNT_METRICS.has(metric)) return 'INT64';
  if (MONEY_METRICS.has(metric)) return 'NUMERIC';
  return 'FLOAT64';
}

/** Why the realtime report does not go to BigQuery. */
export const REALTIME_REFUSAL =
  'the realtime report covers only the last 48 hours with provisional figures: load the external-ID report into BigQuery instead';

/** The table for a report, or a ValidationError naming the argument that cannot go to BigQuery. */
export function planTable(shape: ReportShape): TablePlan {
  const spec = REPORT_SPECS[shape.kind];
  if (shape.kind === 'realtime') {
    throw ValidationError.single('report', REALTIME_REFUSAL);
  }
  if (shape.breakdowns.includes('month')) {
    throw ValidationError.single(
      'breakdowns',
      "'month' cannot go to BigQuery: the table keeps one partition per day, so use the 'day' breakdown (a query sums days into months)",
    );
  }
  const timeField = spec.hourly ? 'hour' : 'day';
  const columns: PlannedColumn[] = [];
  const add = (name: string, type: BigQueryType, mode: 'NULLABLE' | 'REQUIRED', source: ColumnSource, description?: string) =>
    columns.push({ field: { name, type, mode, ...(description ? { description } : {}) }, source });

  add(
    timeField,
    spec.hourly ? 'TIMESTAMP' : 'DATE',
    'REQUIRED',
    { kind: 'time' },
    spec.hourly ? 'The hour (UTC) the figures are for' : 'The day the figures are for',
  );
  add(PUBLISHER_ID_COLUMN, 'STRING', 'REQUIRED', { kind: 'publisherId' }, 'The publisher the figures are for');
  if (shape.breakdowns.includes(PUBLISHER_BREAKDOWN)) add(PUBLISHER_NAME_COLUMN, 'STRING', 'NULLABLE', { kind: 'publisherName' });
  const others = shape.breakdowns.filter((b) => b !== 'day' && b !== PUBLISHER_BREAKDOWN);
  for (const breakdown of others) {
    if (ENTITY_BREAKDOWNS.has(breakdown)) {
      add(`${breakdown}_id`, 'STRING', 'NULLABLE', { kind: 'entity', breakdown, part: 'id' });
      add(`${breakdown}_name`, 'STRING', 'NULLABLE', { kind: 'entity', breakdown, part: 'name' });
    } else add(breakdown, 'STRING', 'NULLABLE', { kind: 'text', breakdown });
  }
  const metrics = shape.metrics === 'all' ? availableMetrics(shape.kind, shape.breakdowns) : shape.metrics;
  for (const metric of metrics) {
    const type = metricType(metric);
    add(metric, type, 'NULLABLE', { kind: 'metric', metric, type }, metricNote(metric) || undefined);
  }
  const first = others[0];
  const firstColumn = first === undefined ? [] : [ENTITY_BREAKDOWNS.has(first) ? `${first}_id` : first];
  return {
    columns,
    timeField,
    timePartitioning: { type: 'DAY', field: timeField },
    clustering: { fields: [PUBLISHER_ID_COLUMN, ...firstColumn] },
  };
}

/** Legacy type names tables.get may answer with, as the GoogleSQL names the plan uses. */
const TYPE_ALIASES: Readonly<Record<string, string>> = { INTEGER: 'INT64', FLOAT: 'FLOAT64', BOOLEAN: 'BOOL', RECORD: 'STRUCT' };

export function standardType(type: string): string {
  const upper = type.toUpperCase();
  return TYPE_ALIASES[upper] ?? upper;
}

/** What tables.get tells of an existing table that a load depends on. */
export interface ExistingTable {
  fields: TableField[];
  timePartitioning?: { type?: string; field?: string };
}

/**
 * Why the report's rows cannot go into this existing table, naming the column, or undefined when they
 * fit. Checked before any load, so a mismatch costs no load job (which would fail and count against
 * the table's daily load jobs).
 */
export function tableFitProblem(plan: TablePlan, table: ExistingTable, destination: BigQueryDestination): string | undefined {
  const where = `the table ${tableAddress(destination)}`;
  const byName = new Map(table.fields.map((f) => [f.name, f]));
  for (const { field } of plan.columns) {
    const existing = byName.get(field.name);
    if (!existing) {
      const other = table.fields.find((f) => f.name.toLowerCase() === field.name.toLowerCase());
      return other
        ? `column '${field.name}': ${where} spells it '${other.name}'; choose a new table name for this report`
        : `column '${field.name}': ${where} has no such column, so it holds another report; choose a new table name for this report`;
    }
    if (standardType(existing.type) !== field.type) {
      return `column '${field.name}' is ${standardType(existing.type)} in ${where}, but this report writes ${field.type}; choose a new table name for this report`;
    }
    if (existing.mode === 'REPEATED') return `column '${field.name}' is REPEATED in ${where}; this report writes one value per row`;
    if (existing.mode === 'REQUIRED' && field.mode !== 'REQUIRED') {
      return `column '${field.name}' is REQUIRED in ${where}, but this report may leave it empty`;
    }
  }
  const planned = new Set(plan.columns.map((c) => c.field.name));
  const extra = table.fields.find((f) => !planned.has(f.name) && f.mode === 'REQUIRED');
  if (extra) return `column '${extra.name}' is REQUIRED in ${where}, but this report has no such column`;
  const partitioning = table.timePartitioning;
  if (partitioning?.field !== plan.timeField || (partitioning.type ?? 'DAY').toUpperCase() !== 'DAY') {
    return `${where} is not partitioned by day on '${plan.timeField}', which each day's load replaces; choose a new table name for this report`;
  }
  return undefined;
}
