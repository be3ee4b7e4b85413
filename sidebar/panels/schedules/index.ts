/**
 * The Schedules panel: every saved report of this spreadsheet with its status (last success, last
 * attempt, rows, duration, next run, last error with trace ID, "sign in again"), and Edit, Run now,
 * Pause or Resume and Delete for the user's own. Edit opens a small form under the report: its name,
 * how often, paused, the write mode with its row cap and the incremental option where the report
 * allows it (write-mode-fields.ts), its notices and alerts (notice-fields.ts, each alert with when it
 * last fired; a BigQuery report shows its table instead: destination-fields.ts), and "Change the report"
 * reopens the report itself (publisher, period, breakdowns, filters, metrics) in the Report tab's
 * builder, whose Schedule section then saves the changes to it. Delete asks first, in the page.
 * Times are on the spreadsheet's clock, named. Above the list, a notice for each of the user's
 * spreadsheets a scheduled run could not reach (schedule-notices.ts), with a way to remove its
 * schedules. Everything shown is text set through dom.ts: names, filters and error messages may carry
 * API or user text.
 */
import {
  describeCompareWith,
  formatCount,
  formatDuration,
  describePeriod,
  incrementalProblem,
  type SavedReportInput,
  type ScheduleList,
  type ScheduleView,
  writeModeSummary,
} from '../../../src/core';
import { el, field, notice, replaceChildren } from '../../dom';
import type { Panel, PanelContext } from '../../panel';
import { quotaBlock } from '../../widgets/quota';
import { scheduleFields } from '../../editor/schedule-fields';
import { noticeFields, noticesSummary } from '../../notice-fields';
import { failureText } from '../../server';
import { sheetTime } from '../../time';
import { writeModeFields } from '../../editor/write-mode-fields';
import { destinationFields } from '../../editor/destination-fields';
import { registryWarning, unreachableNotices } from '../schedule-notices';
import { bigQueryView } from './bigquery-view';

function statusLines(view: ScheduleView, timeZone: string): HTMLElement {
  const s = view.status;
  const when = (iso: string | undefined) => (iso ? sheetTime(iso, timeZone) : 'never');
  const lines = el('dl', { class: 'schedule-status' });
  const row = (label: string, value: string) => lines.append(el('dt', {}, label), el('dd', {}, value));
  // "23,777 rows in 1.2 s", as every run message says how long it took.
  row(
    'Last success',
    s.lastSuccess ? `${when(s.lastSuccess)}, ${formatCount(s.rows ?? 0)} rows ${formatDuration(s.durationMs ?? 0)}` : 'never',
  );
  row('Last attempt', when(s.lastAttempt));
  // A BigQuery report: the days loaded of the period's and what is left, as the core words it (text only).
  if (s.progress) row('Loaded', s.progress);
  // A slot already begun is served by the next hourly run, whenever within its hour that comes; a report
  // never refreshed is filled by it too, and then follows its schedule, whose next slot is shown as well.
  const due = !s.nextRun || Date.parse(s.nextRun) <= Date.now();
  const then = s.slotAfter ? `, then in the hour from ${when(s.slotAfter)}` : '';
  const dueText = s.lastAttempt ? `due: the next hourly run refreshes it${then}` : `the next hourly run fills it first${then}`;
  row('Next run', view.paused ? 'paused' : due ? dueText : `in the hour from ${when(s.nextRun)}`);
  if (s.lastError)
    row(
      'Last error',
      `${s.lastError.message}${s.lastError.traceId && !s.lastError.message.includes(s.lastError.traceId) ? ` [trace ID ${s.lastError.traceId}]` : ''}`,
    );
  return lines;
}

/** What Run now did, as every run says it: the rows and how long it took (a failure shows in the status's Last error). */
function ranNow(list: ScheduleList, id: string): string | undefined {
  const ran = list.reports.find((r) => r.id === id);
  const s = ran?.status;
  // It succeeded when its last success is its last attempt (an attempt is stamped as it starts).
  if (!ran || !s?.lastSuccess || (s.lastAttempt && Date.parse(s.lastSuccess) < Date.parse(s.lastAttempt))) return undefined;
  return `Refreshed “${ran.name}”: ${formatCount(s.rows ?? 0)} rows ${formatDuration(s.durationMs ?? 0)}.`;
}

