/**
 * The filter rows: a field, an operator and a value each, turned into the API's filter text by the
 * core's buildFilter and shown under the rows as it will be sent. The fields offered follow the
 * breakdowns, and the operators follow the field's type (the core's filter-fields.ts: a number is not
 * offered `contains`, an ID not `gt`); a row that cannot become a condition says why, and the request
 * waits for it. A row is two lines, so that each control can be read in a 300 px sidebar: the field
 * across the row (with the remove button), then the operator and the value. A report reopened from the sheet brings its
 * filter text back as rows (`set`).
 */
import {
  buildFilter,
  effectiveBreakdowns,
  ENTITY_BREAKDOWNS,
  fieldProblem,
  filterExample,
  filterOperatorsFor,
  filterTypeProblem,
  type FilterCondition,
  type FilterOperator,
  parseFilter,
  REPORT_SPECS,
  type ReportKind,
} from '../../../../src/core';
import { el, notice, replaceChildren, select } from '../../../dom';
import { failureText } from '../../../server';
import type { PartContext, ReportChoice } from '../part';

const OPERATOR_LABELS: Record<FilterOperator, string> = {
  eq: '=',
  gt: '>',
  lt: '<',
  between: 'between',
  in: 'is one of',
  not_in: 'is none of',
  contains: 'contains',
  not_contains: 'does not contain',
};

interface FilterRow {
  field: HTMLSelectElement;
  operator: HTMLSelectElement;
  value: HTMLInputElement;
  node: HTMLElement;
  /** Whether its value was typed, or left empty: a new row's empty value is no problem to show yet. */
  typed: boolean;
}

/** Fields a filter or sort may use with these breakdowns. */
export function usableFields({ kind, breakdowns: chosen }: ReportChoice): string[] {
  const spec = REPORT_SPECS[kind];
  const breakdowns = effectiveBreakdowns(kind, chosen);
  const fields = spec.metrics.filter((m) => fieldProblem(kind, m, breakdowns) === null);
  for (const b of breakdowns) {
    if (ENTITY_BREAKDOWNS.has(b)) fields.push(`${b}.id`, `${b}.name`);
    else fields.push(b);
  }
  return fields;
}

/** The operator a new row, or a row whose field changed type, starts with. */
const FIRST_CHOICE: readonly FilterOperator[] = ['gt', 'contains', 'in'];

/** The operator choices of a field, keeping `current` (chosen, or a reopened report's) when given. */
function operatorOptions(kind: ReportKind, fieldName: string, current?: FilterOperator): HTMLOptionElement[] {
  const offered = [...filterOperatorsFor(kind, fieldName)];
  const chosen = current ?? FIRST_CHOICE.find((op) => offered.includes(op)) ?? offered[0];
  // A reopened report's operator the field does not take stays visible, and the row says why it cannot be sent.
  if (chosen && !offered.includes(chosen)) offered.push(chosen);
  return offered.map((op) => el('option', { value: op, selected: op === chosen }, OPERATOR_LABELS[op]));
}

/** A condition from a filter row, or an error sentence. */
function conditionOf(kind: ReportKind, fieldName: string, op: FilterOperator, raw: string): FilterCondition | string {
  const c = rowCondition(fieldName, op, raw);
  return typeof c === 'string' ? c : (filterTypeProblem(kind, c) ?? c);
}

function rowCondition(fieldName: string, op: FilterOperator, raw: string): FilterCondition | string {
  const text = raw.trim();
  if (text === '') return `${fieldName}: enter a value`;
  const num = (s: string) => (/^-?\d+(\.\d+)?$/.test(s.trim()) ? Number(s.trim()) : NaN);
  switch (op) {
    case 'eq':
    case 'gt':
    case 'lt': {
      const n = num(text);
      return Number.isNaN(n) ? `${fieldName}: '${text}' is not a number` : { field: fieldName, op, value: n };
    }
    case 'between': {
      const parts = text.split(',');
      const [low, high] = parts.map(num);
      if (parts.length !== 2 || Number.isNaN(low!) || Number.isNaN(high!)) return `${fieldName}: write two numbers, as 10,20`;
      return { field: fieldName, op, value: [low!, high!] };
    }
    case 'in':
    case 'not_in':
      return {
        field: fieldName,
        op,
        value: text
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== ''),
      };
    default:
      return { field: fieldName, op, value: text };
  }
}

