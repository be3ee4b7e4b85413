/**
 * "Explain the change" of a comparison: pick a metric (those whose change can be split exactly) and
 * what to split it by, then Explain shows the drivers here (drivers-list.ts), Insert ENGAGE_EXPLAIN
 * puts the formula in a cell by Insert formula's path, which asks before writing over cells, and Run
 * to sheet writes the same table to a sheet by Run to sheet's path (explain-to-sheet.ts). All three
 * ask for the comparison's publisher, periods and filter, the server checking them as the formula
 * does. The builder shows it under its comparison, the formula in the active cell; explain-here.ts
 * shows it for the ENGAGE_COMPARE in the selected cell, its formula going beside that cell.
 */
import { type BuilderRequest, DATE_BREAKDOWNS, explainableMetrics, MAIN_BREAKDOWNS } from '../../../../src/core';
import { el, field, notice, select } from '../../../dom';
import type { Moments } from '../../../moments';
import { failureText, type ServerClient } from '../../../server';
import { insertFormulaButton } from '../insert-formula';
import type { Busy } from '../part';
import { driversList } from './drivers-list';
import { explainToSheetButton } from './explain-to-sheet';

export interface ExplainPart {
  readonly node: HTMLDetailsElement;
  /** Its action buttons, off while the tab is busy. */
  readonly buttons: readonly HTMLButtonElement[];
  /** Follows the builder's request: shown for a comparison only. */
  follow(request: BuilderRequest | string): void;
  /** Starts the pickers from a comparison's own metrics and breakdowns: the first of each that fits. */
  preset(metrics: readonly string[], breakdowns: readonly string[]): void;
}

/** Where the part is: its elements' ids start with `prefix`; `insertAt` is the cell ENGAGE_EXPLAIN goes to (else the active cell). */
export interface ExplainPlace {
  prefix: string;
  insertAt?: () => { sheetName: string; cell: string } | undefined;
}

export function explainPart(
  ctx: { server: ServerClient; moments: Moments },
  request: () => BuilderRequest | string,
  busy: Busy,
  place: ExplainPlace = { prefix: 'explain' },
): ExplainPart {
  const id = (name: string) => `${place.prefix}-${name}`;
  const metrics = explainableMetrics();
  const metric = select(
    metrics.map((m) => [m, m] as const),
    'revenue',
    { id: id('metric') },
  );
  const splits = MAIN_BREAKDOWNS.filter((b) => !DATE_BREAKDOWNS.has(b));
  const by = select(
    splits.map((b) => [b, b] as const),
    'widget',
    { id: id('breakdown') },
  );
  const box = el('div', { id: id('outcome'), 'aria-live': 'polite' });
  const say = (node: HTMLElement) => ctx.moments.say(box, node, ['action', 'sign-in', 'form']);
  const asked = (): BuilderRequest | string => {
    const r = request();
    return typeof r === 'string' ? r : { ...r, explain: { metric: metric.value, breakdowns: [by.value] } };
  };
  const run = el('button', { type: 'button', id: id('run'), title: 'Split the change between the two periods here' }, 'Explain');
  run.addEventListener('click', async () => {
    const r = asked();
    if (typeof r === 'string') return say(notice('error', r));
    busy.setBusy(true);
    try {
      const { values } = await ctx.server.explainChange(r);
      say(driversList(values, id('drivers')));
    } catch (problem) {
      say(notice('error', failureText(problem)));
    } finally {
      busy.setBusy(false);
    }
  });
  const show = { box, error: (text: string) => say(notice('error', text)) };
  const insert = insertFormulaButton(
    ctx,
    asked,
    busy,
    show,
    {
      id: id('insert'),
      label: 'Insert ENGAGE_EXPLAIN',
      title: place.insertAt
        ? 'Put the ENGAGE_EXPLAIN formula of this comparison beside it'
        : 'Put the ENGAGE_EXPLAIN formula of this comparison in the active cell',
    },
    place.insertAt,
  );
  const toSheet = explainToSheetButton(ctx, asked, busy, show, id('to-sheet'));
  const node = el(
    'details',
    { id: id('change'), hidden: true },
    el('summary', {}, 'Explain the change'),
    el('div', { class: 'hint' }, 'Which key moved the metric between the two periods, split exactly.'),
    el('div', { class: 'row' }, field('Metric', metric), field('Split by', by)),
    el('div', { class: 'actions' }, run, insert, toSheet),
    box,
  );
  return {
    node,
    buttons: [run, insert, toSheet],
    follow(r) {
      node.hidden = typeof r === 'string' || !r.compareWith;
    },
    preset(wanted, breakdowns) {
      const m = wanted.find((w) => metrics.includes(w));
      if (m) metric.value = m;
      const b = breakdowns.find((w) => (splits as readonly string[]).includes(w));
      if (b) by.value = b;
    },
  };
}
