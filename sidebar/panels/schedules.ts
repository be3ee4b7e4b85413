/**
 * The Schedules panel: every saved report of this spreadsheet with its status (last success, last
 * attempt, rows, duration, next run, last error with trace ID, "sign in again"), and Run now, Pause or
 * Resume and Delete for the user's own. Everything shown is text set through dom.ts: names, filters
 * and error messages may carry API or user text.
 */
import type { ScheduleList, ScheduleView } from '../../src/core/schedule-service';
import { el, notice, replaceChildren } from '../dom';
import type { Panel, PanelContext } from '../panel';
import { failureText } from '../server';

function when(isoText: string | undefined): string {
  if (!isoText) return 'never';
  const d = new Date(isoText);
  return `${d.toLocaleDateString()} ${d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}

function statusLines(view: ScheduleView): HTMLElement {
  const s = view.status;
  const lines = el('dl', { class: 'schedule-status' });
  const row = (label: string, value: string) => lines.append(el('dt', {}, label), el('dd', {}, value));
  row('Last success', s.lastSuccess ? `${when(s.lastSuccess)}, ${s.rows ?? 0} rows in ${((s.durationMs ?? 0) / 1000).toFixed(1)} s` : 'never');
  row('Last attempt', when(s.lastAttempt));
  row('Next run', view.paused ? 'paused' : s.nextRun ? `from ${when(s.nextRun)}` : 'at the next hourly run');
  if (s.lastError) row('Last error', `${s.lastError.message}${s.lastError.traceId && !s.lastError.message.includes(s.lastError.traceId) ? ` [trace ID ${s.lastError.traceId}]` : ''}`);
  return lines;
}

function mountSchedules(container: HTMLElement, ctx: PanelContext): () => void {
  const message = el('div', { role: 'status', 'aria-live': 'polite' });
  const listBox = el('div', { class: 'schedule-list' });
  replaceChildren(container,
    el('p', { class: 'hint' }, 'Saved reports refresh on their schedule through one hourly trigger, with the sign-in of whoever saved them. Data is replaced only after every page arrived; a failure keeps the old data and shows here and in a note on the report\'s first cell.'),
    message, listBox);

  const render = (list: ScheduleList) => {
    if (list.reports.length === 0) {
      replaceChildren(listBox, notice('info', 'No saved reports yet: build a report in the Report tab and choose "Save to schedule".'));
      return;
    }
    replaceChildren(listBox, ...list.reports.map((view) => {
      const perform = async (work: () => Promise<ScheduleList>) => {
        replaceChildren(message, notice('info', 'Working…'));
        try {
          render(await work());
          replaceChildren(message);
        } catch (error) {
          replaceChildren(message, notice('error', failureText(error)));
        }
      };
      // Only the user who saved a report may run or change it: it runs with their sign-in.
      const act = (label: string, work: () => Promise<ScheduleList>) =>
        el('button', { type: 'button', class: 'secondary', disabled: !view.mine, onclick: () => void perform(work) }, label);
      return el('article', { class: 'schedule', 'data-id': view.id },
        el('h3', {}, view.name),
        el('p', { class: 'hint' }, `${view.scheduleText} → ${view.target}${view.definition.incremental ? ', incremental' : ''}${view.mine ? '' : ' (saved by another editor)'}`),
        view.status.needsSignIn ? notice('warning', 'Sign in again: the Engage sign-in of whoever saved this report is missing, expired or was refused.') : null,
        statusLines(view),
        el('div', { class: 'actions' },
          act('Run now', async () => (await ctx.server.runScheduleNow(view.id)).list),
          act(view.paused ? 'Resume' : 'Pause', () => ctx.server.pauseSchedule(view.id, !view.paused)),
          act('Delete', () => ctx.server.deleteSchedule(view.id))));
    }));
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
