/**
 * Add chart: the button and, under the actions, why it is off, in words on the page (not only in a
 * tooltip). It charts the last run's block while the form still describes that run: a run of the
 * general report broken down by day alone, with revenue and RPM and at least one row, can be charted;
 * before any run, after a failed run and for any other report the button is off and says why. Once the
 * form changes, the reason is the form's as it is now: what in it the chart cannot draw, or that it has
 * to be run to the sheet first.
 */
import { type BuilderRequest, MAIN_BREAKDOWNS, type RunToSheetSummary } from '../../../src/core';
import { el, replaceChildren } from '../../dom';
import { failureText, type ServerClient } from '../../server';
import type { Busy } from './part';

/** What the chart needs to know of a run: where it wrote, its header and how many rows. */
export type ChartableRun = Pick<RunToSheetSummary, 'block' | 'header' | 'dataRows'>;

/** Why a run cannot be charted (or there is nothing to chart), or undefined when it can. */
export function chartBlocker(run: Pick<ChartableRun, 'header' | 'dataRows'> | 'failed' | undefined): string | undefined {
  if (run === undefined) return 'Add chart needs a report run to the sheet first, broken down by day alone.';
  if (run === 'failed') return 'The last run failed, so there is nothing new to chart: run the report again.';
  const { header } = run;
  if (header.some((h) => h.endsWith('.previous')))
    return 'The chart draws a plain report, and the last run compared two periods: run it without Compare with.';
  if (header.includes('publisher.id')) return 'The chart draws one publisher by day: run the report for one publisher.';
  const others = MAIN_BREAKDOWNS.filter((b) => b !== 'day');
  const other = header.find((h) => others.some((b) => h === b || h.startsWith(`${b}.`)));
  if (!header.includes('day') || other !== undefined) {
    const by = other ? ` (this one is also by ${other.replace(/\..*$/, '')})` : '';
    return `The chart draws one line per day: run a general report broken down by day alone${by}.`;
  }
  if (!header.includes('revenue') || !(header.includes('rpmByPvs') || header.includes('reqsRpm')))
    return 'The chart draws revenue and RPM: choose both metrics and run the report again.';
  if (run.dataRows === 0) return 'The report has no rows to draw.';
  return undefined;
}

/** The columns a run of the form would write, as far as the chart's rules read them (its rows are not known before it runs). */
export function formColumns(request: BuilderRequest): string[] {
  const publishers = request.entityId === 'all' || request.entityId.includes(',') ? ['publisher.id'] : [];
  const times = request.kind === 'main' ? [] : ['hour'];
  // Left out, the metrics are the default set, which has revenue and RPM.
  const metrics = request.metrics ?? ['revenue', 'rpmByPvs'];
  const previous = request.compareWith ? metrics.map((m) => `${m}.previous`) : [];
  return [...publishers, ...times, ...request.breakdowns, ...metrics, ...previous];
}

/** Why the chart cannot draw what the form describes now, after a run of another report; undefined when it can, once run. */
function formBlocker(form: BuilderRequest | string): string {
  const header = typeof form === 'string' ? [] : formColumns(form);
  // Its rows are counted once it runs.
  const why = typeof form === 'string' ? undefined : chartBlocker({ header, dataRows: 1 });
  return why ?? 'The form changed since the last run: run this report to the sheet, then Add chart draws it.';
}

export interface ChartAction {
  readonly button: HTMLButtonElement;
  /** The line under the actions that says why the button is off. */
  readonly reason: HTMLElement;
  /** A run of `request` wrote this block. */
  ran(run: ChartableRun, request: BuilderRequest): void;
  /** A run of `request` failed: the block on the sheet is not the one the form describes. */
  failed(request: BuilderRequest): void;
  /** The form as it is now (or its first problem): once it is no longer the last run's, the reason is its own. */
  follow(form: BuilderRequest | string): void;
  /** While another action runs, the button is off too (without a reason: it is only waiting). */
  setBusy(busy: boolean): void;
}

export function chartAction(
  server: ServerClient,
  busy: Busy,
  show: { success(text: string): void; error(text: string): void },
): ChartAction {
  const button = el('button', { type: 'button', id: 'add-chart', disabled: true, 'aria-describedby': 'chart-why' }, 'Add chart');
  const reason = el('div', { class: 'hint', id: 'chart-why', 'aria-live': 'polite' });
  let run: ChartableRun | 'failed' | undefined;
  /** The request of the last run, and the form's now, as JSON: the run is charted while they are the same. */
  let ranWith: string | undefined;
  let form: BuilderRequest | string = '';
  const current = () => ranWith !== undefined && ranWith === JSON.stringify(form);

  function render(): void {
    const why = run === undefined || current() ? chartBlocker(run) : formBlocker(form);
    button.disabled = busy.isBusy() || why !== undefined;
    button.title = why ?? 'Add a chart of revenue and RPM by day beside the data';
    replaceChildren(reason, why ?? '');
    reason.hidden = why === undefined;
  }

  button.addEventListener('click', async () => {
    if (busy.isBusy() || run === undefined || run === 'failed' || chartBlocker(run) || !current()) return;
    busy.setBusy(true);
    try {
      const result = await server.addChart(run.block);
      show.success(`Added the chart “${result.chartTitle}” beside the data.`);
    } catch (error) {
      show.error(failureText(error));
    } finally {
      busy.setBusy(false);
    }
  });
  render();
  return {
    button,
    reason,
    ran(next, request) {
      run = { block: next.block, header: next.header, dataRows: next.dataRows };
      ranWith = JSON.stringify(request);
      form = request;
      render();
    },
    failed(request) {
      run = 'failed';
      ranWith = JSON.stringify(request);
      form = request;
      render();
    },
    follow(next) {
      form = next;
      render();
    },
    setBusy: render,
  };
}
