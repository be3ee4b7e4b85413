/**
 * The Schedule section, opened by "Save to schedule": a name, the period each refresh covers
 * (schedule-period.ts), and the saved-report editor's fields (sidebar/editor/): how often, the
 * destination in a build that loads into BigQuery, the sheet and first cell, the write mode, the months
 * closed for a daily report, and its notices and alerts. A BigQuery table takes no write mode, row cap,
 * closed months or alerts (the server refuses them), nor the builder's row limit or comparison, and
 * the sheet's cell then holds the loads' status. It is its own form, so Enter saves it rather than
 * running the report. The saved report is the builder's request with the editor's fields
 * (sidebar/editor/definition-form.ts); the server validates it again.
 */
import {
  type BuilderRequest,
  cellReference,
  describePeriod,
  freeName,
  type Period,
  PRESET_LABELS,
  type ReportKind,
  type SavedReportInput,
  type ScheduleList,
} from '../../../src/core';
import { loadsWholeDays, placeOf, reportOfBuilder, tableProblem } from '../../editor/definition-form';
import { type SavedReportEditor, savedReportEditor } from '../../editor/saved-report-editor';
import { append, el, notice, replaceChildren } from '../../dom';
import type { PanelContext } from '../../panel';
import { failureText } from '../../server';
import { requestBreakdowns, type Busy } from './part';
import { KIND_LABELS } from './pickers/kind';
import { type Editing, type PeriodSource, type SchedulePeriodPart, schedulePeriodPart } from './schedule-period';

/** What the Schedule section reads from the builder (its period's part: schedule-period.ts). */
export interface ScheduleSource extends Busy, PeriodSource {
  /** The request as the server takes it, or the first thing to fix. */
  request(): BuilderRequest | string;
  /** What the report is ("Daily Planet: General last 7 days by day, country"); the section adds where it goes. */
  defaultName(): string;
  /** Where the schedule writes unless the user says otherwise. */
  defaultTarget(request: BuilderRequest): { sheetName: string; cell: string };
  /** Shows a problem where the builder shows its outcomes. */
  showError(text: string): void;
}

export interface ScheduleForm {
  /** "Save to schedule", for the builder's row of actions: opens and closes the section. */
  readonly toggle: HTMLButtonElement;
  /** The buttons that are off while the tab is busy. */
  readonly buttons: readonly HTMLButtonElement[];
  /** The section and the line that tells how the last save went, in page order. */
  readonly nodes: readonly HTMLElement[];
  /** Follows the builder: redraws the period and the incremental option while the section is open. */
  update(): void;
  close(): void;
  /** The builder now edits this saved report: the section saves changes to it. */
  edit(id: string, definition: SavedReportInput, growing: boolean): void;
  /** Back to saving new reports. */
  stopEditing(): void;
}

export function scheduleForm(source: ScheduleSource, ctx: PanelContext): ScheduleForm {
  return new ScheduleSection(source, ctx);
}

function toggleButton(): HTMLButtonElement {
  return el(
    'button',
    {
      type: 'button',
      id: 'save-schedule',
      'aria-expanded': 'false',
      'aria-controls': 'schedule-form',
      title: 'Save this report with a refresh schedule',
    },
    'Save to schedule',
  );
}

class ScheduleSection implements ScheduleForm {
  readonly toggle = toggleButton();
  readonly buttons: readonly HTMLButtonElement[];
  readonly nodes: readonly HTMLElement[];
  private readonly form = el('form', {
    id: 'schedule-form',
    class: 'schedule-section',
    hidden: true,
    novalidate: true,
    'aria-label': 'Schedule',
  });
  private readonly save = el('button', { type: 'submit', class: 'action', id: 'schedule-save' }, 'Save schedule');
  private readonly outcome = el('div', { id: 'schedule-outcome', 'aria-live': 'polite' });
  private readonly editor: SavedReportEditor;
  private readonly when: SchedulePeriodPart;
  /** The names of the user's saved reports here, which a default name does not repeat (refreshed as the section opens). */
  private names: readonly string[] = [];
  /** The default name shown (`base` and where it goes), while the user has not typed another. */
  private named: { base: string; sheetName: string; shown: string } | undefined;
  /** The saved report being edited, whose definition the section changes, and the period choice it opened with. */
  private editing: Editing | undefined;

