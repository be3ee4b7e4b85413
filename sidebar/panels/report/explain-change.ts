/**
 * "Explain the change" under a comparison in the report builder: pick a metric (those whose change
 * can be split exactly) and what to split it by, then Explain shows the drivers here, a short list that
 * reads at 300 px (each key's signed part of the change and its share, Other and Total, a ratio's mix
 * and rate), or Insert ENGAGE_EXPLAIN puts the formula in the active cell by Insert formula's path,
 * which asks before writing over cells. Both ask for the comparison's publisher, periods and filter,
 * the server checking them as the formula does. Shown only while the builder compares.
 */
import { type BuilderRequest, DATE_BREAKDOWNS, explainableMetrics, MAIN_BREAKDOWNS, MONEY_METRICS } from '../../../src/core';
import { el, field, notice, select } from '../../dom';
import type { Moments } from '../../moments';
import { failureText, type ServerClient } from '../../server';
import { insertFormulaButton } from './insert-formula';
import type { Busy } from './part';

export interface ExplainPart {
  readonly node: HTMLElement;
  /** Its action buttons, off while the tab is busy. */
  readonly buttons: readonly HTMLButtonElement[];
  /** Follows the builder's request: shown for a comparison only. */
  follow(request: BuilderRequest | string): void;
}

type Plain = string | number | boolean;
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
function driversList(values: Plain[][]): HTMLElement {
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
    { id: 'explain-drivers' },
    el(
      'div',
      { class: 'hint' },
      `${metric}: ${signed(total[changeAt]!, money)} (${unsigned(now!, money)} against ${unsigned(before!, money)}), largest part first:`,
    ),
    el('ol', { class: 'drivers' }, ...rows.slice(0, -1).map((row) => line(row, row[0] === 'Other' ? 'driver-other' : 'driver'))),
  );
}

export function explainPart(
  ctx: { server: ServerClient; moments: Moments },
  request: () => BuilderRequest | string,
  busy: Busy,
): ExplainPart {
  const metric = select(
    explainableMetrics().map((m) => [m, m] as const),
    'revenue',
    { id: 'explain-metric' },
  );
  const splits = MAIN_BREAKDOWNS.filter((b) => !DATE_BREAKDOWNS.has(b));
  const by = select(
    splits.map((b) => [b, b] as const),
    'widget',
    { id: 'explain-breakdown' },
  );
  const box = el('div', { id: 'explain-outcome', 'aria-live': 'polite' });
  const say = (node: HTMLElement) => ctx.moments.say(box, node, ['action', 'sign-in', 'form']);
  const asked = (): BuilderRequest | string => {
    const r = request();
    return typeof r === 'string' ? r : { ...r, explain: { metric: metric.value, breakdowns: [by.value] } };
  };
  const run = el('button', { type: 'button', id: 'explain-run', title: 'Split the change between the two periods here' }, 'Explain');
  run.addEventListener('click', async () => {
    const r = asked();
    if (typeof r === 'string') return say(notice('error', r));
    busy.setBusy(true);
    try {
      const { values } = await ctx.server.explainChange(r);
      say(driversList(values));
    } catch (problem) {
      say(notice('error', failureText(problem)));
    } finally {
      busy.setBusy(false);
    }
  });
  const insert = insertFormulaButton(
    ctx,
    asked,
    busy,
    { box, error: (text) => say(notice('error', text)) },
    { id: 'explain-insert', label: 'Insert ENGAGE_EXPLAIN', title: 'Put the ENGAGE_EXPLAIN formula of this comparison in the active cell' },
  );
  const node = el(
    'details',
    { id: 'explain-change', hidden: true },
    el('summary', {}, 'Explain the change'),
    el('div', { class: 'hint' }, 'Which key moved the metric between the two periods, split exactly.'),
    el('div', { class: 'row' }, field('Metric', metric), field('Split by', by)),
    el('div', { class: 'actions' }, run, insert),
    box,
  );
  return {
    node,
    buttons: [run, insert],
    follow(r) {
      node.hidden = typeof r === 'string' || !r.compareWith;
    },
  };
}
