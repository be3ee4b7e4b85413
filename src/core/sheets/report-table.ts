/**
 * Report items become a sheet: a header row and data rows. Breakdown columns come first in the
 * requested order, then the metrics. With chosen metrics (the default set included) the columns are
 * known before any row arrives: an entity breakdown is its `.id` and `.name`, then the chosen metrics
 * in the order asked, so a formula's width can be planned. With "all" the table shows whatever the
 * API sent: entity objects expanded to one column per field (`country.id`, `country.name`, then any
 * extra field seen), the metrics present in the spec's order, unknown metrics after.
 * `day` and `month` become Dates that show the same calendar day in the spreadsheet's time zone;
 * hours of the hourly reports become Dates that show the UTC hour. A fetched report by day or month
 * that the user did not sort comes out by date, earliest first. An optional totals row comes from
 * metricsSums. This runs on 100,000-row reports inside a 30-second budget, so it reads raw items
 * in two tight loops (discover columns, then fill rows) instead of parsing each row with a schema.
 * Text stays exactly as the API sent it: a custom function returns it as values, and sheet-output.ts
 * neutralises it for setValues (asTypedInput), the one place that turns API text into cell input.
 */
import { compactDayOf, isDate, isValidCalendarDay, isValidTimeZone, zonedTimeToEpochMs, type CalendarDay } from '../util/dates';
import { ValidationError } from '../errors';
import type { ReportResult } from '../api/paging/paging';
import type { Cell } from '../ports';
import { DATE_BREAKDOWNS, ENTITY_BREAKDOWNS, REPORT_SPECS, type ReportKind } from '../spec';
import { PUBLISHER_BREAKDOWN } from '../api/requests/publisher-list';
import { normaliseMetrics, toNumberIfNumeric, unwrap } from '../api/responses/values';
import { formatCount } from '../util/text';

export interface ReportTableOptions {
  kind: ReportKind;
  /** Effective breakdowns in column order (ReportQuery.breakdowns). */
  breakdowns: readonly string[];
  /** The metric columns (ReportQuery.metrics); "all" or not given: every metric and field sent. */
  metrics?: readonly string[] | 'all';
  /** IANA zone of the spreadsheet, for day and month dates. */
  timeZone: string;
  /** Adds a totals row built from these sums. */
  metricsSums?: Record<string, unknown>;
  /** The rows the whole report holds (Engage's totalItems), which metricsSums add up, when more than the items given. */
  totalItems?: number;
}

export interface ReportTable {
  header: string[];
  rows: Cell[][];
  /** The totals row, when metricsSums were given; kept apart from `rows` (tableToValues appends it). */
  totals?: Cell[];
}

/** Fields of hourly report items that carry the hour (not in the spec's item tables, but seen in hourly data). */
const HOUR_FIELDS = ['hour', 'dateHour'];
/** The header of an hour column: the hour is UTC, as the API's. */
export const HOUR_COLUMNS: readonly string[] = HOUR_FIELDS.map((h) => `${h} (UTC)`);
export const TOTALS_LABEL = 'Total';

type Column = { kind: 'day' | 'month' | 'hour' | 'text' | 'metric'; key: string } | { kind: 'entityField'; key: string; field: string };

/** Entity columns: the spec's entity breakdowns, and the publisher of a report of several publishers. */
const isEntity = (breakdown: string) => ENTITY_BREAKDOWNS.has(breakdown) || breakdown === PUBLISHER_BREAKDOWN;

/** The id and name of an entity: its columns when the metrics are chosen. */
const ENTITY_KEY_FIELDS = ['id', 'name'];

/**
 * How many columns the table of a report with chosen metrics has, at most: before anything is
 * fetched, so "Insert formula" can make the sheet wide enough. The hourly reports may carry an hour
 * column (seen in hourly data, not in the spec), counted here.
 */
