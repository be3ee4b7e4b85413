/**
 * A lookup (publishers, widgets, native apps, countries, time zones) as sheet values: a header of the
 * fields seen, then one row per entry, for the ENGAGE_* lookup formulas.
 */
import type { Cell } from '../ports';

/** Lookup entries as a table: id and name first, then every other field seen, in order of appearance. */
export function lookupTable(entries: readonly Record<string, unknown>[], title: string): Cell[][] {
  const columns = ['id', 'name'];
  for (const entry of entries) for (const key of Object.keys(entry)) if (!columns.includes(key)) columns.push(key);
  if (entries.length === 0) return [[`No ${title} found`]];
  return [columns, ...entries.map((e) => columns.map((c) => toCell(e[c])))];
}

function toCell(value: unknown): Cell {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value && typeof value === 'object' && 'value' in (value as object)) return toCell((value as { value: unknown }).value);
  return JSON.stringify(value);
}
