/**
 * The Schedules panel: every saved report of this spreadsheet with its status, and Edit, Run now,
 * Pause or Resume and Delete for the user's own (schedule-item.ts). Edit opens the saved-report editor
 * under the report (edit-form.ts: its name, how often, paused, the write mode or a BigQuery report's
 * table, its notices and alerts), and "Change the report" reopens the report itself (publisher,
 * period, breakdowns, filters, metrics) in the Report tab's builder, whose Schedule section then saves
 * the changes to it. Times are on the spreadsheet's clock, named. Above the list, the user's trigger
 * time of the day, and a notice for each of the user's spreadsheets a scheduled run could not reach
 * (schedule-notices.ts), with a way to remove its schedules. Everything shown is text set through
 * dom.ts: names, filters and error messages may carry API or user text.
 */
import type { ScheduleList } from '../../../src/core';
import { el, notice, replaceChildren } from '../../dom';
import type { Panel, PanelContext } from '../../panel';
import { failureText } from '../../server';
import { quotaBlock } from '../../widgets/quota';
import { registryWarning, unreachableNotices } from '../schedule-notices';
import { type Perform, scheduleItem } from './schedule-item';

/** The user's trigger time in the current 24 hours, and what happens when it runs out. */
function runtimeBlock(list: ScheduleList): HTMLElement[] {
  const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;
  return [
    quotaBlock('schedule-runtime', 'Your trigger time in the current 24 hours', list.triggerRuntime, minutes, list.timeZone),
    el(
      'p',
      { class: 'hint' },
      'Apps Script gives your triggers this much time a day. When it runs out, the reports still due wait, first in line, until the count restarts.',
    ),
  ];
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

  const perform: Perform = async (work, done, failed) => {
    replaceChildren(message, notice('info', 'Working…'));
    try {
      const list = await work();
      render(list);
      const said = typeof done === 'function' ? done(list) : done;
      ctx.moments.say(message, said ? notice('success', said) : [], ['sign-in', 'tab']);
      return true;
    } catch (error) {
      // A form that hears the refusal shows it in its fields; an action's shows here.
      ctx.moments.say(message, failed ? [] : notice('error', failureText(error)), ['sign-in', 'tab']);
      failed?.(failureText(error));
      return false;
    }
  };
  const forget = async (spreadsheetId: string, name: string) => {
    replaceChildren(message, notice('info', 'Working…'));
    try {
      render(await ctx.server.removeSpreadsheetSchedules(spreadsheetId));
      replaceChildren(message, notice('success', `Removed the schedules of “${name}” from yours: no run tries it any more.`));
    } catch (error) {
      replaceChildren(message, notice('error', failureText(error)));
    }
  };
  /** `keepOpen`: a report whose Edit is open keeps its item (a reload in the background, not the answer to an action). */
  const render = (list: ScheduleList, keepOpen = false): void => {
    replaceChildren(runtimeBox, ...runtimeBlock(list));
    replaceChildren(noticesBox, registryWarning(list), ...unreachableNotices(list, (view) => void forget(view.spreadsheetId, view.name)));
    if (list.reports.length === 0) {
      replaceChildren(listBox, notice('info', 'No saved reports yet: build a report in the Report tab and choose "Save to schedule".'));
      return;
    }
    // A reload that answers while an Edit is open never closes the form: that report keeps its item as it is.
    const editing = new Map(
      Array.from(listBox.querySelectorAll<HTMLElement>('article.schedule'))
        .filter((item) => keepOpen && item.querySelector('.edit-cancel'))
        .map((item) => [item.dataset.id, item]),
    );
    replaceChildren(
      listBox,
      ...list.reports.map((view) => editing.get(view.id) ?? scheduleItem(view, { ctx, timeZone: list.timeZone, perform })),
    );
  };

  // Only the latest load is shown: an earlier one answering late would redraw the list under an open Edit.
  let loads = 0;
  const load = async () => {
    const mine = ++loads;
    try {
      const list = await ctx.server.listSchedules();
      if (mine === loads) render(list, true);
    } catch (error) {
      if (mine === loads) replaceChildren(listBox, notice('error', failureText(error)));
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
