/**
 * Saved reports: a report built in the sidebar, kept with its target cell and its schedule so the
 * hourly trigger can refresh it. Definitions live in the document's properties (every editor sees the
 * same list), so they never hold a secret: no token, no password, no API key, only what the report
 * asks for. Each definition and each status is its own property (9 KB per value), with an index of
 * ids, so 100 saved reports stay far below the 500 KB per store. The index changes under the document
 * lock and is re-read after locking, because two editors may save at once.
 *
 * Periods are relative, so a refresh fetches fresh days: the last N days (ending today or yesterday),
 * this or last month, since a day, a fixed range, or for the hourly reports the last N hours. Days of the general report are UTC days, as the API's
 * "today" is (field notes).
 */
import * as z from '../util/zod';
import { A1_CELL_PATTERN } from '../util/a1-notation';
import { addDays, formatDay, formatUtcHour, floorToHourMs, utcDayOf, type CalendarDay, MS_PER_HOUR } from '../util/dates';
import { BusyError, ValidationError } from '../errors';
import type { Clock, ListableStore, Lock, RandomSource, WrittenBlock } from '../ports';
import { ALL_METRICS } from '../api/report-metrics';
import type { ReportInput } from '../api/report-request';
import { scheduleSchema, type Schedule } from './schedule';
import { REPORT_SPECS, type ReportKind } from '../spec';
import { splitByBytes, utf8Length } from '../util/utf8';
import { controlCharacterIndex, quoted } from '../util/text';

export const SAVED_REPORTS_INDEX_KEY = 'engage.sr.index';
const DEFINITION_PREFIX = 'engage.sr.def.';
const STATUS_PREFIX = 'engage.sr.status.';
/** Apps Script properties hold at most 9 KB per value. */
export const PROPERTY_VALUE_MAX_BYTES = 9 * 1024;
/** 100 definitions and statuses of about 1 KB each stay far below the 500 KB of a property store. */
export const MAX_SAVED_REPORTS = 100;
/** Apps Script keeps at most 500 KB of properties per store (keys and values). */
export const PROPERTY_STORE_MAX_BYTES = 500 * 1024;
/**
 * What saved reports (index, definitions, statuses) may take of the document's properties; the rest is
 * for Run to sheet's block records (at most 50 of under 1 KB, block-records.ts). A new or changed
 * definition that would pass it is refused before anything is written.
 */
export const SAVED_REPORTS_MAX_BYTES = 440 * 1024;
/**
 * A status is kept within this, its error message shortened to fit, so saving a report can set room
 * aside for every status it will ever write.
 */
export const STATUS_MAX_BYTES = 2048;
const INDEX_LOCK_TIMEOUT_MS = 10_000;

const dayText = z.string().check(z.regex(/^\d{8}$/, { error: 'must be a day as yyyyMMdd' }));

export const periodSchema = z.discriminatedUnion('type', [
  /**
   * Today and the N-1 days before it (UTC days); with endingYesterday, the N whole days before today,
   * as the sidebar's "Yesterday" and "Last N days" presets (today's figures are partial).
   */
  z.strictObject({
    type: z.literal('lastDays'),
    days: z.int().check(z.minimum(1, { error: 'must be at least 1 day' }), z.maximum(366, { error: 'must be at most 366 days' })),
    endingYesterday: z.optional(z.boolean()),
  }),
  /** From the first of the current UTC month up to today. */
  z.strictObject({ type: z.literal('thisMonth') }),
  /** The whole previous UTC month. */
  z.strictObject({ type: z.literal('lastMonth') }),
  /** From a day up to today: a range that grows, the natural case for an incremental refresh. */
  z.strictObject({ type: z.literal('since'), fromDate: dayText }),
  z.strictObject({ type: z.literal('fixed'), fromDate: dayText, toDate: dayText }),
  /** Hourly reports: the last N whole hours up to the current one, UTC. */
  z.strictObject({ type: z.literal('lastHours'), hours: z.int().check(z.minimum(1, { error: 'must be at least 1 hour' }), z.maximum(24, { error: 'must be at most 24 hours' })) }),
], { error: "must be a period: 'lastDays', 'thisMonth', 'lastMonth', 'since', 'fixed' or, for the hourly reports, 'lastHours'" });
export type Period = z.infer<typeof periodSchema>;

const a1Cell = z.string({ error: 'must be one cell such as A1' }).check(z.trim(), z.regex(A1_CELL_PATTERN, { error: 'must be one cell such as A1' }));

const noControlCharacters = (v: string) => controlCharacterIndex(v) < 0;
const yesNo = () => z.boolean({ error: 'must be true or false' });

