/**
 * The Report tab: the report builder. The user picks a publisher, a report type, a period (presets
 * in the spreadsheet's zone for the general report, 24-hour UTC windows for the hourly ones),
 * breakdowns (forbidden pairs and a fifth choice disabled, with the reason), metrics (grouped, the
 * default set preselected, those the breakdowns lack disabled), filters, sort, currency and the
 * target; then runs it to the sheet, inserts the equivalent formula, adds a chart, or saves it to a
 * refresh schedule (a small Schedule section: name, moving period, how often, target cell,
 * incremental where allowed; the Schedules tab then lists it).
 *
 * The rules come from the core (spec.ts, report-fields.ts, report-metrics.ts, filters.ts,
 * date-presets.ts, formula-text.ts), bundled into the sidebar, so the sidebar refuses what the
 * server would refuse and shows the exact formula the server will insert. The server validates
 * again anyway.
 */
import type { BuilderRequest, RunTarget } from '../../src/core/builder-request';
import { hourWindowFrom, presetRange, presetsFor, PRESET_LABELS, type DatePreset, type DateRange } from '../../src/core/date-presets';
import { buildFilter, FILTER_OPERATORS, type FilterCondition, type FilterOperator } from '../../src/core/filters';
import { reportFormula } from '../../src/core/formula-text';
import { effectiveBreakdowns, fieldProblem, metricAvailabilityProblem } from '../../src/core/report-fields';
import { availableMetrics, defaultMetrics, METRIC_GROUPS, METRIC_INFO, metricLabel, metricNote } from '../../src/core/report-metrics';
import { reportColumnCount } from '../../src/core/report-table';
import type { RunSummary } from '../../src/core/sidebar-reports';
import {
  DEC_DIGITS_MAX, ENTITY_BREAKDOWNS, MAIN_FORBIDDEN_BREAKDOWN_PAIRS, MAIN_MAX_BREAKDOWNS, REPORT_SPECS, type ReportKind,
} from '../../src/core/spec';
import { incrementalProblem, type Period } from '../../src/core/saved-reports';
import { A1_CELL_PATTERN, a1Cell, splitCellReference } from '../../src/core/a1-notation';
import { describePeriod, periodForPreset, savedReportFromBuilder } from '../../src/core/schedule-draft';
import { taggingProblems, taggingSnippets } from '../../src/core/tagging-snippet';
import { el, field, notice, replaceChildren, select } from '../dom';
import type { Panel, PanelContext } from '../panel';
import { scheduleFields } from '../schedule-fields';
import { failureText } from '../server';

const KIND_LABELS: Record<ReportKind, string> = { main: 'General', externalId: 'External ID', realtime: 'Realtime' };
const FRESHNESS: Record<ReportKind, string> = {
  main: 'Figures arrive 2 to 4 hours late, and today’s are partial.',
  externalId: 'Hourly, in UTC, at most 24 hours per report. External IDs appear 48 hours after pages are tagged.',
  realtime: 'Only the last 48 hours (UTC). Up to 30 minutes late, with up to 5% error; revenue in USD.',
};
const OPERATOR_LABELS: Record<FilterOperator, string> = {
  eq: '=', gt: '>', lt: '<', between: 'between', in: 'is one of', not_in: 'is none of', contains: 'contains', not_contains: 'does not contain',
};
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CAD', 'AUD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'BRL', 'INR', 'ILS'];
/** A run polls its progress this often. */
const PROGRESS_POLL_MS = 700;
/** Columns of a new Google Sheet: a formula's result wider than that needs columns added. */
const NEW_SHEET_COLUMNS = 26;

interface FilterRow {
  field: HTMLSelectElement;
  operator: HTMLSelectElement;
  value: HTMLInputElement;
  node: HTMLElement;
}

/** Why a breakdown cannot be added to the current choice, or undefined when it can. */
export function breakdownBlocker(kind: ReportKind, chosen: readonly string[], candidate: string): string | undefined {
  if (chosen.includes(candidate)) return undefined;
  if (kind !== 'main') return undefined;
  for (const [a, b] of MAIN_FORBIDDEN_BREAKDOWN_PAIRS) {
    const other = candidate === a ? b : candidate === b ? a : undefined;
    if (other && chosen.includes(other)) return `${candidate} cannot be combined with ${other}`;
  }
  if (chosen.length >= MAIN_MAX_BREAKDOWNS) return `at most ${MAIN_MAX_BREAKDOWNS} breakdowns`;
  return undefined;
}

/** What a choice of breakdowns does to the metrics. */
export function breakdownHints(kind: ReportKind, chosen: readonly string[]): string[] {
  const hints: string[] = [];
  if (kind === 'main') {
    if (chosen.includes('widget')) hints.push('Widget brings request metrics (paidReqs, totalReqs, organicReqs) instead of page-view metrics.');
    if (chosen.includes('doc')) hints.push('Doc drops the opt-in rates and covers only the last 12 months.');
    if (chosen.length === 0) hints.push('No breakdown: the report is by day.');
  } else {
    hints.push('externalId is always included' + (kind === 'realtime' ? ' (first, unless you order it otherwise).' : ' as the first column.'));
  }
  return hints;
}

/** Why the Add chart button is off for a run with this header, or undefined when it can draw. */
export function chartBlocker(header: readonly string[]): string | undefined {
  if (!header.includes('day')) return 'Run a report broken down by day first';
  if (!header.includes('revenue') || !(header.includes('rpmByPvs') || header.includes('reqsRpm'))) return 'The chart draws revenue and RPM: choose both metrics and run the report again';
  return undefined;
}

