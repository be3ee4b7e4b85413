/**
 * Which filter operators a field takes, from the spec's types: the Filters table types its operators
 * (eq, gt, lt and between numeric; in and not_in a list; contains and not_contains a string) and the
 * field tables type the fields. Metrics are numbers; day and month are dates written yyyyMMdd and
 * yyyyMM, compared as numbers; an entity's name and the external IDs are text; an entity's id (also
 * written as the bare breakdown, `country`) is a code matched whole, so it takes a list of IDs. The
 * request check refuses a condition its field does not take before anything is sent, and the sidebar
 * offers a field's operators only.
 */
import type { FilterCondition, FilterOperator } from './filters';
import { DATE_BREAKDOWNS, ENTITY_BREAKDOWNS, REPORT_SPECS, type ReportKind } from '../../spec';
import { quoted } from '../../util/text';

export type FilterFieldType = 'number' | 'date' | 'text' | 'idList';

export const OPERATORS_BY_FIELD_TYPE: Readonly<Record<FilterFieldType, readonly FilterOperator[]>> = {
  number: ['eq', 'gt', 'lt', 'between', 'in', 'not_in'],
  date: ['eq', 'gt', 'lt', 'between', 'in', 'not_in'],
  text: ['in', 'not_in', 'contains', 'not_contains'],
  idList: ['in', 'not_in'],
};

const TYPE_NAMES: Record<FilterFieldType, string> = { number: 'a number', date: 'a date', text: 'text', idList: 'an ID' };

/** A field's type, or undefined for a name the spec does not type (an entity field other than id and name). */
export function filterFieldType(kind: ReportKind, field: string): FilterFieldType | undefined {
  if (REPORT_SPECS[kind].metrics.includes(field)) return 'number';
  if (DATE_BREAKDOWNS.has(field)) return 'date';
  if (field === 'externalId' || field === 'externalSecondaryId') return 'text';
  const [entity, attribute] = field.split('.');
  if (!ENTITY_BREAKDOWNS.has(entity!)) return undefined;
  if (attribute === undefined || attribute === 'id') return 'idList';
  return attribute === 'name' ? 'text' : undefined;
}

/** The operators a field takes; every operator for a field the spec does not type. */
export function filterOperatorsFor(kind: ReportKind, field: string): readonly FilterOperator[] {
  const type = filterFieldType(kind, field);
  return type ? OPERATORS_BY_FIELD_TYPE[type] : OPERATORS_BY_FIELD_TYPE.number.concat(['contains', 'not_contains']);
}

/** A condition of the field's type, for messages: "revenue:gt:100", "day:between:20261101,20261107". */
export function filterExample(kind: ReportKind, field: string): string {
  switch (filterFieldType(kind, field)) {
    case 'date':
      return field === 'month' ? 'month:eq:202611' : `${field}:between:20261101,20261107`;
    case 'text':
      return `${field}:contains:news`;
    case 'idList':
      return field.startsWith('country') ? `${field}:in:US,DE` : `${field}:in:id1,id2`;
    default:
      return `${field}:gt:100`;
  }
}

/** "eq, gt, lt or between". */
function orList(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/**
 * Why a parsed condition does not fit its field's type, or undefined when it does: the operator, then
 * the values (numbers for a number's list, yyyyMMdd days and yyyyMM months for a date). One sentence
 * with an example; the caller adds where in the expression.
 */
export function filterTypeProblem(kind: ReportKind, condition: FilterCondition): string | undefined {
  const { field, op } = condition;
  const type = filterFieldType(kind, field);
  if (!type) return undefined;
  const example = `as in "${filterExample(kind, field)}"`;
  const allowed = OPERATORS_BY_FIELD_TYPE[type];
  if (!allowed.includes(op)) return `${op} does not apply to ${field}, ${TYPE_NAMES[type]}: use ${orList(allowed)}, ${example}`;
  const values = Array.isArray(condition.value) ? condition.value.map(String) : [String(condition.value)];
  if (type === 'number') {
    const bad = values.find((v) => !/^-?\d+(\.\d+)?$/.test(v));
    if (bad !== undefined) return `${field} is a number and ${quoted(bad)} is not, as in "${field}:${op}:10,20"`;
  }
  if (type === 'date') {
    const form = field === 'month' ? 'yyyyMM' : 'yyyyMMdd';
    const bad = values.find((v) => !isCompactDate(v, form.length));
    if (bad !== undefined) return `${quoted(bad)} is not a ${field === 'month' ? 'month' : 'day'} written ${form}, ${example}`;
  }
  return undefined;
}

/** "20261101" (8 digits) or "202611" (6) naming a real day or month. */
function isCompactDate(text: string, digits: number): boolean {
  if (!new RegExp(`^\\d{${digits}}$`).test(text)) return false;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(4, 6));
  if (month < 1 || month > 12 || year < 1900) return false;
  if (digits === 6) return true;
  const day = Number(text.slice(6, 8));
  return day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
