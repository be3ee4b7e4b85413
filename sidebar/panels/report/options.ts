/**
 * Sort, order, currency and decimals. The sort fields follow the breakdowns (the fields a filter may
 * use too); currency and decimals are offered only where the report takes them (spec.ts).
 */
import { type BuilderRequest, DEC_DIGITS_MAX, REPORT_SPECS } from '../../../src/core';
import { el, field, replaceChildren, select } from '../../dom';
import { usableFields } from './filters';
import type { PartContext } from './part';

const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CAD', 'AUD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'BRL', 'INR', 'ILS'];

export interface RequestOptions {
  /** The sort row and the money row, in form order. */
  readonly nodes: readonly HTMLElement[];
  /** Follows the builder's choice: its sort fields (keeping the chosen one where it still exists), currency and decimals where taken. */
  render(): void;
  /** Puts sort, order, currency and decimals in the request, as the report takes them. */
  apply(request: BuilderRequest): void;
  /** Shows a reopened report's sort, order, currency and decimals (after `render` for its breakdowns). */
  set(request: BuilderRequest): void;
}

export function requestOptions(ctx: PartContext): RequestOptions {
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
    CURRENCIES.map((c) => [c, c] as const),
    'USD',
    { id: 'report-currency' },
  );
  const decimals = select(
    Array.from({ length: DEC_DIGITS_MAX + 1 }, (_, i) => [String(i), String(i)] as const),
    '2',
    { id: 'report-decimals' },
  );
  for (const control of [sort, order, currency, decimals]) control.addEventListener('change', () => ctx.changed());

  return {
    nodes: [
      el('div', { class: 'row' }, field('Sort by', sort), el('div', { class: 'narrow' }, field('Order', order))),
      el('div', { class: 'row' }, field('Currency', currency), field('Decimals', decimals)),
    ],
    render() {
      const choice = ctx.choice();
      const previousSort = sort.value;
      replaceChildren(
        sort,
        el('option', { value: '' }, 'revenue (default)'),
        ...usableFields(choice).map((f) => el('option', { value: f, selected: f === previousSort }, f)),
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
      }
      if (spec.acceptsCurrency) request.currencyCode = currency.value;
      if (spec.acceptsDecDigits) request.decDigits = Number(decimals.value);
    },
    set(request) {
      const offer = (control: HTMLSelectElement, value: string) => {
        if (!Array.from(control.options).some((o) => o.value === value)) control.appendChild(el('option', { value }, value));
        control.value = value;
      };
      offer(sort, request.sort ?? '');
      order.value = request.order ?? 'desc';
      if (request.currencyCode) offer(currency, request.currencyCode);
      if (typeof request.decDigits === 'number') decimals.value = String(request.decDigits);
    },
  };
}
