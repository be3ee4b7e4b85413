/**
 * The report builder's form. It owns the choice its parts follow (part.ts): the report type (its radio buttons and
 * freshness note) and the ticked breakdowns. It composes the parts into one request, shows the equivalent formula,
 * and runs the actions: Run to sheet (its progress, the question it may ask before writing over cells), Insert
 * formula, Add chart, Save to schedule, Create dashboard, Explain the change (explain/: of its comparison, and of the
 * ENGAGE_COMPARE in the selected cell). It reopens a report from its block in the sheet or from the Schedules tab
 * (`edit`) and runs it again in place (report-here.ts says when it asks the server about the selected cell).
 */
import {
  a1Cell,
  type BuilderRequest,
  builderRequestOfSaved,
  compareFormula,
  rangeReference,
  reportFormula,
  type ReportKind,
  type RunToSheetSummary,
  type WriteChoice,
} from '../../../src/core';
import { copyButton, formulaWithBreaks } from '../../widgets/copy';
import { el, notice, replaceChildren } from '../../dom';
import type { PanelContext, ReportEdit } from '../../panel';
import { failureText } from '../../server';
import { breakdownPicker, type BreakdownPicker } from './pickers/breakdowns';
import { comparePicker, type ComparePicker } from './pickers/compare';
import { dashboardButton, type DashboardButton } from './dashboard';
import { filterRows, type FilterRows } from './pickers/filters';
import { metricPicker, type MetricPicker } from './pickers/metrics';
import { requestOptions, type RequestOptions } from './pickers/options';
import { requestBreakdowns, type PartContext, type ReportChoice, startingAction } from './part';
import { periodPicker, type PeriodPicker } from './pickers/period';
import { publisherPicker, type PublisherPicker } from './pickers/publisher';
import { runProgressBar, type RunProgressBar } from './run/progress';
import { type Editing, reportHereBar, type ReportHereBar } from './report-here';
import { type ChartAction, chartAction } from './chart';
import { runOutcome } from './run/run-outcome';
import { type KindPicker, kindPicker } from './pickers/kind';
import { insertFormulaButton } from './insert-formula';
import { type ExplainPart, explainPart } from './explain/explain-change';
import { type ExplainHere, explainHere } from './explain/explain-here';
import { defaultScheduleName, scheduleForm, type ScheduleForm } from './schedule-form';
import { placeOf } from '../../editor/definition-form';
import { targetPicker, type TargetPicker } from './pickers/target';
import { askBeforeWriting } from './run/write-question';

export class ReportBuilder {
  private kind: ReportKind = 'main';
  private chosen: string[] = ['day'];
  /** The last successful run: Save to schedule offers its cells for the same request. */
  private lastRun: { block: RunToSheetSummary['block']; request: string } | undefined;
  private busy = false;
  private wasSignedIn = false;
  /** The report reopened from the sheet or the Schedules tab, while the builder edits it. */
  private editing: Editing | undefined;

  private readonly formula = el('div', { class: 'code', id: 'formula-preview' });
  /** Said in place of the formula while the form has something to fix (which its field says). */
  private readonly noFormula = el('div', { class: 'hint', id: 'formula-none', hidden: true }, 'No formula until the form is complete.');
  private readonly formulaCopy = copyButton(this.formula, 'the formula');
  private readonly runButton = el('button', { type: 'submit', class: 'action', id: 'run-report' }, 'Run to sheet');
  private readonly formulaButton: HTMLButtonElement;
  private readonly outcome = el('div', { id: 'report-outcome', 'aria-live': 'polite' });
  private readonly form = el('form', { id: 'report-form', novalidate: true });
  private readonly signedOut = el('div', { id: 'report-signed-out', hidden: true });

  private readonly ctx: PanelContext;
  private readonly kindPicker: KindPicker;
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
  private readonly chart: ChartAction;
  private readonly here: ReportHereBar;
  private readonly explain: ExplainPart;
  private readonly explainHere: ExplainHere;
  /** The tab's elements, in page order, for the panel to place. */
  readonly nodes: readonly HTMLElement[];

