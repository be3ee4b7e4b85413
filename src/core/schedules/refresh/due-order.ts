/**
 * Which saved reports a scheduled run takes, and in what order: those of one owner that are due (not
 * paused, their slot begun, or due anyway by their destination's word, such as a table that now holds
 * something else), longest overdue first (reports never refreshed before others at the same
 * due time), then the publishers taking turns, so one publisher's long list does not starve another's
 * within the rate budget.
 */
import type { SavedReportSource } from '../saved/saved-report-store';
import type { RefreshStatus, SavedReport } from '../saved/saved-reports';
import type { Destinations } from './destination';

/**
 * The reports of `ownerId` in `store` due at `nowMs`, in the order a run takes them; a report whose
 * destination says it is due anyway (destination.ts, dueAnyway) goes whatever its slot.
 */
export function dueReports(
  store: Pick<SavedReportSource, 'list' | 'status'>,
  ownerId: string,
  nowMs: number,
  destinations: Pick<Destinations, 'find'>,
): SavedReport[] {
  const due = store
    .list()
    .filter((r) => r.ownerId === ownerId && !r.paused)
    .map((r) => ({ report: r, status: store.status(r.id) }))
    .filter(
      ({ report, status }) =>
        (status.nextRunAtMs ?? report.createdAtMs) <= nowMs || destinations.find(report)?.dueAnyway(report, status) === true,
    );
  return fairOrder(due);
}

/**
 * Longest overdue first (reports never refreshed before others at the same due time), then the
 * publishers take turns, so one publisher's long list does not starve another's within the budget.
 */
export function fairOrder(items: { report: SavedReport; status: RefreshStatus }[]): SavedReport[] {
  const sorted = [...items].sort(
    (a, b) =>
      (a.status.nextRunAtMs ?? a.report.createdAtMs) - (b.status.nextRunAtMs ?? b.report.createdAtMs) ||
      (a.status.lastSuccessAtMs ?? 0) - (b.status.lastSuccessAtMs ?? 0) ||
      a.report.createdAtMs - b.report.createdAtMs ||
      (a.report.id < b.report.id ? -1 : 1),
  );
  const byPublisher = new Map<string, SavedReport[]>();
  for (const { report } of sorted) {
    const list = byPublisher.get(report.entityId) ?? [];
    list.push(report);
    byPublisher.set(report.entityId, list);
  }
  const order: SavedReport[] = [];
  const lists = [...byPublisher.values()];
  for (let round = 0; order.length < sorted.length; round++) {
    for (const list of lists) if (round < list.length) order.push(list[round]!);
  }
  return order;
}
