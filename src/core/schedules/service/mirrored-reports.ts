/**
 * The two copies of a user's saved reports kept in step: the document's (its properties, which every
 * editor sees) and the user's registry (registry.ts, which a run without the document reads).
 *   - With the document at hand, every change of the user's reports and every status goes to both
 *     (MirroredReports), and mirrorDocument brings the registry up to date with the document:
 *     definitions from the document, statuses whichever is newer, so statuses a run by ID wrote
 *     reach the document (and its notes) then.
 *   - Without it, a run reads and writes the registry's copy alone (RegistryReports).
 * Only the user's own reports are mirrored: each user's trigger refreshes only theirs.
 */
import { ValidationError } from '../../errors';
import type { Clock, ReportSheet, SpreadsheetRef } from '../../ports';
import { controlCharacterIndex, quoted } from '../../util/text';
import { statusNote } from '../refresh/refresh-runner';
import type { ScheduleRegistry, RegistryEntry } from '../saved/registry';
import type { SavedReportSource, SavedReportStore } from '../saved/saved-report-store';
import { statusStamp, type RefreshStatus, type SavedReport } from '../saved/saved-reports';

/** The saved reports of a spreadsheet as the user's registry holds them: a run that opened it by ID. */
export class RegistryReports implements SavedReportSource {
  constructor(
    private readonly registry: ScheduleRegistry,
    private readonly spreadsheetId: string,
    private readonly clock: Clock,
  ) {}

  list(): SavedReport[] {
    return this.registry.reports(this.spreadsheetId);
  }

  findOrThrow(id: unknown): SavedReport {
    const report = this.list().find((r) => r.id === id);
    if (!report) {
      const shown = typeof id === 'string' && id.length <= 60 && controlCharacterIndex(id) < 0 ? JSON.stringify(id) : quoted(String(id));
      throw ValidationError.single('id', `${shown} is not a saved report of this spreadsheet (it may have been deleted)`);
    }
    return report;
  }

  status(id: string): RefreshStatus {
    return this.registry.status(this.spreadsheetId, id);
  }

  setStatus(id: string, status: RefreshStatus): void {
    this.registry.putStatus(this.spreadsheetId, id, { ...status, savedAtMs: this.clock.now() });
  }
}

/**
 * The document's saved reports with the user's mirrored in the registry: reads the newer status,
 * writes both, but a run's claim ("refreshing it until ...") only to the document, where the
 * document's runs look: one write of the registry per refresh, its outcome.
 */
export class MirroredReports implements SavedReportSource {
  constructor(
    private readonly document: SavedReportStore,
    private readonly registry: ScheduleRegistry,
    private readonly spreadsheetId: string,
    private readonly clock: Clock,
  ) {}

  list(): SavedReport[] {
    return this.document.list();
  }

  findOrThrow(id: unknown): SavedReport {
    return this.document.findOrThrow(id);
  }

  /** The newer copy: a run by ID may have claimed or refreshed the report since the document's was written. */
  status(id: string): RefreshStatus {
    const here = this.document.status(id);
    const there = this.registry.status(this.spreadsheetId, id);
    return statusStamp(there) > statusStamp(here) ? there : here;
  }

  setStatus(id: string, status: RefreshStatus): void {
    const stamped = { ...status, savedAtMs: this.clock.now() };
    this.document.setStatus(id, stamped);
    if (status.runningUntilMs === undefined && this.registry.has(this.spreadsheetId, id))
      this.registry.putStatus(this.spreadsheetId, id, stamped);
  }
}

export interface MirrorOutcome {
  /** The entry as written (or as it stood). */
  entry: RegistryEntry | undefined;
  /** The user's reports here the registry had no room for: a run without the document cannot see them. */
  notRegistered: number;
  /** The document's status of each of the user's reports, once caught up. */
  statuses: Map<string, RefreshStatus>;
}

/**
 * Brings the registry up to date with the document at hand: the user's reports there (definitions
 * from the document; each status from whichever copy is newer, the document's catching up with a
 * note on the report's data), none the document no longer has, and the spreadsheet's entry. A problem
 * a run had reaching the spreadsheet is kept only when `keepProblem` says so (a run without its
 * document, which the document's presence now does not mend). Writes only what differs.
 */
export function mirrorDocument(options: {
  document: SavedReportStore;
  /** The document's saved reports, as listed for this execution. */
  reports: SavedReport[];
  registry: ScheduleRegistry;
  ref: SpreadsheetRef;
  sheet: ReportSheet;
  ownerId: string | null;
  triggerUid?: string;
  keepProblem: (problem: NonNullable<RegistryEntry['problem']>) => boolean;
}): MirrorOutcome {
  const { document, registry, ref, sheet, ownerId } = options;
  const mine = ownerId === null ? [] : options.reports.filter((r) => r.ownerId === ownerId);
  const before = registry.entry(ref.id);
  const statuses = new Map<string, RefreshStatus>();
  if (mine.length === 0) {
    if (before) registry.removeSpreadsheet(ref.id);
    return { entry: undefined, notRegistered: 0, statuses };
  }
  let notRegistered = 0;
  const kept = new Set<string>();
  for (const report of mine) {
    const here = document.status(report.id);
    statuses.set(report.id, here);
    if (!registry.has(ref.id, report.id) && !registry.fits(ref.id, report)) {
      notRegistered++;
      continue;
    }
    kept.add(report.id);
    registry.putDefinition(ref.id, report);
    const there = registry.status(ref.id, report.id);
    if (statusStamp(there) > statusStamp(here)) {
      document.setStatus(report.id, there);
      statuses.set(report.id, there);
      if (there.written) {
        try {
          sheet.note(there.written, statusNote(report, there, ref.timeZone));
        } catch {
          // The note is a courtesy: the status in the sidebar is the record.
        }
      }
    } else if (statusStamp(here) > statusStamp(there) || (!registry.hasStatus(ref.id, report.id) && Object.keys(here).length > 0)) {
      registry.putStatus(ref.id, report.id, here);
    }
  }
  for (const report of registry.reports(ref.id)) if (!kept.has(report.id)) registry.removeReport(ref.id, report.id);
  const entry: RegistryEntry = {
    ...ref,
    reports: kept.size,
    active: mine.filter((r) => kept.has(r.id) && !r.paused).length,
    ...(options.triggerUid ? { triggerUid: options.triggerUid } : {}),
    ...(before?.problem && options.keepProblem(before.problem) ? { problem: before.problem } : {}),
    ...(before?.formulasDayAtMs !== undefined ? { formulasDayAtMs: before.formulasDayAtMs } : {}),
  };
  if (kept.size === 0) {
    if (before) registry.removeSpreadsheet(ref.id);
    return { entry: undefined, notRegistered, statuses };
  }
  registry.putEntry(entry);
  return { entry, notRegistered, statuses };
}