  constructor(
    private readonly source: ScheduleSource,
    private readonly ctx: PanelContext,
  ) {
    this.editor = savedReportEditor({ prefix: 'schedule', timeZone: ctx.state()?.timeZone, section: { changed: () => this.render() } });
    this.when = schedulePeriodPart(source, () => this.render());
    this.buttons = [this.toggle, this.save];
    this.nodes = [this.form, this.outcome];
    const { parts } = this.editor;
    append(
      this.form,
      el('h3', {}, 'Schedule'),
      parts.name,
      this.when.node,
      parts.schedule,
      parts.destination,
      parts.destination ? this.when.days : null,
      parts.place,
      parts.statusHint,
      parts.writeMode,
      parts.closed,
      parts.notices,
      el(
        'div',
        { class: 'actions' },
        this.save,
        el('button', { type: 'button', id: 'schedule-cancel', onclick: () => this.close() }, 'Cancel'),
      ),
    );
    // A default name follows the sheet typed, until the user names the report.
    parts.place?.addEventListener('input', (event) => {
      const input = event.target as HTMLInputElement;
      if (input.id === 'schedule-sheet' && this.named) this.nameFor(this.named.base, input.value.trim());
    });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
    this.toggle.addEventListener('click', () => this.toggleOpen());
  }

  /** Follows the builder: redraws the period and the incremental option while the section is open. */
  update(): void {
    if (!this.form.hidden) this.render();
  }

  close(): void {
    this.form.hidden = true;
    this.toggle.setAttribute('aria-expanded', 'false');
  }

  edit(id: string, definition: SavedReportInput, grows: boolean): void {
    this.when.set(grows, definition.period);
    // The builder shows the saved report's period now (builder.ts edit() set it before this).
    this.editing = { id, definition, shown: this.when.choice() };
    this.editor.set(definition);
    this.named = undefined;
    this.save.textContent = 'Save changes';
    this.toggle.textContent = 'Edit schedule';
    this.close();
  }

  stopEditing(): void {
    if (!this.editing) return;
    this.editing = undefined;
    this.editor.set(undefined);
    this.when.reset();
    this.save.textContent = 'Save schedule';
    this.toggle.textContent = 'Save to schedule';
    this.close();
  }

  /** Loaded into a table by whole UTC days (the hourly external-ID report): days to load, not the builder's hours. */
  private wholeDays(): boolean {
    return loadsWholeDays(this.source.choice().kind, this.editor.toTable());
  }

  private period(): Period {
    return this.when.period(this.editing, this.wholeDays());
  }

  /** The period's sentence, and the editor's fields as the report allows them. */
  private render(): void {
    const now = this.period();
    const request = this.source.request();
    this.when.render(now, request, this.wholeDays());
    const choice = this.source.choice();
    this.editor.follow(
      typeof request === 'string'
        ? { kind: choice.kind, breakdowns: requestBreakdowns(choice), period: now }
        : reportOfBuilder(request, now),
    );
  }

  private toggleOpen(): void {
    if (!this.form.hidden) {
      this.close();
      return;
    }
    const request = this.source.request();
    if (typeof request === 'string') {
      this.source.showError(request);
      return;
    }
    const place = this.editing ? placeOf(this.editing.definition) : this.source.defaultTarget(request);
    this.editor.setPlace(place);
    const { nameInput } = this.editor;
    if (!nameInput.value.trim()) this.defaultName(this.source.defaultName(), place.sheetName);
    replaceChildren(this.outcome);
    this.form.hidden = false;
    this.toggle.setAttribute('aria-expanded', 'true');
    this.render();
    nameInput.focus();
  }

