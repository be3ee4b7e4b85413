/**
 * Several publishers' rows added together: a report of several publishers asked with `-publisher`
 * among its breakdowns has no publisher columns, and one row per key of the other breakdowns (a day,
 * a country, a widget) over all the publishers, as a portfolio dashboard wants "revenue by day of all
 * my publishers" or "the top 10 countries of all of them". A row that only one publisher has keeps
 * that publisher's figures as Engage sent them; rows of several publishers are added up by the rules
 * of the Total row (publisher-totals.ts): counts and money summed, the rates the spec defines from two
 * metrics computed again from the summed parts, every other rate blank. Engage sorted each
 * publisher's rows; the combined rows are sorted again by the report's `sort` (revenue, descending, by
 * default, as Engage's), so that `maxRows` keeps the first rows of all the publishers together.
 */
import type { ReportKind, SortOrder } from '../../spec';
import { combineMetricsSums } from './publisher-totals';
import { normaliseMetrics, toNumberIfNumeric, unwrap } from '../responses/values';

/** The breakdown word that asks for the publishers' rows added together, in a report's breakdowns. */
export const PUBLISHERS_TOGETHER = '-publisher';
/** Fields of hourly items that carry the hour: rows of different hours are never added together. */
const HOUR_FIELDS = ['hour', 'dateHour'];

/** The value a breakdown contributes to a row's key: an entity by its id, anything else as text. */
function keyPart(value: unknown): string {
  const v = unwrap(value);
  if (v !== null && typeof v === 'object') return `#${String((v as Record<string, unknown>).id ?? '')}`;
  return v === undefined || v === null ? '' : `=${String(v)}`;
}

/** A field of an item for sorting: a metric as a number, an entity field (`country.name`), a breakdown's value or id. */
function sortValue(item: Record<string, unknown>, field: string): number | string | undefined {
  const dot = field.indexOf('.');
  let v = dot < 0 ? unwrap(item[field]) : undefined;
  if (dot >= 0) {
    const entity = unwrap(item[field.slice(0, dot)]);
    v = entity !== null && typeof entity === 'object' ? unwrap((entity as Record<string, unknown>)[field.slice(dot + 1)]) : undefined;
  } else if (v !== null && typeof v === 'object') v = unwrap((v as Record<string, unknown>).id);
  const n = toNumberIfNumeric(v);
  if (typeof n === 'number' && Number.isFinite(n)) return n;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

export interface CombineOptions {
  kind: ReportKind;
  /** The breakdowns of the combined rows (no publisher). */
  breakdowns: readonly string[];
  /** The report's sort; Engage's default (revenue, descending) when absent. */
  sort?: { field: string; order?: SortOrder };
  /** Money rounding of the general report (decDigits), 2 otherwise. */
  decDigits?: number;
}

/** The publishers' items (in the publishers' order) as one row per key of the breakdowns, sorted. */
export function combinePublisherRows(items: readonly Record<string, unknown>[], options: CombineOptions): Record<string, unknown>[] {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const item of items) {
    const hours = HOUR_FIELDS.filter((h) => h in item).map((h) => keyPart(item[h]));
    const key = JSON.stringify([...options.breakdowns.map((b) => keyPart(item[b])), ...hours]);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const rows = [...groups.values()].map((group) => {
    const first = group[0]!;
    if (group.length === 1) return first;
    const row: Record<string, unknown> = {};
    for (const field of [...options.breakdowns, ...HOUR_FIELDS]) if (field in first) row[field] = first[field];
    const summed = combineMetricsSums(options.kind, group.map(normaliseMetrics), options.decDigits);
    return Object.assign(row, summed);
  });
  const field = options.sort?.field ?? 'revenue';
  const descending = (options.sort?.order ?? 'desc') === 'desc';
  const keyed = rows.map((row) => ({ row, value: sortValue(row, field) }));
  // Array.prototype.sort is stable: rows with equal values keep the publishers' order. Missing values go last.
  keyed.sort((a, b) => {
    if (a.value === undefined || b.value === undefined) return a.value === undefined ? (b.value === undefined ? 0 : 1) : -1;
    const order =
      typeof a.value === 'number' && typeof b.value === 'number' ? a.value - b.value : String(a.value).localeCompare(String(b.value));
    return descending ? -order : order;
  });
  return keyed.map((k) => k.row);
}
