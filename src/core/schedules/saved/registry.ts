/**
 * The user's schedule registry, in the user's properties, which every document and every run of the
 * user sees alike. For each of the user's spreadsheets with saved reports of theirs it keeps the
 * spreadsheet's ID, name, URL and time zone, a summary of those reports, the user's trigger there
 * (spreadsheetAccess "current") and the problem the last run had reaching it; and a mirror of the
 * reports themselves, definitions and statuses, and what each one's notices remember (its channels'
 * secrets among it: notice-record.ts). Saved reports live in the document's properties,
 * which only an execution in that document can read: a scheduled run that opens the spreadsheet by
 * ID reads the mirror, writes the statuses there, and the document's copy catches up the next time the
 * document is at hand, the newer status winning (mirrored-reports.ts).
 *
 * One read of the whole store (getProperties) gives the registry for an execution, and each status
 * a run refreshes costs one write (two by ID: its claim and its outcome). User properties hold 9 KB per value and
 * 500 KB per store (a KB read as 1,000 bytes, the stricter reading): the registry may take
 * REGISTRY_MAX_BYTES of it, each status and spreadsheet counted at its most, and a save that would pass
 * it is refused before anything is written. The rest is for the sign-in, the settings and the counts.
 */
import { ValidationError, type UnreachableReason } from '../../errors';
import type { ListableStore, SpreadsheetRef } from '../../ports';
import { hashText } from '../../util/hash';
import { utf8Length } from '../../util/utf8';
import { PROPERTY_STORE_MAX_BYTES, PROPERTY_VALUE_MAX_BYTES, statusText } from './saved-report-store';
import type { RefreshStatus, SavedReport } from './saved-reports';
import { withDestination } from './destination-union';
import { isEmptyRecord, noticeRecordMaxBytes, noticeRecordText, parseNoticeRecord, type NoticeRecord } from './notice-record';

export const REGISTRY_PREFIX = 'engage.reg.';
const ENTRY_PREFIX = 'engage.reg.s.';
const DEFINITION_PREFIX = 'engage.reg.d.';
const STATUS_PREFIX = 'engage.reg.t.';
/** What a report's notices remember, its channels' secrets included (notice-record.ts): the owner's alone. */
const NOTICE_PREFIX = 'engage.reg.n.';
/** What the registry may take of the user's 500 KB: the rest is for the token, settings, login guard and quota counts. */
export const REGISTRY_MAX_BYTES = 400_000;
/** A mirrored status is kept within this (its error message shortened), so room can be set aside for each. */
export const MIRRORED_STATUS_MAX_BYTES = 1_200;
/** A spreadsheet's entry is kept within this (a name of 100 characters, a URL, a problem). */
export const ENTRY_MAX_BYTES = 1_500;

/** A run could not reach the spreadsheet: why, since when, and when it last tried. */
export interface SpreadsheetProblem {
  reason: UnreachableReason;
  /** Said of the spreadsheet: "it is in the trash or was deleted". */
  why: string;
  sinceMs: number;
  lastAtMs: number;
}

export interface RegistryEntry extends SpreadsheetRef {
  /** The user's saved reports there, and how many of them are not paused. */
  reports: number;
  active: number;
  /** The user's hourly trigger there (spreadsheetAccess "current"), to know a run's spreadsheet without its document. */
  triggerUid?: string;
  problem?: SpreadsheetProblem;
  /**
   * When a run last brought its formulas to the day (its refresh cells checked): a run with nothing due
   * there opens it again only on another day on its clock, so relative days ("yesterday") move.
   */
  formulasDayAtMs?: number;
}

interface Registered {
  entry?: RegistryEntry;
  definitions: Map<string, SavedReport>;
  statuses: Map<string, RefreshStatus>;
  notices: Map<string, NoticeRecord>;
}

const parse = <T>(text: string | null | undefined): T | undefined => {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
};

/** The key part naming a spreadsheet: a short hash of its ID (IDs are some 44 characters; keys count toward the 500 KB). */
const slot = (spreadsheetId: string) => hashText(spreadsheetId);

export class ScheduleRegistry {
  private raw: Record<string, string> | undefined;
  private bySlot: Map<string, Registered> | undefined;

  constructor(private readonly deps: { store: ListableStore }) {}

  /** The spreadsheets registered, as read once for this execution (and changed by it since). */
  spreadsheets(): RegistryEntry[] {
    return [...this.load().values()].flatMap((r) => (r.entry ? [r.entry] : []));
  }

  entry(spreadsheetId: string): RegistryEntry | undefined {
    return this.load().get(slot(spreadsheetId))?.entry;
  }

