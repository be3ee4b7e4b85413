/**
 * The Schedule section, opened by "Save to schedule": a name, the period each refresh covers (the
 * builder's preset as it moves with time; a saved report being edited keeps its own period until the
 * period is changed in the builder), how often, the sheet and first cell, the write mode with its
 * row cap and the incremental option where the report allows it (write-mode-fields.ts), the months
 * closed for a daily report, whose revisions are tracked, and its notices and alerts
 * (sidebar/notice-fields.ts). In a build that loads into BigQuery, the destination too
 * (destination-fields.ts): a BigQuery table takes no write mode, row cap, closed months or alerts
 * (the server refuses them), and the sheet's cell then holds the loads' status; the hourly external-ID
 * report into a table is loaded by whole UTC days, so "Days to load" replaces the builder's hour
 * window as its period (the N whole days before today). It is its own form,
 * so Enter saves it rather than running the report. The period, the incremental rule and the saved
 * report's shape come from the core (schedule-draft.ts, saved-reports.ts); the server validates the
 * saved report again.
 */
import {
  A1_CELL_PATTERN,
  type BuilderRequest,
  cellReference,
  type DatePreset,
  describeCompareWith,
  describePeriod,
  incrementalProblem,
  type Period,
  type PeriodChoice,
  REPORT_SPECS,
  type SavedReportInput,
  savedReportFromBuilder,
  schedulePeriod,
  tracksRevisions,
} from '../../../src/core';
import { append, el, field, notice, replaceChildren } from '../../dom';
import type { PanelContext } from '../../panel';
import { scheduleFields } from '../../editor/schedule-fields';
import { writeModeFields } from '../../editor/write-mode-fields';
import { destinationFields } from '../../editor/destination-fields';
import { noticeFields } from '../../notice-fields';
import { failureText } from '../../server';
import { requestBreakdowns, type Busy, type ReportChoice } from './part';

