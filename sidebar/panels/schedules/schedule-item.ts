/**
 * One saved report in the Schedules tab: its name and badge, the line of what it is (how often, where,
 * the period, the comparison, the write mode, the months closed), "sign in again" when its owner must,
 * its status, a BigQuery report's table (bigquery-view.ts), its notices, and Edit, Run now, Pause or
 * Resume and Delete for the user's own: only the user who saved a report may run or change it, as it
 * runs with their sign-in. Edit opens the form under it (edit-form.ts); Delete asks first, in the page.
 */
import type { ScheduleList, ScheduleView } from '../../../src/core';
import { reportSummary } from '../../editor/definition-form';
import { el, notice, replaceChildren } from '../../dom';
import { noticesSummary } from '../../notice-fields';
import type { PanelContext } from '../../panel';
import { bigQueryView } from './bigquery-view';
import { editForm } from './edit-form';
import { badge, ranNow, statusLines, waitedNow } from './schedule-status';

/**
 * Runs a server call that answers with the list, shows the list and says `done`; a failure says why,
 * above the list, or, given `failed`, to it alone (a form shows it in its fields). Whether it succeeded.
 */
export type Perform = (
  work: () => Promise<ScheduleList>,
  done?: string | ((list: ScheduleList) => string | undefined),
  failed?: (text: string) => void,
) => Promise<boolean>;

/** What an item needs of the tab. */
export interface ItemContext {
  ctx: PanelContext;
  timeZone: string;
  perform: Perform;
}

export function scheduleItem(view: ScheduleView, item: ItemContext): HTMLElement {
  const editBox = el('div');
  const actions = el(
    'div',
    { class: 'actions' },
    editButton(view, editBox, item),
    runNowButton(view, item),
    act(view, item, view.paused ? 'Resume' : 'Pause', () => item.ctx.server.pauseSchedule(view.id, !view.paused)),
  );
  withDelete(actions, view, item);
  return el(
    'article',
    { class: 'schedule', 'data-id': view.id },
    el('h3', {}, view.name, badge(view)),
    el(
      'p',
      { class: 'hint schedule-summary' },
      `${view.scheduleText} → ${view.target}, ${reportSummary(view.definition)}${view.mine ? '' : ' (saved by another editor)'}`,
    ),
    view.status.needsSignIn
      ? notice('warning', 'Sign in again: the Engage sign-in of whoever saved this report is missing, expired or was refused.')
      : null,
    statusLines(view, item.timeZone),
    bigQueryView(view, item.ctx),
    noticesSummary(view.notices, item.timeZone),
    actions,
    editBox,
  );
}

/** A button for one of the owner's actions on the report. */
function act(
  view: ScheduleView,
  item: ItemContext,
  label: string,
  work: () => Promise<ScheduleList>,
  done?: (list: ScheduleList) => string | undefined,
): HTMLButtonElement {
  return el('button', { type: 'button', class: 'secondary', disabled: !view.mine, onclick: () => void item.perform(work, done) }, label);
}

/** Edit: opens the form under the report, or closes it. */
function editButton(view: ScheduleView, editBox: HTMLElement, { ctx, timeZone, perform }: ItemContext): HTMLButtonElement {
  const closeEdit = () => {
    replaceChildren(editBox);
    button.setAttribute('aria-expanded', 'false');
  };
  const open = () => {
    if (editBox.firstChild) return closeEdit();
    replaceChildren(
      editBox,
      editForm(
        view,
        timeZone,
        (definition, failed) =>
          perform(() => ctx.server.updateSchedule(view.id, definition), `Saved the changes to “${definition.name}”.`, failed),
        closeEdit,
        () => ctx.editReport({ source: 'schedule', scheduleId: view.id, name: view.name, mine: view.mine, definition: view.definition }),
      ),
    );
    button.setAttribute('aria-expanded', 'true');
    editBox.querySelector('input')?.focus();
    // Leaving the tab closes the form, with whatever it showed; a reload while it stays open keeps it (index.ts).
    ctx.moments.until(['tab'], () => {
      if (editBox.firstChild) closeEdit();
    });
  };
  const button = el(
    'button',
    { type: 'button', class: 'secondary', disabled: !view.mine, 'aria-expanded': 'false', onclick: open },
    'Edit',
  );
  return button;
}

/** Run now; a run that was put off (no time, rate budget or BigQuery loads left) refreshed nothing, and says so. */
function runNowButton(view: ScheduleView, item: ItemContext): HTMLButtonElement {
  let deferred = false;
  return act(
    view,
    item,
    'Run now',
    async () => {
      const { summary, list } = await item.ctx.server.runScheduleNow(view.id);
      deferred = summary.deferred.includes(view.id);
      return list;
    },
    (list) => (deferred ? waitedNow(list, view.id) : ranNow(list, view.id)),
  );
}

/** Delete, last of the actions: it asks first, in the page; the saved report and its schedule go, the data stays. */
function withDelete(actions: HTMLElement, view: ScheduleView, { ctx, perform }: ItemContext): void {
  const deleteButton = el('button', { type: 'button', class: 'secondary', disabled: !view.mine }, 'Delete');
  actions.appendChild(deleteButton);
  const buttons = Array.from(actions.childNodes);
  const restoreActions = () => replaceChildren(actions, ...buttons);
  const confirm = () =>
    void perform(() => ctx.server.deleteSchedule(view.id), `Deleted “${view.name}”.`).then(
      // What said it was saved, or edits it, goes with it (moments.ts).
      (ok) => (ok ? ctx.moments.happened(`schedule-deleted:${view.id}`) : restoreActions()),
    );
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
          el('button', { type: 'button', class: 'action confirm-delete', onclick: confirm }, 'Delete'),
          el('button', { type: 'button', class: 'cancel-delete', onclick: restoreActions }, 'Keep it'),
        ),
      ),
    ),
  );
}
