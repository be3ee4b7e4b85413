/**
 * The metric picker: the report's metrics grouped as the API groups them, the default set of the
 * breakdowns ticked until the user ticks otherwise, those the breakdowns lack disabled with the
 * reason, and how many columns the report will take. The sets, labels and availability rules come
 * from the core (report-metrics.ts, report-fields.ts, report-table.ts).
 */
import {
  availableMetrics,
  compareColumnCount,
  compareDefaultMetrics,
  defaultMetrics,
  effectiveBreakdowns,
  METRIC_GROUPS,
  METRIC_INFO,
  metricAvailabilityProblem,
  metricLabel,
  metricNote,
  NEW_SHEET_COLUMNS,
  PUBLISHER_BREAKDOWN,
  REPORT_SPECS,
  type ReportKind,
  reportColumnCount,
} from '../../../../src/core';
import { el, notice, replaceChildren } from '../../../dom';
import type { PartContext } from '../part';

export interface MetricPicker {
  readonly node: HTMLElement;
  /** Back to the default set (a new report type). */
  reset(): void;
  /** Redraws the picker for the builder's choice. */
  render(): void;
  /** The metrics of the request: the ticked ones the breakdowns provide, in the spec's order. */
  chosen(): string[];
  /** Ticks exactly these (a reopened report's metrics); none given: the default set. */
  set(metrics: readonly string[] | undefined): void;
}

export function metricPicker(ctx: PartContext): MetricPicker {
  /** Metrics the user ticked; undefined while the picker shows the default set of the breakdowns. */
  let ticked: Set<string> | undefined;
  const summary = el('span', { id: 'metrics-summary' });
  const box = el('div', { id: 'report-metrics', role: 'group', 'aria-label': 'Metrics' });
  const why = el('div', { class: 'hint', id: 'metrics-why' });
  const width = el('div', { class: 'hint', id: 'metrics-width', 'aria-live': 'polite' });

  /** The default set: a comparison's is smaller, as each of its metrics takes four columns. */
  function defaults(): string[] {
    const { kind, breakdowns, comparing } = ctx.choice();
    const effective = effectiveBreakdowns(kind, breakdowns);
    return comparing ? compareDefaultMetrics(effective) : defaultMetrics(kind, effective);
  }

  function chosen(): string[] {
    const { kind, breakdowns } = ctx.choice();
    const effective = effectiveBreakdowns(kind, breakdowns);
    const set = ticked;
    if (!set) return defaults();
    return availableMetrics(kind, effective).filter((m) => set.has(m));
  }

  function tick(choice: Set<string> | undefined): void {
    ticked = choice;
    render();
    ctx.changed();
  }

  function toggle(metric: string, checked: boolean): void {
    // From the ticked set, so a metric the breakdowns hide for now comes back with them.
    const next = new Set(ticked ?? chosen());
    if (checked) next.add(metric);
    else next.delete(metric);
    tick(next);
  }

  /** By group: chosen metrics ticked, those the breakdowns lack disabled with the reason. */
  function render(): void {
    const choice = ctx.choice();
    const kind = choice.kind;
    const breakdowns = effectiveBreakdowns(kind, choice.breakdowns);
    const current = chosen();
    /** Labels of the unavailable metrics, by reason. */
    const reasons = new Map<string, string[]>();
    replaceChildren(box, ...metricGroups(kind, breakdowns, current, reasons, toggle));
    const unavailable = [...reasons].map(([reason, labels]) => `${labels.join(', ')}: ${reason.replace(/^is /, '')}`);
    replaceChildren(why, unavailable.length ? `Unavailable. ${unavailable.join('. ')}.` : '');
    const available = availableMetrics(kind, breakdowns);
    replaceChildren(summary, metricsSummary(current, current.join() === defaults().join(), available.length));
    const shown = choice.severalPublishers ? [PUBLISHER_BREAKDOWN, ...breakdowns] : breakdowns;
    const columns = choice.comparing ? compareColumnCount(shown, current) : reportColumnCount(kind, shown, current);
    replaceChildren(width, widthNote(current.length, columns));
  }

  return {
    node: pickerNode({ summary, box, why, width }, tick, () => new Set(REPORT_SPECS[ctx.choice().kind].metrics)),
    reset: () => {
      ticked = undefined;
    },
    render,
    chosen,
    set(metrics) {
      ticked = metrics ? new Set(metrics) : undefined;
      render();
    },
  };
}

