/**
 * The drivers of a change as Explain the change shows them: a short list that reads at 300 px, each
 * key's signed part of the change and its share, Other and Total, a ratio's mix and rate, from
 * ENGAGE_EXPLAIN's table (header first, Total last).
 */
import { MONEY_METRICS } from '../../../../src/core';
import { el } from '../../../dom';

export type Plain = string | number | boolean;
const MINUS = '\u2212';

/** A figure: money in Engage's default currency (the formula's: it takes none), others grouped. */
function unsigned(value: Plain, money: boolean, digits = 4): string {
  const options: Intl.NumberFormatOptions = money
    ? { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }
    : { maximumFractionDigits: digits };
  return Math.abs(Number(value)).toLocaleString('en-US', options);
}

/** The same, signed: "−$253.30", "+0.0171". */
function signed(value: Plain, money: boolean): string {
  const n = Number(value);
  return `${n < 0 ? MINUS : n > 0 ? '+' : ''}${unsigned(n, money)}`;
}

const percentText = (p: number) => `${Math.round(p) < 0 ? MINUS : ''}${Math.abs(Math.round(p))}%`;

/** The drivers as a list: each key's label, its signed part and share, then Other and Total. */
export function driversList(values: Plain[][], id = 'explain-drivers'): HTMLElement {
  const header = values[0]!.map(String);
  const changeAt = header.findIndex((h) => h.endsWith('.change'));
  const metric = header[changeAt]!.slice(0, -'.change'.length);
  const at = (suffix: string) => header.indexOf(`${metric}${suffix}`);
  const money = MONEY_METRICS.has(metric) && at('.mix') < 0;
  const keyWidth = header.indexOf(metric);
  const label = (row: Plain[]) => {
    if (row[0] === 'Other') return row[1] ? `Other (${row[1]})` : 'Other';
    const parts: string[] = [];
    for (let c = 0; c < keyWidth; c++) {
      const name = header[c]!;
      // An entity's name where it has one, else its id or text.
      if (name.endsWith('.id') && header[c + 1] === name.replace(/\.id$/, '.name') && String(row[c + 1] ?? '') !== '') continue;
      parts.push(String(row[c]));
    }
    return parts.join(' · ');
  };
  const line = (row: Plain[], cls: string) => {
    const share = row[at('.share%')];
    const mix = at('.mix') >= 0 ? ` mix ${signed(row[at('.mix')]!, false)}, rate ${signed(row[at('.rate')]!, false)}` : '';
    return el(
      'li',
      { class: cls },
      el('span', { class: 'driver-key' }, label(row)),
      ' ',
      el('span', { class: 'driver-change' }, signed(row[changeAt]!, money)),
      share === '' || share === undefined ? '' : el('span', { class: 'driver-share' }, ` (${percentText(Number(share))})`),
      mix ? el('div', { class: 'hint' }, mix) : '',
    );
  };
  const rows = values.slice(1);
  const total = rows[rows.length - 1]!;
  const now = total[at('')];
  const before = total[at('.previous')];
  return el(
    'div',
    { id },
    el(
      'div',
      { class: 'hint' },
      `${metric}: ${signed(total[changeAt]!, money)} (${unsigned(now!, money)} against ${unsigned(before!, money)}), largest part first:`,
    ),
    el('ol', { class: 'drivers' }, ...rows.slice(0, -1).map((row) => line(row, row[0] === 'Other' ? 'driver-other' : 'driver'))),
  );
}
