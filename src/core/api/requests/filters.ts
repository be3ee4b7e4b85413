/**
 * Filter expressions of all three reports: `<field>:<operator>:<value>` conditions chained with `;`
 * (a chain means AND, per the field notes; nesting is unsupported). A builder writes them from typed
 * conditions and a parser reads what a user typed into a cell, refusing a malformed expression locally
 * (with the character position when several conditions are chained), so the user never waits for a
 * 400 to learn of a typo. Which operators a field takes is filter-fields.ts.
 * The syntax has no escaping, so `;` can never be part of a value and `,` not of a list item.
 */
import { FilterSyntaxError, ValidationError } from '../../errors';
import { controlCharacterIndex, describeControlCharacter, quoted } from '../../util/text';
import { unknownNameHint } from '../../util/names';

export const FILTER_OPERATORS = ['eq', 'gt', 'lt', 'between', 'in', 'not_in', 'contains', 'not_contains'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FilterCondition =
  | { field: string; op: 'eq' | 'gt' | 'lt'; value: number }
  | { field: string; op: 'between'; value: readonly [number, number] }
  | { field: string; op: 'in' | 'not_in'; value: readonly string[] }
  | { field: string; op: 'contains' | 'not_contains'; value: string };

/** A parsed condition with the index of its first character in the expression. */
export type ParsedFilterCondition = FilterCondition & { position: number };

const FIELD_PATTERN = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)?$/;
const NUMBER_PATTERN = /^-?\d+(\.\d+)?$/;

/** Comparison signs people type for the operators: "revenue>100" means "revenue:gt:100". */
const SIGN_OPERATORS: Record<string, FilterOperator> = { '>': 'gt', '<': 'lt', '=': 'eq', '==': 'eq' };

