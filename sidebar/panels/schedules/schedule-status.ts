/**
 * What the Schedules tab says of one saved report's runs: its status lines (last success with its rows
 * and how long it took, last attempt, the days a BigQuery report loaded, the next run, the last error
 * with its trace ID), the badge beside its name, and what Run now did. Times are on the spreadsheet's
 * clock, named; every text is set as text.
 */
import { formatCount, formatDuration, type ScheduleList, type ScheduleView } from '../../../src/core';
import { el, withAuthorizationLink } from '../../dom';
import { sheetTime } from '../../time';

export function statusLines(view: ScheduleView, timeZone: string): HTMLElement {
  const s = view.status;
  const when = (iso: string | undefined) => (iso ? sheetTime(iso, timeZone) : 'never');
  const lines = el('dl', { class: 'schedule-status' });
  // A permission the owner withheld ends with Google's authorization link, shown as a link.
  const row = (label: string, value: string) => lines.append(el('dt', {}, label), el('dd', {}, ...withAuthorizationLink(value)));
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
export function ranNow(list: ScheduleList, id: string): string | undefined {
  const ran = list.reports.find((r) => r.id === id);
  const s = ran?.status;
  // It succeeded when its last success is its last attempt (an attempt is stamped as it starts).
  if (!ran || !s?.lastSuccess || (s.lastAttempt && Date.parse(s.lastSuccess) < Date.parse(s.lastAttempt))) return undefined;
  return `Refreshed “${ran.name}”: ${formatCount(s.rows ?? 0)} rows ${formatDuration(s.durationMs ?? 0)}.`;
}

/** What Run now said of a report it put off: nothing refreshed, and when it goes on. */
export function waitedNow(list: ScheduleList, id: string): string {
  const waited = list.reports.find((r) => r.id === id);
  const name = waited?.name ?? 'this report';
  if (waited?.status.progress?.includes('paused')) return `Nothing loaded now for “${name}”: it goes on when its pause ends (see Loaded).`;
  return `Nothing refreshed now for “${name}”: its rate budget or time was spent; the next hourly run goes on with it.`;
}

/** A short state next to the name: paused, failing, or refreshed. */
export function badge(view: ScheduleView): HTMLElement | null {
  if (view.paused) return el('span', { class: 'schedule-badge schedule-badge-paused' }, 'paused');
  if (view.status.needsSignIn) return el('span', { class: 'schedule-badge schedule-badge-error' }, 'sign in again');
  if (view.status.lastError && (view.status.failures ?? 0) > 0)
    return el('span', { class: 'schedule-badge schedule-badge-error' }, 'failing');
  if (view.status.lastSuccess) return el('span', { class: 'schedule-badge schedule-badge-ok' }, 'up to date');
  return null;
}