/** What Run now said of a report it put off: nothing refreshed, and when it goes on. */
function waitedNow(list: ScheduleList, id: string): string {
  const waited = list.reports.find((r) => r.id === id);
  const name = waited?.name ?? 'this report';
  if (waited?.status.progress?.includes('paused')) return `Nothing loaded now for “${name}”: it goes on when its pause ends (see Loaded).`;
  return `Nothing refreshed now for “${name}”: its rate budget or time was spent; the next hourly run goes on with it.`;
}

/** A short state next to the name: paused, failing, or refreshed. */
function badge(view: ScheduleView): HTMLElement | null {
  if (view.paused) return el('span', { class: 'schedule-badge schedule-badge-paused' }, 'paused');
  if (view.status.needsSignIn) return el('span', { class: 'schedule-badge schedule-badge-error' }, 'sign in again');
  if (view.status.lastError && (view.status.failures ?? 0) > 0)
    return el('span', { class: 'schedule-badge schedule-badge-error' }, 'failing');
  if (view.status.lastSuccess) return el('span', { class: 'schedule-badge schedule-badge-ok' }, 'up to date');
  return null;
}

/**
 * The edit form of one saved report: name, schedule, paused and (where allowed) incremental. Saving
 * sends the whole definition back with those fields changed, through updateSchedule.
 */
function editForm(
  view: ScheduleView,
  timeZone: string,
  save: (definition: SavedReportInput, failed: (text: string) => void) => Promise<boolean>,
  close: () => void,
  changeReport: () => void,
): HTMLFormElement {
  const prefix = `edit-${view.id}`;
  const definition = view.definition;
  const name = el('input', {
    type: 'text',
    id: `${prefix}-name`,
    class: 'edit-name',
    maxlength: 100,
    value: definition.name,
    autocomplete: 'off',
  });
  const schedule = scheduleFields(prefix, definition.schedule, timeZone);
  const paused = el('input', { type: 'checkbox', id: `${prefix}-paused`, class: 'edit-paused', checked: view.paused });
  // Incremental is offered only when the report could merge by day (checkSavedReport's own rule).
  const canMerge = incrementalProblem({ ...definition, totals: false }) === undefined && !definition.totals;
  const modes = writeModeFields(prefix);
  modes.update(definition, canMerge);
  modes.set(definition);
  const notices = noticeFields(prefix, timeZone);
  // The alerts' choices follow the write mode being chosen (an append or upsert has no Total row).
  const watch = () => {
    const kept = modes.value();
    const { writeMode: _mode, maxStoredRows: _cap, incremental: _incremental, ...rest } = definition;
    notices.watch({ ...rest, ...(typeof kept === 'string' ? {} : kept) });
  };
  watch();
  modes.node.addEventListener('change', watch);
  notices.set(definition, view.notices);
  // A BigQuery report: its table, and no write mode or alerts (they apply to a sheet only).
  const table = definition.bigquery ? destinationFields(prefix, { choice: false }) : undefined;
  table?.set(definition.bigquery);
  notices.offerAlerts(!definition.bigquery);
  const problem = el('div', { role: 'alert' });
  const form = el(
    'form',
    { class: 'schedule-section schedule-edit', novalidate: true, 'aria-label': `Edit ${definition.name}` },
    field('Name', name),
    schedule.node,
    el('label', { class: 'check', for: paused.id }, paused, 'Paused (not refreshed until resumed)'),
    definition.bigquery ? table?.node : modes.node,
    notices.node,
    el(
      'div',
      { class: 'hint' },
      `Period at each refresh: ${describePeriod(definition.period)}. `,
      el(
        'button',
        { type: 'button', class: 'link edit-report', onclick: changeReport },
        'Change the report (publisher, period, breakdowns, filters, metrics)',
      ),
    ),
    problem,
    el(
      'div',
      { class: 'actions' },
      el('button', { type: 'submit', class: 'action edit-save' }, 'Save changes'),
      el('button', { type: 'button', class: 'edit-cancel', onclick: close }, 'Cancel'),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!name.value.trim()) return replaceChildren(problem, notice('error', 'Name the saved report.'));
    const kept = definition.bigquery ? {} : modes.value();
    if (typeof kept === 'string') return replaceChildren(problem, notice('error', kept));
    const {
      incremental: _old,
      paused: _paused,
      writeMode: _mode,
      maxStoredRows: _cap,
      notices: _notices,
      alerts: _alerts,
      ...rest
    } = definition;
    const next: SavedReportInput = { ...rest, name: name.value.trim(), schedule: schedule.value(), ...kept, ...notices.value() };
    if (paused.checked) next.paused = true;
    if (table) next.bigquery = table.value();
    for (const button of Array.from(form.querySelectorAll('button'))) button.disabled = true;
    void save(next, (text) => table?.showProblems(text)).then((ok) => {
      if (!ok) for (const button of Array.from(form.querySelectorAll('button'))) button.disabled = false;
    });
  });
  return form;
}