export function reportColumnCount(kind: ReportKind, breakdowns: readonly string[], metrics: readonly string[]): number {
  const breakdownColumns = breakdowns.reduce((n, b) => n + (isEntity(b) ? ENTITY_KEY_FIELDS.length : 1), 0);
  return breakdownColumns + (REPORT_SPECS[kind].hourly ? 1 : 0) + metrics.length;
}

/** Builds the table. Rows are in item order. */
export function buildReportTable(items: readonly Record<string, unknown>[], options: ReportTableOptions): ReportTable {
  if (!isValidTimeZone(options.timeZone)) {
    throw ValidationError.single('timeZone', `'${options.timeZone}' is not an IANA time zone such as Europe/Berlin`);
  }
  const chosenMetrics = Array.isArray(options.metrics) ? (options.metrics as readonly string[]) : undefined;
  const seen = discoverKeys(items, options.breakdowns.filter(isEntity));
  const { columns, header } = tableColumns(options, chosenMetrics, seen, items.length);
  const table: ReportTable = { header, rows: fillRows(items, columns, chosenMetrics, options.timeZone) };
  if (options.metricsSums) table.totals = totalsRow(columns, options.metricsSums, options.totalItems, items.length);
  return table;
}

/** What the items hold: their keys in the order first seen, and each entity breakdown's fields. */
interface SeenKeys {
  seenKeys: Set<string>;
  keyOrder: string[];
  entityFields: Map<string, string[]>;
  /** Entity breakdowns sent as plain text in some item. */
  entityHasPlain: Set<string>;
}

/** Pass 1: which keys, entity fields and metrics occur at all. */
function discoverKeys(items: readonly Record<string, unknown>[], entityBreakdowns: readonly string[]): SeenKeys {
  const seenKeys = new Set<string>();
  const keyOrder: string[] = [];
  const entityFields = new Map<string, string[]>();
  const entityHasPlain = new Set<string>();
  for (const b of entityBreakdowns) entityFields.set(b, []);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    for (const k in item) {
      if (!seenKeys.has(k)) {
        seenKeys.add(k);
        keyOrder.push(k);
      }
    }
    for (let e = 0; e < entityBreakdowns.length; e++) {
      const name = entityBreakdowns[e]!;
      const v = unwrap(item[name]);
      if (v === undefined || v === null) continue;
      if (typeof v !== 'object') {
        entityHasPlain.add(name);
        continue;
      }
      const fields = entityFields.get(name)!;
      for (const f in v as object) if (!fields.includes(f)) fields.push(f);
    }
  }
  return { seenKeys, keyOrder, entityFields, entityHasPlain };
}

/** The columns and their titles: breakdowns, the hour, then the metrics (chosen, or those seen). */
function tableColumns(
  options: ReportTableOptions,
  chosenMetrics: readonly string[] | undefined,
  seen: SeenKeys,
  itemCount: number,
): { columns: Column[]; header: string[] } {
  const spec = REPORT_SPECS[options.kind];
  const breakdownSet = new Set(options.breakdowns);
  const columns: Column[] = [];
  const header: string[] = [];
  const add = (column: Column, title: string) => {
    columns.push(column);
    header.push(title);
  };
  for (const b of options.breakdowns) {
    if (DATE_BREAKDOWNS.has(b)) add({ kind: b as 'day' | 'month', key: b }, b);
    else if (isEntity(b) && chosenMetrics) {
      for (const f of ENTITY_KEY_FIELDS) add({ kind: 'entityField', key: b, field: f }, `${b}.${f}`);
    } else if (isEntity(b)) {
      const fields = seen.entityFields.get(b)!;
      // id and name first: they are what users filter and read; other fields in the order seen.
      const ordered = [
        ...fields.filter((f) => f === 'id'),
        ...fields.filter((f) => f === 'name'),
        ...fields.filter((f) => f !== 'id' && f !== 'name'),
      ];
      if (seen.entityHasPlain.has(b) || ordered.length === 0) add({ kind: 'text', key: b }, b);
      for (const f of ordered) add({ kind: 'entityField', key: b, field: f }, `${b}.${f}`);
    } else add({ kind: 'text', key: b }, b);
  }
  if (spec.hourly) {
    for (const h of HOUR_FIELDS)
      if (seen.seenKeys.has(h) && !breakdownSet.has(h)) add({ kind: 'hour', key: h }, HOUR_COLUMNS[HOUR_FIELDS.indexOf(h)]!);
  }
  if (chosenMetrics) {
    for (const m of chosenMetrics) add({ kind: 'metric', key: m }, m);
  } else {
    const metricSet = new Set<string>(spec.metrics);
    const sumsKeys = options.metricsSums ? Object.keys(options.metricsSums) : [];
    for (const m of spec.metrics) if (seen.seenKeys.has(m) || (itemCount === 0 && sumsKeys.includes(m))) add({ kind: 'metric', key: m }, m);
    for (const k of seen.keyOrder) {
      if (
        !metricSet.has(k) &&
        !breakdownSet.has(k) &&
        !(spec.hourly && HOUR_FIELDS.includes(k)) &&
        !DATE_BREAKDOWNS.has(k) &&
        !ENTITY_BREAKDOWNS.has(k)
      ) {
        add({ kind: 'metric', key: k }, k);
      }
    }
  }
  return { columns, header };
}

