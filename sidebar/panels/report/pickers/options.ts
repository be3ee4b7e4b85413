/**
 * Sort, order, currency, decimals and the row limit. The sort fields follow the breakdowns (the
 * fields a filter may use too); currency and decimals are offered only where the report takes them
 * (spec.ts), and the currencies are the core's one list of those Engage converts into. The row limit
 * is the formulas' maxRows: Run to sheet, Insert formula and Save to schedule all keep it.
 */
import {
  type BuilderRequest,
  DEC_DIGITS_MAX,
  FORMULA_MAX_ROWS,
  formatCount,
  REPORT_SPECS,
  SUPPORTED_CURRENCY_CODES,
} from '../../../../src/core';
import { el, field, replaceChildren, select } from '../../../dom';
import { usableFields } from './filters';
import type { PartContext } from '../part';

/** The service sorts by revenue when no sort is given: the list offers it once, as the default. */
const DEFAULT_SORT = 'revenue';

export interface RequestOptions {
  /** The sort row, the money row and the row limit, in form order. */
  readonly nodes: readonly HTMLElement[];
  /** Follows the builder's choice: its sort fields (keeping the chosen one where it still exists), currency and decimals where taken. */
  render(): void;
  /** Puts sort, order, currency, decimals and the row limit in the request, as the report takes them; or says what to fix. */
  apply(request: BuilderRequest): string | undefined;
  /** Shows a reopened report's sort, order, currency, decimals and row limit (after `render` for its breakdowns). */
  set(request: BuilderRequest): void;
}

export function requestOptions(ctx: PartContext): RequestOptions {
  const { sort, order, currency, decimals, maxRows } = optionControls();
  for (const control of [sort, order, currency, decimals]) control.addEventListener('change', () => ctx.changed());
  maxRows.addEventListener('input', () => ctx.changed());

  return {
    nodes: [
      el('div', { class: 'row' }, field('Sort by', sort), el('div', { class: 'narrow' }, field('Order', order))),
      el('div', { class: 'row' }, field('Currency', currency), field('Decimals', decimals)),
      field('Row limit', maxRows, 'The first rows in the sort order, of each publisher when there are several; empty for all.'),
    ],
    render() {
      const choice = ctx.choice();
      const previousSort = sort.value;
      replaceChildren(
        sort,
        el('option', { value: '' }, `${DEFAULT_SORT} (default)`),
        ...usableFields(choice)
          .filter((f) => f !== DEFAULT_SORT)
          .map((f) => el('option', { value: f, selected: f === previousSort }, f)),
      );
      const spec = REPORT_SPECS[choice.kind];
      currency.disabled = !spec.acceptsCurrency;
      decimals.disabled = !spec.acceptsDecDigits;
      currency.title = spec.acceptsCurrency ? '' : 'The realtime report is always in USD';
      decimals.title = spec.acceptsDecDigits ? '' : 'Only the general report takes decimals';
    },
    apply(request) {
      const spec = REPORT_SPECS[request.kind];
      if (sort.value) {
        request.sort = sort.value;
        request.order = order.value as 'asc' | 'desc';
      } else if (order.value === 'asc') {
        // Ascending without a field: by the default field, revenue.
        request.sort = DEFAULT_SORT;
        request.order = 'asc';
      }
      if (spec.acceptsCurrency) request.currencyCode = currency.value;
      if (spec.acceptsDecDigits) request.decDigits = Number(decimals.value);
      return applyRowLimit(maxRows, request);
    },
    set(request) {
      // Revenue is the default's own entry: "revenue asc" reads back as the default field, ascending.
      offer(sort, request.sort === DEFAULT_SORT ? '' : (request.sort ?? ''));
      order.value = request.order ?? 'desc';
      if (request.currencyCode) offer(currency, request.currencyCode);
      if (typeof request.decDigits === 'number') decimals.value = String(request.decDigits);
      maxRows.value = request.maxRows === undefined ? '' : String(request.maxRows);
    },
  };
}

/** The option controls: sort field, order, currency, decimals and the row limit. */
function optionControls() {
  const sort = el('select', { id: 'report-sort' });
  const order = select(
    [
      ['desc', 'Descending'],
      ['asc', 'Ascending'],
    ],
    'desc',
    { id: 'report-order' },
  );
  const currency = select(
    SUPPORTED_CURRENCY_CODES.map((c) => [c, c] as const),
    'USD',
    { id: 'report-currency' },
  );
  const decimals = select(
    Array.from({ length: DEC_DIGITS_MAX + 1 }, (_, i) => [String(i), String(i)] as const),
    '2',
    { id: 'report-decimals' },
  );
  const maxRows = el('input', {
    type: 'number',
    id: 'report-max-rows',
    min: 1,
    max: FORMULA_MAX_ROWS,
    step: 1,
    placeholder: 'All rows',
    inputmode: 'numeric',
  });
  return { sort, order, currency, decimals, maxRows };
}

/** Puts the row limit in the request; or marks the field and says what to write. */
function applyRowLimit(maxRows: HTMLInputElement, request: BuilderRequest): string | undefined {
  const limit = maxRows.value.trim();
  maxRows.setAttribute('aria-invalid', 'false');
  if (limit === '' && !maxRows.validity.badInput) return undefined;
  const n = Number(limit);
  if (!/^\d+$/.test(limit) || n < 1 || n > FORMULA_MAX_ROWS) {
    maxRows.setAttribute('aria-invalid', 'true');
    return `Row limit: write a whole number from 1 to ${formatCount(FORMULA_MAX_ROWS)}, or leave it empty for all rows.`;
  }
  request.maxRows = n;
  return undefined;
}

/** Chooses `value` in a list, adding it first when the list does not offer it (a reopened report's). */
function offer(control: HTMLSelectElement, value: string): void {
  if (!Array.from(control.options).some((o) => o.value === value)) control.appendChild(el('option', { value }, value));
  control.value = value;
}