  /** Builds the form and follows the sign-in from now on. */
  constructor(ctx: PanelContext) {
    this.ctx = ctx;
    const parts: PartContext = { choice: () => this.choice(), changed: () => this.renderFormula() };
    this.kindPicker = kindPicker(this.kind, (kind) => this.setKind(kind));
    // One publisher or several: the metrics' column count follows (the publisher's two columns come first).
    this.publisher = publisherPicker(ctx.server, () => {
      this.metrics.render();
      this.dashboard.render();
      parts.changed();
    });
    const busyState = { isBusy: () => this.busy, setBusy: (busy: boolean) => this.setBusy(busy) };
    const acting = startingAction(busyState, ctx.moments);
    this.dashboard = dashboardButton(
      ctx,
      { id: () => this.publisher.id(), label: () => this.publisher.name() },
      acting,
      () => void this.here.refresh(),
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
    this.formulaButton = insertFormulaButton(ctx, () => this.request(), acting, {
      box: this.outcome,
      error: (text) => this.showError(text),
    });
    this.explain = explainPart(ctx, () => this.request(), acting);
    this.explainHere = explainHere(ctx, acting);
    this.progressBar = runProgressBar(ctx.server);
    this.schedule = scheduleForm(
      {
        choice: parts.choice,
        preset: () => this.period.preset(),
        customDays: () => this.period.customDays(),
        request: () => this.request(),
        defaultName: () => defaultScheduleName(this.publisher.name(), this.kind, this.period.preset(), this.chosen),
        defaultTarget: (request) => this.defaultScheduleTarget(request),
        showError: (text) => this.showError(text),
        ...acting,
      },
      ctx,
    );
    this.chart = chartAction(ctx.server, busyState, {
      success: (text) => ctx.moments.add(this.outcome, notice('success', text), ['action', 'sign-in']),
      error: (text) => this.showError(text),
    });
    this.here = reportHereBar({
      edit: (edit) => this.edit(edit),
      stop: () => this.stopEditing(),
      timeZone: () => ctx.state()?.timeZone ?? 'UTC',
      read: () => this.explainHere.following(this.target.loadSheets()),
      visible: () => !this.form.hidden && this.form.offsetParent !== null,
      moments: ctx.moments,
    });
    this.nodes = [this.signedOut, this.here.node, this.form, ...this.schedule.nodes];
    this.assembleForm();
    this.setKind('main');
    this.dashboard.render();
    ctx.onStateChange(() => this.renderSignIn());
    this.renderSignIn();
  }

  /** The parts in form order, then the formula, the actions and their outcome. */
  private assembleForm(): void {
    this.form.append(
      this.explainHere.node,
      this.publisher.node,
      this.dashboard.node,
      ...this.kindPicker.nodes,
      ...this.period.nodes,
      ...this.compare.nodes,
      this.breakdowns.node,
      this.metrics.node,
      this.filters.node,
      ...this.options.nodes,
      ...this.target.nodes,
      el('details', { id: 'formula-details' }, el('summary', {}, 'Equivalent formula'), this.formula, this.noFormula, this.formulaCopy),
      el('div', { class: 'actions' }, this.runButton, this.formulaButton, this.chart.button, this.schedule.toggle),
      this.chart.reason,
      this.progressBar.node,
      this.outcome,
      this.explain.node,
    );
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run();
    });
  }

  /** The tab was opened again: the sheets and the selection may have changed meanwhile. */
  shown(): void {
    void this.here.refresh();
  }

  /** Reopens a report in the builder: its type, publisher, breakdowns, metrics, filters, options, period and place. */
  edit(edit: ReportEdit): void {
    const { request, growing } =
      edit.source === 'run' ? { request: edit.report, growing: false } : builderRequestOfSaved(edit.definition, Date.now());
    this.setKind(request.kind);
    this.publisher.choose(request.entityId);
    this.choose(request.breakdowns.filter((b) => !(request.kind === 'externalId' && b === 'externalId')));
    this.filters.set(request.filter ?? '');
    this.options.set(request);
    this.period.set(request.preset, request.fromDate, request.toDate);
    this.compare.set(request.compareWith);
    // After the comparison, which the metric picker's default set and column count follow.
    this.metrics.set(request.metrics);
    const place =
      edit.source === 'schedule'
        ? { ...placeOf(edit.definition), cell: placeOf(edit.definition).cell.toUpperCase() }
        : { sheetName: edit.block.sheetName, cell: a1Cell(edit.block.row, edit.block.column) };
    this.target.set(place);
    this.editing = { edit, place };
    if (edit.source === 'schedule' && edit.mine) this.schedule.edit(edit.scheduleId, edit.definition, growing);
    else this.schedule.stopEditing();
    this.here.editing(this.editing);
    this.renderFormula();
    replaceChildren(this.outcome);
    this.here.node.scrollIntoView({ block: 'nearest' });
  }

  private stopEditing(): void {
    this.editing = undefined;
    this.schedule.stopEditing();
    this.here.editing(undefined);
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
    if (!signedIn) {
      this.schedule.close();
      this.here.show(null);
    }
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
    // A new sign-in may be another Engage user's, with other publishers.
    if (signedIn && (!this.wasSignedIn || !this.publisher.loaded())) {
      void this.publisher.load();
      void this.here.refresh();
    }
    this.wasSignedIn = signedIn;
  }

  /** A new report type starts over: its presets, its default breakdowns and metrics, no filter. */
  private setKind(kind: ReportKind): void {
    this.kind = kind;
    this.kindPicker.show(kind);
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
    this.period.refresh();
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
    request.preset = this.period.preset();
    const metrics = this.metrics.chosen();
    if (metrics.length === 0) return 'Choose at least one metric.';
    request.metrics = metrics;
    if (filter) request.filter = filter;
    const problem = this.options.apply(request);
    if (problem) return problem;
    const compareWith = this.compare.value();
    if (typeof compareWith === 'object') return compareWith.problem;
    if (compareWith) request.compareWith = compareWith;
    return request;
  }

  private renderFormula(): void {
    this.ctx.moments.happened('form'); // a problem shown before may be mended now (moments.ts)
    this.compare.render(); // the earlier period follows the report's period
    const request = this.request();
    // A problem is not a formula: the box and its Copy button step aside for a muted line.
    const none = typeof request === 'string';
    const formula = none ? '' : request.compareWith ? compareFormula(request) : reportFormula(request);
    replaceChildren(this.formula, ...formulaWithBreaks(formula));
    for (const node of [this.formula, this.formulaCopy]) node.hidden = none;
    this.noFormula.hidden = !none;
    this.chart.follow(request);
    this.explain.follow(request);
    this.schedule.update();
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
    for (const b of [this.runButton, this.formulaButton, ...this.explain.buttons, ...this.explainHere.buttons, ...this.schedule.buttons])
      b.disabled = busy;
    this.chart.setBusy(busy);
    this.dashboard.render();
  }

  /** A problem stays until the form changes or another action starts (moments.ts). */
  private showError(text: string): void {
    this.ctx.moments.say(this.outcome, notice('error', text), ['form', 'action', 'sign-in']);
  }

  private async run(): Promise<void> {
    if (this.busy) return;
    this.ctx.moments.happened('action'); // even a run refused before it starts supersedes earlier outcomes
    const request = this.request();
    if (typeof request === 'string') return this.showError(request);
    const target = this.target.runTarget();
    if (typeof target === 'string') return this.showError(target);
    // The edited report's own block is written over unasked only where the builder still writes it.
    const first = this.target.firstCell();
    const place = this.editing?.place;
    const options: { choice?: WriteChoice; editing?: boolean } =
      place && place.sheetName === first.sheetName && place.cell === first.cell ? { editing: true } : {};
    this.setBusy(true);
    replaceChildren(this.outcome);
    try {
      for (;;) {
        const runId = `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
        const stopProgress = this.progressBar.start(runId);
        let outcome: Awaited<ReturnType<PanelContext['server']['runReportToSheet']>>;
        try {
          outcome = await this.ctx.server.runReportToSheet(request, target, runId, options);
        } finally {
          stopProgress();
        }
        if ('question' in outcome) {
          const choice = await askBeforeWriting(this.outcome, outcome.question);
          if (!choice) return this.ctx.moments.say(this.outcome, notice('info', 'Nothing was written.'), ['form', 'action', 'sign-in']);
          options.choice = choice;
          continue;
        }
        this.written(request, outcome);
        return;
      }
    } catch (error) {
      this.chart.failed(request);
      this.showError(failureText(error));
    } finally {
      this.setBusy(false);
    }
  }

  /** After a run wrote its block: the outcome, and the block as the edited report's new extent. */
  private written(request: BuilderRequest, summary: RunToSheetSummary): void {
    this.lastRun = { block: summary.block, request: JSON.stringify(request) };
    this.chart.ran(summary, request);
    this.ctx.moments.say(this.outcome, runOutcome(summary), ['action', 'sign-in']);
    const { editing } = this;
    const { block } = summary;
    if (editing?.place.sheetName === block.sheetName && editing.place.cell === a1Cell(block.row, block.column)) {
      this.editing = { ...editing, edit: { ...editing.edit, block, range: rangeReference(block) } as ReportEdit };
      this.here.editing(this.editing);
    }
    void this.here.refresh();
  }
}
