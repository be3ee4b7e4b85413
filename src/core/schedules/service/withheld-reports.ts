/**
 * A scheduled run without a permission some reports need (consent.ts): the user withheld it, or
 * granted only part of the add-on's scopes when consenting again. The run asks once which of the
 * refresh's permissions it holds; a report that needs a missing one is left out of the run, not tried,
 * and its status says which permission to allow, with Google's link, written once (the same words are
 * not written again every hour), and its owner is told once through its notices. Every other report is
 * refreshed whole. The report stays due, so the
 * first run after the user allows it refreshes it.
 */
import type { Clock, ConsentPort } from '../../ports';
import { PermissionNotGrantedError } from '../../errors';
import { FETCH_PERMISSION, missingPermissions, type Permission } from '../../consent';
import type { Destinations } from '../refresh/destination';
import { refreshPermissions } from './report-permissions';
import type { SavedReportSource } from '../saved/saved-report-store';
import type { RefreshStatus, SavedReport } from '../saved/saved-reports';

/** What the run may not do: the refresh permissions missing, and Google's link to allow them. */
export interface Withheld {
  permissions: readonly Permission[];
  url: string | null;
  /** The destinations of the build, whose own permissions a report's refresh needs too. */
  destinations: Pick<Destinations, 'find'>;
}

/** The refresh permissions the user withheld (Engage's, and the build's destinations'), asked once a run. */
export function withheldPermissions(consent: ConsentPort | undefined, destinations: Destinations): Withheld {
  const { missing, url } = missingPermissions(consent, [FETCH_PERMISSION, ...destinations.permissions()]);
  return { permissions: missing, url, destinations };
}

/** The permissions of `report`'s refresh that are withheld; empty when it can run. */
export function withheldFor(report: SavedReport, withheld: Withheld): Permission[] {
  const names = withheld.permissions.map((permission) => permission.name);
  return refreshPermissions(report, withheld.destinations).filter((need) => names.includes(need.name));
}

/** The one sentence a withheld report's status shows. */
export function withheldMessage(missing: readonly Permission[], url: string | null): string {
  return new PermissionNotGrantedError(
    missing.map((need) => need.words),
    url,
    'refresh this report on its schedule',
  ).message;
}

/**
 * `store` without the reports whose refresh needs a withheld permission: each active one is marked
 * (once) and counted in `skipped`; `told` hears of each mark as it is written, so the owner is told once,
 * through the report's notices (a channel that needs the missing permission says it was not sent).
 */
export function withoutWithheld(
  store: SavedReportSource,
  withheld: Withheld,
  clock: Clock,
  skipped: string[],
  told: (report: SavedReport, previous: RefreshStatus, status: RefreshStatus) => void = () => undefined,
): SavedReportSource {
  if (withheld.permissions.length === 0) return store;
  const held: SavedReport[] = [];
  for (const report of store.list()) {
    const missing = withheldFor(report, withheld);
    if (missing.length === 0) {
      held.push(report);
      continue;
    }
    if (report.paused === true) continue;
    skipped.push(report.id);
    const message = withheldMessage(missing, withheld.url);
    const status = store.status(report.id);
    if (status.lastError?.message === message) continue;
    const { runningUntilMs: _claim, ...rest } = status;
    // Counted once as a failure, so the Schedules tab shows it failing until a run refreshes it.
    const marked: RefreshStatus = { ...rest, failures: (status.failures ?? 0) + 1, lastError: { message, atMs: clock.now() } };
    store.setStatus(report.id, marked);
    told(report, status, marked);
  }
  return {
    list: () => held,
    findOrThrow: (id) => store.findOrThrow(id),
    status: (id) => store.status(id),
    setStatus: (id, status) => store.setStatus(id, status),
  };
}
