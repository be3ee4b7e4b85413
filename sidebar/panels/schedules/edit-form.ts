/**
 * The Schedules tab's Edit of one saved report: the saved-report editor (sidebar/editor/) with its
 * name, how often, paused, its write mode with its row cap and the incremental option where the report
 * allows it (a BigQuery report shows its table instead), and its notices and alerts, each alert with
 * when it last fired; then the period it refreshes and "Change the report", which reopens the report
 * itself in the Report tab's builder. Saving sends the whole definition back with the fields changed.
 * A refusal is shown under the fields it names, by their labels; one that asks for another sheet or cell
 * (a write mode that would write over the rows kept) shows the sheet and cell to point it at; what
 * names no field shows beside Save changes.
 */
import { describePeriod, type SavedReportInput, type ScheduleView } from '../../../src/core';
import { reportFieldsOf } from '../../editor/definition-form';
import { savedReportEditor } from '../../editor/saved-report-editor';
import { el, notice, replaceChildren } from '../../dom';

/** Sends the definition; `failed` hears the server's refusal, to show in the form. Whether it was saved. */
export type SaveDefinition = (definition: SavedReportInput, failed: (text: string) => void) => Promise<boolean>;

export function editForm(
  view: ScheduleView,
  timeZone: string,
  save: SaveDefinition,
  close: () => void,
  changeReport: () => void,
): HTMLFormElement {
  const editor = savedReportEditor({ prefix: `edit-${view.id}`, timeZone, edit: { saved: view.definition, view: view.notices } });
  const { parts } = editor;
  const problem = el('div', { role: 'alert' });
  const form = el(
    'form',
    { class: 'schedule-section schedule-edit', novalidate: true, 'aria-label': `Edit ${view.definition.name}` },
    parts.name,
    parts.schedule,
    parts.paused,
    // A BigQuery report: its table, and no write mode (it applies to a sheet only).
    parts.destination ?? parts.writeMode,
    parts.destination ? null : parts.place,
    parts.notices,
    el(
      'div',
      { class: 'hint' },
      `Period at each refresh: ${describePeriod(view.definition.period)}. `,
      el(
        'button',
        { type: 'button', class: 'link edit-report', onclick: changeReport },
        'Change the report (publisher, period, breakdowns, filters, metrics)',
      ),
    ),
    el(
      'div',
      { class: 'actions' },
      el('button', { type: 'submit', class: 'action edit-save' }, 'Save changes'),
      el('button', { type: 'button', class: 'edit-cancel', onclick: close }, 'Cancel'),
    ),
    problem,
  );
  const showBeside = (text: string) => replaceChildren(problem, text ? notice('error', text) : null);
  const enable = (on: boolean) => {
    for (const button of Array.from(form.querySelectorAll('button'))) button.disabled = !on;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    showBeside('');
    const next = editor.definition(reportFieldsOf(view.definition));
    if (typeof next === 'string') return showBeside(next);
    enable(false);
    void save(next, (text) => showBeside(editor.showProblems(text))).then((ok) => {
      if (!ok) enable(true);
    });
  });
  return form;
}
