/**
 * The Schedules tab's Edit of one saved report: the saved-report editor (sidebar/editor/) with its
 * name, how often, paused, its write mode with its row cap and the incremental option where the report
 * allows it (a BigQuery report shows its table instead), and its notices and alerts, each alert with
 * when it last fired; then the period it refreshes and "Change the report", which reopens the report
 * itself in the Report tab's builder. Saving sends the whole definition back with the fields changed.
 */
import { describePeriod, type SavedReportInput, type ScheduleView } from '../../../src/core';
import { reportFieldsOf } from '../../editor/definition-form';
import { savedReportEditor } from '../../editor/saved-report-editor';
import { el, notice, replaceChildren } from '../../dom';

/** Sends the definition; `failed` hears the server's refusal. Whether it was saved. */
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
    problem,
    el(
      'div',
      { class: 'actions' },
      el('button', { type: 'submit', class: 'action edit-save' }, 'Save changes'),
      el('button', { type: 'button', class: 'edit-cancel', onclick: close }, 'Cancel'),
    ),
  );
  const enable = (on: boolean) => {
    for (const button of Array.from(form.querySelectorAll('button'))) button.disabled = !on;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = editor.definition(reportFieldsOf(view.definition));
    if (typeof next === 'string') return replaceChildren(problem, notice('error', next));
    enable(false);
    void save(next, (text) => editor.showProblems(text)).then((ok) => {
      if (!ok) enable(true);
    });
  });
  return form;
}