/** The picker: its closed line, the groups, why some are unavailable, Default set and All, and the width below. */
function pickerNode(
  parts: { summary: HTMLElement; box: HTMLElement; why: HTMLElement; width: HTMLElement },
  tick: (choice: Set<string> | undefined) => void,
  allMetrics: () => Set<string>,
): HTMLElement {
  return el(
    'div',
    { class: 'field' },
    el(
      'details',
      { id: 'metrics-picker', class: 'metric-picker' },
      el('summary', {}, 'Metrics: ', parts.summary),
      parts.box,
      parts.why,
      el(
        'div',
        { class: 'row metric-actions' },
        el('button', { type: 'button', class: 'link', id: 'metrics-default', onclick: () => tick(undefined) }, 'Default set'),
        el('button', { type: 'button', class: 'link', id: 'metrics-all', onclick: () => tick(allMetrics()) }, 'All'),
      ),
    ),
    parts.width,
  );
}

/** The report's metrics in the API's groups; each unavailable one's label is added to `reasons` under its reason. */
function metricGroups(
  kind: ReportKind,
  breakdowns: readonly string[],
  current: readonly string[],
  reasons: Map<string, string[]>,
  toggle: (metric: string, checked: boolean) => void,
): Array<HTMLElement | null> {
  return METRIC_GROUPS.map((group) => {
    const metrics = REPORT_SPECS[kind].metrics.filter((m) => METRIC_INFO[m]?.group === group.id);
    if (metrics.length === 0) return null;
    const chips = metrics.map((metric) => {
      const blocker = metricAvailabilityProblem(kind, metric, breakdowns);
      if (blocker) reasons.set(blocker, [...(reasons.get(blocker) ?? []), metricLabel(metric)]);
      return metricChip(metric, current.includes(metric), blocker, toggle);
    });
    return el(
      'fieldset',
      { class: 'metric-group', id: `metric-group-${group.id}` },
      el('legend', {}, group.title),
      el('div', { class: 'checks' }, ...chips),
    );
  });
}

/** One metric's checkbox: ticked when chosen, disabled with the reason when the breakdowns lack it. */
function metricChip(
  metric: string,
  checked: boolean,
  blocker: string | null,
  toggle: (metric: string, checked: boolean) => void,
): HTMLElement {
  const input = el('input', {
    type: 'checkbox',
    name: 'metric',
    value: metric,
    checked,
    disabled: Boolean(blocker),
    'aria-describedby': 'metrics-why',
  });
  input.addEventListener('change', () => toggle(metric, input.checked));
  return el(
    'label',
    {
      class: `chip${checked ? ' checked' : ''}${blocker ? ' disabled' : ''}`,
      title: blocker ? `${metric} ${blocker}` : `${metric}: ${metricNote(metric)}`,
    },
    input,
    metricLabel(metric),
  );
}

/** The picker's closed line: none, the default set, all, or the chosen metrics by name. */
function metricsSummary(current: readonly string[], isDefault: boolean, availableCount: number): string {
  if (current.length === 0) return 'none chosen';
  if (isDefault) return `${current.length}, the default set`;
  if (current.length === availableCount) return `all ${current.length}`;
  return `${current.length}: ${current.map(metricLabel).join(', ')}`;
}

/** How many columns the report will take from its first cell, or that it needs a metric. */
function widthNote(chosenCount: number, columns: number): HTMLElement | string {
  if (chosenCount === 0) return notice('warning', 'Choose at least one metric.');
  if (columns > NEW_SHEET_COLUMNS)
    return `Up to ${columns} columns, more than the ${NEW_SHEET_COLUMNS} of a new sheet: Insert formula adds the columns it needs first.`;
  return `Up to ${columns} columns from the first cell.`;
}