/**
 * A reader of day, month and hour values as Dates. Each distinct day is computed once and its Date
 * shared by every row of that day (a sheet only reads it; treat table Dates as read-only).
 */
function periodDates(timeZone: string): (kind: 'day' | 'month' | 'hour', raw: unknown) => Cell {
  const dateCaches = { day: new Map<string, Date | null>(), month: new Map<string, Date | null>(), hour: new Map<string, Date | null>() };
  return (kind, raw) => {
    const v = typeof raw === 'string' ? raw : unwrap(raw);
    if (v === undefined || v === null || v === '') return '';
    const text = typeof v === 'string' ? v : String(v);
    const cache = dateCaches[kind];
    let date = cache.get(text);
    if (date === undefined) {
      const ms = periodStartMs(kind, text, timeZone);
      date = ms === null ? null : new Date(ms);
      cache.set(text, date);
    }
    return date === null ? text : date;
  };
}

/**
 * Pass 2: fill the rows. Plain numbers and strings take the inline fast path; wrapped values,
 * numeric strings and dates the slow one.
 */
function fillRows(
  items: readonly Record<string, unknown>[],
  columns: readonly Column[],
  chosenMetrics: readonly string[] | undefined,
  timeZone: string,
): Cell[][] {
  const dateOf = periodDates(timeZone);
  const rows: Cell[][] = new Array(items.length);
  const columnCount = columns.length;
  const kinds = columns.map((c) => c.kind);
  const keys = columns.map((c) => c.key);
  const fields = columns.map((c) => (c.kind === 'entityField' ? c.field : ''));
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const row: Cell[] = new Array(columnCount);
    for (let c = 0; c < columnCount; c++) {
      const kind = kinds[c]!;
      const raw = item[keys[c]!];
      if (kind === 'metric') {
        row[c] = typeof raw === 'number' ? raw : toCell(toNumberIfNumeric(raw));
      } else if (kind === 'entityField') {
        let entity = raw;
        if (entity !== null && typeof entity === 'object' && 'value' in entity) entity = unwrap(entity);
        // With chosen metrics an entity sent as plain text has no column of its own: it is the id.
        const v =
          entity !== null && typeof entity === 'object'
            ? (entity as Record<string, unknown>)[fields[c]!]
            : chosenMetrics && fields[c] === 'id'
              ? entity
              : undefined;
        row[c] = typeof v === 'string' ? v : typeof v === 'number' ? v : toCell(unwrap(v));
      } else if (kind === 'text') {
        if (typeof raw === 'string') row[c] = raw;
        else {
          const v = unwrap(raw);
          row[c] = toCell(v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
        }
      } else {
        row[c] = dateOf(kind as 'day' | 'month' | 'hour', raw);
      }
    }
    rows[i] = row;
  }
  return rows;
}