/** What the Schedule section reads from the builder. */
export interface ScheduleSource extends Busy {
  choice(): ReportChoice;
  preset(): DatePreset;
  /** The custom range's first and last day as typed (general report). */
  customDays(): { fromDate: string; toDate: string };
  /** The request as the server takes it, or the first thing to fix. */
  request(): BuilderRequest | string;
  /** A name that says what the report is ("Daily Planet: General last 7 days by day, country"). */
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
  const toggle = el(
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
  const form = el('form', { id: 'schedule-form', class: 'schedule-section', hidden: true, novalidate: true, 'aria-label': 'Schedule' });
  const name = el('input', { type: 'text', id: 'schedule-name', maxlength: 100, autocomplete: 'off' });
  const periodLine = el('div', { class: 'hint field', id: 'schedule-period' });
  const growing = el('input', { type: 'checkbox', id: 'schedule-growing' });
  const growingBox = el('label', { class: 'check', for: 'schedule-growing' }, growing, 'Extend to today at each refresh');
  const how = scheduleFields('schedule', undefined, ctx.state()?.timeZone);
  const notices = noticeFields('schedule', ctx.state()?.timeZone);
  /** The saved report being edited, whose definition the section changes, and the period choice it opened with. */
  let editing: { id: string; definition: SavedReportInput; shown: PeriodChoice } | undefined;
  const sheet = el('input', { type: 'text', id: 'schedule-sheet', maxlength: 100, autocomplete: 'off' });
  const cell = el('input', { type: 'text', id: 'schedule-cell', maxlength: 10, placeholder: 'A1', autocomplete: 'off' });
  const modes = writeModeFields('schedule');
  // Undefined in a build without BigQuery, which then keeps a saved report's table as it was saved.
  const destination = destinationFields('schedule', { choice: true, changed: () => render() });
  const statusHint = destination
    ? el('div', { class: 'hint field', id: 'schedule-status-hint' }, 'The status of the loads (days loaded, what is left) is written here.')
    : null;
  const toBigQuery = () => destination?.chosen() === true;
  // The hourly external-ID report into BigQuery is loaded by whole UTC days: the builder's hour windows do not apply.
  const bqDays = el('input', { type: 'number', id: 'schedule-bq-days', min: 1, max: 366, step: 1, value: '7', inputmode: 'numeric' });
  const bqDaysBox = field('Days to load', bqDays, 'The whole UTC days before today, each with its 24 hours, one partition a day.');
  let bqDaysTouched = false;
  const hourlyToBigQuery = () => toBigQuery() && REPORT_SPECS[source.choice().kind].hourly;
  /** The days typed, when a whole number from 1 to 366. */
  const daysTyped = (): number | undefined => {
    const days = Number(bqDays.value.trim());
    return bqDays.value.trim() !== '' && Number.isInteger(days) && days >= 1 && days <= 366 ? days : undefined;
  };
  const closed = el('input', { type: 'text', id: 'schedule-closed', maxlength: 7, placeholder: '2026-10', autocomplete: 'off' });
  const closedBox = field(
    'Months closed through',
    closed,
    'A revision of a day in a closed month (yyyy-mm and before) raises a notice. Empty: no month is closed.',
  );
  const save = el('button', { type: 'submit', class: 'action', id: 'schedule-save' }, 'Save schedule');
  const outcome = el('div', { id: 'schedule-outcome', 'aria-live': 'polite' });

  /** Custom ranges only in the general report: the hourly ones refresh a rolling window. */
  const customRange = () => source.choice().kind === 'main' && source.preset() === 'custom';

  /** The builder's period as it stands: the report type, the preset, a custom range and whether it grows. */
  function periodChoice(): PeriodChoice {
    const choice: PeriodChoice = { kind: source.choice().kind, preset: source.preset() };
    if (customRange()) choice.custom = { ...source.customDays(), growing: growing.checked };
    return choice;
  }

  /**
   * The period the saved report refreshes: the builder's preset as it moves with time; a saved report
   * being edited keeps its own until its period is changed in the builder.
   */
  function period(): Period {
    if (hourlyToBigQuery()) {
      // A saved report's own days stay until the field is changed (a period saved through the API: since, a month…).
      const kept = editing?.definition.bigquery && editing.definition.period.type !== 'lastHours' ? editing.definition.period : undefined;
      if (kept && !bqDaysTouched) return kept;
      return { type: 'lastDays', days: daysTyped() ?? 7, endingYesterday: true };
    }
    return schedulePeriod(periodChoice(), editing ? { period: editing.definition.period, shown: editing.shown } : undefined);
  }

  /** The period's sentence, the "extend to today" choice of a custom range, and the incremental option where allowed. */
  function render(): void {
    const now = period();
    const choice = source.choice();
    growingBox.hidden = !customRange();
    const hourlyNote =
      REPORT_SPECS[choice.kind].hourly && !hourlyToBigQuery() && source.preset() !== 'last24h'
        ? ' (hourly reports refresh a rolling window)'
        : hourlyToBigQuery()
          ? ', each hour a row'
          : '';
    bqDaysBox.hidden = !hourlyToBigQuery();
    const request = source.request();
    const compareWith = typeof request === 'string' ? undefined : request.compareWith;
    const compared = compareWith ? `, compared with ${describeCompareWith(compareWith)}` : '';
    replaceChildren(periodLine, `${describePeriod(now)}${hourlyNote}${compared}.`);
    // What applies to a sheet only is not offered for a BigQuery table, which replaces each day's partition.
    modes.node.hidden = toBigQuery();
    notices.offerAlerts(!toBigQuery());
    if (statusHint) statusHint.hidden = !toBigQuery();
    // Closed months belong to the reports whose revisions are tracked: by day, without a comparison.
    closedBox.hidden =
      toBigQuery() ||
      !tracksRevisions({
        kind: choice.kind,
        breakdowns: requestBreakdowns(choice),
        ...(compareWith ? { compareWith } : {}),
      });
    const maxRows = typeof request === 'string' ? undefined : request.maxRows;
    const problem = incrementalProblem({
      kind: choice.kind,
      breakdowns: requestBreakdowns(choice),
      period: now,
      ...(compareWith ? { compareWith } : {}),
      ...(maxRows !== undefined ? { maxRows } : {}),
    });
    const entityId = typeof request === 'string' ? undefined : request.entityId;
    modes.update(
      {
        kind: choice.kind,
        breakdowns: requestBreakdowns(choice),
        ...(entityId ? { entityId } : {}),
        ...(compareWith ? { compareWith } : {}),
      },
      !problem,
    );
    // The alerts' choices are the report's own metrics and breakdowns, as its write mode keeps them.
    const kept = modes.value();
    notices.watch(
      typeof request === 'string'
        ? undefined
        : savedReportFromBuilder(request, {
            name: 'x',
            period: now,
            schedule: how.value(),
            target: { sheetName: 'x', cell: 'A1' },
            ...(typeof kept === 'string' ? {} : kept),
          }),
    );
  }

  function close(): void {
    form.hidden = true;
    toggle.setAttribute('aria-expanded', 'false');
  }

  function toggleOpen(): void {
    if (!form.hidden) {
      close();
      return;
    }
    const request = source.request();
    if (typeof request === 'string') {
      source.showError(request);
      return;
    }
    if (!name.value.trim()) name.value = source.defaultName();
    const target = editing ? editing.definition.target : source.defaultTarget(request);
    sheet.value = target.sheetName;
    cell.value = target.cell;
    replaceChildren(outcome);
    form.hidden = false;
    toggle.setAttribute('aria-expanded', 'true');
    render();
    name.focus();
  }

  async function submit(): Promise<void> {
    if (source.isBusy()) return;
    const request = source.request();
    const fail = (text: string) => ctx.moments.say(outcome, notice('error', text), ['form', 'action', 'sign-in']);
    if (typeof request === 'string') return fail(request);
    if (!name.value.trim()) return fail('Name the saved report.');
    if (!sheet.value.trim()) return fail('Name the sheet it writes to.');
    if (!A1_CELL_PATTERN.test(cell.value.trim())) return fail('Write the first cell as one cell, such as A1.');
    // A BigQuery table keeps every row of every day: the builder's row limit and comparison, named as the builder names them.
    if (toBigQuery() && request.maxRows !== undefined)
      return fail('Row limit: a BigQuery table takes every row of the period; empty the Row limit above, or choose This sheet.');
    if (toBigQuery() && request.compareWith)
      return fail('Compare with: a BigQuery table takes no comparison; set Compare with to None above, or choose This sheet.');
    if (hourlyToBigQuery() && bqDaysTouched && daysTyped() === undefined)
      return fail('Days to load: write a whole number of days from 1 to 366 (a BigQuery table is loaded a whole UTC day at a time).');
    const kept = toBigQuery() ? {} : modes.value();
    if (typeof kept === 'string') return fail(kept);
    const closedThrough = closedBox.hidden ? '' : closed.value.trim();
    if (closedThrough && !/^\d{4}-(0[1-9]|1[0-2])$/.test(closedThrough))
      return fail('Months closed through: write a month as yyyy-mm, such as 2026-10, or leave it empty.');
    const refreshed = period();
    const report = savedReportFromBuilder(request, {
      name: name.value,
      period: refreshed,
      schedule: how.value(),
      target: { sheetName: sheet.value, cell: cell.value },
      ...kept,
      ...(editing?.definition.paused ? { paused: true } : {}),
      ...(closedThrough ? { closedThrough } : {}),
    });
    Object.assign(report, notices.value());
    // What the builder does not show stays as saved: the page size, the Total row, and a BigQuery
    // destination where this build does not show it.
    const { bigquery, pageSize, totals } = editing?.definition ?? {};
    const table = destination ? (toBigQuery() ? destination.value() : undefined) : bigquery;
    Object.assign(
      report,
      table ? { bigquery: table } : {},
      pageSize !== undefined ? { pageSize } : {},
      totals !== undefined ? { totals } : {},
    );
    source.setBusy(true);
    replaceChildren(outcome, notice('info', 'Saving…'));
    try {
      const list = editing ? await ctx.server.updateSchedule(editing.id, report) : await ctx.server.saveSchedule(report);
      // The report edited is known by its id; a new one is the newest of the user's by that name.
      const editedId = editing?.id;
      const saved = editedId
        ? list.reports.find((r) => r.id === editedId)
        : [...list.reports].reverse().find((r) => r.mine && r.name === report.name);
      destination?.showProblems('');
      close();
      if (editing) editing = { id: editing.id, definition: report, shown: periodChoice() };
      else {
        name.value = '';
        // A table takes one saved report: the next one is given its own table name.
        if (table && destination) destination.set({ ...table, tableId: '' });
      }
      // Until another action, a sign-in change, or this saved report's deletion (moments.ts).
      ctx.moments.say(
        outcome,
        notice(
          'success',
          el(
            'span',
            {},
            `Saved “${report.name}”: ${saved?.scheduleText ?? 'scheduled'}, ${describePeriod(refreshed)}, into ${saved?.target ?? cellReference(report.target.sheetName, report.target.cell)}. `,
            el(
              'button',
              { type: 'button', class: 'link', id: 'schedule-open-list', onclick: () => ctx.showPanel('schedules') },
              'See it in Schedules',
            ),
          ),
        ),
        ['action', 'sign-in', ...(saved ? [`schedule-deleted:${saved.id}` as const] : [])],
      );
    } catch (error) {
      fail(failureText(error));
      destination?.showProblems(failureText(error));
    } finally {
      source.setBusy(false);
    }
  }

  const cancel = el('button', { type: 'button', id: 'schedule-cancel', onclick: close }, 'Cancel');
  growing.addEventListener('change', render);
  bqDays.addEventListener('input', () => {
    bqDaysTouched = true;
    render();
  });
  modes.node.addEventListener('change', render);
  append(
    form,
    el('h3', {}, 'Schedule'),
    field('Name', name),
    el('div', { class: 'field' }, el('span', { class: 'label' }, 'Period at each refresh'), periodLine, growingBox),
    how.node,
    destination?.node,
    destination ? bqDaysBox : null,
    el('div', { class: 'row' }, field('Sheet', sheet), el('div', { class: 'narrow cell-field' }, field('Cell', cell))),
    statusHint,
    modes.node,
    closedBox,
    notices.node,
    el('div', { class: 'actions' }, save, cancel),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  toggle.addEventListener('click', toggleOpen);
  return {
    toggle,
    buttons: [toggle, save],
    nodes: [form, outcome],
    update() {
      if (!form.hidden) render();
    },
    close,
    edit(id, definition, grows) {
      name.value = definition.name;
      how.set(definition.schedule);
      growing.checked = grows;
      // The builder shows the saved report's period now (builder.ts edit() set it before this).
      editing = { id, definition, shown: periodChoice() };
      modes.set(definition);
      closed.value = definition.closedThrough ?? '';
      notices.set(definition);
      destination?.set(definition.bigquery);
      bqDays.value = definition.period.type === 'lastDays' ? String(definition.period.days) : '7';
      bqDaysTouched = false;
      save.textContent = 'Save changes';
      toggle.textContent = 'Edit schedule';
      close();
    },
    stopEditing() {
      if (!editing) return;
      editing = undefined;
      name.value = '';
      closed.value = '';
      notices.set({});
      destination?.set(undefined);
      bqDays.value = '7';
      bqDaysTouched = false;
      save.textContent = 'Save schedule';
      toggle.textContent = 'Save to schedule';
      close();
    },
  };
}
