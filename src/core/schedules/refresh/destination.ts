/**
 * What a destination does for a saved report, whatever its kind: check a definition at save, plan
 * again after an edit, refresh, describe its status for the Schedules tab, and open. Each kind is one
 * implementation in its own room (src/core/destinations/), given its own dependencies where the
 * program is wired (src/gas); the runner, the scheduling use cases and the Schedules tab's view ask
 * the report's destination (Destinations.of) and never look at its kind themselves.
 */
import type { Clock, ConnectedSheets, ReportSheet, SheetBlock, WrittenBlock } from '../../ports';
import type { Permission } from '../../consent';
import { type DestinationKind, destinationKindOf, OPENS_IN_SHEETS, unavailableDestination } from '../saved/destination-union';
import type { RefreshStatus, SavedReport, SavedReportInput } from '../saved/saved-reports';
import type { RefreshSummary, ReportSource } from './refresh-source';

/** What one refresh of a report into its destination is given. */
export interface DestinationRefreshContext {
  report: SavedReport;
  /** The status before the refresh. */
  status: RefreshStatus;
  /** The status the run writes at the end: the destination sets what is its own (the rows it keeps, its progress). */
  next: RefreshStatus;
  /** Saves the status as it stands, keeping the run's claim on the report: progress survives a run that stops. */
  save: (status: RefreshStatus) => void;
  source: ReportSource;
  sheet: ReportSheet;
  clock: Clock;
  timeZone: string;
  startedAtMs: number;
  deadlineAtMs: number;
  summary: RefreshSummary;
}

/** How a refresh ended when it did not throw: written (the status block or the rows), or left for a later run. */
export type DestinationRefresh =
  | {
      outcome: 'refreshed';
      rows: number;
      /** The requests the next refresh is planned with. */
      requests: number;
      /** The cells written, whose note tells the status. */
      written: WrittenBlock;
      /** When the report is next due; undefined: at the next hourly run. */
      nextRunAtMs: number | undefined;
      /** What the run's watchers hear of the rows written, when the destination wrote the report's rows to a sheet. */
      rowsWritten?: { block: SheetBlock; written: WrittenBlock; fetched: SheetBlock };
    }
  | {
      outcome: 'deferred';
      /** The status the report keeps until the next run. */
      kept: RefreshStatus;
      /** The publisher's budget is spent for this run: its other reports of unknown size wait too. */
      outOfBudget: boolean;
    };

/** A destination's table as the Schedules tab shows it: its address and a ready query to paste. */
export interface TableView {
  address: string;
  query: string;
}

/** What the Schedules tab shows of a report's destination. */
export interface DestinationView {
  /** Where the rows go, in words: "'Sheet1'!A1". */
  target: string;
  /** How far a load is, when the destination loads in parts. */
  progress?: string;
  table?: TableView;
}

/** What "Open in Sheets" answers: the new sheet, or why there is none; the address and query either way. */
export type OpenAnswer = TableView & { message: string } & ({ opened: true; sheetName: string } | { opened: false });

export interface Destination {
  readonly kind: DestinationKind;
  /** What its refresh needs of the user beyond reaching Engage (consent.ts): asked at save and once a run. */
  readonly permissions: readonly Permission[];
  /**
   * At save, right after the definition's fields are read: the destination's own rules, naming the
   * field at fault; may put the destination's fields in their checked form (trimmed).
   */
  checkDefinition(report: SavedReportInput): void;
  /** The range a report's arguments are checked with at save (nothing sent); undefined: its period. */
  checkRange(report: SavedReportInput, nowMs: number): { fromDate: string; toDate: string } | undefined;
  /**
   * At save or change, against the user's other saved reports, read only when asked for (`selfId`: the
   * report itself, when changed).
   */
  checkAmong(report: SavedReportInput, others: () => readonly SavedReport[], selfId?: string): void;
  /** Last at save or change, once nothing local is wrong: what only the destination's service can say. */
  checkWithService(report: SavedReportInput, nowMs: number): void;
  /** Before a change of a report of this destination is saved: refuses one that would lose what it keeps. */
  checkChange(before: SavedReportInput, after: SavedReportInput, status: RefreshStatus): void;
  /** After a change to a report of this destination: the status it goes on with, or undefined to keep its own. */
  statusAfterEdit(before: SavedReportInput, after: SavedReportInput, status: RefreshStatus, nowMs: number): RefreshStatus | undefined;
  /** Due now whatever its slot (its contents changed under a run). */
  dueAnyway(report: SavedReport, status: RefreshStatus): boolean;
  /** Refreshes the report; throws as the runner expects (RefreshDeferredError, sign-in and API errors). */
  refresh(context: DestinationRefreshContext): DestinationRefresh;
  describe(report: SavedReport, status: RefreshStatus, now: { nowMs: number; timeZone: string }): DestinationView;
  /** Opens the report's destination in the spreadsheet, where the destination can be opened there. */
  open?(report: SavedReport, sheets: ConnectedSheets): OpenAnswer;
}

/** The destinations this installation was built with, by kind: the sheet always. */
export class Destinations {
  private readonly byKind = new Map<DestinationKind, Destination>();

  constructor(destinations: readonly Destination[]) {
    for (const destination of destinations) this.byKind.set(destination.kind, destination);
  }

  /** The destination of a definition (or of what the sidebar sent), or why this installation has none such. */
  of(definition: unknown, when: 'save' | 'refresh' = 'save'): Destination {
    const kind = destinationKindOf(definition);
    const destination = this.byKind.get(kind);
    if (!destination) throw unavailableDestination(kind, when);
    return destination;
  }

  /** Every permission the destinations of this installation need beyond reaching Engage. */
  permissions(): Permission[] {
    return [...this.byKind.values()].flatMap((destination) => destination.permissions);
  }

  /** The destination of a report saved here (or of a definition), when this installation has it. */
  find(definition: unknown): Destination | undefined {
    return this.byKind.get(destinationKindOf(definition));
  }

  /**
   * Opens a saved report's destination in the spreadsheet (Open in Sheets), where this installation has
   * a destination that opens there: else it says so before the report is even read, or any sheet asked.
   */
  openSaved(reports: { findOrThrow(id: unknown): SavedReport }, id: unknown, sheets: () => ConnectedSheets): OpenAnswer {
    const opener = [...this.byKind.values()].find((destination) => destination.open !== undefined);
    if (!opener?.open) throw unavailableDestination(OPENS_IN_SHEETS, 'save');
    return opener.open(reports.findOrThrow(id), sheets());
  }
}
