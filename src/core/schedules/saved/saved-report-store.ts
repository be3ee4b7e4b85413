/**
 * Where saved reports live: the document's properties, so every editor sees the same list. Each
 * definition and each status is its own property (9 KB per value), with an index of ids, so 100 saved
 * reports stay far below the 500 KB per store. The index changes under the document lock and is
 * re-read after locking, because two editors may save at once.
 */
import { SAVED_REPORTS_LOCK_TIMEOUT_MS } from '../../budgets';
import { BusyError, ValidationError } from '../../errors';
import type { Clock, ListableStore, Lock, RandomSource } from '../../ports';
import { controlCharacterIndex, quoted } from '../../util/text';
import { splitByBytes, utf8Length } from '../../util/utf8';
import type { RefreshStatus, SavedReport, SavedReportInput } from './saved-reports';
import { withDestination } from './destination-union';

export const SAVED_REPORTS_INDEX_KEY = 'engage.sr.index';
const DEFINITION_PREFIX = 'engage.sr.def.';
const STATUS_PREFIX = 'engage.sr.status.';
/**
 * Apps Script properties hold at most 9 KB per value and 500 KB per store (keys and values), as Google's
 * quotas page says. A kilobyte is read as 1,000 bytes, the stricter reading: what fits here fits either.
 */
export const PROPERTY_VALUE_MAX_BYTES = 9_000;
/**
 * 100 definitions of some 500 bytes with their statuses (at most 2 KB each) stay far below the 430 KB
 * saved reports may take; long filters may fill it sooner, and then saving one more is refused.
 */
export const MAX_SAVED_REPORTS = 100;
export const PROPERTY_STORE_MAX_BYTES = 500_000;
/**
 * What saved reports (index, definitions, statuses) may take of the document's properties; the rest is
 * for Run to sheet's block records (at most 50, of some 300 bytes to 2.5 KB each and 50 KB together:
 * block-records.ts) and the display copy of what formulas may use (at most 8 KB: formula-access.ts),
 * with some room to spare. A new or changed definition that would pass it is refused before anything
 * is written.
 */
export const SAVED_REPORTS_MAX_BYTES = 430_000;
/**
 * A status is kept within this, its error message shortened to fit, so saving a report can set room
 * aside for every status it will ever write.
 */
export const STATUS_MAX_BYTES = 2_000;

/**
 * Where a run reads saved reports and keeps their statuses: the document's properties
 * (SavedReportStore), the user's registry (a run that opened the spreadsheet by ID, which cannot read
 * the document's properties), or both in step (registry.ts, MirroredReports).
 */
export interface SavedReportSource {
  /** Every readable saved report, in the order they were created. */
  list(): SavedReport[];
  findOrThrow(id: unknown): SavedReport;
  status(id: string): RefreshStatus;
  setStatus(id: string, status: RefreshStatus): void;
}

export interface SavedReportStoreDeps {
  /** The document's properties. */
  store: ListableStore;
  /** The document lock: guards the index. */
  lock: Lock;
  clock: Clock;
  random?: RandomSource;
}

/** A status as stored, within `maxBytes`: only an error message can make it long, so that is shortened rather than the status lost. */
export function statusText(status: RefreshStatus, maxBytes: number): string {
  let text = JSON.stringify(status);
  const message = status.lastError?.message ?? '';
  for (
    let room = utf8Length(message) - (utf8Length(text) - maxBytes) - 3;
    utf8Length(text) > maxBytes && status.lastError && room > 0;
    room -= utf8Length(text) - maxBytes
  ) {
    text = JSON.stringify({ ...status, lastError: { ...status.lastError, message: `${splitByBytes(message, room)[0] ?? ''}...` } });
  }
  return text;
}

export class SavedReportStore implements SavedReportSource {
  constructor(private readonly deps: SavedReportStoreDeps) {}