export interface FilterRows {
  readonly node: HTMLElement;
  /** Removes every row (a new report type). */
  clear(): void;
  /** Offers the fields of the builder's choice in every row, keeping each row's field where it still exists. */
  render(): void;
  /** The filter text ("" for none), or the first problem with a row. */
  expression(): string | { problem: string };
  /** Rows for a filter text (a report reopened from the sheet); after the builder's choice is set. */
  set(filter: string): void;
}

export function filterRows(ctx: PartContext): FilterRows {
  let rows: FilterRow[] = [];
  const box = el('div', { id: 'filter-rows' });
  const text = el('div', { class: 'hint', id: 'filter-text' });

  const expression = () => rowsExpression(ctx.choice().kind, rows);

  function renderText(): void {
    const filter = expression();
    // A row added and not typed in yet: the run still refuses it, but the line waits for the value.
    if (typeof filter !== 'string') replaceChildren(text, filter.waiting ? '' : notice('warning', filter.problem));
    else replaceChildren(text, filter ? el('span', {}, 'Filter: ', el('code', {}, filter)) : '');
  }

  const offerOperators = (row: FilterRow, current: FilterOperator | undefined, keepUnfit = false) =>
    offerRowOperators(ctx.choice().kind, row, current, keepUnfit);

  /** After an edit of the rows: the text under them, then whatever follows in the builder. */
  function edited(): void {
    renderText();
    ctx.changed();
  }

  function addRow(initial?: { field: string; op: FilterOperator; value: string }): void {
    const fields = usableFields(ctx.choice());
    if (initial && !fields.includes(initial.field)) fields.push(initial.field);
    const { row, remove } = rowControls(fields, initial);
    const { field: fieldSelect, operator, value, node } = row;
    offerOperators(row, initial?.op, true);
    fieldSelect.addEventListener('input', () => offerOperators(row, row.operator.value as FilterOperator));
    followTyping(row, () => ctx.choice().kind, renderText);
    remove.addEventListener('click', () => {
      node.remove();
      rows = rows.filter((r) => r !== row);
      edited();
    });
    for (const control of [fieldSelect, operator, value]) control.addEventListener('input', edited);
    rows.push(row);
    box.appendChild(node);
    if (initial) return;
    value.focus();
    edited();
  }

  const add = el('button', { type: 'button', class: 'link', id: 'filter-add', onclick: () => addRow() }, '+ Add filter');
  return {
    node: el('div', { class: 'field' }, el('span', { class: 'label' }, 'Filters'), box, add, text),
    clear() {
      for (const row of rows) row.node.remove();
      rows = [];
    },
    render() {
      const fields = usableFields(ctx.choice());
      for (const row of rows) {
        const previous = row.field.value;
        replaceChildren(row.field, ...fields.map((f) => el('option', { value: f, selected: f === previous }, f)));
        offerOperators(row, row.operator.value as FilterOperator, row.field.value === previous);
      }
      renderText();
    },
    expression,
    set(filter) {
      for (const row of rows) row.node.remove();
      rows = [];
      for (const c of savedConditions(filter)) {
        const value = Array.isArray(c.value) ? c.value.join(',') : String(c.value);
        addRow({ field: c.field, op: c.op, value });
      }
      renderText();
    },
  };
}