/** How to write a condition typed without colons: its own translation when it is "field>number", else an example. */
function shapeExample(segment: string): string {
  const m = /^\s*([A-Za-z][A-Za-z0-9_.]*)\s*(==|=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(segment);
  return m ? `: write "${m[1]}:${SIGN_OPERATORS[m[2]!]}:${m[3]}"` : ', such as "revenue:gt:100"';
}

/** Typed condition helpers: `where('revenue').gt(10)`, `where('country.id').in(['US', 'DE'])`. */
export function where(field: string) {
  return {
    eq: (value: number): FilterCondition => ({ field, op: 'eq', value }),
    gt: (value: number): FilterCondition => ({ field, op: 'gt', value }),
    lt: (value: number): FilterCondition => ({ field, op: 'lt', value }),
    between: (low: number, high: number): FilterCondition => ({ field, op: 'between', value: [low, high] }),
    in: (values: readonly string[]): FilterCondition => ({ field, op: 'in', value: values }),
    notIn: (values: readonly string[]): FilterCondition => ({ field, op: 'not_in', value: values }),
    contains: (text: string): FilterCondition => ({ field, op: 'contains', value: text }),
    notContains: (text: string): FilterCondition => ({ field, op: 'not_contains', value: text }),
  };
}

function builderProblem(argument: string, index: number, rule: string): ValidationError {
  return ValidationError.single(argument, `condition ${index + 1} ${rule}`);
}

function formatNumber(n: number, argument: string, index: number, field: string): string {
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw builderProblem(argument, index, `(${field}) needs a finite number, got ${String(n)}`);
  const text = String(n);
  if (!NUMBER_PATTERN.test(text)) throw builderProblem(argument, index, `(${field}) cannot write ${text} as a plain decimal number`);
  return text;
}

/** Writes conditions as one expression, refusing values the syntax cannot carry. */
export function buildFilter(conditions: readonly FilterCondition[], argument = 'filter'): string {
  return conditions
    .map((c, i) => {
      if (!FIELD_PATTERN.test(c.field)) throw builderProblem(argument, i, `has an invalid field name '${c.field}'`);
      let value: string;
      switch (c.op) {
        case 'eq':
        case 'gt':
        case 'lt':
          value = formatNumber(c.value, argument, i, c.field);
          break;
        case 'between': {
          const [low, high] = c.value;
          if (low > high) throw builderProblem(argument, i, `(${c.field} between) needs the lower number first, got ${low},${high}`);
          value = `${formatNumber(low, argument, i, c.field)},${formatNumber(high, argument, i, c.field)}`;
          break;
        }
        case 'in':
        case 'not_in':
          if (c.value.length === 0) throw builderProblem(argument, i, `(${c.field} ${c.op}) needs at least one value`);
          for (const v of c.value) {
            if (v === '' || /[,;]/.test(v))
              throw builderProblem(argument, i, `(${c.field} ${c.op}) cannot carry the value '${v}' (empty, or containing ',' or ';')`);
          }
          value = c.value.join(',');
          break;
        case 'contains':
        case 'not_contains':
          if (c.value === '' || c.value.includes(';'))
            throw builderProblem(argument, i, `(${c.field} ${c.op}) cannot carry the text '${c.value}' (empty, or containing ';')`);
          value = c.value;
          break;
        default:
          throw builderProblem(argument, i, `has an unknown operator '${(c as { op: string }).op}'`);
      }
      return `${c.field}:${c.op}:${value}`;
    })
    .join(';');
}

/** Throws the syntax error of the expression at `position`. */
type Fail = (position: number, rule: string) => never;

/** Parses an expression; an empty or blank expression is "no filter". */
export function parseFilter(expression: string, argument = 'filter'): ParsedFilterCondition[] {
  const fail: Fail = (position, rule) => {
    throw new FilterSyntaxError(argument, position, expression, rule);
  };
  if (expression.trim() === '') return [];
  // No field, operator or value holds one, and a condition with one could never match: a paste accident.
  const control = controlCharacterIndex(expression);
  // Invisible in a cell, so its place is said even in a single condition (a chain says it anyway).
  const place = expression.includes(';') ? '' : ` (character ${control + 1} of ${quoted(expression)})`;
  if (control >= 0) fail(control, `${describeControlCharacter(expression)} cannot be part of a filter${place}`);
  const conditions: ParsedFilterCondition[] = [];
  let start = 0;
  while (start <= expression.length) {
    let end = expression.indexOf(';', start);
    if (end < 0) end = expression.length;
    let segStart = start;
    while (segStart < end && expression[segStart] === ' ') segStart++;
    if (segStart === end)
      fail(
        segStart,
        conditions.length === 0 && end < expression.length ? "empty condition before ';'" : "empty condition (a ';' with nothing after it)",
      );
    conditions.push(parseCondition(expression.slice(segStart, end), segStart, fail));
    start = end + 1;
    if (end === expression.length) break;
  }
  return conditions;
}

/** One `<field>:<operator>:<value>` condition that starts at `segStart` of the expression. */
function parseCondition(segment: string, segStart: number, fail: Fail): ParsedFilterCondition {
  const firstColon = segment.indexOf(':');
  if (firstColon < 0) fail(segStart, `${quoted(segment)} is not <field>:<operator>:<value>${shapeExample(segment)}`);
  const field = segment.slice(0, firstColon);
  if (field === '') fail(segStart, `${quoted(segment)} has no field name, as in "revenue${segment}"`);
  if (!FIELD_PATTERN.test(field)) {
    const bad = [...field].findIndex((ch, k) => !(k === 0 ? /[A-Za-z]/ : /[A-Za-z0-9_.]/).test(ch));
    fail(segStart + Math.max(bad, 0), `invalid field name ${quoted(field)}`);
  }
  const opStart = firstColon + 1;
  const secondColon = segment.indexOf(':', opStart);
  const op = segment.slice(opStart, secondColon < 0 ? segment.length : secondColon);
  if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
    fail(
      segStart + opStart,
      op === ''
        ? `${quoted(segment)} has no operator, as in "${field}:gt${segment.slice(opStart)}"`
        : `unknown operator ${quoted(op)}${unknownNameHint(op, FILTER_OPERATORS)}`,
    );
  }
  if (secondColon < 0) fail(segStart + segment.length, `missing ':' and value after ${quoted(`${field}:${op}`)}`);
  const valueStart = secondColon + 1;
  const rawValue = segment.slice(valueStart);
  const valuePos = segStart + valueStart;
  if (rawValue.trim() === '') fail(valuePos, `missing value after ${quoted(`${field}:${op}:`)}`);
  return conditionWithValue(field, op as FilterOperator, rawValue, valuePos, segStart, fail);
}

/** The condition with its value read as `op` takes it: a number, two numbers, a list or a text. */
function conditionWithValue(
  field: string,
  op: FilterOperator,
  rawValue: string,
  valuePos: number,
  position: number,
  fail: Fail,
): ParsedFilterCondition {
  const number = (text: string, pos: number): number => {
    const t = text.trim();
    if (!NUMBER_PATTERN.test(t)) fail(pos, `${quoted(text)} is not a number (${op} compares numbers)`);
    return Number(t);
  };
  switch (op) {
    case 'eq':
    case 'gt':
    case 'lt':
      return { field, op, value: number(rawValue, valuePos), position };
    case 'between': {
      const comma = rawValue.indexOf(',');
      if (comma < 0 || rawValue.indexOf(',', comma + 1) >= 0)
        fail(valuePos, `between needs two numbers separated by a comma, got ${quoted(rawValue)}`);
      const low = number(rawValue.slice(0, comma), valuePos);
      const high = number(rawValue.slice(comma + 1), valuePos + comma + 1);
      if (low > high) fail(valuePos, `between needs the lower number first, got ${quoted(rawValue)}`);
      return { field, op: 'between', value: [low, high], position };
    }
    case 'in':
    case 'not_in': {
      const items = rawValue.split(',');
      let offset = 0;
      for (const item of items) {
        if (item.trim() === '') fail(valuePos + offset, `empty item in the ${op} list ${quoted(rawValue)}`);
        offset += item.length + 1;
      }
      return { field, op, value: items.map((s) => s.trim()), position };
    }
    default:
      return { field, op: op as 'contains', value: rawValue, position };
  }
}