/** The totals row from Engage's sums, which cover every row of the report: under rows cut short the label says so. */
function totalsRow(
  columns: readonly Column[],
  metricsSums: Record<string, unknown>,
  totalItems: number | undefined,
  itemCount: number,
): Cell[] {
  const sums = normaliseMetrics(metricsSums);
  // A row limit or a top 10 cuts the rows, not the sums.
  const cut = totalItems !== undefined && totalItems > itemCount;
  const label = cut ? `${TOTALS_LABEL} of all ${formatCount(totalItems!)} rows` : TOTALS_LABEL;
  return columns.map((col, c) => {
    if (col.kind === 'metric') return toCell(sums[col.key]);
    return c === 0 ? label : '';
  });
}

function toCell(value: unknown): Cell {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * Epoch ms at which a sheet in `timeZone` shows the start of the period: local midnight for
 * yyyyMMdd and yyyyMM (first of the month); for yyyyMMddHH the same wall-clock hour as in UTC, so the
 * sheet shows the UTC hour the service meant. Null when the text is not such a period.
 */
export function periodStartMs(kind: 'day' | 'month' | 'hour', text: string, timeZone: string): number | null {
  const t = text.trim().replace(/-/g, '');
  let day: CalendarDay;
  let hour = 0;
  if (kind === 'month' && /^\d{6}$/.test(t)) day = { year: +t.slice(0, 4), month: +t.slice(4, 6), day: 1 };
  else if (/^\d{8}$/.test(t)) day = compactDayOf(t);
  else if (kind === 'hour' && /^\d{10}$/.test(t)) {
    day = compactDayOf(t);
    hour = +t.slice(8, 10);
    if (hour > 23) return null;
  } else return null;
  if (!isValidCalendarDay(day.year, day.month, day.day)) return null;
  return zonedTimeToEpochMs(day, hour, timeZone);
}

/**
 * Table of a fetched report, with its totals row unless `totals` is false or the report has no rows
 * (a Total of nothing would be a row of zeros that reads as data).
 */
export function reportResultToTable(result: ReportResult, options: { timeZone: string; totals?: boolean }): ReportTable {
  const tableOptions: ReportTableOptions = {
    kind: result.query.kind,
    breakdowns: result.query.breakdowns,
    metrics: result.query.metrics,
    timeZone: options.timeZone,
  };
  if (options.totals !== false && result.metricsSums && result.items.length > 0) {
    tableOptions.metricsSums = result.metricsSums;
    tableOptions.totalItems = result.totalItems;
  }
  const table = buildReportTable(result.items, tableOptions);
  if (!result.query.sort) inDateOrder(table);
  return table;
}

/**
 * Puts the rows of a report by day or month in date order, earliest first, when the user chose no
 * sort (Engage's own is by revenue, which shuffles the dates). Rows of one date keep the order they
 * came in (by revenue, or publisher after publisher), and a row without a date goes last. The sort is
 * stable and skipped when the rows are in order already.
 */
function inDateOrder(table: ReportTable): void {
  const column = table.header.findIndex((title) => DATE_BREAKDOWNS.has(title));
  if (column < 0) return;
  const { rows } = table;
  const times = rows.map((row) => {
    const cell = row[column];
    const ms = isDate(cell) ? cell.getTime() : Number.NaN;
    return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
  });
  let ordered = true;
  for (let i = 1; i < times.length && ordered; i++) ordered = times[i - 1]! <= times[i]!;
  if (ordered) return;
  const order = times.map((_, i) => i).sort((a, b) => (times[a] === times[b] ? a - b : times[a]! < times[b]! ? -1 : 1));
  table.rows = order.map((i) => rows[i]!);
}

/** Header, rows and totals as one 2D array, ready for Range.setValues or a custom function's result. */
export function tableToValues(table: ReportTable): Cell[][] {
  const values: Cell[][] = [table.header, ...table.rows];
  if (table.totals) values.push(table.totals);
  return values;
}
