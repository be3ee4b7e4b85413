/**
 * How the sidebar shows a daily Apps Script quota the add-on counts (URL fetches on the Account tab,
 * trigger runtime on the Schedules tab): used of the limit in the current 24-hour window, what is
 * left, and when the window closes. Apps Script counts 24 hours from the first use, not calendar days.
 */
import { el } from '../dom';
import { sheetTime } from '../time';
import type { QuotaView } from '../../src/core';

/**
 * A meter and one sentence; `unit` renders an amount ("1,234 fetches", "12 minutes"); the restart is
 * on the spreadsheet's clock (`timeZone`), named.
 */
export function quotaBlock(id: string, title: string, view: QuotaView, unit: (amount: number) => string, timeZone: string): HTMLElement {
  const left = Math.max(0, view.limit - view.used);
  const restarts = view.resetAt
    ? ` The count restarts ${sheetTime(view.resetAt, timeZone, { weekday: true })}.`
    : ' Nothing was counted in the last 24 hours.';
  return el(
    'div',
    { class: 'quota', id },
    el('div', { class: 'quota-title' }, title),
    el('meter', { min: 0, max: view.limit, value: Math.min(view.used, view.limit), 'aria-label': title }),
    el('p', { class: 'hint quota-text' }, `${unit(view.used)} of ${unit(view.limit)} used, ${unit(left)} left.${restarts}`),
  );
}

export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
