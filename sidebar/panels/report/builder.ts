/**
 * The report builder's form. It owns the choice its parts follow (part.ts): the report type, whose
 * radio buttons and freshness note it shows itself, and the ticked breakdowns. It composes the parts
 * into one request, shows the equivalent formula, and runs the actions: Run to sheet (with its
 * progress), Insert formula, Add chart and Save to schedule (the Schedule section); and, under the
 * publisher picker, Create dashboard, which follows the picker alone.
 */
import {
  a1Cell,
  type BuilderRequest,
  compareFormula,
  PRESET_LABELS,
  reportFormula,
  type ReportKind,
  type RunToSheetSummary,
} from '../../../src/core';
import { el, notice, replaceChildren } from '../../dom';
import type { PanelContext } from '../../panel';
import { failureText } from '../../server';
import { breakdownPicker, type BreakdownPicker } from './breakdowns';
import { comparePicker, type ComparePicker } from './compare';
import { dashboardButton, type DashboardButton } from './dashboard';
import { filterRows, type FilterRows } from './filters';
import { metricPicker, type MetricPicker } from './metrics';
import { requestOptions, type RequestOptions } from './options';
import { requestBreakdowns, type PartContext, type ReportChoice } from './part';
import { periodPicker, type PeriodPicker } from './period';
import { publisherPicker, type PublisherPicker } from './publisher';
import { runProgressBar, type RunProgressBar } from './progress';
import { chartBlocker, runOutcome } from './run-outcome';
import { scheduleForm, type ScheduleForm } from './schedule-form';
import { targetPicker, type TargetPicker } from './target';

const KIND_LABELS: Record<ReportKind, string> = { main: 'General', externalId: 'External ID', realtime: 'Realtime' };
const FRESHNESS: Record<ReportKind, string> = {
  main: 'Figures arrive 2 to 4 hours late, and today’s are partial.',
  externalId: 'Hourly, in UTC, at most 24 hours per report. External IDs appear 48 hours after pages are tagged.',
  realtime: 'Only the last 48 hours (UTC). Up to 30 minutes late, with up to 5% error; revenue in USD.',
};

export class ReportBuilder {
  private kind: ReportKind = 'main';
  private chosen: string[] = ['day'];
  /** The last successful run: Add chart draws its block, and Save to schedule offers its cells for the same request. */
  private lastRun: { block: RunToSheetSummary['block']; header: string[]; request: string } | undefined;
  private busy = false;