  /** The user's saved reports mirrored for a spreadsheet, in the order they were created. */
  reports(spreadsheetId: string): SavedReport[] {
    const found = this.load().get(slot(spreadsheetId));
    return found ? [...found.definitions.values()].sort((a, b) => a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : 1)) : [];
  }

  has(spreadsheetId: string, reportId: string): boolean {
    return this.load().get(slot(spreadsheetId))?.definitions.has(reportId) === true;
  }

  hasStatus(spreadsheetId: string, reportId: string): boolean {
    return this.load().get(slot(spreadsheetId))?.statuses.has(reportId) === true;
  }

  /**
   * A mirrored status as read for this execution, with what it wrote since. Not read again: within
   * a run, the only other writer of these statuses is the sidebar's Run now in the document, which
   * mirrors its result but not its claim (mirrored-reports.ts), and at worst both refresh the report.
   */
  status(spreadsheetId: string, reportId: string): RefreshStatus {
    return this.load().get(slot(spreadsheetId))?.statuses.get(reportId) ?? {};
  }

  /** What the report's notices remember (empty when nothing yet), as read for this execution with what it wrote since. */
  notice(spreadsheetId: string, reportId: string): NoticeRecord {
    return this.load().get(slot(spreadsheetId))?.notices.get(reportId) ?? {};
  }

  /** Writes the record when it changed; an empty one is removed. */
  putNotice(spreadsheetId: string, reportId: string, record: NoticeRecord): void {
    const key = `${NOTICE_PREFIX}${slot(spreadsheetId)}.${reportId}`;
    const text = isEmptyRecord(record) ? undefined : noticeRecordText(record);
    if (this.stored(key) !== text) this.write(key, text ?? null);
  }

  putEntry(entry: RegistryEntry): void {
    const key = ENTRY_PREFIX + slot(entry.id);
    const text = JSON.stringify(entry);
    if (this.stored(key) !== text) this.write(key, text);
  }

  putDefinition(spreadsheetId: string, report: SavedReport): void {
    const key = `${DEFINITION_PREFIX}${slot(spreadsheetId)}.${report.id}`;
    const text = JSON.stringify(report);
    if (this.stored(key) !== text) this.write(key, text);
  }

  putStatus(spreadsheetId: string, reportId: string, status: RefreshStatus): void {
    this.write(`${STATUS_PREFIX}${slot(spreadsheetId)}.${reportId}`, statusText(status, MIRRORED_STATUS_MAX_BYTES));
  }

  removeReport(spreadsheetId: string, reportId: string): void {
    for (const prefix of [DEFINITION_PREFIX, STATUS_PREFIX, NOTICE_PREFIX]) {
      const key = `${prefix}${slot(spreadsheetId)}.${reportId}`;
      if (this.stored(key) !== undefined) this.write(key, null);
    }
  }

  /** Forgets a spreadsheet: its entry and every report mirrored for it. */
  removeSpreadsheet(spreadsheetId: string): void {
    const s = slot(spreadsheetId);
    for (const key of Object.keys(this.values())) {
      if (key === ENTRY_PREFIX + s || [DEFINITION_PREFIX, STATUS_PREFIX, NOTICE_PREFIX].some((prefix) => key.startsWith(`${prefix}${s}.`)))
        this.write(key, null);
    }
  }

  /** Whether a definition (new or changed) of a report of this spreadsheet fits: see checkRoom. */
  fits(spreadsheetId: string, report: SavedReport): boolean {
    return this.room(spreadsheetId, report).problem === undefined;
  }

  /**
   * Refuses, before anything is written, a definition that would take the registry past its share of
   * the user's properties, or the store past 500 KB. Every status counts at its most (a refresh never
   * finds the store full), and so does a spreadsheet's entry.
   */
  checkRoom(spreadsheetId: string, report: SavedReport): void {
    const { problem } = this.room(spreadsheetId, report);
    if (problem) throw ValidationError.single('savedReport', problem);
  }

  /** Bytes the registry takes now, and the whole store (keys and values of UTF-8), as stored. */
  bytes(): { registry: number; store: number } {
    let registry = 0;
    let store = 0;
    for (const [key, value] of Object.entries(this.values())) {
      const bytes = utf8Length(key) + utf8Length(value);
      store += bytes;
      if (key.startsWith(REGISTRY_PREFIX)) registry += bytes;
    }
    return { registry, store };
  }

  private room(spreadsheetId: string, report: SavedReport): { problem?: string } {
    const s = slot(spreadsheetId);
    const definitionKey = `${DEFINITION_PREFIX}${s}.${report.id}`;
    const definition = JSON.stringify(report);
    if (utf8Length(definition) > PROPERTY_VALUE_MAX_BYTES) {
      return {
        problem: `is ${utf8Length(definition)} bytes long; a saved report may take at most ${PROPERTY_VALUE_MAX_BYTES} (shorten the filter or the name)`,
      };
    }
    const next: Record<string, string> = { ...this.values(), [definitionKey]: definition };
    // Every report's status and notice record to come, and every spreadsheet's entry, at its most.
    const noticeMax = new Map<string, number>();
    for (const key of Object.keys(next)) {
      if (!key.startsWith(DEFINITION_PREFIX)) continue;
      const rest = key.slice(DEFINITION_PREFIX.length);
      next[STATUS_PREFIX + rest] ??= '';
      next[NOTICE_PREFIX + rest] ??= '';
      noticeMax.set(NOTICE_PREFIX + rest, noticeRecordMaxBytes(key === definitionKey ? report : (parse<SavedReport>(next[key]) ?? {})));
      next[ENTRY_PREFIX + rest.slice(0, rest.indexOf('.'))] ??= '';
    }
    let registry = 0;
    let total = 0;
    for (const [key, value] of Object.entries(next)) {
      const at = key.startsWith(STATUS_PREFIX)
        ? MIRRORED_STATUS_MAX_BYTES
        : key.startsWith(ENTRY_PREFIX)
          ? ENTRY_MAX_BYTES
          : (noticeMax.get(key) ?? 0);
      const bytes = utf8Length(key) + Math.max(at, utf8Length(value));
      total += bytes;
      if (key.startsWith(REGISTRY_PREFIX)) registry += bytes;
    }
    const kb = (bytes: number) => Math.ceil(bytes / 1000);
    if (registry > REGISTRY_MAX_BYTES) {
      return {
        problem:
          `there is no room for it among your schedules: your saved reports in all your spreadsheets would take ${kb(registry)} KB of the ` +
          `${kb(REGISTRY_MAX_BYTES)} KB your user properties keep for them (a refresh's status counted at its most): delete a saved report you no longer need, here or in another spreadsheet`,
      };
    }
    if (total > PROPERTY_STORE_MAX_BYTES) {
      return {
        problem: `there is no room for it: your user properties would take ${kb(total)} KB of the ${kb(PROPERTY_STORE_MAX_BYTES)} KB Apps Script keeps per user: delete a saved report you no longer need, here or in another spreadsheet`,
      };
    }
    return {};
  }

  /** Reads the whole store once for this execution, and keeps the registry's part by spreadsheet. */
  private load(): Map<string, Registered> {
    if (this.bySlot) return this.bySlot;
    this.raw = this.deps.store.entries();
    this.bySlot = new Map();
    for (const [key, value] of Object.entries(this.raw)) this.index(key, value);
    return this.bySlot;
  }

  private index(key: string, value: string | null): void {
    const bySlot = this.bySlot!;
    const part = (prefix: string) => {
      const rest = key.slice(prefix.length);
      const dot = rest.indexOf('.');
      return { s: dot < 0 ? rest : rest.slice(0, dot), id: dot < 0 ? '' : rest.slice(dot + 1) };
    };
    const at = (s: string) => {
      let found = bySlot.get(s);
      if (!found) bySlot.set(s, (found = { definitions: new Map(), statuses: new Map(), notices: new Map() }));
      return found;
    };
    if (key.startsWith(ENTRY_PREFIX)) {
      const entry = value === null ? undefined : parse<RegistryEntry>(value);
      at(part(ENTRY_PREFIX).s).entry = entry && typeof entry.id === 'string' ? entry : undefined;
    } else if (key.startsWith(DEFINITION_PREFIX)) {
      const { s, id } = part(DEFINITION_PREFIX);
      // A definition saved before `destination` is read in today's shape (destination-union.ts).
      const report = value === null ? undefined : (withDestination(parse<unknown>(value)) as SavedReport | undefined);
      if (report && typeof report.id === 'string') at(s).definitions.set(id, report);
      else at(s).definitions.delete(id);
    } else if (key.startsWith(NOTICE_PREFIX)) {
      const { s, id } = part(NOTICE_PREFIX);
      if (value === null) at(s).notices.delete(id);
      else at(s).notices.set(id, parseNoticeRecord(value));
    } else if (key.startsWith(STATUS_PREFIX)) {
      const { s, id } = part(STATUS_PREFIX);
      const status = value === null ? undefined : parse<RefreshStatus>(value);
      if (status) at(s).statuses.set(id, status);
      else at(s).statuses.delete(id);
    }
  }

  /** The whole store as this execution knows it. */
  private values(): Record<string, string> {
    this.load();
    return this.raw!;
  }

  private stored(key: string): string | undefined {
    return this.values()[key];
  }

  private remember(key: string, value: string | null): void {
    const raw = this.values();
    if (value === null) delete raw[key];
    else raw[key] = value;
    this.index(key, value);
  }

  private write(key: string, value: string | null): void {
    if (value === null) this.deps.store.remove(key);
    else this.deps.store.set(key, value);
    this.remember(key, value);
  }
}
