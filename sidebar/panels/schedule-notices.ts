/**
 * The Schedules tab's notices about the user's spreadsheets that a scheduled run could not reach,
 * from the user's registry, so the tab of any of their spreadsheets shows them: the spreadsheet by
 * name, why, since when (on this spreadsheet's clock) and how many saved reports of the user's it
 * holds, with a link to it where opening it helps and, for another spreadsheet, a button that
 * removes its schedules from the user's (no run tries it again). All text is set as text: names come
 * from the user's spreadsheets.
 */
import type { ScheduleList, UnreachableView } from '../../src/core';
import { el, notice } from '../dom';
import { sheetTime } from '../time';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** One notice for each unreachable spreadsheet; `remove` asks the server to forget one of the others. */
export function unreachableNotices(list: ScheduleList, remove: (view: UnreachableView) => void): HTMLElement[] {
  return list.unreachable.map((view) => {
    const since = sheetTime(view.since, list.timeZone);
    const lastTried = sheetTime(view.lastTried, list.timeZone);
    const what = view.current ? 'This spreadsheet' : `“${view.name}”`;
    const reports = plural(view.reports, 'saved report');
    // A link where opening the spreadsheet helps: one the user can still open.
    const canOpen = view.url && (view.reason === 'no-document' || view.reason === 'not-opened') && !view.current;
    return el(
      'div',
      { class: 'notice notice-warning schedule-unreachable', role: 'status', 'data-spreadsheet': view.spreadsheetId },
      el('strong', {}, `${what} is not being refreshed`),
      el('p', {}, `Since ${since}, the hourly run could not reach it (${reports} of yours there): ${view.why}. Last tried ${lastTried}.`),
      view.current
        ? null
        : el(
            'div',
            { class: 'actions' },
            canOpen ? el('a', { href: view.url, target: '_blank', rel: 'noopener noreferrer' }, 'Open it') : null,
            el('button', { type: 'button', class: 'secondary remove-spreadsheet', onclick: () => remove(view) }, 'Remove its schedules'),
          ),
    );
  });
}

/** The registry's warning, when some of the user's reports here could not be registered. */
export function registryWarning(list: ScheduleList): HTMLElement | null {
  return list.registryWarning ? notice('warning', list.registryWarning) : null;
}