  private readonly kindBox = el('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'Report type', id: 'report-kind' });
  private readonly freshness = el('div', { class: 'notice notice-info', id: 'report-freshness' });
  private readonly formula = el('div', { class: 'code', id: 'formula-preview' });
  private readonly runButton = el('button', { type: 'submit', class: 'action', id: 'run-report' }, 'Run to sheet');
  private readonly formulaButton = el(
    'button',
    { type: 'button', id: 'insert-formula', title: 'Put the equivalent ENGAGE_* formula in the active cell' },
    'Insert formula',
  );
  private readonly chartButton = el(
    'button',
    { type: 'button', id: 'add-chart', disabled: true, title: chartBlocker(undefined) },
    'Add chart',
  );
  private readonly outcome = el('div', { id: 'report-outcome', 'aria-live': 'polite' });
  private readonly form = el('form', { id: 'report-form', novalidate: true });
  private readonly signedOut = el('div', { id: 'report-signed-out', hidden: true });

  private readonly ctx: PanelContext;
  private readonly publisher: PublisherPicker;
  private readonly period: PeriodPicker;
  private readonly compare: ComparePicker;
  private readonly dashboard: DashboardButton;
  private readonly breakdowns: BreakdownPicker;
  private readonly metrics: MetricPicker;
  private readonly filters: FilterRows;
  private readonly options: RequestOptions;
  private readonly target: TargetPicker;
  private readonly progressBar: RunProgressBar;
  private readonly schedule: ScheduleForm;
  /** The tab's elements, in page order, for the panel to place. */
  readonly nodes: readonly HTMLElement[];

  /** Builds the form and follows the sign-in from now on. */
  constructor(ctx: PanelContext) {
    this.ctx = ctx;
    const parts: PartContext = { choice: () => this.choice(), changed: () => this.renderFormula() };
    // One publisher or several: the metrics' column count follows (the publisher's two columns come first).
    this.publisher = publisherPicker(ctx.server, () => {
      this.metrics.render();
      this.dashboard.render();
      parts.changed();
    });
    this.dashboard = dashboardButton(
      ctx,
      { id: () => this.publisher.id(), label: () => this.publisher.name() },
      { isBusy: () => this.busy, setBusy: (busy) => this.setBusy(busy) },
      () => void this.target.loadSheets(),
    );
    this.period = periodPicker({ ...parts, timeZone: () => ctx.state()?.timeZone ?? 'UTC' });
    // A comparison changes the metrics' default set and columns, so the picker follows it.
    const compared = () => {
      this.metrics.render();
      this.renderFormula();
    };
    this.compare = comparePicker({ choice: parts.choice, changed: compared, range: () => this.period.range() });
    this.breakdowns = breakdownPicker(parts.choice, (chosen) => this.choose(chosen));
    this.metrics = metricPicker(parts);
    this.filters = filterRows(parts);
    this.options = requestOptions(parts);
    this.target = targetPicker(ctx.server);
    this.progressBar = runProgressBar(ctx.server);
    this.schedule = scheduleForm(
      {
        choice: parts.choice,
        preset: () => this.period.preset(),
        customDays: () => this.period.customDays(),
        request: () => this.request(),
        defaultName: () => this.defaultScheduleName(),
        defaultTarget: (request) => this.defaultScheduleTarget(request),
        showError: (text) => this.showError(text),
        isBusy: () => this.busy,
        setBusy: (busy) => this.setBusy(busy),
      },
      ctx,
    );
    this.nodes = [this.signedOut, this.form, ...this.schedule.nodes];

    for (const kind of Object.keys(KIND_LABELS) as ReportKind[]) {
      const input = el('input', {
        type: 'radio',
        name: 'report-kind',
        value: kind,
        checked: kind === this.kind,
        id: `report-kind-${kind}`,
      });
      input.addEventListener('change', () => this.setKind(kind));
      this.kindBox.appendChild(el('label', { for: input.id, class: kind === this.kind ? 'checked' : '' }, input, KIND_LABELS[kind]));
    }
    this.form.append(
      this.publisher.node,
      this.dashboard.node,
      el('div', { class: 'field' }, el('span', { class: 'label', id: 'report-kind-label' }, 'Report'), this.kindBox),
      this.freshness,
      ...this.period.nodes,
      ...this.compare.nodes,
      this.breakdowns.node,
      this.metrics.node,
      this.filters.node,
      ...this.options.nodes,
      ...this.target.nodes,
      el('details', { id: 'formula-details' }, el('summary', {}, 'Equivalent formula'), this.formula),
      el('div', { class: 'actions' }, this.runButton, this.formulaButton, this.chartButton, this.schedule.toggle),
      this.progressBar.node,
      this.outcome,
    );
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run();
    });
    this.formulaButton.addEventListener('click', () => void this.insertFormula());
    this.chartButton.addEventListener('click', () => void this.addChart());