/** What a user gives when saving; the store adds id, owner and times. */
export const savedReportInputSchema = z.strictObject({
  name: z.string({ error: 'is required' }).check(z.trim(), z.minLength(1, { error: 'is required' }), z.maxLength(100, { error: 'must be at most 100 characters' }),
    z.refine(noControlCharacters, { error: 'must not contain control characters' })),
  kind: z.enum(['main', 'externalId', 'realtime'], { error: "must be 'main', 'externalId' or 'realtime'" }),
  entityId: z.string({ error: 'is required: the publisher ID' }).check(z.trim(), z.minLength(1, { error: 'is required: the publisher ID' })),
  period: periodSchema,
  breakdowns: z.optional(z.array(z.string(), { error: 'must be a list of breakdown names such as ["day"]' })
    .check(z.maxLength(4, { error: 'has more than 4 breakdowns; a report allows at most 4' }))),
  /** The metric columns, by API name. Left out (as in reports saved before metrics could be chosen): every metric. */
  metrics: z.optional(z.array(z.string(), { error: 'must be a list of metric names such as ["revenue", "rpmByPvs"]' })
    .check(z.minLength(1, { error: 'lists no metric: choose at least one, or leave the field out for every metric' }))),
  filter: z.optional(z.string({ error: 'must be text' }).check(z.maxLength(2000, { error: 'must be at most 2000 characters' }))),
  sort: z.optional(z.string({ error: 'must be text' }).check(z.maxLength(100, { error: 'must be at most 100 characters' }))),
  currencyCode: z.optional(z.string({ error: 'must be a three-letter currency code such as USD' }).check(z.maxLength(3, { error: 'must be a three-letter currency code such as USD' }))),
  decDigits: z.optional(z.int({ error: 'must be a whole number from 0 to 6' })),
  /** Rows per request; default the report's maximum (fewest requests). Bounded per report in checkSavedReport. */
  pageSize: z.optional(z.int({ error: 'must be a whole number' })),
  maxRows: z.optional(z.int({ error: 'must be a whole number from 1 to 100000' })
    .check(z.minimum(1, { error: 'must be a whole number from 1 to 100000' }), z.maximum(100_000, { error: 'must be a whole number from 1 to 100000' }))),
  target: z.strictObject({
    sheetName: z.string({ error: 'needs a sheet name' }).check(z.trim(), z.minLength(1, { error: 'needs a sheet name' }), z.maxLength(100, { error: 'must be at most 100 characters' }),
      z.refine(noControlCharacters, { error: 'must not contain control characters' })),
    cell: a1Cell,
  }, { error: 'must be a sheet name and a cell such as A1: {sheetName, cell}' }),
  schedule: scheduleSchema,
  /** Fetch only new days plus the last 3 and merge by day and breakdown keys (general report with day). */
  incremental: z.optional(yesNo()),
  /** Append the Total row (not with incremental: totals of ratios cannot be merged). */
  totals: z.optional(yesNo()),
  paused: z.optional(yesNo()),
}, { error: 'must be a saved report: an object with name, kind, entityId, period, target and schedule' });
export type SavedReportInput = z.infer<typeof savedReportInputSchema>;

export interface SavedReport extends SavedReportInput {
  id: string;
  /** The random id of the user whose sign-in and trigger refresh it (not an email: no extra scope). */
  ownerId: string;
  createdAtMs: number;
  updatedAtMs: number;
}

/** What the last refresh of a saved report did; written by the runner, shown in the sidebar and the note. */
export interface RefreshStatus {
  /** When the report is next due (epoch ms). */
  nextRunAtMs?: number;
  lastAttemptAtMs?: number;
  lastSuccessAtMs?: number;
  rows?: number;
  durationMs?: number;
  /**
   * HTTP requests of the last successful refresh (before the first, what a deferred attempt's first
   * page showed it needs): the runner's estimate for the next one.
   */
  requests?: number;
  lastError?: { message: string; traceId?: string; atMs: number };
  /** Failures in a row since the last success. */
  failures?: number;
  /** The owner's sign-in was missing, expired or refused at the last attempt. */
  needsSignIn?: boolean;
  /** The cells the last write covered, so the next one clears leftovers and incremental merges read them. */
  written?: WrittenBlock;
  /** Incremental reports: the last day (yyyyMMdd) the sheet holds data fetched for. */
  fetchedThrough?: string;
  /** A run refreshing it now holds it until then, so a concurrent run does not refresh it too. */
  runningUntilMs?: number;
}

