/**
 * Reading custom-function arguments the way Sheets passes them: an omitted argument is undefined, an
 * empty cell "", a date cell a JS Date, a range a 2D array. Each reader names the argument in its
 * error, so a bad argument shows `#ERROR!` with a message that says which one and why, before any
 * request is sent.
 */
import { isDate } from '../util/dates';
import { ValidationError } from '../errors';
import { showValue } from '../util/text';

/** Custom functions return at most this many rows; a larger maxRows would not fit the 30 s limit anyway. */
export const FORMULA_MAX_ROWS = 100_000;

type Flat = unknown[];

function flatten(value: unknown): Flat {
  if (!Array.isArray(value)) return [value];
  const out: Flat = [];
  for (const row of value) {
    if (Array.isArray(row)) for (const cell of row) out.push(cell);
    else out.push(row);
  }
  return out;
}

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** True when the argument was given: not omitted, not an empty cell, not a range of empty cells. */
export function isGiven(value: unknown): boolean {
  return !flatten(value).every(blank);
}

/** A single cell's value: a one-cell range is unwrapped; a larger range is refused. */
export function singleValue(value: unknown, name: string): unknown {
  if (!Array.isArray(value)) return value;
  const cells = flatten(value).filter((v) => !blank(v));
  if (cells.length > 1) throw ValidationError.single(name, `must be one value, not a range of ${cells.length} cells`);
  return cells[0];
}

/** Text, or undefined when not given. Numbers become their text; dates and booleans are refused. */
export function optionalText(value: unknown, name: string): string | undefined {
  const v = singleValue(value, name);
  if (blank(v)) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') throw ValidationError.single(name, `must be text, not ${describe(v)}`);
  return v.trim();
}

export function requiredText(value: unknown, name: string, what: string): string {
  const text = optionalText(value, name);
  if (text === undefined) throw ValidationError.single(name, `is required (${what})`);
  return text;
}

/** A list given as "day,country" text or as a range of cells; joined with commas for the core. */
export function optionalList(value: unknown, name: string, example = 'day,country'): string | undefined {
  if (!isGiven(value)) return undefined;
  const parts: string[] = [];
  for (const cell of flatten(value)) {
    if (blank(cell)) continue;
    if (typeof cell !== 'string' && typeof cell !== 'number')
      throw ValidationError.single(name, `must be text such as "${example}" or a range of text cells, not ${describe(cell)}`);
    parts.push(String(cell).trim());
  }
  return parts.join(',');
}

/** A list of strings (keywords, categories) from text split by commas or a range; empty items dropped. */
export function stringList(value: unknown, name: string): string[] {
  if (!isGiven(value)) return [];
  const out: string[] = [];
  for (const cell of flatten(value)) {
    if (blank(cell)) continue;
    if (typeof cell !== 'string' && typeof cell !== 'number')
      throw ValidationError.single(name, `must be text or a range of text cells, not ${describe(cell)}`);
    for (const part of String(cell).split(',')) if (part.trim() !== '') out.push(part.trim());
  }
  return out;
}

/**
 * A date cell, or date text (a day such as 2026-11-01, or one relative to today such as 7daysAgo);
 * passed through for the core to check against the report's rules and read on the spreadsheet's clock.
 */
export function requiredDate(value: unknown, name: string): Date | string | number {
  const v = singleValue(value, name);
  if (blank(v))
    throw ValidationError.single(name, 'is required (a date cell, text such as 2026-11-01, or a day relative to today such as 7daysAgo)');
  if (isDate(v)) return v;
  if (typeof v === 'string' || typeof v === 'number') return v;
  throw ValidationError.single(name, `must be a date, not ${describe(v)}`);
}

/** A whole number within bounds, or undefined when not given. */
export function optionalInteger(value: unknown, name: string, min: number, max: number): number | undefined {
  const v = singleValue(value, name);
  if (blank(v)) return undefined;
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw ValidationError.single(name, `${showValue(v)} must be a whole number from ${min} to ${max}`);
  if (n < min || n > max) throw ValidationError.single(name, `${n} must be from ${min} to ${max}`);
  return n;
}

/** TRUE/FALSE (or the text "true"/"false"); `fallback` when not given. */
export function optionalBoolean(value: unknown, name: string, fallback: boolean): boolean {
  const v = singleValue(value, name);
  if (blank(v)) return fallback;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
  throw ValidationError.single(name, `${showValue(v)} must be TRUE or FALSE`);
}

function describe(value: unknown): string {
  if (isDate(value)) return 'a date';
  if (typeof value === 'boolean') return `the boolean ${String(value).toUpperCase()}`;
  if (typeof value === 'number') return `the number ${value}`;
  return `a ${typeof value}`;
}