    this.setKind('main');
    this.dashboard.render();
    ctx.onStateChange(() => this.renderSignIn());
    this.renderSignIn();
  }

  /** The tab was opened again: the sheets may have changed meanwhile. */
  shown(): void {
    void this.target.loadSheets();
  }

  private choice(): ReportChoice {
    // The compare part is made after the period part, whose first drawing reads the choice already.
    return {
      kind: this.kind,
      breakdowns: this.chosen,
      severalPublishers: this.publisher.several(),
      comparing: this.kind === 'main' && (this.compare?.comparing() ?? false),
    };
  }

  private renderSignIn(): void {
    const signedIn = Boolean(this.ctx.state()?.session.signedIn);
    this.signedOut.hidden = signedIn;
    this.form.hidden = !signedIn;
    if (!signedIn) this.schedule.close();
    replaceChildren(
      this.signedOut,
      notice(
        'info',
        el(
          'span',
          {},
          'Sign in to Engage to build reports. ',
          el('button', { type: 'button', class: 'link', onclick: () => this.ctx.showPanel('account') }, 'Sign in'),
        ),
      ),
    );
    if (signedIn && !this.publisher.loaded()) {
      void this.publisher.load();
      void this.target.loadSheets();
    }
  }

  /** A new report type starts over: its presets, its default breakdowns and metrics, no filter. */
  private setKind(kind: ReportKind): void {
    this.kind = kind;
    for (const label of Array.from(this.kindBox.querySelectorAll('label'))) {
      const input = label.querySelector('input')!;
      input.checked = input.value === kind;
      label.classList.toggle('checked', input.checked);
    }
    replaceChildren(this.freshness, FRESHNESS[kind]);
    this.period.reset();
    this.compare.reset();
    this.metrics.reset();
    this.filters.clear();
    this.choose(kind === 'main' ? ['day'] : []);
  }

  /** New breakdowns: the chips, the metrics, and the fields sort and filters may use follow them. */
  private choose(breakdowns: string[]): void {
    this.chosen = breakdowns;
    this.breakdowns.render();
    this.metrics.render();
    this.options.render();
    this.filters.render();
    this.renderFormula();
  }

  /** The request as the server takes it, or the first thing to fix. */
  private request(): BuilderRequest | string {
    if (!this.publisher.id()) return 'Choose a publisher.';
    const range = this.period.range();
    if (typeof range === 'string') return range;
    const filter = this.filters.expression();
    if (typeof filter !== 'string') return filter.problem;
    const request: BuilderRequest = {
      kind: this.kind,
      entityId: this.publisher.id(),
      fromDate: range.fromDate,
      toDate: range.toDate,
      breakdowns: requestBreakdowns(this.choice()),
    };
    const metrics = this.metrics.chosen();
    if (metrics.length === 0) return 'Choose at least one metric.';
    request.metrics = metrics;
    if (filter) request.filter = filter;
    this.options.apply(request);
    const compareWith = this.compare.value();
    if (typeof compareWith === 'object') return compareWith.problem;
    if (compareWith) request.compareWith = compareWith;
    return request;
  }

  private renderFormula(): void {
    this.compare.render(); // the earlier period follows the report's period
    const request = this.request();
    const formula = typeof request === 'string' ? request : request.compareWith ? compareFormula(request) : reportFormula(request);
    replaceChildren(this.formula, formula);
    this.schedule.update();
  }

  /** "Daily Planet: General last 7 days by day, country". */
  private defaultScheduleName(): string {
    const publisher = this.publisher.name() ?? 'Engage';
    const preset = PRESET_LABELS[this.period.preset()] ?? '';
    const by = this.chosen.length ? ` by ${this.chosen.join(', ')}` : '';
    return `${publisher}: ${KIND_LABELS[this.kind]} ${preset.toLowerCase()}${by}`.slice(0, 100);
  }

  /** Where the last run of this same report wrote, else where the chosen target starts. */
  private defaultScheduleTarget(request: BuilderRequest): { sheetName: string; cell: string } {
    const last = this.lastRun;
    if (last && last.request === JSON.stringify(request))
      return { sheetName: last.block.sheetName, cell: a1Cell(last.block.row, last.block.column) };
    return this.target.firstCell();
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    for (const b of [this.runButton, this.formulaButton, ...this.schedule.buttons]) b.disabled = busy;
    this.dashboard.render();
    this.chartButton.disabled = busy || chartBlocker(this.lastRun?.header) !== undefined;
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
    const stopProgress = this.progressBar.start(runId);
    try {
      const summary = await this.ctx.server.runReportToSheet(request, this.target.runTarget(), runId);
      stopProgress();
      this.lastRun = { block: summary.block, header: summary.header, request: JSON.stringify(request) };
      replaceChildren(this.outcome, ...runOutcome(summary));
      void this.target.loadSheets();
    } catch (error) {
      stopProgress();
      this.showError(failureText(error));
    } finally {
      this.setBusy(false);
      this.chartButton.title = chartBlocker(this.lastRun?.header) ?? 'Add a chart of revenue and RPM by day beside the data';
    }
  }

  private async insertFormula(): Promise<void> {
    const request = this.request();
    if (typeof request === 'string') return this.showError(request);
    this.setBusy(true);
    try {
      const result = await this.ctx.server.insertFormula(request);
      const widened =
        result.columnsAdded > 0
          ? ` Added ${result.columnsAdded} column${result.columnsAdded === 1 ? '' : 's'} so that its result fits.`
          : '';
      replaceChildren(
        this.outcome,
        notice('success', el('span', {}, `Inserted in ${result.cell}: `, el('code', { id: 'inserted-formula' }, result.formula), widened)),
      );
    } catch (error) {
      this.showError(failureText(error));
    } finally {
      this.setBusy(false);
    }
  }

  private async addChart(): Promise<void> {
    if (!this.lastRun) return;
    this.setBusy(true);
    try {
      const result = await this.ctx.server.addChart(this.lastRun.block);
      this.outcome.appendChild(notice('success', `Added the chart “${result.chartTitle}” beside the data.`));
    } catch (error) {
      this.showError(failureText(error));
    } finally {
      this.setBusy(false);
    }
  }
}