function parseDay(text: string): CalendarDay {
  return { year: Number(text.slice(0, 4)), month: Number(text.slice(4, 6)), day: Number(text.slice(6, 8)) };
}

export function dayAfter(text: string, days: number): string {
  return formatDay(addDays(parseDay(text), days));
}

/** The period's bounds at `nowMs`: yyyyMMdd (inclusive) for the general report, yyyyMMddHH UTC (toDate exclusive) otherwise. */
export function resolvePeriod(period: Period, nowMs: number): { fromDate: string; toDate: string } {
  const today = formatDay(utcDayOf(nowMs));
  switch (period.type) {
    case 'lastDays': {
      const last = period.endingYesterday ? dayAfter(today, -1) : today;
      return { fromDate: dayAfter(last, -(period.days - 1)), toDate: last };
    }
    case 'thisMonth':
      return { fromDate: `${today.slice(0, 6)}01`, toDate: today };
    case 'lastMonth': {
      const lastOfPrevious = dayAfter(`${today.slice(0, 6)}01`, -1);
      return { fromDate: `${lastOfPrevious.slice(0, 6)}01`, toDate: lastOfPrevious };
    }
    case 'since':
      return { fromDate: period.fromDate, toDate: today };
    case 'fixed':
      return { fromDate: period.fromDate, toDate: period.toDate };
    case 'lastHours': {
      const currentHour = floorToHourMs(nowMs);
      return { fromDate: formatUtcHour(currentHour - (period.hours - 1) * MS_PER_HOUR), toDate: formatUtcHour(currentHour + MS_PER_HOUR) };
    }
  }
}

/** The report arguments of a saved report at `nowMs`, for buildReportQuery. */
export function reportInputOf(report: SavedReportInput, nowMs: number, range?: { fromDate: string; toDate: string }): ReportInput {
  const { fromDate, toDate } = range ?? resolvePeriod(report.period, nowMs);
  const input: ReportInput = { entityId: report.entityId, fromDate, toDate };
  if (report.breakdowns && report.breakdowns.length > 0) input.breakdowns = report.breakdowns;
  input.metrics = report.metrics ?? ALL_METRICS;
  if (report.filter) input.filter = report.filter;
  if (report.sort) input.sort = report.sort;
  if (report.currencyCode) input.currencyCode = report.currencyCode;
  if (report.decDigits !== undefined) input.decDigits = report.decDigits;
  if (report.pageSize !== undefined) input.limit = report.pageSize;
  return input;
}

/** Rules that tie fields together; the report arguments themselves are checked by buildReportQuery. */
export function checkSavedReport(input: unknown): SavedReportInput {
  const parsed = savedReportInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new ValidationError(parsed.error.issues.flatMap((issue) => {
      const path = issue.path.map(String);
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => {
          const argument = [...path, key].join('.');
          return { argument, message: `${argument}: is not a field of a saved report` };
        });
      }
      const argument = path.length > 0 ? path.join('.') : 'report';
      return [{ argument, message: `${argument}: ${issue.message}` }];
    }));
  }
  const report = parsed.data;
  const spec = REPORT_SPECS[report.kind];
  if (report.pageSize !== undefined && (report.pageSize < 1 || report.pageSize > spec.pageMax)) {
    throw ValidationError.single('pageSize', `${report.pageSize} must be a whole number from 1 to ${spec.pageMax} for the ${spec.title}`);
  }
  const hourly = REPORT_SPECS[report.kind].hourly;
  if (hourly !== (report.period.type === 'lastHours')) {
    throw ValidationError.single('period', hourly
      ? `the ${REPORT_SPECS[report.kind].title} covers hours: use 'lastHours' (1 to 24)`
      : "the general report covers days: use 'lastDays', 'thisMonth', 'lastMonth', 'since' or 'fixed'");
  }
  if (report.incremental) {
    const problem = incrementalProblem(report);
    if (problem) throw ValidationError.single(problem.argument, problem.rule);
  }
  return report;
}

/**
 * Why a report cannot refresh incrementally, or undefined when it can: the sidebar offers the option
 * only when this says nothing, and checkSavedReport refuses the same cases.
 */
export function incrementalProblem(report: Pick<SavedReportInput, 'kind' | 'breakdowns' | 'period' | 'maxRows' | 'totals'>): { argument: string; rule: string } | undefined {
  if (report.kind !== 'main' || !(report.breakdowns && report.breakdowns.length > 0 ? report.breakdowns : ['day']).includes('day')) {
    return { argument: 'incremental', rule: 'needs the general report broken down by day: rows are merged by day' };
  }
  if (report.period.type === 'fixed') return { argument: 'incremental', rule: "needs a period that moves ('lastDays' or 'since'), not a fixed range" };
  if (report.maxRows !== undefined) return { argument: 'incremental', rule: 'cannot be combined with maxRows: a merge needs every row of each day' };
  if (report.totals) return { argument: 'totals', rule: 'cannot be combined with incremental: totals of rates cannot be merged' };
  return undefined;
}

