/**
 * The report filter language: `<field>:<operator>:<value>` conditions chained with `;` (AND, per
 * the field notes; nesting is unsupported). Parsing is strict so a client learns from the 400 which
 * part of its expression is wrong; matching is split by operand kind because the spec types the
 * operators (eq/gt/lt/between numeric, in/not_in lists, contains/not_contains text, case-insensitive).
 */

export const FILTER_OPERATORS = ['eq', 'gt', 'lt', 'between', 'in', 'not_in', 'contains', 'not_contains'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** How a field can be compared: metrics are numbers, entities text, day and month both. */
export type FieldKind = 'number' | 'text' | 'numericText';

export interface FilterCondition {
  field: string;
  operator: FilterOperator;
  /** The value part as written, for messages. */
  rawValue: string;
  numbers: number[];
  list: string[];
  text: string;
}

export class FilterSyntaxError extends Error {}

const NUMERIC_OPERATORS: readonly FilterOperator[] = ['eq', 'gt', 'lt', 'between'];
const TEXT_OPERATORS: readonly FilterOperator[] = ['contains', 'not_contains'];

function parseNumber(text: string, condition: string): number {
  const trimmed = text.trim();
  const value = trimmed === '' ? NaN : Number(trimmed);
  if (!Number.isFinite(value)) {
    throw new FilterSyntaxError(`filter condition "${condition}": "${text}" is not a number`);
  }
  return value;
}

export function parseFilter(expression: string): FilterCondition[] {
  const conditions: FilterCondition[] = [];
  for (const part of expression.split(';')) {
    if (part.trim() === '') throw new FilterSyntaxError('filter has an empty condition (check for a stray ";")');
    const first = part.indexOf(':');
    const second = first < 0 ? -1 : part.indexOf(':', first + 1);
    if (first <= 0 || second < 0) {
      throw new FilterSyntaxError(`filter condition "${part}" is not of the form <field>:<operator>:<value>`);
    }
    const field = part.slice(0, first).trim();
    const operator = part.slice(first + 1, second).trim() as FilterOperator;
    const rawValue = part.slice(second + 1);
    if (!FILTER_OPERATORS.includes(operator)) {
      throw new FilterSyntaxError(`filter condition "${part}": unknown operator "${operator}" (use one of ${FILTER_OPERATORS.join(', ')})`);
    }
    if (rawValue.trim() === '') throw new FilterSyntaxError(`filter condition "${part}" has no value`);
    const condition: FilterCondition = { field, operator, rawValue, numbers: [], list: [], text: rawValue };
    if (operator === 'between') {
      const bounds = rawValue.split(',');
      if (bounds.length !== 2) {
        throw new FilterSyntaxError(`filter condition "${part}": between needs two numbers separated by a comma`);
      }
      const [low, high] = bounds.map((b) => parseNumber(b, part)) as [number, number];
      if (low > high) throw new FilterSyntaxError(`filter condition "${part}": the lower bound is above the upper bound`);
      condition.numbers = [low, high];
    } else if (operator === 'eq' || operator === 'gt' || operator === 'lt') {
      condition.numbers = [parseNumber(rawValue, part)];
    } else if (operator === 'in' || operator === 'not_in') {
      condition.list = rawValue.split(',').map((v) => v.trim());
      if (condition.list.some((v) => v === '')) {
        throw new FilterSyntaxError(`filter condition "${part}": the list has an empty value`);
      }
    }
    conditions.push(condition);
  }
  return conditions;
}

/** Throws when the operator does not fit the field's kind (e.g. gt on a country name). */
export function checkOperatorFits(condition: FilterCondition, kind: FieldKind): void {
  if (kind === 'text' && NUMERIC_OPERATORS.includes(condition.operator)) {
    throw new FilterSyntaxError(
      `filter on ${condition.field}: operator ${condition.operator} compares numbers, but ${condition.field} is text (use in, not_in, contains or not_contains)`,
    );
  }
  if (kind === 'number' && TEXT_OPERATORS.includes(condition.operator)) {
    throw new FilterSyntaxError(
      `filter on ${condition.field}: operator ${condition.operator} compares text, but ${condition.field} is a number (use eq, gt, lt, between, in or not_in)`,
    );
  }
}

export function matchesNumber(condition: FilterCondition, value: number): boolean {
  const [a = 0, b = 0] = condition.numbers;
  switch (condition.operator) {
    case 'eq':
      return value === a;
    case 'gt':
      return value > a;
    case 'lt':
      return value < a;
    case 'between':
      return value >= a && value <= b;
    case 'in':
      return condition.list.some((v) => Number(v) === value);
    case 'not_in':
      return !condition.list.some((v) => Number(v) === value);
    default:
      return false;
  }
}

export function matchesText(condition: FilterCondition, value: string): boolean {
  switch (condition.operator) {
    case 'in':
      return condition.list.includes(value);
    case 'not_in':
      return !condition.list.includes(value);
    case 'contains':
      return value.toLowerCase().includes(condition.text.toLowerCase());
    case 'not_contains':
      return !value.toLowerCase().includes(condition.text.toLowerCase());
    default:
      // Numeric operators on numeric text (day, month).
      return matchesNumber(condition, Number(value));
  }
}