function mountSchedules(container: HTMLElement, ctx: PanelContext): () => void {
  const message = el('div', { id: 'schedules-message', role: 'status', 'aria-live': 'polite' });
  const runtimeBox = el('div', { class: 'schedule-runtime' });
  const noticesBox = el('div', { class: 'schedule-notices' });
  const listBox = el('div', { class: 'schedule-list' });
  replaceChildren(
    container,
    el(
      'p',
      { class: 'hint' },
      'Saved reports refresh on their schedule through one hourly trigger, with the sign-in of whoever saved them. ' +
        "Rows are written (replaced, appended or upserted) only after every page arrived; a failure keeps the old data and shows here and in a note on the report's first cell.",
    ),
    runtimeBox,
    message,
    noticesBox,
    listBox,
  );

  const render = (list: ScheduleList) => {
    const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;
    replaceChildren(
      runtimeBox,
      quotaBlock('schedule-runtime', 'Your trigger time in the current 24 hours', list.triggerRuntime, minutes, list.timeZone),
      el(
        'p',
        { class: 'hint' },
        'Apps Script gives your triggers this much time a day. When it runs out, the reports still due wait, first in line, until the count restarts.',
      ),
    );
    const forget = async (spreadsheetId: string, name: string) => {
      replaceChildren(message, notice('info', 'Working…'));
      try {
        render(await ctx.server.removeSpreadsheetSchedules(spreadsheetId));
        replaceChildren(message, notice('success', `Removed the schedules of “${name}” from yours: no run tries it any more.`));
      } catch (error) {
        replaceChildren(message, notice('error', failureText(error)));
      }
    };
    replaceChildren(noticesBox, registryWarning(list), ...unreachableNotices(list, (view) => void forget(view.spreadsheetId, view.name)));
    if (list.reports.length === 0) {
      replaceChildren(listBox, notice('info', 'No saved reports yet: build a report in the Report tab and choose "Save to schedule".'));
      return;
    }
    replaceChildren(
      listBox,
      ...list.reports.map((view) => {
        const perform = async (
          work: () => Promise<ScheduleList>,
          done?: string | ((list: ScheduleList) => string | undefined),
          failed?: (text: string) => void,
        ): Promise<boolean> => {
          replaceChildren(message, notice('info', 'Working…'));
          try {
            const list = await work();
            render(list);
            const said = typeof done === 'function' ? done(list) : done;
            ctx.moments.say(message, said ? notice('success', said) : [], ['sign-in']);
            return true;
          } catch (error) {
            ctx.moments.say(message, notice('error', failureText(error)), ['sign-in']);
            failed?.(failureText(error));
            return false;
          }
        };
        // Only the user who saved a report may run or change it: it runs with their sign-in.
        const act = (label: string, work: () => Promise<ScheduleList>, done?: (list: ScheduleList) => string | undefined) =>
          el('button', { type: 'button', class: 'secondary', disabled: !view.mine, onclick: () => void perform(work, done) }, label);
        const editBox = el('div');
        const closeEdit = () => {
          replaceChildren(editBox);
          editButton.setAttribute('aria-expanded', 'false');
        };
        const editButton = el(
          'button',
          {
            type: 'button',
            class: 'secondary',
            disabled: !view.mine,
            'aria-expanded': 'false',
            onclick: () => {
              if (editBox.firstChild) return closeEdit();
              replaceChildren(
                editBox,
                editForm(
                  view,
                  list.timeZone,
                  (definition, failed) =>
                    perform(() => ctx.server.updateSchedule(view.id, definition), `Saved the changes to “${definition.name}”.`, failed),
                  closeEdit,
                  () =>
                    ctx.editReport({
                      source: 'schedule',
                      scheduleId: view.id,
                      name: view.name,
                      mine: view.mine,
                      definition: view.definition,
                    }),
                ),
              );
              editButton.setAttribute('aria-expanded', 'true');
              editBox.querySelector('input')?.focus();
            },
          },
          'Edit',
        );
        const actions = el(
          'div',
          { class: 'actions' },
          editButton,
          (() => {
            // A run that was put off (no time, rate budget or BigQuery loads left) refreshed nothing: it says so.
            let deferred = false;
            return act(
              'Run now',
              async () => {
                const { summary, list } = await ctx.server.runScheduleNow(view.id);
                deferred = summary.deferred.includes(view.id);
                return list;
              },
              (list) => (deferred ? waitedNow(list, view.id) : ranNow(list, view.id)),
            );
          })(),
          act(view.paused ? 'Resume' : 'Pause', () => ctx.server.pauseSchedule(view.id, !view.paused)),
        );
        // Delete asks first, in the page: the saved report and its schedule go, the data stays.
        const deleteButton = el('button', { type: 'button', class: 'secondary', disabled: !view.mine }, 'Delete');
        const restoreActions = () => replaceChildren(actions, ...buttons);
        deleteButton.addEventListener('click', () =>
          replaceChildren(
            actions,
            el(
              'div',
              { class: 'notice notice-warning delete-confirm', role: 'alertdialog', 'aria-label': `Delete ${view.name}` },
              `Delete “${view.name}”? It will no longer refresh; the data it wrote stays in the sheet.`,
              el(
                'div',
                { class: 'actions' },
                el(
                  'button',
                  {
                    type: 'button',
                    class: 'action confirm-delete',
                    onclick: () =>
                      void perform(() => ctx.server.deleteSchedule(view.id), `Deleted “${view.name}”.`).then(
                        // What said it was saved, or edits it, goes with it (moments.ts).
                        (ok) => (ok ? ctx.moments.happened(`schedule-deleted:${view.id}`) : restoreActions()),
                      ),
                  },
                  'Delete',
                ),
                el('button', { type: 'button', class: 'cancel-delete', onclick: restoreActions }, 'Keep it'),
              ),
            ),
          ),
        );
        actions.appendChild(deleteButton);
        const buttons = Array.from(actions.childNodes);
        return el(
          'article',
          { class: 'schedule', 'data-id': view.id },
          el('h3', {}, view.name, badge(view)),
          el(
            'p',
            { class: 'hint schedule-summary' },
            `${view.scheduleText} → ${view.target}, ${describePeriod(view.definition.period)}${view.definition.compareWith ? `, compared with ${describeCompareWith(view.definition.compareWith)}` : ''}${writeModeSummary(view.definition) ? `, ${writeModeSummary(view.definition)}` : ''}${view.definition.closedThrough ? `, months closed through ${view.definition.closedThrough}` : ''}${view.mine ? '' : ' (saved by another editor)'}`,
          ),
          view.status.needsSignIn
            ? notice('warning', 'Sign in again: the Engage sign-in of whoever saved this report is missing, expired or was refused.')
            : null,
          statusLines(view, list.timeZone),
          bigQueryView(view, ctx),
          noticesSummary(view.notices, list.timeZone),
          actions,
          editBox,
        );
      }),
    );
  };

  const load = async () => {
    try {
      render(await ctx.server.listSchedules());
    } catch (error) {
      replaceChildren(listBox, notice('error', failureText(error)));
    }
  };
  void load();
  ctx.onStateChange(() => void load());
  return () => void load();
}

let reload: (() => void) | undefined;

export const panel: Panel = {
  id: 'schedules',
  title: 'Schedules',
  mount(container, ctx) {
    reload = mountSchedules(container, ctx);
  },
  shown() {
    reload?.();
  },
};