  ids(): string[] {
    try {
      const parsed = JSON.parse(this.deps.store.get(SAVED_REPORTS_INDEX_KEY) ?? '[]') as unknown;
      return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }

  /** Every readable saved report, in the order they were created. */
  list(): SavedReport[] {
    const reports: SavedReport[] = [];
    for (const id of this.ids()) {
      const report = this.get(id);
      if (report) reports.push(report);
    }
    return reports;
  }

  get(id: string): SavedReport | null {
    const raw = this.deps.store.get(DEFINITION_PREFIX + id);
    if (!raw) return null;
    try {
      // A definition saved before `destination` is read in today's shape (destination-union.ts).
      const parsed = withDestination(JSON.parse(raw)) as SavedReport;
      return typeof parsed.id === 'string' && typeof parsed.ownerId === 'string' ? parsed : null;
    } catch {
      return null;
    }
  }

  /** Saves a new report for `ownerId` and returns it. */
  create(input: SavedReportInput, ownerId: string): SavedReport {
    const now = this.deps.clock.now();
    const random = this.deps.random ?? Math.random;
    const id = `${now.toString(36)}${Math.floor(random() * 36 ** 4)
      .toString(36)
      .padStart(4, '0')}`;
    const report: SavedReport = { ...input, id, ownerId, createdAtMs: now, updatedAtMs: now };
    this.withIndexLock(() => {
      const ids = this.ids();
      if (ids.length >= MAX_SAVED_REPORTS) {
        throw ValidationError.single(
          'savedReport',
          `this spreadsheet already has ${MAX_SAVED_REPORTS} saved reports, the most it can hold: delete one first`,
        );
      }
      const index = JSON.stringify([...ids, id]);
      this.checkRoom({
        [DEFINITION_PREFIX + id]: this.definitionText(report),
        [SAVED_REPORTS_INDEX_KEY]: index,
        [STATUS_PREFIX + id]: null,
      });
      this.writeDefinition(report);
      try {
        this.deps.store.set(SAVED_REPORTS_INDEX_KEY, index);
      } catch (e) {
        // Nothing half-saved: a definition no index names would only take room.
        this.deps.store.remove(DEFINITION_PREFIX + id);
        throw e;
      }
    });
    return report;
  }

  /** Replaces a report's definition, keeping its id, owner and creation time. */
  update(id: string, input: SavedReportInput): SavedReport {
    const existing = this.findOrThrow(id);
    const report: SavedReport = {
      ...input,
      id,
      ownerId: existing.ownerId,
      createdAtMs: existing.createdAtMs,
      updatedAtMs: this.deps.clock.now(),
    };
    this.checkRoom({ [DEFINITION_PREFIX + id]: this.definitionText(report) });
    this.writeDefinition(report);
    return report;
  }

  remove(id: string): void {
    this.withIndexLock(() => {
      this.deps.store.set(SAVED_REPORTS_INDEX_KEY, JSON.stringify(this.ids().filter((x) => x !== id)));
      this.deps.store.remove(DEFINITION_PREFIX + id);
      this.deps.store.remove(STATUS_PREFIX + id);
    });
  }

  findOrThrow(id: unknown): SavedReport {
    const report = typeof id === 'string' ? this.get(id) : null;
    if (!report) {
      throw ValidationError.single(
        'id',
        typeof id === 'string' && id !== ''
          ? `${id.length <= 60 && controlCharacterIndex(id) < 0 ? JSON.stringify(id) : quoted(id)} is not a saved report of this spreadsheet (it may have been deleted)`
          : 'must be the id of a saved report of this spreadsheet',
      );
    }
    return report;
  }

  status(id: string): RefreshStatus {
    const raw = this.deps.store.get(STATUS_PREFIX + id);
    if (!raw) return {};
    try {
      const parsed = JSON.parse(raw) as RefreshStatus;
      return parsed && typeof parsed === 'object' ? parsed : {};
    } catch {
      return {};
    }
  }

  setStatus(id: string, status: RefreshStatus): void {
    this.deps.store.set(STATUS_PREFIX + id, statusText(status, STATUS_MAX_BYTES));
  }

  private definitionText(report: SavedReport): string {
    const text = JSON.stringify(report);
    if (utf8Length(text) > PROPERTY_VALUE_MAX_BYTES) {
      throw ValidationError.single(
        'savedReport',
        `is ${utf8Length(text)} bytes long; a saved report may take at most ${PROPERTY_VALUE_MAX_BYTES} (shorten the filter or the name)`,
      );
    }
    return text;
  }

  private writeDefinition(report: SavedReport): void {
    this.deps.store.set(DEFINITION_PREFIX + report.id, this.definitionText(report));
  }

  /**
   * Refuses, before anything is written, a change that would take saved reports past their share of
   * the document's properties, or the store past its 500 KB. `changes` are the new values by key; a
   * null value is a status to come, counted at its most. Every status counts at its most too, so a
   * later refresh never finds the store full.
   */
  private checkRoom(changes: Record<string, string | null>): void {
    const entries = this.deps.store.entries();
    const ids = this.ids();
    const statusKeys = new Set(ids.map((x) => STATUS_PREFIX + x));
    const size = (key: string, value: string | null) =>
      utf8Length(key) + (value === null || statusKeys.has(key) ? Math.max(STATUS_MAX_BYTES, utf8Length(value ?? '')) : utf8Length(value));
    const ours = (key: string) => key === SAVED_REPORTS_INDEX_KEY || key.startsWith(DEFINITION_PREFIX) || key.startsWith(STATUS_PREFIX);
    let total = 0;
    let saved = 0;
    const held = new Set<string>();
    const count = (key: string, value: string | null) => {
      const bytes = size(key, value);
      total += bytes;
      if (ours(key)) saved += bytes;
      held.add(key);
    };
    for (const [key, value] of Object.entries(entries)) count(key, key in changes ? changes[key]! : value);
    for (const key of statusKeys) if (!held.has(key)) count(key, null);
    for (const [key, value] of Object.entries(changes)) if (!held.has(key)) count(key, value);
    if (saved > SAVED_REPORTS_MAX_BYTES || total > PROPERTY_STORE_MAX_BYTES) {
      const kb = (bytes: number) => Math.ceil(bytes / 1000);
      throw ValidationError.single(
        'savedReport',
        saved > SAVED_REPORTS_MAX_BYTES
          ? `there is no room for it: saved reports would take ${kb(saved)} KB of the ${kb(SAVED_REPORTS_MAX_BYTES)} KB they may use of this spreadsheet's properties ` +
              "(a refresh's status counted at its most): delete a saved report first, or shorten this one's filter or name"
          : `there is no room for it: this spreadsheet's properties would take ${kb(total)} KB of the ${kb(PROPERTY_STORE_MAX_BYTES)} KB Apps Script keeps per document: delete a saved report first`,
      );
    }
  }

  private withIndexLock<T>(work: () => T): T {
    if (!this.deps.lock.tryLock(SAVED_REPORTS_LOCK_TIMEOUT_MS)) throw new BusyError('the list of saved reports');
    try {
      return work();
    } finally {
      this.deps.lock.releaseLock();
    }
  }
}