/** Fields a filter or sort may use with these breakdowns. */
function usableFields(kind: ReportKind, chosen: readonly string[]): string[] {
  const spec = REPORT_SPECS[kind];
  const breakdowns = effectiveBreakdowns(kind, chosen);
  const fields = spec.metrics.filter((m) => fieldProblem(kind, m, breakdowns) === null);
  for (const b of breakdowns) {
    if (ENTITY_BREAKDOWNS.has(b)) fields.push(`${b}.id`, `${b}.name`);
    else fields.push(b);
  }
  return fields;
}

/** A condition from a filter row, or an error sentence. */
function conditionOf(fieldName: string, op: FilterOperator, raw: string): FilterCondition | string {
  const text = raw.trim();
  if (text === '') return `${fieldName}: enter a value`;
  const num = (s: string) => (/^-?\d+(\.\d+)?$/.test(s.trim()) ? Number(s.trim()) : NaN);
  switch (op) {
    case 'eq': case 'gt': case 'lt': {
      const n = num(text);
      return Number.isNaN(n) ? `${fieldName}: '${text}' is not a number` : { field: fieldName, op, value: n };
    }
    case 'between': {
      const parts = text.split(',');
      const [low, high] = parts.map(num);
      if (parts.length !== 2 || Number.isNaN(low!) || Number.isNaN(high!)) return `${fieldName}: write two numbers, as 10,20`;
      return { field: fieldName, op, value: [low!, high!] };
    }
    case 'in': case 'not_in':
      return { field: fieldName, op, value: text.split(',').map((v) => v.trim()).filter((v) => v !== '') };
    default:
      return { field: fieldName, op, value: text };
  }
}

let builder: ReportBuilder | undefined;
export const panel: Panel = {
  id: 'report',
  title: 'Report',
  mount(container, ctx) {
    builder = new ReportBuilder(container, ctx);
    builder.start();
  },
  shown() {
    builder?.shown();
  },
};

class ReportBuilder {
  private kind: ReportKind = 'main';
  private chosen: string[] = ['day'];
  private filters: FilterRow[] = [];
  /** Metrics the user ticked; undefined while the picker shows the default set of the breakdowns. */
  private metricChoice: Set<string> | undefined;
  private lastBlock: RunSummary['block'] | undefined;
  private chartBlocker: string | undefined = 'Run a report broken down by day first';
  /** The request of the last run, so "Save to schedule" offers its cells only for the same report. */
  private lastRunRequest = '';
  private busy = false;

