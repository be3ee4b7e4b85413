/**
 * Normalising values as they arrive from the service. Real clients see metrics wrapped as
 * `{"value": x}` and numbers as strings, once with a comma as the decimal separator ("12,34"); the
 * field notes ask us to accept all of them. These functions are called once per cell on reports of
 * 100,000 rows, so they are written as tight branches, not schemas.
 */

/** `{"value": x}` becomes x; an entity object such as `{"id": "US", "name": "..."}` stays. */
export function unwrap(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if ('value' in o && !('id' in o) && !('name' in o)) return unwrap(o.value);
  }
  return value;
}

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const COMMA_DECIMAL = /^[+-]?\d+,\d+$/;
const THOUSANDS_DOT_DECIMAL = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/;
const THOUSANDS_COMMA_DECIMAL = /^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/;

/**
 * A number from a number or numeric string ("12.34", "12,34", "1,234.5", "1.234,5", " 7 "); any
 * other text comes back unchanged (it is data, not a number), and null/undefined become null.
 * "1,234" is read as 1.234: the comma decimal is what has been observed; thousands separators
 * without decimals have not.
 */
export function toNumberIfNumeric(value: unknown): unknown {
  const v = unwrap(value);
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return v === undefined ? null : v;
  const t = v.trim();
  if (t === '') return null;
  if (PLAIN_NUMBER.test(t)) return Number(t);
  if (COMMA_DECIMAL.test(t)) return Number(t.replace(',', '.'));
  if (THOUSANDS_DOT_DECIMAL.test(t)) return Number(t.replace(/,/g, ''));
  if (THOUSANDS_COMMA_DECIMAL.test(t)) return Number(t.replace(/\./g, '').replace(',', '.'));
  return v;
}

/** Every value of a metrics object (metricsSums) normalised. */
export function normaliseMetrics(metrics: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const o = unwrap(metrics);
  if (o && typeof o === 'object' && !Array.isArray(o)) {
    for (const k of Object.keys(o)) out[k] = toNumberIfNumeric((o as Record<string, unknown>)[k]);
  }
  return out;
}
