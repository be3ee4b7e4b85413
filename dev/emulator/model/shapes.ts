/**
 * Response shapes that real clients of the service have observed (shared/spec/field-notes.md) but
 * the emulator does not send by default: every field of a report item wrapped as `{"value": x}`,
 * and numbers (revenue above all) arriving as strings, once with a comma as the decimal separator.
 * A fault rule with `shape` answers its requests normally and then rewrites the successful JSON
 * body with these functions, so a test can prove that the add-on reads every variant the same way.
 * They touch report items, metricsSums and lookup entries; `totalItems` and error bodies stay as
 * they are. Pure functions over parsed JSON, kept apart from the HTTP handling in routes/.
 */

/** `wrapped`: `{"value": x}` around each field; `stringNumbers`: "1234.5"; `commaDecimals`: "1234,5". */
export const RESPONSE_SHAPES = ['wrapped', 'stringNumbers', 'commaDecimals'] as const;
export type ResponseShape = (typeof RESPONSE_SHAPES)[number];

type Json = unknown;

function numberText(value: number, shapes: ReadonlySet<ResponseShape>): Json {
  if (shapes.has('commaDecimals')) return String(value).replace('.', ',');
  if (shapes.has('stringNumbers')) return String(value);
  return value;
}

/** One field value: numbers as text when asked, then the `{"value": ...}` wrapper when asked. */
function reshapeField(value: Json, shapes: ReadonlySet<ResponseShape>): Json {
  const converted = typeof value === 'number' ? numberText(value, shapes) : value;
  return shapes.has('wrapped') ? { value: converted } : converted;
}

/** Each top-level field of a record reshaped; an entity object (`country: {id, name}`) is wrapped whole. */
function reshapeRecord(record: Json, shapes: ReadonlySet<ResponseShape>): Json {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return record;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(record as Record<string, Json>)) out[key] = reshapeField(value, shapes);
  return out;
}

/**
 * The body of a successful report or lookup answer in the given shapes. A report is recognised by
 * its `items` list; a lookup by its one list of entries (`{"publishers": [...]}` and the like).
 */
export function reshapeBody(body: Json, shapeList: readonly ResponseShape[]): Json {
  const shapes = new Set(shapeList);
  if (shapes.size === 0 || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const o = body as Record<string, Json>;
  if (Array.isArray(o.items)) {
    const out: Record<string, Json> = { ...o, items: o.items.map((item) => reshapeRecord(item, shapes)) };
    if (o.metricsSums !== undefined) out.metricsSums = reshapeRecord(o.metricsSums, shapes);
    return out;
  }
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(o)) {
    out[key] = Array.isArray(value) ? value.map((entry) => reshapeRecord(entry, shapes)) : value;
  }
  return out;
}

/** `shape` of a fault rule as a list: one name or several (`["wrapped", "commaDecimals"]`). */
export function shapeList(shape: ResponseShape | readonly ResponseShape[] | undefined): ResponseShape[] {
  if (shape === undefined) return [];
  return typeof shape === 'string' ? [shape] : [...shape];
}