  // Controls
  private readonly publisher = el('select', { id: 'report-publisher', required: true });
  private readonly publisherStatus = el('div', { class: 'hint', id: 'report-publisher-status' });
  private readonly kindBox = el('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'Report type', id: 'report-kind' });
  private readonly freshness = el('div', { class: 'notice notice-info', id: 'report-freshness' });
  private readonly preset = el('select', { id: 'report-preset' });
  private readonly customBox = el('div', { id: 'report-custom' });
  private readonly fromInput = el('input', { type: 'date', id: 'report-from' });
  private readonly toInput = el('input', { type: 'date', id: 'report-to' });
  private readonly startInput = el('input', { type: 'datetime-local', id: 'report-start', step: 3600 });
  private readonly period = el('div', { class: 'hint', id: 'report-period', 'aria-live': 'polite' });
  private readonly breakdownBox = el('div', { class: 'checks', id: 'report-breakdowns', role: 'group', 'aria-label': 'Breakdowns' });
  private readonly breakdownWhy = el('div', { class: 'hint', id: 'breakdown-why' });
  private readonly breakdownHints = el('div', { class: 'hint', id: 'breakdown-hints' });
  private readonly metricsSummary = el('span', { id: 'metrics-summary' });
  private readonly metricBox = el('div', { id: 'report-metrics', role: 'group', 'aria-label': 'Metrics' });
  private readonly metricsWhy = el('div', { class: 'hint', id: 'metrics-why' });
  private readonly metricsWidth = el('div', { class: 'hint', id: 'metrics-width', 'aria-live': 'polite' });
  private readonly filterBox = el('div', { id: 'filter-rows' });
  private readonly filterText = el('div', { class: 'hint', id: 'filter-text' });
  private readonly sort = el('select', { id: 'report-sort' });
  private readonly order = select([['desc', 'Descending'], ['asc', 'Ascending']], 'desc', { id: 'report-order' });
  private readonly currency = select(CURRENCIES.map((c) => [c, c] as const), 'USD', { id: 'report-currency' });
  private readonly decimals = select(Array.from({ length: DEC_DIGITS_MAX + 1 }, (_, i) => [String(i), String(i)] as const), '2', { id: 'report-decimals' });
  private readonly moneyBox = el('div', { class: 'row' });
  private readonly target = select([['newSheet', 'A new sheet'], ['existingSheet', 'An existing sheet (from A1)'], ['activeCell', 'The active cell']], 'newSheet', { id: 'report-target' });
  private readonly targetSheet = el('select', { id: 'report-target-sheet' });
  private readonly targetName = el('input', { type: 'text', id: 'report-target-name', placeholder: 'Engage report', maxlength: 90 });
  private readonly targetDetail = el('div');
  private readonly formula = el('div', { class: 'code', id: 'formula-preview' });
  private readonly runButton = el('button', { type: 'submit', class: 'action', id: 'run-report' }, 'Run to sheet');
  private readonly formulaButton = el('button', { type: 'button', id: 'insert-formula', title: 'Put the equivalent ENGAGE_* formula in the active cell' }, 'Insert formula');
  private readonly chartButton = el('button', { type: 'button', id: 'add-chart', disabled: true, title: 'Run a report broken down by day first' }, 'Add chart');
  private readonly scheduleButton = el('button', { type: 'button', id: 'save-schedule', 'aria-expanded': 'false', 'aria-controls': 'schedule-form', title: 'Save this report with a refresh schedule' }, 'Save to schedule');
  // The Schedule section: its own form (Enter saves it, not a run), shown by "Save to schedule".
  private readonly scheduleForm = el('form', { id: 'schedule-form', class: 'schedule-section', hidden: true, novalidate: true, 'aria-label': 'Schedule' });
  private readonly scheduleName = el('input', { type: 'text', id: 'schedule-name', maxlength: 100, autocomplete: 'off' });
  private readonly schedulePeriod = el('div', { class: 'hint field', id: 'schedule-period' });
  private readonly scheduleGrowing = el('input', { type: 'checkbox', id: 'schedule-growing' });
  private readonly growingBox = el('label', { class: 'check', for: 'schedule-growing' }, this.scheduleGrowing, 'Extend to today at each refresh');
  private readonly scheduleFields = scheduleFields('schedule');
  private readonly scheduleSheet = el('input', { type: 'text', id: 'schedule-sheet', maxlength: 100, autocomplete: 'off' });
  private readonly scheduleCell = el('input', { type: 'text', id: 'schedule-cell', maxlength: 10, placeholder: 'A1', autocomplete: 'off' });
  private readonly scheduleIncremental = el('input', { type: 'checkbox', id: 'schedule-incremental' });
  private readonly incrementalBox = el('div', { class: 'field' });
  private readonly scheduleSaveButton = el('button', { type: 'submit', class: 'action', id: 'schedule-save' }, 'Save schedule');
  private readonly scheduleOutcome = el('div', { id: 'schedule-outcome', 'aria-live': 'polite' });
  private readonly progress = el('div', { class: 'progress', id: 'run-progress', hidden: true });
  private readonly outcome = el('div', { id: 'report-outcome', 'aria-live': 'polite' });
  private readonly form: HTMLFormElement;
  private readonly signedOut = el('div', { id: 'report-signed-out', hidden: true });

  constructor(private readonly container: HTMLElement, private readonly ctx: PanelContext) {
    this.form = el('form', { id: 'report-form', novalidate: true });
  }

  start(): void {
    const { ctx } = this;
    for (const kind of Object.keys(KIND_LABELS) as ReportKind[]) {
      const input = el('input', { type: 'radio', name: 'report-kind', value: kind, checked: kind === this.kind, id: `report-kind-${kind}` });
      input.addEventListener('change', () => this.setKind(kind));
      this.kindBox.appendChild(el('label', { for: input.id, class: kind === this.kind ? 'checked' : '' }, input, KIND_LABELS[kind]));
    }
    this.preset.addEventListener('change', () => this.renderDates());
    for (const input of [this.fromInput, this.toInput, this.startInput]) input.addEventListener('change', () => this.renderDates());
    this.target.addEventListener('change', () => this.renderTarget());
    this.moneyBox.append(field('Currency', this.currency), field('Decimals', this.decimals));
    for (const control of [this.publisher, this.sort, this.order, this.currency, this.decimals]) control.addEventListener('change', () => this.renderFormula());

    const addFilter = el('button', { type: 'button', class: 'link', id: 'filter-add', onclick: () => this.addFilterRow() }, '+ Add filter');
    const reloadPublishers = el('button', { type: 'button', class: 'icon', title: 'Reload publishers', 'aria-label': 'Reload publishers', onclick: () => void this.loadPublishers() }, '⟳');
    this.form.append(
      el('div', { class: 'field' }, el('label', { for: this.publisher.id }, 'Publisher'), el('div', { class: 'row' }, this.publisher, reloadPublishers), this.publisherStatus),
      el('div', { class: 'field' }, el('span', { class: 'label', id: 'report-kind-label' }, 'Report'), this.kindBox),
      this.freshness,
      field('Period', this.preset),
      this.customBox,
      this.period,
      el('div', { class: 'field' }, el('span', { class: 'label' }, 'Breakdowns'), this.breakdownBox, this.breakdownWhy, this.breakdownHints),
      el('div', { class: 'field' },
        el('details', { id: 'metrics-picker', class: 'metric-picker' }, el('summary', {}, 'Metrics: ', this.metricsSummary), this.metricBox, this.metricsWhy,
          el('div', { class: 'row metric-actions' },
            el('button', { type: 'button', class: 'link', id: 'metrics-default', onclick: () => this.setMetricChoice(undefined) }, 'Default set'),
            el('button', { type: 'button', class: 'link', id: 'metrics-all', onclick: () => this.setMetricChoice(new Set(REPORT_SPECS[this.kind].metrics)) }, 'All'))),
        this.metricsWidth),
      el('div', { class: 'field' }, el('span', { class: 'label' }, 'Filters'), this.filterBox, addFilter, this.filterText),
      el('div', { class: 'row' }, field('Sort by', this.sort), el('div', { class: 'narrow' }, field('Order', this.order))),
      this.moneyBox,
      field('Write to', this.target),
      this.targetDetail,
      el('details', { id: 'formula-details' }, el('summary', {}, 'Equivalent formula'), this.formula),
      el('div', { class: 'actions' }, this.runButton, this.formulaButton, this.chartButton, this.scheduleButton),
      this.progress,
      this.outcome,
    );
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run();
    });
    this.formulaButton.addEventListener('click', () => void this.insertFormula());
    this.chartButton.addEventListener('click', () => void this.addChart());
    this.scheduleButton.addEventListener('click', () => this.toggleSchedule());
    this.buildScheduleForm();