  /**
   * Fills in a name that says what the report is and where it goes, numbered where one of the user's
   * saved reports has it already: at once from the names last seen, then from the server's list,
   * unless the user has typed a name meanwhile.
   */
  private defaultName(base: string, sheetName: string): void {
    this.named = undefined;
    this.nameFor(base, sheetName);
    this.ctx.server
      .listSchedules()
      .then((list) => {
        this.knowNames(list);
        if (this.named) this.nameFor(this.named.base, this.named.sheetName);
      })
      .catch(() => undefined); // the server refuses a name in use when it is saved
  }

  /** Shows the default name for this sheet, unless the user has typed another. */
  private nameFor(base: string, sheetName: string): void {
    const { nameInput } = this.editor;
    if (this.named && nameInput.value !== this.named.shown) return;
    const shown = freeName(sheetName ? `${base}, into ${sheetName}` : base, this.names);
    nameInput.value = shown;
    this.named = { base, sheetName, shown };
  }

  private knowNames(list: ScheduleList): void {
    this.names = list.reports.filter((r) => r.mine).map((r) => r.name);
  }

  /** The saved report to send, or the first thing to fix. */
  private definition(): SavedReportInput | string {
    const request = this.source.request();
    if (typeof request === 'string') return request;
    const check = () => (this.editor.toTable() ? tableProblem(request) : undefined) ?? this.when.problem(this.wholeDays());
    return this.editor.definition(reportOfBuilder(request, this.period(), this.editing?.definition), check);
  }

  private async submit(): Promise<void> {
    if (this.source.isBusy()) return;
    // What names a field shows under it (the editor's); the rest beside Save schedule.
    const fail = (text: string) =>
      this.ctx.moments.say(this.outcome, text ? notice('error', text) : [], ['form', 'action', 'sign-in', 'tab']);
    const report = this.definition();
    if (typeof report === 'string') return fail(report);
    this.source.setBusy(true);
    replaceChildren(this.outcome, notice('info', 'Saving…'));
    try {
      const { editing } = this;
      const list = editing ? await this.ctx.server.updateSchedule(editing.id, report) : await this.ctx.server.saveSchedule(report);
      this.editor.clearProblems();
      this.knowNames(list);
      this.close();
      this.savedNotice(report, list);
      if (editing) this.editing = { id: editing.id, definition: report, shown: this.when.choice() };
      else this.editor.next(report);
    } catch (error) {
      fail(this.editor.showProblems(failureText(error)));
      this.ctx.moments.until(['tab', 'sign-in'], () => this.editor.clearProblems());
    } finally {
      this.source.setBusy(false);
    }
  }

  /** "Saved …", until another action, a sign-in change, or this saved report's deletion (moments.ts). */
  private savedNotice(report: SavedReportInput, list: ScheduleList): void {
    // The report edited is known by its id; a new one is the newest of the user's by that name.
    const editedId = this.editing?.id;
    const saved = editedId
      ? list.reports.find((r) => r.id === editedId)
      : [...list.reports].reverse().find((r) => r.mine && r.name === report.name);
    const place = placeOf(report);
    const into = saved?.target ?? cellReference(place.sheetName, place.cell);
    const text = `Saved “${report.name}”: ${saved?.scheduleText ?? 'scheduled'}, ${describePeriod(report.period)}, into ${into}. `;
    const open = el(
      'button',
      { type: 'button', class: 'link', id: 'schedule-open-list', onclick: () => this.ctx.showPanel('schedules') },
      'See it in Schedules',
    );
    this.ctx.moments.say(this.outcome, notice('success', el('span', {}, text, open)), [
      'action',
      'sign-in',
      ...(saved ? [`schedule-deleted:${saved.id}` as const] : []),
    ]);
  }
}

/** The name a new saved report is offered: "Daily Planet: General last 7 days by day, country". */
export function defaultScheduleName(publisher: string | undefined, kind: ReportKind, preset: string, chosen: readonly string[]): string {
  const label = (PRESET_LABELS as Record<string, string | undefined>)[preset] ?? '';
  const by = chosen.length ? ` by ${chosen.join(', ')}` : '';
  return `${publisher ?? 'Engage'}: ${KIND_LABELS[kind]} ${label.toLowerCase()}${by}`.slice(0, 100);
}