export interface SavedReportStoreDeps {
  /** The document's properties. */
  store: ListableStore;
  /** The document lock: guards the index. */
  lock: Lock;
  clock: Clock;
  random?: RandomSource;
}

export class SavedReportStore {
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
      const parsed = JSON.parse(raw) as SavedReport;
      return typeof parsed.id === 'string' && typeof parsed.ownerId === 'string' ? parsed : null;
    } catch {
      return null;
    }
  }

  /** Saves a new report for `ownerId` and returns it. */
  create(input: SavedReportInput, ownerId: string): SavedReport {
    const now = this.deps.clock.now();
    const random = this.deps.random ?? Math.random;
    const id = `${now.toString(36)}${Math.floor(random() * 36 ** 4).toString(36).padStart(4, '0')}`;
    const report: SavedReport = { ...input, id, ownerId, createdAtMs: now, updatedAtMs: now };
    this.withIndexLock(() => {
      const ids = this.ids();
      if (ids.length >= MAX_SAVED_REPORTS) {
        throw ValidationError.single('savedReport', `this spreadsheet already has ${MAX_SAVED_REPORTS} saved reports, the most it can hold: delete one first`);
      }
      const index = JSON.stringify([...ids, id]);
      this.checkRoom({ [DEFINITION_PREFIX + id]: this.definitionText(report), [SAVED_REPORTS_INDEX_KEY]: index, [STATUS_PREFIX + id]: null });
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
    const report: SavedReport = { ...input, id, ownerId: existing.ownerId, createdAtMs: existing.createdAtMs, updatedAtMs: this.deps.clock.now() };
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
      throw ValidationError.single('id', typeof id === 'string' && id !== ''
        ? `${id.length <= 60 && controlCharacterIndex(id) < 0 ? JSON.stringify(id) : quoted(id)} is not a saved report of this spreadsheet (it may have been deleted)`
        : 'must be the id of a saved report of this spreadsheet');
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
    let text = JSON.stringify(status);
    const message = status.lastError?.message ?? '';
    // Only an error message can make a status long: shorten it rather than lose the status.
    for (let room = utf8Length(message) - (utf8Length(text) - STATUS_MAX_BYTES) - 3; utf8Length(text) > STATUS_MAX_BYTES && status.lastError && room > 0; room -= utf8Length(text) - STATUS_MAX_BYTES) {
      text = JSON.stringify({ ...status, lastError: { ...status.lastError, message: `${splitByBytes(message, room)[0] ?? ''}...` } });
    }
    this.deps.store.set(STATUS_PREFIX + id, text);
  }

  private definitionText(report: SavedReport): string {
    const text = JSON.stringify(report);
    if (utf8Length(text) > PROPERTY_VALUE_MAX_BYTES) {
      throw ValidationError.single('savedReport', `is ${utf8Length(text)} bytes long; a saved report may take at most ${PROPERTY_VALUE_MAX_BYTES} (shorten the filter or the name)`);
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
    const size = (key: string, value: string | null) => utf8Length(key) + (value === null || statusKeys.has(key) ? Math.max(STATUS_MAX_BYTES, utf8Length(value ?? '')) : utf8Length(value));
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
      const kb = (bytes: number) => Math.ceil(bytes / 1024);
      throw ValidationError.single('savedReport', saved > SAVED_REPORTS_MAX_BYTES
        ? `there is no room for it: saved reports would take ${kb(saved)} KB of the ${kb(SAVED_REPORTS_MAX_BYTES)} KB they may use of this spreadsheet's properties (a refresh's status counted at its most): delete a saved report first, or shorten this one's filter or name`
        : `there is no room for it: this spreadsheet's properties would take ${kb(total)} KB of the ${kb(PROPERTY_STORE_MAX_BYTES)} KB Apps Script keeps per document: delete a saved report first`);
    }
  }

  private withIndexLock<T>(work: () => T): T {
    if (!this.deps.lock.tryLock(INDEX_LOCK_TIMEOUT_MS)) throw new BusyError('the list of saved reports');
    try {
      return work();
    } finally {
      this.deps.lock.releaseLock();
    }
  }
}

export type { Schedule, ReportKind };