    replaceChildren(this.container, this.signedOut, this.form, this.scheduleForm, this.scheduleOutcome, this.taggingHelper());
    this.setKind('main');
    this.renderTarget();
    ctx.onStateChange(() => this.renderSignIn());
    this.renderSignIn();
  }

  shown(): void {
    void this.loadSheets();
  }

  private renderSignIn(): void {
    const state = this.ctx.state();
    const signedIn = Boolean(state?.session.signedIn);
    this.signedOut.hidden = signedIn;
    this.form.hidden = !signedIn;
    if (!signedIn) this.closeSchedule();
    replaceChildren(
      this.signedOut,
      notice('info', el('span', {}, 'Sign in to Engage to build reports. ', el('button', { type: 'button', class: 'link', onclick: () => this.ctx.showPanel('account') }, 'Sign in'))),
    );
    if (signedIn && this.publisher.options.length === 0) {
      void this.loadPublishers();
      void this.loadSheets();
    }
  }

  private async loadPublishers(): Promise<void> {
    replaceChildren(this.publisherStatus, 'Loading publishers…');
    try {
      const publishers = await this.ctx.server.listPublishers();
      const previous = this.publisher.value;
      replaceChildren(this.publisher, ...publishers.map((p) => el('option', { value: p.id, selected: p.id === previous }, `${p.name}`)));
      replaceChildren(this.publisherStatus, publishers.length ? '' : 'Your Engage user has no publishers: ask your account manager.');
    } catch (error) {
      replaceChildren(this.publisherStatus, notice('error', failureText(error)));
    }
    this.renderFormula();
  }

  private async loadSheets(): Promise<void> {
    try {
      const context = await this.ctx.server.getSheetContext();
      const previous = this.targetSheet.value;
      replaceChildren(this.targetSheet, ...context.sheets.map((name) => el('option', { value: name, selected: name === previous }, name)));
      this.activeCell = context.activeCell;
      this.renderTarget();
    } catch {
      // The picker keeps its previous list; a run reports a missing sheet itself.
    }
  }
  private activeCell = '';

  private setKind(kind: ReportKind): void {
    this.kind = kind;
    for (const label of Array.from(this.kindBox.querySelectorAll('label'))) {
      const input = label.querySelector('input')!;
      input.checked = input.value === kind;
      label.classList.toggle('checked', input.checked);
    }
    replaceChildren(this.freshness, FRESHNESS[kind]);
    const presets = presetsFor(kind);
    replaceChildren(this.preset, ...presets.map((p) => el('option', { value: p, selected: p === (kind === 'main' ? 'last7' : 'last24h') }, PRESET_LABELS[p])));
    this.chosen = kind === 'main' ? ['day'] : [];
    this.metricChoice = undefined;
    const spec = REPORT_SPECS[kind];
    this.currency.disabled = !spec.acceptsCurrency;
    this.decimals.disabled = !spec.acceptsDecDigits;
    this.currency.title = spec.acceptsCurrency ? '' : 'The realtime report is always in USD';
    this.decimals.title = spec.acceptsDecDigits ? '' : 'Only the general report takes decimals';
    for (const row of this.filters) row.node.remove();
    this.filters = [];
    this.renderDates();
    this.renderBreakdowns();
  }

  private dateRange(): DateRange | string {
    const preset = this.preset.value as DatePreset;
    const tz = this.ctx.state()?.timeZone ?? 'UTC';
    if (preset !== 'custom') return presetRange(this.kind, preset, Date.now(), tz);
    if (this.kind === 'main') {
      if (!this.fromInput.value || !this.toInput.value) return 'Choose the first and last day.';
      if (this.toInput.value < this.fromInput.value) return 'The last day is before the first.';
      return { fromDate: this.fromInput.value, toDate: this.toInput.value, description: `${this.fromInput.value} to ${this.toInput.value} (${tz})` };
    }
    const window = hourWindowFrom(this.startInput.value);
    if (!window) return 'Choose the first hour (UTC) of the 24-hour window.';
    if (this.kind === 'realtime') {
      const earliest = Date.now() - 48 * 3600_000;
      const fromMs = Date.parse(`${this.startInput.value.slice(0, 13)}:00:00Z`);
      if (fromMs < earliest - 3600_000) return 'Realtime data covers only the last 48 hours: choose a later start.';
    }
    return window;
  }

  private renderDates(): void {
    const custom = this.preset.value === 'custom';
    if (!custom) replaceChildren(this.customBox);
    else if (this.kind === 'main') replaceChildren(this.customBox, el('div', { class: 'row' }, field('From', this.fromInput), field('To', this.toInput)));
    else replaceChildren(this.customBox, field('First hour (UTC)', this.startInput, 'The report covers the 24 hours from this hour.'));
    const range = this.dateRange();
    replaceChildren(this.period, typeof range === 'string' ? range : range.description);
    this.renderFormula();
  }

  private renderBreakdowns(): void {
    const spec = REPORT_SPECS[this.kind];
    const reasons: string[] = [];
    const chips = spec.breakdowns.map((name) => {
      const fixed = this.kind === 'externalId' && name === 'externalId';
      const checked = fixed || this.chosen.includes(name);
      const blocker = checked ? undefined : breakdownBlocker(this.kind, this.chosen, name);
      if (blocker) reasons.push(blocker);
      const input = el('input', { type: 'checkbox', name: 'breakdown', value: name, checked, disabled: fixed || Boolean(blocker), 'aria-describedby': 'breakdown-why' });
      input.addEventListener('change', () => {
        this.chosen = input.checked ? [...this.chosen, name] : this.chosen.filter((b) => b !== name);
        this.renderBreakdowns();
      });
      return el('label', { class: `chip${checked ? ' checked' : ''}${blocker || fixed ? ' disabled' : ''}`, title: blocker ? `Unavailable: ${blocker}` : fixed ? 'Always included' : '' }, input, name);
    });
    replaceChildren(this.breakdownBox, ...chips);
    replaceChildren(this.breakdownWhy, reasons.length ? `Unavailable: ${Array.from(new Set(reasons)).join('; ')}.` : '');
    replaceChildren(this.breakdownHints, breakdownHints(this.kind, this.chosen).join(' '));
    this.renderMetrics();
    // Sort and filter fields follow the breakdowns.
    const fields = usableFields(this.kind, this.chosen);
    const previousSort = this.sort.value;
    replaceChildren(this.sort, el('option', { value: '' }, 'revenue (default)'), ...fields.map((f) => el('option', { value: f, selected: f === previousSort }, f)));
    for (const row of this.filters) {
      const previous = row.field.value;
      replaceChildren(row.field, ...fields.map((f) => el('option', { value: f, selected: f === previous }, f)));
    }
    this.renderFormula();
  }

  /** The metrics of the request: the ticked ones the breakdowns provide, in the spec's order. */
  private chosenMetrics(): string[] {
    const breakdowns = effectiveBreakdowns(this.kind, this.chosen);
    if (!this.metricChoice) return defaultMetrics(this.kind, breakdowns);
    const choice = this.metricChoice;
    return availableMetrics(this.kind, breakdowns).filter((m) => choice.has(m));
  }

  private setMetricChoice(choice: Set<string> | undefined): void {
    this.metricChoice = choice;
    this.renderMetrics();
    this.renderFormula();
  }

  /** The picker, by group: chosen metrics ticked, those the breakdowns lack disabled with the reason. */
  private renderMetrics(): void {
    const breakdowns = effectiveBreakdowns(this.kind, this.chosen);
    const chosen = this.chosenMetrics();
    /** Labels of the unavailable metrics, by reason. */
    const reasons = new Map<string, string[]>();
    const groups = METRIC_GROUPS.map((group) => {
      const metrics = REPORT_SPECS[this.kind].metrics.filter((m) => METRIC_INFO[m]?.group === group.id);
      if (metrics.length === 0) return null;
      const chips = metrics.map((metric) => {
        const blocker = metricAvailabilityProblem(this.kind, metric, breakdowns);
        if (blocker) reasons.set(blocker, [...(reasons.get(blocker) ?? []), metricLabel(metric)]);
        const checked = chosen.includes(metric);
        const input = el('input', { type: 'checkbox', name: 'metric', value: metric, checked, disabled: Boolean(blocker), 'aria-describedby': 'metrics-why' });
        input.addEventListener('change', () => {
          // From the ticked set, so a metric the breakdowns hide for now comes back with them.
          const next = new Set(this.metricChoice ?? this.chosenMetrics());
          if (input.checked) next.add(metric);
          else next.delete(metric);
          this.setMetricChoice(next);
        });
        return el('label', { class: `chip${checked ? ' checked' : ''}${blocker ? ' disabled' : ''}`, title: blocker ? `${metric} ${blocker}` : `${metric}: ${metricNote(metric)}` }, input, metricLabel(metric));
      });
      return el('fieldset', { class: 'metric-group', id: `metric-group-${group.id}` }, el('legend', {}, group.title), el('div', { class: 'checks' }, ...chips));
    });
    replaceChildren(this.metricBox, ...groups);
    const why = [...reasons].map(([reason, labels]) => `${labels.join(', ')}: ${reason.replace(/^is /, '')}`);
    replaceChildren(this.metricsWhy, why.length ? `Unavailable. ${why.join('. ')}.` : '');
    const available = availableMetrics(this.kind, breakdowns);
    const isDefault = chosen.join() === defaultMetrics(this.kind, breakdowns).join();
    replaceChildren(this.metricsSummary, chosen.length === 0 ? 'none chosen'
      : isDefault ? `${chosen.length}, the default set`
        : chosen.length === available.length ? `all ${chosen.length}` : `${chosen.length}: ${chosen.map(metricLabel).join(', ')}`);
    const columns = reportColumnCount(this.kind, breakdowns, chosen);
    replaceChildren(this.metricsWidth, chosen.length === 0 ? notice('warning', 'Choose at least one metric.')
      : columns > NEW_SHEET_COLUMNS ? `Up to ${columns} columns, more than the ${NEW_SHEET_COLUMNS} of a new sheet: Insert formula adds the columns it needs first.`
        : `Up to ${columns} columns from the first cell.`);
  }

  private addFilterRow(): void {
    const fields = usableFields(this.kind, this.chosen);
    const fieldSelect = select(fields.map((f) => [f, f] as const), fields.includes('revenue') ? 'revenue' : fields[0], { 'aria-label': 'Filter field', class: 'filter-field' });
    const operator = select(FILTER_OPERATORS.map((op) => [op, OPERATOR_LABELS[op]] as const), 'gt', { 'aria-label': 'Operator', class: 'filter-operator' });
    const value = el('input', { type: 'text', 'aria-label': 'Value', class: 'filter-value', placeholder: 'value' });
    const node = el('div', { class: 'row filter-row' }, fieldSelect, el('div', { class: 'narrow' }, operator), value);
    const row: FilterRow = { field: fieldSelect, operator, value, node };
    const remove = el('button', { type: 'button', class: 'icon narrow', 'aria-label': 'Remove filter', title: 'Remove filter', onclick: () => {
      node.remove();
      this.filters = this.filters.filter((r) => r !== row);
      this.renderFormula();
    } }, '✕');
    node.appendChild(remove);
    for (const control of [fieldSelect, operator, value]) control.addEventListener('input', () => this.renderFormula());
    this.filters.push(row);
    this.filterBox.appendChild(node);
    value.focus();
    this.renderFormula();
  }

  /** The filter text, or the first problem with a row. */
  private filterExpression(): string | { problem: string } {
    const conditions: FilterCondition[] = [];
    for (const row of this.filters) {
      const c = conditionOf(row.field.value, row.operator.value as FilterOperator, row.value.value);
      row.value.setAttribute('aria-invalid', String(typeof c === 'string'));
      if (typeof c === 'string') return { problem: c };
      conditions.push(c);
    }
    try {
      return buildFilter(conditions);
    } catch (error) {
      return { problem: failureText(error) };
    }
  }

  /** The request as the server takes it, or the first thing to fix. */
  private request(): BuilderRequest | string {
    if (!this.publisher.value) return 'Choose a publisher.';
    const range = this.dateRange();
    if (typeof range === 'string') return range;
    const filter = this.filterExpression();
    if (typeof filter !== 'string') return filter.problem;
    const spec = REPORT_SPECS[this.kind];
    const request: BuilderRequest = {
      kind: this.kind,
      entityId: this.publisher.value,
      fromDate: range.fromDate,
      toDate: range.toDate,
      breakdowns: this.kind === 'externalId' ? ['externalId', ...this.chosen.filter((b) => b !== 'externalId')] : [...this.chosen],
    };
    const metrics = this.chosenMetrics();
    if (metrics.length === 0) return 'Choose at least one metric.';
    request.metrics = metrics;
    if (filter) request.filter = filter;
    if (this.sort.value) {
      request.sort = this.sort.value;
      request.order = this.order.value as 'asc' | 'desc';
    }
    if (spec.acceptsCurrency) request.currencyCode = this.currency.value;
    if (spec.acceptsDecDigits) request.decDigits = Number(this.decimals.value);
    return request;
  }

  private renderFormula(): void {
    const filter = this.filterExpression();
    replaceChildren(this.filterText, typeof filter === 'string' ? (filter ? el('span', {}, 'Filter: ', el('code', {}, filter)) : '') : notice('warning', filter.problem));
    const request = this.request();
    replaceChildren(this.formula, typeof request === 'string' ? request : reportFormula(request));
    if (!this.scheduleForm.hidden) this.renderSchedule();
  }

  private renderTarget(): void {
    const type = this.target.value as RunTarget['type'];
    if (type === 'newSheet') replaceChildren(this.targetDetail, field('New sheet name', this.targetName));
    else if (type === 'existingSheet') replaceChildren(this.targetDetail, field('Sheet', this.targetSheet, 'Its earlier report there is replaced once every page has arrived.'));
    else replaceChildren(this.targetDetail, el('div', { class: 'hint field' }, this.activeCell ? `Starting at ${this.activeCell}.` : 'Starting at the selected cell.'));
  }

  private runTarget(): RunTarget {
    const type = this.target.value as RunTarget['type'];
    if (type === 'existingSheet') return { type, sheetName: this.targetSheet.value };
    if (type === 'newSheet') return this.targetName.value.trim() ? { type, sheetName: this.targetName.value.trim() } : { type };
    return { type: 'activeCell' };
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    for (const b of [this.runButton, this.formulaButton, this.scheduleButton, this.scheduleSaveButton]) b.disabled = busy;
    this.chartButton.disabled = busy || this.chartBlocker !== undefined;
  }

  private showError(text: string): void {
    replaceChildren(this.outcome, notice('error', text));
  }

  private async run(): Promise<void> {
    if (this.busy) return;
    const request = this.request();
    if (typeof request === 'string') return this.showError(request);
    const runId = `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    this.setBusy(true);
    replaceChildren(this.outcome);
    const bar = el('div');
    const text = el('div', { class: 'progress-text', role: 'status' }, 'Starting…');
    const track = el('div', { class: 'progress-bar indeterminate' }, bar);
    replaceChildren(this.progress, track, text);
    this.progress.hidden = false;
    let finished = false;
    const poll = async () => {
      while (!finished) {
        await new Promise((resolve) => setTimeout(resolve, PROGRESS_POLL_MS));
        if (finished) break;
        try {
          const p = await this.ctx.server.getRunProgress(runId);
          if (p && p.state === 'running' && !finished) {
            track.classList.remove('indeterminate');
            bar.style.width = `${Math.round((100 * p.pagesFetched) / Math.max(1, p.pagesPlanned))}%`;
            replaceChildren(text, `Fetched ${p.pagesFetched} of ${p.pagesPlanned} page${p.pagesPlanned === 1 ? '' : 's'}…`);
          }
        } catch {
          // Progress is a courtesy; the run's own answer tells the outcome.
        }
      }
    };
    void poll();
    try {
      const summary = await this.ctx.server.runReportToSheet(request, this.runTarget(), runId);
      finished = true;
      this.lastBlock = summary.block;
      this.lastRunRequest = JSON.stringify(request);
      this.chartBlocker = chartBlocker(summary.header);
      this.progress.hidden = true;
      replaceChildren(
        this.outcome,
        notice('success', `Wrote ${summary.dataRows} row${summary.dataRows === 1 ? '' : 's'} to '${summary.block.sheetName}' from ${summary.pages} page${summary.pages === 1 ? '' : 's'} in ${(summary.elapsedMs / 1000).toFixed(1)} s.`),
        summary.partialNote ? notice('warning', summary.partialNote) : null,
        previewTable(summary),
      );
      void this.loadSheets();
    } catch (error) {
      finished = true;
      this.progress.hidden = true;
      this.showError(failureText(error));
    } finally {
      this.setBusy(false);
      this.chartButton.title = this.chartBlocker ?? 'Add a chart of revenue and RPM by day beside the data';
    }
  }

  private async insertFormula(): Promise<void> {
    const request = this.request();
    if (typeof request === 'string') return this.showError(request);
    this.setBusy(true);
    try {
      const result = await this.ctx.server.insertFormula(request);
      const widened = result.columnsAdded > 0 ? ` Added ${result.columnsAdded} column${result.columnsAdded === 1 ? '' : 's'} so that its result fits.` : '';
      replaceChildren(this.outcome, notice('success', el('span', {}, `Inserted in ${result.cell}: `, el('code', { id: 'inserted-formula' }, result.formula), widened)));
    } catch (error) {
      this.showError(failureText(error));
    } finally {
      this.setBusy(false);
    }
  }

  private async addChart(): Promise<void> {
    if (!this.lastBlock) return;
    this.setBusy(true);
    try {
      const result = await this.ctx.server.addChart(this.lastBlock);
      this.outcome.appendChild(notice('success', `Added the chart “${result.chartTitle}” beside the data.`));
    } catch (error) {
      this.showError(failureText(error));
    } finally {
      this.setBusy(false);
    }
  }

  private buildScheduleForm(): void {
    const cancel = el('button', { type: 'button', id: 'schedule-cancel', onclick: () => this.closeSchedule() }, 'Cancel');
    this.scheduleGrowing.addEventListener('change', () => this.renderSchedule());
    this.scheduleForm.append(
      el('h3', {}, 'Schedule'),
      field('Name', this.scheduleName),
      el('div', { class: 'field' }, el('span', { class: 'label' }, 'Period at each refresh'), this.schedulePeriod, this.growingBox),
      this.scheduleFields.node,
      el('div', { class: 'row' }, field('Sheet', this.scheduleSheet), el('div', { class: 'narrow cell-field' }, field('Cell', this.scheduleCell))),
      this.incrementalBox,
      el('div', { class: 'actions' }, this.scheduleSaveButton, cancel),
    );
    this.scheduleForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.saveSchedule();
    });
  }

  private toggleSchedule(): void {
    if (!this.scheduleForm.hidden) return this.closeSchedule();
    const request = this.request();
    if (typeof request === 'string') return this.showError(request);
    if (!this.scheduleName.value.trim()) this.scheduleName.value = this.defaultScheduleName();
    const target = this.scheduleTarget(request);
    this.scheduleSheet.value = target.sheetName;
    this.scheduleCell.value = target.cell;
    replaceChildren(this.scheduleOutcome);
    this.scheduleForm.hidden = false;
    this.scheduleButton.setAttribute('aria-expanded', 'true');
    this.renderSchedule();
    this.scheduleName.focus();
  }

  private closeSchedule(): void {
    this.scheduleForm.hidden = true;
    this.scheduleButton.setAttribute('aria-expanded', 'false');
  }

  /** "Daily Planet: Last 7 days by day, country". */
  private defaultScheduleName(): string {
    const publisher = this.publisher.selectedOptions[0]?.textContent ?? 'Engage';
    const preset = PRESET_LABELS[this.preset.value as DatePreset] ?? '';
    const by = this.chosen.length ? ` by ${this.chosen.join(', ')}` : '';
    return `${publisher}: ${KIND_LABELS[this.kind]} ${preset.toLowerCase()}${by}`.slice(0, 100);
  }

  /** The period the saved report refreshes: the builder's preset as it moves with time. */
  private schedulePeriodNow(): Period {
    const custom = this.kind === 'main' && this.preset.value === 'custom'
      ? { fromDate: this.fromInput.value, toDate: this.toInput.value, growing: this.scheduleGrowing.checked }
      : undefined;
    return periodForPreset(this.kind, this.preset.value as DatePreset, custom);
  }

  /** Where the schedule writes: where the last run of this same report wrote, else the builder's target. */
  private scheduleTarget(request: BuilderRequest): { sheetName: string; cell: string } {
    if (this.lastBlock && this.lastRunRequest === JSON.stringify(request)) return { sheetName: this.lastBlock.sheetName, cell: a1Cell(this.lastBlock.row, this.lastBlock.column) };
    const type = this.target.value as RunTarget['type'];
    if (type === 'existingSheet' && this.targetSheet.value) return { sheetName: this.targetSheet.value, cell: 'A1' };
    if (type === 'activeCell') {
      const active = splitCellReference(this.activeCell);
      if (active) return active;
    }
    return { sheetName: this.targetName.value.trim() || 'Engage report', cell: 'A1' };
  }

  /** The period's sentence, the "extend to today" choice of a custom range, and the incremental option where allowed. */
  private renderSchedule(): void {
    const period = this.schedulePeriodNow();
    this.growingBox.hidden = !(this.kind === 'main' && this.preset.value === 'custom');
    const hourlyNote = REPORT_SPECS[this.kind].hourly && this.preset.value !== 'last24h' ? ' (hourly reports refresh a rolling window)' : '';
    replaceChildren(this.schedulePeriod, `${describePeriod(period)}${hourlyNote}.`);
    const breakdowns = this.kind === 'externalId' ? ['externalId', ...this.chosen] : this.chosen;
    const problem = incrementalProblem({ kind: this.kind, breakdowns, period });
    if (problem) {
      this.scheduleIncremental.checked = false;
      replaceChildren(this.incrementalBox);
    } else {
      replaceChildren(
        this.incrementalBox,
        el('label', { class: 'check', for: this.scheduleIncremental.id }, this.scheduleIncremental, 'Incremental: fetch only new days and the 3 before'),
        el('div', { class: 'hint' }, 'Merged by day with the rows already in the sheet; no Total row.'),
      );
    }
  }

  private async saveSchedule(): Promise<void> {
    if (this.busy) return;
    const request = this.request();
    const fail = (text: string) => replaceChildren(this.scheduleOutcome, notice('error', text));
    if (typeof request === 'string') return fail(request);
    if (!this.scheduleName.value.trim()) return fail('Name the saved report.');
    if (!this.scheduleSheet.value.trim()) return fail('Name the sheet it writes to.');
    if (!A1_CELL_PATTERN.test(this.scheduleCell.value.trim())) return fail('Write the first cell as one cell, such as A1.');
    const period = this.schedulePeriodNow();
    const report = savedReportFromBuilder(request, {
      name: this.scheduleName.value,
      period,
      schedule: this.scheduleFields.value(),
      target: { sheetName: this.scheduleSheet.value, cell: this.scheduleCell.value },
      incremental: this.scheduleIncremental.checked,
    });
    this.setBusy(true);
    replaceChildren(this.scheduleOutcome, notice('info', 'Saving…'));
    try {
      const list = await this.ctx.server.saveSchedule(report);
      const saved = [...list.reports].reverse().find((r) => r.mine && r.name === report.name);
      this.closeSchedule();
      this.scheduleName.value = '';
      replaceChildren(
        this.scheduleOutcome,
        notice('success', el('span', {},
          `Saved “${report.name}”: ${saved?.scheduleText ?? 'scheduled'}, ${describePeriod(period)}, into ${saved?.target ?? `${report.target.sheetName}!${report.target.cell}`}. `,
          el('button', { type: 'button', class: 'link', id: 'schedule-open-list', onclick: () => this.ctx.showPanel('schedules') }, 'See it in Schedules'))),
      );
    } catch (error) {
      fail(failureText(error));
    } finally {
      this.setBusy(false);
    }
  }

  /** The tagging helper: snippets that put external IDs on pages, with the 110-character limit. */
  private taggingHelper(): HTMLElement {
    const id = el('input', { type: 'text', id: 'tag-external-id', placeholder: 'article-1234', autocomplete: 'off' });
    const secondary = el('input', { type: 'text', id: 'tag-secondary-id', placeholder: 'author-jane (optional)', autocomplete: 'off' });
    const idCount = el('span', { class: 'counter', id: 'tag-external-id-count' });
    const secondaryCount = el('span', { class: 'counter', id: 'tag-secondary-id-count' });
    const output = el('div', { id: 'tag-output' });
    const render = () => {
      for (const [input, counter] of [[id, idCount], [secondary, secondaryCount]] as const) {
        const length = input.value.trim().length;
        replaceChildren(counter, `${length}/110`);
        counter.classList.toggle('over', length > 110);
        input.setAttribute('aria-invalid', String(length > 110));
      }
      const ids = { externalId: id.value, externalSecondaryId: secondary.value };
      const problems = taggingProblems(ids);
      if (!id.value.trim()) return replaceChildren(output, el('p', { class: 'hint' }, 'Type an external ID to get the snippets.'));
      if (problems.length) return replaceChildren(output, notice('error', problems.map((p) => p.message).join(' ')));
      const s = taggingSnippets(ids);
      replaceChildren(
        output,
        el('div', { class: 'label' }, 'Global variables (before the widget script)'), el('pre', { class: 'code', id: 'tag-globals' }, s.globalVariables),
        el('div', { class: 'label' }, 'Or attributes on the widget container'), el('pre', { class: 'code', id: 'tag-container' }, s.containerAttributes),
        el('div', { class: 'label' }, 'AMP pages: attributes on the embed'), el('pre', { class: 'code', id: 'tag-amp' }, s.amp),
      );
    };
    for (const input of [id, secondary]) input.addEventListener('input', render);
    render();
    const idField = field('External ID', id);
    idField.querySelector('label')!.appendChild(idCount);
    const secondaryField = field('Secondary external ID', secondary);
    secondaryField.querySelector('label')!.appendChild(secondaryCount);
    return el(
      'details',
      { class: 'card', id: 'tagging-helper' },
      el('summary', {}, 'Tag pages with external IDs'),
      el('p', { class: 'hint' }, 'External-ID reports count what pages tag. Data appears 48 hours after tagging; IDs are at most 110 characters.'),
      idField,
      secondaryField,
      output,
    );
  }
}

/** The first rows of a run, as a small table; every cell is text content. */
function previewTable(summary: RunSummary): HTMLElement | null {
  if (summary.preview.length === 0) return notice('info', 'The report has no rows for this period and these filters.');
  const table = el('table', { id: 'run-preview-table' });
  table.appendChild(el('thead', {}, el('tr', {}, ...summary.header.map((h) => el('th', { scope: 'col' }, h)))));
  const body = el('tbody');
  for (const row of summary.preview) {
    body.appendChild(el('tr', {}, ...row.map((cell) => el('td', { class: typeof cell === 'number' ? 'num' : '' }, typeof cell === 'number' ? formatNumber(cell) : String(cell)))));
  }
  table.appendChild(body);
  return el('div', {}, el('div', { class: 'hint' }, summary.dataRows > summary.preview.length ? `First ${summary.preview.length} of ${summary.dataRows} rows:` : 'Rows:'), el('div', { class: 'preview', id: 'run-preview' }, table));
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 4 });
}

