/**
 * A report's query parameters as the spec reads them: dates and hours, breakdowns, currency, limit,
 * offset and order, each checked with its defaults and bounds, and the 400 the service answers when
 * one is wrong. Also the limits and delays the reports share.
 */
import { ApiError } from '../../../shared/api-error';
import type { OPERATIONS } from '../operations';
import { CURRENCY_RATES_FROM_USD } from '../seed';
import { dayNumberOf, MS_PER_DAY, MS_PER_HOUR } from '../synthetic-data';

export type Query = Record<string, unknown>;
export type Operation = (typeof OPERATIONS)[keyof typeof OPERATIONS];
export type Item = Record<string, unknown>;

export interface ReportResponse {
  items: Item[];
  totalItems: number;
  metricsSums: Record<string, number>;
}

export const MAIN_LIMIT = { default: 500, max: 10000 } as const;
export const EXTERNAL_ID_LIMIT = { default: 500, max: 5000 } as const;
export const REALTIME_LIMIT = { default: 1000, max: 5000 } as const;
export const MAIN_MAX_BREAKDOWNS = 4;
export const MAIN_BREAKDOWNS = ['day', 'month', 'platform', 'referrer', 'country', 'section', 'widget', 'doc', 'partnerApp'] as const;
export const EXTERNAL_ID_BREAKDOWNS = ['externalId', 'widget', 'externalSecondaryId'] as const;
export const FORBIDDEN_BREAKDOWN_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['day', 'month'],
  ['referrer', 'country'],
  ['referrer', 'doc'],
  ['country', 'doc'],
];
export const DEFAULT_DEC_DIGITS = 2;
export const MAX_DEC_DIGITS = 6;
export const DOC_BREAKDOWN_WINDOW_MONTHS = 12;
export const MAX_EXTERNAL_ID_RANGE_MS = 24 * MS_PER_HOUR;
export const REALTIME_WINDOW_MS = 48 * MS_PER_HOUR;
/** Daily data lags by 2 to 4 hours; the emulator uses 3. */
export const MAIN_DATA_DELAY_MS = 3 * MS_PER_HOUR;
export const HOURLY_DATA_DELAY_MS = 2 * MS_PER_HOUR;
export const REALTIME_DATA_DELAY_MS = 30 * 60 * 1000;
/** External IDs appear in the hourly report only 48 hours after they were first injected. */
export const EXTERNAL_ID_INJECTION_DELAY_MS = 48 * MS_PER_HOUR;

// ---------------------------------------------------------------------------------------------
// Parameters

export function bad(operation: Operation, message: string): ApiError {
  return new ApiError(400, operation, message);
}

/** A query parameter as one string; a repeated parameter keeps its last value. */
export function single(query: Query, name: string): string | undefined {
  const value = query[name];
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (last === undefined || last === null) return undefined;
  return String(last);
}

export function required(query: Query, name: string, operation: Operation, format: string): string {
  const value = single(query, name);
  if (value === undefined || value.trim() === '') throw bad(operation, `Missing required parameter ${name} (${format})`);
  return value.trim();
}

export function integerParam(query: Query, name: string, operation: Operation, fallback: number, min: number, max: number): number {
  const text = single(query, name);
  if (text === undefined || text.trim() === '') return fallback;
  if (!/^-?\d+$/.test(text.trim())) throw bad(operation, `Parameter ${name} must be a whole number, got "${text}"`);
  const value = Number(text);
  if (value < min || value > max) throw bad(operation, `Parameter ${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function orderParam(query: Query, operation: Operation): 'asc' | 'desc' {
  const text = single(query, 'order');
  if (text === undefined || text === '') return 'desc';
  const lower = text.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') throw bad(operation, `Parameter order must be asc or desc, got "${text}"`);
  return lower;
}

export function breakdownsParam(query: Query, allowed: readonly string[], operation: Operation): string[] | undefined {
  const value = query.breakdowns;
  if (value === undefined) return undefined;
  const joined = (Array.isArray(value) ? value : [value]).map(String).join(',');
  if (joined.trim() === '') return undefined;
  const list = joined.split(',').map((b) => b.trim());
  for (const b of list) {
    if (b === '') throw bad(operation, 'Parameter breakdowns has an empty entry (check for a stray comma)');
    if (!allowed.includes(b)) {
      throw bad(operation, `Parameter breakdowns: unknown breakdown "${b}" (allowed: ${allowed.join(', ')})`);
    }
  }
  const duplicate = list.find((b, i) => list.indexOf(b) !== i);
  if (duplicate) throw bad(operation, `Parameter breakdowns lists "${duplicate}" twice`);
  return list;
}

export function currencyParam(query: Query, operation: Operation): number {
  const text = single(query, 'currencyCode');
  if (text === undefined || text === '') return 1;
  const rate = CURRENCY_RATES_FROM_USD[text.toUpperCase()];
  if (rate === undefined) {
    throw bad(
      operation,
      `Parameter currencyCode: unsupported currency "${text}" (supported: ${Object.keys(CURRENCY_RATES_FROM_USD).join(', ')})`,
    );
  }
  return rate;
}

export function isValidDate(year: number, month: number, day: number, hour = 0): boolean {
  const d = new Date(Date.UTC(year, month - 1, day, hour));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day && d.getUTCHours() === hour;
}

export function dayParam(query: Query, name: string, operation: Operation): number {
  const text = required(query, name, operation, 'format yyyyMMdd');
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!match || !isValidDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
    throw bad(operation, `Parameter ${name} must be a date in format yyyyMMdd, got "${text}"`);
  }
  return dayNumberOf(text);
}

/**
 * An hourly bound in ms since the epoch (UTC). A date alone is hour 00 of that date; for toDate it
 * is hour 00 of the next date, so `fromDate=D&toDate=D` covers the whole day D.
 */
export function hourParam(query: Query, name: 'fromDate' | 'toDate', operation: Operation): number {
  const text = required(query, name, operation, 'format yyyyMMddHH or yyyyMMdd');
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})?$/.exec(text);
  const hour = match?.[4] === undefined ? 0 : Number(match[4]);
  if (!match || !isValidDate(Number(match[1]), Number(match[2]), Number(match[3]), hour)) {
    throw bad(operation, `Parameter ${name} must be in format yyyyMMddHH or yyyyMMdd (UTC), got "${text}"`);
  }
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), hour);
  return match[4] === undefined && name === 'toDate' ? ms + MS_PER_DAY : ms;
}

export function formatDay(dayNumber: number): string {
  return new Date(dayNumber * MS_PER_DAY).toISOString().slice(0, 10).replace(/-/g, '');
}

export function formatHour(ms: number): string {
  return new Date(ms).toISOString().slice(0, 13).replace(/[-T]/g, '');
}