/** The value's example follows the operator (two values for between, a list for in); once typed in or left, the row says what it lacks. */
function followTyping(row: FilterRow, kind: () => ReportKind, renderText: () => void): void {
  row.operator.addEventListener('input', () => {
    row.value.placeholder = valuePlaceholder(kind(), row.field.value, row.operator.value as FilterOperator);
  });
  for (const event of ['input', 'blur'])
    row.value.addEventListener(event, () => {
      if (row.typed) return;
      row.typed = true;
      renderText();
    });
}

/**
 * The filter text of the rows ("" for none), or the first problem with a row (which is marked invalid);
 * `waiting`: the row is new and its value not typed in yet.
 */
function rowsExpression(kind: ReportKind, rows: readonly FilterRow[]): string | { problem: string; waiting?: boolean } {
  const conditions: FilterCondition[] = [];
  for (const row of rows) {
    const c = conditionOf(kind, row.field.value, row.operator.value as FilterOperator, row.value.value);
    // A new row's empty value is not outlined before it is typed in or left.
    const waiting = !row.typed && row.value.value.trim() === '';
    row.value.setAttribute('aria-invalid', String(typeof c === 'string' && !waiting));
    if (typeof c === 'string') return waiting ? { problem: c, waiting } : { problem: c };
    conditions.push(c);
  }
  try {
    return buildFilter(conditions);
  } catch (error) {
    return { problem: failureText(error) };
  }
}

/**
 * The operators of the row's field, keeping the chosen one when the field takes it; the value's
 * placeholder is an example of the field's type and the operator ("20261101" for a day).
 */
function offerRowOperators(kind: ReportKind, row: FilterRow, current: FilterOperator | undefined, keepUnfit: boolean): void {
  const field = row.field.value;
  const keep = current && (keepUnfit || filterOperatorsFor(kind, field).includes(current)) ? current : undefined;
  replaceChildren(row.operator, ...operatorOptions(kind, field, keep));
  row.value.placeholder = valuePlaceholder(kind, field, row.operator.value as FilterOperator);
}

/** An example of the value for the field's type and the operator: "100", "100,200" for between, "US,DE" for in. */
function valuePlaceholder(kind: ReportKind, field: string, op: FilterOperator): string {
  const example = filterExample(kind, field).split(':').slice(2).join(':');
  const [first = '', second] = example.split(',');
  const two = second !== undefined ? example : /^\d+$/.test(first) ? `${first},${Number(first) * 2}` : `${first},sport`;
  return op === 'between' || op === 'in' || op === 'not_in' ? two : first;
}

/** A row's controls on its two lines: the field with the remove button, then the operator and the value. */
function rowControls(
  fields: readonly string[],
  initial: { field: string; op: FilterOperator; value: string } | undefined,
): { row: FilterRow; remove: HTMLButtonElement } {
  const fieldSelect = select(
    fields.map((f) => [f, f] as const),
    initial?.field ?? (fields.includes('revenue') ? 'revenue' : fields[0]),
    { 'aria-label': 'Filter field', class: 'filter-field' },
  );
  const operator = el('select', { 'aria-label': 'Operator', class: 'filter-operator' });
  const value = el('input', { type: 'text', 'aria-label': 'Value', class: 'filter-value', value: initial?.value });
  const remove = el('button', { type: 'button', class: 'icon', 'aria-label': 'Remove filter', title: 'Remove filter' }, '✕');
  const node = el(
    'div',
    { class: 'filter-row', role: 'group', 'aria-label': 'Filter' },
    el('div', { class: 'filter-line' }, fieldSelect, remove),
    el('div', { class: 'filter-line' }, operator, value),
  );
  return { row: { field: fieldSelect, operator, value, node, typed: initial !== undefined }, remove };
}

/** The conditions of a saved filter text; none when the rows cannot show it (the summary line then says there is none). */
function savedConditions(filter: string): FilterCondition[] {
  try {
    return parseFilter(filter);
  } catch {
    return [];
  }
}
