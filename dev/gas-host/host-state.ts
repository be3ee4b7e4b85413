/**
 * Everything an Apps Script project shares between executions, kept on the host's main thread:
 * property stores, caches, locks, the in-memory spreadsheet, triggers, UI and mail recordings, the
 * HTTP log, the execution log and the call counters. Service facades reach it only through
 * `handle(execution, op, args)` with plain data, directly on the main thread or over the Atomics RPC
 * from execution workers, so that limits, the owner rule and lock exclusion are enforced in one place.
 */
import { formatA1, parseA1, resolveA1, type GridBox } from './a1-notation';
import type { HostClock } from './clock';
import type { ScriptDeployment } from './deployment';
import { blockRealMs, VIRTUAL_ANSWER_TIME_HEADER, VIRTUAL_SEND_TIME_HEADER } from './clock';
import { performFetchAll, type SyncFetchFailure, type SyncFetchOutcome, type SyncFetchRequest } from './fetch-core';
import { whitelistAllows, whitelistRefusal } from './url-whitelist';

export type AuthModeName = 'NONE' | 'LIMITED' | 'FULL' | 'CUSTOM_FUNCTION';
export const AUTH_MODES: AuthModeName[] = ['NONE', 'LIMITED', 'FULL', 'CUSTOM_FUNCTION'];

/** An Apps Script service error; facades rethrow it inside the script's realm with the same name. */
export class GasException extends Error {
  constructor(message: string, name = 'Exception') {
    super(message);
    this.name = name;
  }
}

export interface ExecutionInfo {
  id: number;
  user: string;
  authMode: AuthModeName;
  functionName: string;
  startedAt: number;
  /** Host-clock time at which the execution is out of time. */
  deadline: number;
  /** True when the execution runs in a worker: the main thread may then wait asynchronously. */
  async: boolean;
}

export type CellValue = string | number | boolean | Date;

export interface CellRecord {
  value: CellValue;
  formula?: string;
  numberFormat?: string;
  fontWeight?: string;
  background?: string;
  note?: string;
  /** Key of the formula cell whose array result spilled here. */
  spillOf?: string;
  /** The message of a formula that failed (#ERROR!, #NAME?, #REF!). */
  error?: string;
  /** A formula whose text or referenced cells changed since its last evaluation. */
  dirty?: boolean;
}

export interface ChartRecord {
  id: number;
  type: string;
  ranges: string[];
  position?: { row: number; column: number };
  options: Record<string, unknown>;
}

export interface SheetModel {
  id: number;
  name: string;
  cells: Map<string, CellRecord>;
  maxRows: number;
  maxColumns: number;
  frozenRows: number;
  frozenColumns: number;
  charts: ChartRecord[];
  /** hideSheet(): hidden from the tab bar, still readable and writable. */
  hidden?: boolean;
}

export interface RangeDescriptor extends GridBox {
  sheetId: number;
}

export interface MenuRecord {
  title: string;
  addon: boolean;
  items: Array<{ caption: string; functionName: string } | { separator: true } | { subMenu: MenuRecord }>;
}

export interface TriggerRecord {
  id: string;
  handlerFunction: string;
  eventType: 'CLOCK' | 'ON_OPEN' | 'ON_EDIT' | 'ON_CHANGE' | 'ON_FORM_SUBMIT';
  user: string;
  documentId: string;
  /** For CLOCK triggers: the repeat interval and the next due time on the host clock. */
  intervalMs?: number;
  atHour?: number;
  nextRunAt?: number;
}

export interface LogEntry {
  executionId: number;
  functionName: string;
  source: 'Logger' | 'console';
  level: 'log' | 'info' | 'warn' | 'error';
  text: string;
}

export interface FetchLogEntry {
  executionId: number;
  host: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  payload?: string;
  status?: number;
  error?: string;
  startedAt: number;
  elapsedMs: number;
}

export interface CacheEntry {
  value: string;
  expiresAt: number;
}

type Scope = 'user' | 'document' | 'script';

export const PROPERTY_VALUE_LIMIT_BYTES = 9 * 1024;
export const PROPERTY_STORE_LIMIT_BYTES = 500 * 1024;
export const CACHE_KEY_LIMIT_CHARS = 250;
export const CACHE_VALUE_LIMIT_BYTES = 100 * 1024;
export const CACHE_MAX_TTL_SECONDS = 21600;
export const CACHE_DEFAULT_TTL_SECONDS = 600;
/** The Cache service's reference: about 1,000 items per cache; when full, the 900 farthest from expiry are kept. */
export const CACHE_CAPACITY_ITEMS = 1000;
export const CACHE_KEPT_AFTER_EVICTION = 900;

/**
 * Which entries a full cache drops: 'expiry' keeps the 900 farthest from expiry (Google's reference);
 * 'fifo' drops the oldest entries, about 100 at once, as a public experiment observed ("removes items
 * based on creation time, ignoring recent access"). An entry written again keeps its creation time,
 * which is the stricter reading for keys that are rewritten all the time.
 */
export type CacheEviction = 'expiry' | 'fifo';
export const TRIGGERS_PER_USER_LIMIT = 20;
/**
 * Cells a spreadsheet may hold, counted as every sheet's grid (rows times columns, empty cells too).
 * The platform notes give 10 million as an UNCONFIRMED official figure; the Sheets API refuses more
 * with the message below, seen in public issue threads (Apps Script's own wording is UNCONFIRMED).
 */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;
export const CELL_LIMIT_MESSAGE = `This action would increase the number of cells in the workbook above the limit of ${SPREADSHEET_CELL_LIMIT} cells.`;
/** A sheet a script or a user inserts has 1,000 rows and 26 columns (A to Z). */
export const NEW_SHEET_ROWS = 1000;
export const NEW_SHEET_COLUMNS = 26;
export const DEFAULT_NUMBER_FORMAT = '0.###############';
/** Apps Script's quotas page: URL Fetch calls a day, consumer accounts (100,000 on Workspace). */
export const URL_FETCH_CALLS_PER_DAY = 20_000;
/** Apps Script's quotas page: total trigger runtime a day, consumer accounts (6 h on Workspace). */
export const TRIGGER_RUNTIME_PER_DAY_MS = 90 * 60_000;
/** The quotas page: quotas "are per user and reset 24 hours after the first request". */
export const QUOTA_WINDOW_MS = 24 * 3_600_000;
/** Apps Script's words when the day's URL Fetch calls are spent (the quotas page's "Service invoked too many times"). */
export const URL_FETCH_QUOTA_MESSAGE = 'Service invoked too many times for one day: urlfetch.';
/** Apps Script's words when the day's trigger runtime is spent (seen in trigger failure reports; UNCONFIRMED on an official page). */
export const TRIGGER_RUNTIME_QUOTA_MESSAGE = 'Service using too much computer time for one day';

export type DailyQuotaName = 'urlFetch' | 'triggerRuntime';

/** One user's use of a daily quota: a window opened by the first use and closed 24 hours later. */
export interface QuotaWindow {
  startedAt: number;
  used: number;
}

export interface HostStateOptions {
  /** What this document shares with every other document of the add-on (deployment.ts), its clock included. */
  deployment: ScriptDeployment;
  owner: string;
  documentId: string;
  spreadsheetName: string;
  timeZone: string;
  scriptTimeZone: string;
  htmlFiles: Record<string, string>;
  isAddOn: boolean;
  sheetNames: string[];
  maxRows: number;
  maxColumns: number;
  cacheEviction: CacheEviction;
  /** Synchronous batch fetch used by main-thread executions. */
  syncFetchAll: (requests: SyncFetchRequest[]) => SyncFetchOutcome[];
  /** The manifest's urlFetchWhitelist; undefined: none, every address may be fetched. */
  urlFetchWhitelist?: string[];
  urlFetchCallsPerDay: number;
  triggerRuntimePerDayMs: number;
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

function cellKey(row: number, column: number): string {
  return `${row}:${column}`;
}

function cloneValue(value: CellValue): CellValue {
  return value instanceof Date ? new Date(value.getTime()) : value;
}

/** Normalises a value coming from a script (possibly another realm) into a cell value. */
export function toCellValue(value: unknown): CellValue {
  if (value === null || value === undefined) return '';
  if (Object.prototype.toString.call(value) === '[object Date]') return new Date((value as Date).getTime());
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return String(value);
}

export class HostState {
  readonly options: HostStateOptions;
  readonly clock: HostClock;
  readonly counters: Record<string, number> = {};
  readonly logs: LogEntry[] = [];
  readonly fetchLog: FetchLogEntry[] = [];
  readonly menus: MenuRecord[] = [];
  readonly sidebars: Array<{ executionId: number; user: string; title: string; width?: number; html: string }> = [];
  readonly dialogs: Array<{ executionId: number; title: string; html: string; modal: boolean }> = [];
  readonly alerts: Array<{ executionId: number; title?: string; prompt: string }> = [];
  readonly toasts: Array<{ message: string; title?: string }> = [];
  readonly mails: Array<Record<string, unknown>> = [];
  /** Every trigger of the script (each record names its document). */
  readonly triggers: TriggerRecord[];
  /** Every cell holding a formula, with its sheet: a write marks dependents dirty without scanning every cell. */
  private readonly formulaCells = new Map<CellRecord, SheetModel>();
  readonly sheets: SheetModel[] = [];
  readonly namedRanges = new Map<string, RangeDescriptor>();
  timeZone: string;
  activeSheetId: number;
  /** The selected cell or range of the active sheet (A1 until a user or script selects another). */
  activeRange: RangeDescriptor | undefined;
  private nextSheetId = 0;
  private nextChartId = 1;
  private readonly documentProperties = new Map<string, string>();
  // Shared with the other documents of the add-on: user and script state, caches by name, locks by scope.
  private readonly userProperties: ScriptDeployment['userProperties'];
  private readonly scriptProperties: ScriptDeployment['scriptProperties'];
  private readonly caches: ScriptDeployment['caches'];
  private readonly lockHolders: ScriptDeployment['lockHolders'];
  private readonly lockWaiters: ScriptDeployment['lockWaiters'];
  /** Daily quotas are per user, whatever the document: shared with the deployment, keyed by user. */
  private readonly dailyQuotas: ScriptDeployment['dailyQuotas'];
  readonly executions = new Map<number, ExecutionInfo>();

  constructor(options: HostStateOptions) {
    this.options = options;
    this.clock = options.deployment.clock;
    const { triggers, userProperties, scriptProperties, caches, lockHolders, lockWaiters, dailyQuotas } = options.deployment;
    this.triggers = triggers;
    this.dailyQuotas = dailyQuotas;
    this.userProperties = userProperties;
    this.scriptProperties = scriptProperties;
    this.caches = caches;
    this.lockHolders = lockHolders;
    this.lockWaiters = lockWaiters;
    this.timeZone = options.timeZone;
    for (const name of options.sheetNames) this.addSheet(name);
    this.activeSheetId = this.sheets[0]!.id;
  }

  count(name: string, by = 1): void {
    this.counters[name] = (this.counters[name] ?? 0) + by;
  }

  // ---------------------------------------------------------------- executions and locks

  beginExecution(info: ExecutionInfo): void {
    this.executions.set(info.id, info);
  }

  /** Releases whatever the execution still holds, as Apps Script does when an execution ends. */
  endExecution(executionId: number): void {
    for (const [scope, holder] of [...this.lockHolders]) if (holder === executionId) this.releaseLock(scope);
    this.executions.delete(executionId);
  }

  private lockScope(execution: ExecutionInfo, kind: string): string {
    if (kind === 'document') return `document:${this.options.documentId}`;
    if (kind === 'user') return `user:${execution.user}`;
    return 'script';
  }

  private releaseLock(scope: string): void {
    this.lockHolders.delete(scope);
    const queue = this.lockWaiters.get(scope);
    const next = queue?.shift();
    if (next) {
      this.lockHolders.set(scope, next.executionId);
      next.grant();
    }
  }

  private acquireLock(execution: ExecutionInfo, kind: string, timeoutMs: number): boolean | Promise<boolean> {
    const scope = this.lockScope(execution, kind);
    const holder = this.lockHolders.get(scope);
    if (holder === undefined || holder === execution.id) {
      this.lockHolders.set(scope, execution.id);
      return true;
    }
    // Waiting counts against the execution: never wait past its deadline.
    const budgetMs = Math.max(0, Math.min(timeoutMs, this.remainingRealMs(execution)));
    if (!execution.async) {
      // Nothing can release a lock while the main thread itself is blocked: wait out the time, then fail.
      blockRealMs(budgetMs);
      return false;
    }
    return new Promise<boolean>((resolve) => {
      const queue = this.lockWaiters.get(scope) ?? [];
      this.lockWaiters.set(scope, queue);
      const waiter = {
        executionId: execution.id,
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        resolve(false);
      }, budgetMs);
      queue.push(waiter);
    });
  }

  remainingRealMs(execution: ExecutionInfo): number {
    return Math.max(0, execution.deadline - this.clock.now());
  }

  /** Test hook: who holds a lock of that kind now ("document", "script" or "user:<email>"). */
  lockHolder(scope: string): number | undefined {
    const key = scope === 'document' ? `document:${this.options.documentId}` : scope;
    return this.lockHolders.get(key);
  }

  // ---------------------------------------------------------------- daily quotas

  /** The user whose quotas an execution spends: a custom function's are the owner's, like its user properties (UNCONFIRMED). */
  quotaUser(execution: ExecutionInfo): string {
    return execution.authMode === 'CUSTOM_FUNCTION' ? this.options.owner : execution.user;
  }

  /** What the user used of a daily quota in the open window (none open: 0, and no start). */
  dailyUse(user: string, quota: DailyQuotaName): { used: number; startedAt?: number } {
    const window = this.dailyQuotas.get(user)?.[quota];
    return window && window.startedAt + QUOTA_WINDOW_MS > this.clock.now() ? { ...window } : { used: 0 };
  }

  /** Adds to the user's open window of a daily quota, opening one now when none is. */
  spendDaily(user: string, quota: DailyQuotaName, amount: number): void {
    let windows = this.dailyQuotas.get(user);
    if (!windows) this.dailyQuotas.set(user, (windows = {}));
    const open = this.dailyUse(user, quota);
    windows[quota] = { startedAt: open.startedAt ?? this.clock.now(), used: open.used + amount };
  }

  dailyLimit(quota: DailyQuotaName): number {
    return quota === 'urlFetch' ? this.options.urlFetchCallsPerDay : this.options.triggerRuntimePerDayMs;
  }

  // ---------------------------------------------------------------- properties

  private propertyStore(execution: ExecutionInfo, scope: Scope): Map<string, string> {
    if (scope === 'script') return this.scriptProperties;
    if (scope === 'document') return this.documentProperties;
    // Custom functions read the spreadsheet owner's user properties, whoever recalculates.
    const user = execution.authMode === 'CUSTOM_FUNCTION' ? this.options.owner : execution.user;
    let store = this.userProperties.get(user);
    if (!store) this.userProperties.set(user, (store = new Map()));
    return store;
  }

  private checkPropertyWrite(execution: ExecutionInfo, scope: Scope, method: string): void {
    if (scope === 'user' && execution.authMode === 'CUSTOM_FUNCTION' && execution.user !== this.options.owner) {
      throw new GasException(`You do not have permission to call ${method}`);
    }
  }

  private writeProperties(store: Map<string, string>, entries: Array<[string, string]>, replaceAll: boolean): void {
    const next = replaceAll ? new Map<string, string>() : new Map(store);
    for (const [key, value] of entries) {
      if (utf8Bytes(value) > PROPERTY_VALUE_LIMIT_BYTES) throw new GasException('Argument too large: value');
      next.set(key, value);
    }
    let total = 0;
    for (const [key, value] of next) total += utf8Bytes(key) + utf8Bytes(value);
    if (total > PROPERTY_STORE_LIMIT_BYTES) {
      throw new GasException('You have exceeded the property storage quota. Please remove some properties and try again.');
    }
    store.clear();
    for (const [key, value] of next) store.set(key, value);
  }

  /** Direct access for tests and the playground (bypasses counters and auth). */
  propertiesOf(scope: Scope, user?: string): Map<string, string> {
    if (scope === 'script') return this.scriptProperties;
    if (scope === 'document') return this.documentProperties;
    const key = user ?? this.options.owner;
    let store = this.userProperties.get(key);
    if (!store) this.userProperties.set(key, (store = new Map()));
    return store;
  }

  // ---------------------------------------------------------------- cache

  private cacheStore(execution: ExecutionInfo, scope: Scope): Map<string, CacheEntry> {
    const user = execution.authMode === 'CUSTOM_FUNCTION' ? this.options.owner : execution.user;
    const name = scope === 'user' ? `user:${user}` : scope === 'document' ? `document:${this.options.documentId}` : 'script';
    return this.cacheByName(name);
  }

  cacheByName(name: string): Map<string, CacheEntry> {
    let store = this.caches.get(name);
    if (!store) this.caches.set(name, (store = new Map()));
    return store;
  }

  private cacheRead(store: Map<string, CacheEntry>, key: string): string | null {
    const entry = store.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.clock.now()) {
      store.delete(key);
      return null;
    }
    return entry.value;
  }

  /** A Map keeps the order keys were first set in: that order is the entries' creation order. */
  private cacheWrite(store: Map<string, CacheEntry>, key: string, value: string, ttlSeconds: number): void {
    store.set(key, { value, expiresAt: this.clock.now() + ttlSeconds * 1000 });
    if (store.size <= CACHE_CAPACITY_ITEMS) return;
    const now = this.clock.now();
    let kept = [...store].filter(([, e]) => e.expiresAt > now);
    if (kept.length > CACHE_CAPACITY_ITEMS) {
      if (this.options.cacheEviction === 'fifo') kept = kept.slice(kept.length - CACHE_KEPT_AFTER_EVICTION);
      else {
        const farthest = new Set([...kept].sort((a, b) => b[1].expiresAt - a[1].expiresAt).slice(0, CACHE_KEPT_AFTER_EVICTION).map(([k]) => k));
        kept = kept.filter(([k]) => farthest.has(k));
      }
    }
    store.clear();
    for (const [k, e] of kept) store.set(k, e);
  }

  private checkCacheEntry(key: string, value: string, ttlSeconds: number): void {
    if (key.length > CACHE_KEY_LIMIT_CHARS) throw new GasException('Argument too large: key');
    if (utf8Bytes(value) > CACHE_VALUE_LIMIT_BYTES) throw new GasException('Argument too large: value');
    if (!(ttlSeconds >= 1 && ttlSeconds <= CACHE_MAX_TTL_SECONDS)) {
      throw new GasException(`Invalid argument: expirationInSeconds (must be between 1 and ${CACHE_MAX_TTL_SECONDS})`);
    }
  }

  /** Every entry of every cache (user caches of each user, document, script), expired ones included: for scans of what is held. */
  allCacheEntries(): Array<{ cache: string; key: string; value: string; expiresAt: number }> {
    return [...this.caches].flatMap(([cache, store]) => [...store].map(([key, entry]) => ({ cache, key, value: entry.value, expiresAt: entry.expiresAt })));
  }

  /** Test hook: drops cache entries ("entries may go earlier"). Without keys, the whole cache. */
  evictCache(scope: 'user' | 'document' | 'script', keys?: string[], user?: string): void {
    const name = scope === 'user' ? `user:${user ?? this.options.owner}` : scope === 'document' ? `document:${this.options.documentId}` : 'script';
    const store = this.cacheByName(name);
    if (!keys) store.clear();
    else for (const key of keys) store.delete(key);
  }

  // ---------------------------------------------------------------- spreadsheet

  /** A sheet of the host's initial grid (the `maxRows`/`maxColumns` options), or of `size`. */
  addSheet(name: string, index?: number, size: { rows: number; columns: number } = { rows: this.options.maxRows, columns: this.options.maxColumns }): SheetModel {
    this.checkCellLimit(size.rows * size.columns);
    const sheet: SheetModel = {
      id: this.nextSheetId++,
      name,
      cells: new Map(),
      maxRows: size.rows,
      maxColumns: size.columns,
      frozenRows: 0,
      frozenColumns: 0,
      charts: [],
    };
    if (index === undefined) this.sheets.push(sheet);
    else this.sheets.splice(index, 0, sheet);
    return sheet;
  }

  /** Cells of every sheet's grid. */
  cellCount(): number {
    return this.sheets.reduce((sum, s) => sum + s.maxRows * s.maxColumns, 0);
  }

  /** Throws as Sheets does when growing the grids by `addedCells` would pass the spreadsheet's limit. */
  checkCellLimit(addedCells: number): void {
    if (addedCells > 0 && this.cellCount() + addedCells > SPREADSHEET_CELL_LIMIT) throw new GasException(CELL_LIMIT_MESSAGE);
  }

  /** Resizes a sheet's grid, within the spreadsheet's cell limit. */
  private resizeSheet(sheet: SheetModel, rows: number, columns: number): void {
    this.checkCellLimit(rows * columns - sheet.maxRows * sheet.maxColumns);
    sheet.maxRows = rows;
    sheet.maxColumns = columns;
  }

  sheetById(id: number): SheetModel {
    const sheet = this.sheets.find((s) => s.id === id);
    if (!sheet) throw new GasException('The sheet has been deleted.', 'Exception');
    return sheet;
  }

  sheetByName(name: string): SheetModel | undefined {
    return this.sheets.find((s) => s.name === name);
  }

  /** Resolves A1 text (optionally "Sheet!A1:B2") against a default sheet. */
  resolveRange(a1: string, defaultSheetId: number): RangeDescriptor {
    const parsed = parseA1(a1);
    if (!parsed) throw new GasException('Range not found');
    const sheet = parsed.sheetName !== undefined ? this.sheetByName(parsed.sheetName) : this.sheetById(defaultSheetId);
    if (!sheet) throw new GasException('Range not found');
    const box = resolveA1(parsed, sheet.maxRows, sheet.maxColumns);
    this.checkBox(sheet, box);
    return { sheetId: sheet.id, ...box };
  }

  checkBox(sheet: SheetModel, box: GridBox): void {
    if (box.row < 1) throw new GasException('The starting row of the range is too small.');
    if (box.column < 1) throw new GasException('The starting column of the range is too small.');
    if (box.numRows < 1) throw new GasException('The number of rows in the range must be at least 1.');
    if (box.numColumns < 1) throw new GasException('The number of columns in the range must be at least 1.');
    if (box.row + box.numRows - 1 > sheet.maxRows || box.column + box.numColumns - 1 > sheet.maxColumns) {
      throw new GasException('The coordinates of the range are outside the dimensions of the sheet.');
    }
  }

  cell(sheet: SheetModel, row: number, column: number): CellRecord | undefined {
    return sheet.cells.get(cellKey(row, column));
  }

  private mutableCell(sheet: SheetModel, row: number, column: number): CellRecord {
    const key = cellKey(row, column);
    let record = sheet.cells.get(key);
    if (!record) sheet.cells.set(key, (record = { value: '' }));
    return record;
  }

  private isEmptyCell(record: CellRecord | undefined): boolean {
    return !record || (record.value === '' && record.formula === undefined && record.spillOf === undefined);
  }

  /**
   * The last row and column holding a value or a formula, in one pass over the sheet's cells without
   * allocating: a sheet of 100,000 rows has over a million cells, and scripts ask often.
   */
  extent(sheet: SheetModel): { lastRow: number; lastColumn: number } {
    let lastRow = 0;
    let lastColumn = 0;
    for (const [key, record] of sheet.cells) {
      if (record.formula === undefined && record.value === '') continue;
      let i = 0;
      let row = 0;
      for (; key.charCodeAt(i) !== 58 /* ':' */; i++) row = row * 10 + key.charCodeAt(i) - 48;
      let column = 0;
      for (i++; i < key.length; i++) column = column * 10 + key.charCodeAt(i) - 48;
      if (row > lastRow) lastRow = row;
      if (column > lastColumn) lastColumn = column;
    }
    return { lastRow, lastColumn };
  }

  lastRow(sheet: SheetModel): number {
    return this.extent(sheet).lastRow;
  }

  /** Interprets what a script or a user writes into a cell, as Sheets does for typed input. */
  writeInput(sheet: SheetModel, row: number, column: number, input: unknown): void {
    const record = this.mutableCell(sheet, row, column);
    const previousSpill = record.formula !== undefined ? cellKey(row, column) : undefined;
    if (previousSpill) this.clearSpill(sheet, previousSpill);
    delete record.formula;
    this.formulaCells.delete(record);
    delete record.error;
    delete record.dirty;
    delete record.spillOf;
    const value = toCellValue(input);
    if (typeof value === 'string' && value.startsWith('=') && value.length > 1) {
      record.formula = value;
      this.formulaCells.set(record, sheet);
      record.value = '';
      record.dirty = true;
    } else if (typeof value === 'string' && value.startsWith("'")) {
      record.value = value.slice(1);
    } else if (typeof value === 'string' && record.numberFormat !== '@') {
      record.value = this.parseTypedText(value);
    } else {
      record.value = value;
    }
    this.markDependentsDirty(sheet, row, column);
  }

  private parseTypedText(text: string): CellValue {
    const trimmed = text.trim();
    if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return Number(trimmed);
    if (/^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
    return text;
  }

  writeFormula(sheet: SheetModel, row: number, column: number, formula: string): void {
    const text = formula === '' ? '' : formula.startsWith('=') ? formula : `=${formula}`;
    this.writeInput(sheet, row, column, text);
  }

  clearSpill(sheet: SheetModel, anchorKey: string): void {
    for (const [key, record] of sheet.cells) {
      if (record.spillOf === anchorKey) {
        delete record.spillOf;
        record.value = '';
        if (key !== anchorKey && this.isEmptyCell(record) && !record.numberFormat && !record.note) sheet.cells.delete(key);
      }
    }
  }

  /** Marks formula cells whose arguments reference (row, column) of `sheet` for recalculation. */
  private markDependentsDirty(sheet: SheetModel, row: number, column: number): void {
    for (const [record, other] of this.formulaCells) {
      if (record.formula === undefined) {
        this.formulaCells.delete(record);
        continue;
      }
      if (record.dirty || !this.sheets.includes(other)) continue;
      for (const box of this.formulaReferences(record.formula, other)) {
        if (box.sheetId === sheet.id && row >= box.row && row < box.row + box.numRows && column >= box.column && column < box.column + box.numColumns) {
          record.dirty = true;
        }
      }
    }
  }

  private formulaReferences(formula: string, home: SheetModel): RangeDescriptor[] {
    const boxes: RangeDescriptor[] = [];
    const inner = /\(([\s\S]*)\)/.exec(formula)?.[1] ?? '';
    for (const piece of inner.split(',')) {
      const parsed = parseA1(piece.trim());
      if (!parsed) {
        // A named range argument (Refresh all's EngageRefresh) depends on the cells it names now.
        const named = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(piece.trim()) ? this.namedRanges.get(piece.trim()) : undefined;
        if (named) boxes.push(named);
        continue;
      }
      if (/^".*"$/.test(piece.trim())) continue;
      const sheet = parsed.sheetName !== undefined ? this.sheetByName(parsed.sheetName) : home;
      if (sheet) boxes.push({ sheetId: sheet.id, ...resolveA1(parsed, sheet.maxRows, sheet.maxColumns) });
    }
    return boxes;
  }

  /** Writes a custom function's result: a value, or a 2D array spilling into empty cells. */
  writeFormulaResult(sheet: SheetModel, row: number, column: number, result: { values?: CellValue[][]; error?: string; errorCode?: string }): void {
    const anchorKey = cellKey(row, column);
    const anchor = this.mutableCell(sheet, row, column);
    this.clearSpill(sheet, anchorKey);
    delete anchor.error;
    anchor.dirty = false;
    if (result.error !== undefined) {
      anchor.value = result.errorCode ?? '#ERROR!';
      anchor.error = result.error;
      return;
    }
    const values = result.values ?? [['']];
    const height = values.length;
    const width = Math.max(1, ...values.map((r) => r.length));
    if (row + height - 1 > sheet.maxRows || column + width - 1 > sheet.maxColumns) {
      // Sheets adds rows for a spill at the bottom; columns beyond the grid are an error.
      if (column + width - 1 > sheet.maxColumns) {
        anchor.value = '#REF!';
        anchor.error = 'Result was not automatically expanded, please insert more columns.';
        return;
      }
      try {
        this.resizeSheet(sheet, row + height - 1, sheet.maxColumns);
      } catch {
        anchor.value = '#REF!';
        anchor.error = 'Result was not automatically expanded, please insert more rows.';
        return;
      }
    }
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        if (r === 0 && c === 0) continue;
        const target = this.cell(sheet, row + r, column + c);
        if (!this.isEmptyCell(target)) {
          anchor.value = '#REF!';
          anchor.error = `Array result was not expanded because it would overwrite data in ${formatA1({ row: row + r, column: column + c, numRows: 1, numColumns: 1 })}.`;
          return;
        }
      }
    }
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        const value = values[r]?.[c] ?? '';
        if (r === 0 && c === 0) {
          anchor.value = cloneValue(value);
          continue;
        }
        const target = this.mutableCell(sheet, row + r, column + c);
        target.value = cloneValue(value);
        target.spillOf = anchorKey;
      }
    }
  }

  /** The formula cells needing evaluation, in sheet order. */
  dirtyFormulaCells(): Array<{ sheet: SheetModel; row: number; column: number }> {
    const out: Array<{ sheet: SheetModel; row: number; column: number }> = [];
    // Most of the time none is dirty: say so without reading every cell of every sheet.
    if (![...this.formulaCells.keys()].some((record) => record.dirty && record.formula !== undefined)) return out;
    for (const sheet of this.sheets) {
      for (const [key, record] of sheet.cells) {
        if (record.formula !== undefined && record.dirty) {
          const [row, column] = key.split(':').map(Number) as [number, number];
          out.push({ sheet, row, column });
        }
      }
    }
    return out;
  }

  private readGrid(desc: RangeDescriptor, read: (record: CellRecord | undefined) => unknown): unknown[][] {
    const sheet = this.sheetById(desc.sheetId);
    const rows: unknown[][] = [];
    for (let r = 0; r < desc.numRows; r++) {
      const row: unknown[] = [];
      for (let c = 0; c < desc.numColumns; c++) row.push(read(this.cell(sheet, desc.row + r, desc.column + c)));
      rows.push(row);
    }
    return rows;
  }

  /** Values as a script sees them: formula results, spilled values, Dates as Dates, empty as "". */
  readValues(desc: RangeDescriptor): CellValue[][] {
    return this.readGrid(desc, (record) => (record ? cloneValue(record.value) : '')) as CellValue[][];
  }

  private displayValue(record: CellRecord | undefined): string {
    if (!record) return '';
    const value = record.value;
    if (value instanceof Date) return this.formatDisplayDate(value);
    if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
    return String(value);
  }

  private formatDisplayDate(date: Date): string {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: this.timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(date);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return `${get('month')}/${get('day')}/${get('year')}`;
  }

  // ---------------------------------------------------------------- triggers

  private createTrigger(execution: ExecutionInfo, spec: { handlerFunction: string; eventType: TriggerRecord['eventType']; everyMinutes?: number; everyHours?: number; everyDays?: number; everyWeeks?: number; atHour?: number; at?: number; after?: number }): TriggerRecord {
    const user = execution.user;
    const documentId = this.options.documentId;
    if (this.options.isAddOn) {
      if (spec.eventType === 'CLOCK' && (spec.everyMinutes !== undefined || (spec.everyHours !== undefined && spec.everyHours < 1))) {
        throw new GasException('Add-ons can not create time-based triggers to run more frequently than once an hour.');
      }
      const same = this.triggers.filter((t) => t.user === user && t.documentId === documentId && t.eventType === spec.eventType);
      if (same.length >= 1) {
        const kind = { CLOCK: 'time-based', ON_OPEN: 'open', ON_EDIT: 'edit', ON_CHANGE: 'change', ON_FORM_SUBMIT: 'form submit' }[spec.eventType];
        throw new GasException(`This add-on has created too many ${kind} triggers in this document for this Google user account.`);
      }
    }
    if (this.triggers.filter((t) => t.user === user).length >= TRIGGERS_PER_USER_LIMIT) {
      throw new GasException('This script has too many triggers. Triggers must be deleted from the script before more can be added.');
    }
    const record: TriggerRecord = { id: String(this.options.deployment.nextTriggerId()), handlerFunction: spec.handlerFunction, eventType: spec.eventType, user, documentId };
    if (spec.eventType === 'CLOCK') {
      const HOUR_MS = 3_600_000;
      const now = this.clock.now();
      if (spec.at !== undefined) record.nextRunAt = spec.at;
      else if (spec.after !== undefined) record.nextRunAt = now + spec.after;
      else {
        record.intervalMs = spec.everyMinutes !== undefined ? spec.everyMinutes * 60_000
          : spec.everyHours !== undefined ? spec.everyHours * HOUR_MS
          : spec.everyWeeks !== undefined ? spec.everyWeeks * 7 * 24 * HOUR_MS
          : (spec.everyDays ?? 1) * 24 * HOUR_MS;
        record.atHour = spec.atHour;
        record.nextRunAt = spec.atHour !== undefined ? this.nextTimeAtHour(now, spec.atHour) : now + record.intervalMs;
      }
    }
    this.triggers.push(record);
    return record;
  }

  private nextTimeAtHour(now: number, hour: number): number {
    const HOUR_MS = 3_600_000;
    let t = Math.ceil(now / HOUR_MS) * HOUR_MS;
    for (let i = 0; i < 48; i++, t += HOUR_MS) {
      const h = Number(new Intl.DateTimeFormat('en-US', { timeZone: this.options.scriptTimeZone, hour: 'numeric', hourCycle: 'h23' }).format(new Date(t)));
      if (h === hour && t > now) return t;
    }
    return now + 24 * HOUR_MS;
  }

  // ---------------------------------------------------------------- the op dispatcher

  /** Serves one facade request. Returns a Promise only for asynchronous executions (workers). */
  handle(execution: ExecutionInfo, op: string, args: unknown[]): unknown {
    const a = args as any[];
    switch (op) {
      case 'log':
        this.logs.push({ executionId: execution.id, functionName: execution.functionName, source: a[0], level: a[1], text: a[2] });
        return undefined;
      case 'counts':
        for (const [name, n] of Object.entries(a[0] as Record<string, number>)) this.count(name, n);
        return undefined;

      case 'props.get': {
        this.count('Properties.reads');
        return this.propertyStore(execution, a[0]).get(a[1]) ?? null;
      }
      case 'props.getAll':
        this.count('Properties.reads');
        return Object.fromEntries(this.propertyStore(execution, a[0]));
      case 'props.keys':
        this.count('Properties.reads');
        return [...this.propertyStore(execution, a[0]).keys()];
      case 'props.set': {
        this.checkPropertyWrite(execution, a[0], a[3] ?? 'setProperty');
        this.count('Properties.writes');
        const entries = Object.entries(a[1] as Record<string, string>);
        this.writeProperties(this.propertyStore(execution, a[0]), entries, a[2] === true);
        return undefined;
      }
      case 'props.delete': {
        this.checkPropertyWrite(execution, a[0], a[2] ?? 'deleteProperty');
        this.count('Properties.writes');
        const store = this.propertyStore(execution, a[0]);
        if (a[1] === null) store.clear();
        else store.delete(a[1]);
        return undefined;
      }

      case 'cache.get': {
        const store = this.cacheStore(execution, a[0]);
        return this.cacheRead(store, a[1]);
      }
      case 'cache.getAll': {
        const store = this.cacheStore(execution, a[0]);
        const out: Record<string, string> = {};
        for (const key of a[1] as string[]) {
          const value = this.cacheRead(store, key);
          if (value !== null) out[key] = value;
        }
        return out;
      }
      case 'cache.put': {
        const store = this.cacheStore(execution, a[0]);
        const entries = Object.entries(a[1] as Record<string, string>);
        const ttl = a[2] ?? CACHE_DEFAULT_TTL_SECONDS;
        for (const [key, value] of entries) this.checkCacheEntry(key, value, ttl);
        for (const [key, value] of entries) this.cacheWrite(store, key, value, ttl);
        return undefined;
      }
      case 'cache.remove': {
        const store = this.cacheStore(execution, a[0]);
        for (const key of a[1] as string[]) store.delete(key);
        return undefined;
      }

      case 'lock.acquire':
        return this.acquireLock(execution, a[0], a[1]);
      case 'lock.release': {
        const scope = this.lockScope(execution, a[0]);
        if (this.lockHolders.get(scope) === execution.id) this.releaseLock(scope);
        return undefined;
      }
      case 'lock.has':
        return this.lockHolders.get(this.lockScope(execution, a[0])) === execution.id;

      case 'ss.info':
        return { id: this.options.documentId, name: this.options.spreadsheetName, timeZone: this.timeZone, owner: this.options.owner, scriptTimeZone: this.options.scriptTimeZone };
      case 'ss.setTimeZone':
        this.timeZone = a[0];
        return undefined;
      case 'ss.sheets':
        return this.sheets.map((s) => ({ id: s.id, name: s.name }));
      case 'ss.activeSheet':
        return this.sheetById(this.activeSheetId).id;
      case 'ss.setActiveSheet':
        this.activeSheetId = this.sheetById(a[0]).id;
        return undefined;
      case 'ss.insertSheet': {
        let name: string = a[0] ?? `Sheet${this.sheets.length + 1}`;
        if (a[0] === undefined) for (let n = this.sheets.length + 1; this.sheetByName(name); n++) name = `Sheet${n}`;
        if (this.sheetByName(name)) {
          throw new GasException(`A sheet with the name "${name}" already exists. Please enter another name.`);
        }
        const sheet = this.addSheet(name, a[1], { rows: NEW_SHEET_ROWS, columns: NEW_SHEET_COLUMNS });
        this.activeSheetId = sheet.id;
        return sheet.id;
      }
      case 'ss.deleteSheet': {
        if (this.sheets.length === 1) throw new GasException("You can't remove all the sheets in a document.");
        const index = this.sheets.findIndex((s) => s.id === a[0]);
        if (index >= 0) this.sheets.splice(index, 1);
        if (this.activeSheetId === a[0]) this.activeSheetId = this.sheets[0]!.id;
        return undefined;
      }
      case 'ss.resolve':
        return this.resolveRange(a[0], a[1] ?? this.activeSheetId);
      case 'ss.activeRange': {
        const active = this.activeRange;
        return active && active.sheetId === this.activeSheetId ? active : { sheetId: this.activeSheetId, row: 1, column: 1, numRows: 1, numColumns: 1 };
      }
      case 'ss.setActiveRange':
        this.activeRange = a[0];
        this.activeSheetId = this.sheetById(a[0].sheetId).id;
        return undefined;
      case 'ss.named.get':
        return this.namedRanges.get(a[0]) ?? null;
      case 'ss.named.set':
        this.namedRanges.set(a[0], a[1]);
        return undefined;
      case 'ss.toast':
        this.toasts.push({ message: a[0], title: a[1] });
        return undefined;

      case 'sheet.info': {
        const sheet = this.sheetById(a[0]);
        return { id: sheet.id, name: sheet.name, maxRows: sheet.maxRows, maxColumns: sheet.maxColumns, frozenRows: sheet.frozenRows, frozenColumns: sheet.frozenColumns, hidden: sheet.hidden === true, index: this.sheets.indexOf(sheet) + 1 };
      }
      // Apart from sheet.info: finding the last row and column reads every cell, and most calls need neither.
      case 'sheet.extent':
        return this.extent(this.sheetById(a[0]));
      case 'sheet.update': {
        const sheet = this.sheetById(a[0]);
        const patch = a[1] as Partial<Pick<SheetModel, 'name' | 'frozenRows' | 'frozenColumns' | 'maxRows' | 'maxColumns' | 'hidden'>>;
        if (patch.name !== undefined && patch.name !== sheet.name && this.sheetByName(patch.name)) {
          throw new GasException(`A sheet with the name "${patch.name}" already exists. Please enter another name.`);
        }
        if (patch.maxRows !== undefined || patch.maxColumns !== undefined) this.resizeSheet(sheet, patch.maxRows ?? sheet.maxRows, patch.maxColumns ?? sheet.maxColumns);
        const { maxRows: _rows, maxColumns: _columns, ...rest } = patch;
        Object.assign(sheet, rest);
        return undefined;
      }
      case 'sheet.checkBox':
        this.checkBox(this.sheetById(a[0]), a[1]);
        return undefined;
      case 'sheet.clear': {
        const sheet = this.sheetById(a[0]);
        const what = a[1] as { contents: boolean; formats: boolean };
        for (const [key, record] of [...sheet.cells]) {
          if (what.contents) {
            record.value = '';
            delete record.formula;
            this.formulaCells.delete(record);
            delete record.spillOf;
            delete record.error;
          }
          if (what.formats) {
            delete record.numberFormat;
            delete record.fontWeight;
            delete record.background;
          }
          if (this.isEmptyCell(record) && !record.numberFormat && !record.note && !record.fontWeight && !record.background) sheet.cells.delete(key);
        }
        return undefined;
      }
      case 'sheet.charts':
        return this.sheetById(a[0]).charts.map((c) => ({ ...c }));
      case 'sheet.insertChart': {
        const chart = { ...(a[1] as ChartRecord), id: this.nextChartId++ };
        this.sheetById(a[0]).charts.push(chart);
        return chart.id;
      }
      case 'sheet.removeChart': {
        const sheet = this.sheetById(a[0]);
        sheet.charts = sheet.charts.filter((c) => c.id !== a[1]);
        return undefined;
      }

      case 'range.get': {
        const desc = a[0] as RangeDescriptor;
        const field = a[1] as string;
        if (field === 'values') return this.readValues(desc);
        if (field === 'displayValues') return this.readGrid(desc, (r) => this.displayValue(r));
        if (field === 'formulas') return this.readGrid(desc, (r) => r?.formula ?? '');
        if (field === 'numberFormats') return this.readGrid(desc, (r) => r?.numberFormat ?? DEFAULT_NUMBER_FORMAT);
        if (field === 'notes') return this.readGrid(desc, (r) => r?.note ?? '');
        if (field === 'fontWeights') return this.readGrid(desc, (r) => r?.fontWeight ?? 'normal');
        if (field === 'backgrounds') return this.readGrid(desc, (r) => r?.background ?? '#ffffff');
        throw new Error(`unknown range field ${field}`);
      }
      case 'range.set': {
        const desc = a[0] as RangeDescriptor;
        const field = a[1] as string;
        const grid = a[2] as unknown[][];
        const sheet = this.sheetById(desc.sheetId);
        for (let r = 0; r < desc.numRows; r++) {
          for (let c = 0; c < desc.numColumns; c++) {
            const value = grid[r]![c];
            const row = desc.row + r;
            const column = desc.column + c;
            if (field === 'values') this.writeInput(sheet, row, column, value);
            else if (field === 'formulas') this.writeFormula(sheet, row, column, String(value ?? ''));
            else {
              const record = this.mutableCell(sheet, row, column);
              if (field === 'numberFormats') record.numberFormat = String(value);
              else if (field === 'notes') record.note = String(value ?? '');
              else if (field === 'fontWeights') record.fontWeight = value === null ? undefined : String(value);
              else if (field === 'backgrounds') record.background = value === null ? undefined : String(value);
            }
          }
        }
        return undefined;
      }
      case 'range.clear': {
        const desc = a[0] as RangeDescriptor;
        const what = a[1] as { contents: boolean; formats: boolean; notes?: boolean };
        const sheet = this.sheetById(desc.sheetId);
        for (let r = 0; r < desc.numRows; r++) {
          for (let c = 0; c < desc.numColumns; c++) {
            const record = this.cell(sheet, desc.row + r, desc.column + c);
            if (!record) continue;
            if (what.contents) this.writeInput(sheet, desc.row + r, desc.column + c, '');
            if (what.formats) {
              delete record.numberFormat;
              delete record.fontWeight;
              delete record.background;
            }
            if (what.notes) delete record.note;
          }
        }
        return undefined;
      }
      case 'sheet.appendRow': {
        const sheet = this.sheetById(a[0]);
        const values = a[1] as unknown[];
        const row = this.lastRow(sheet) + 1;
        this.resizeSheet(sheet, Math.max(sheet.maxRows, row), Math.max(sheet.maxColumns, values.length));
        values.forEach((value, index) => this.writeInput(sheet, row, index + 1, value));
        return undefined;
      }

      case 'ui.menu':
        this.menus.push(a[0]);
        return undefined;
      case 'ui.sidebar':
        this.sidebars.push({ executionId: execution.id, user: execution.user, ...(a[0] as { title: string; width?: number; html: string }) });
        return undefined;
      case 'ui.dialog':
        this.dialogs.push({ executionId: execution.id, ...(a[0] as { title: string; html: string; modal: boolean }) });
        return undefined;
      case 'ui.alert':
        this.alerts.push({ executionId: execution.id, title: a[0], prompt: a[1] });
        return undefined;
      case 'html.file': {
        const name = String(a[0]);
        const content = this.options.htmlFiles[name] ?? this.options.htmlFiles[name.replace(/\.html$/, '')] ?? this.options.htmlFiles[`${name}.html`];
        if (content === undefined) throw new GasException(`No HTML file named ${name} was found.`);
        return content;
      }
      case 'mail.send':
        this.mails.push({ ...(a[0] as Record<string, unknown>), from: execution.user });
        return undefined;

      case 'triggers.create':
        return { ...this.createTrigger(execution, a[0]) };
      case 'triggers.list': {
        const userOnly = a[0] === 'user';
        return this.triggers.filter((t) => !userOnly || (t.user === execution.user && t.documentId === this.options.documentId)).filter((t) => userOnly || t.user === execution.user).map((t) => ({ ...t }));
      }
      case 'triggers.delete': {
        const index = this.triggers.findIndex((t) => t.id === a[0]);
        if (index >= 0) this.triggers.splice(index, 1);
        return undefined;
      }

      case 'fetch':
        return this.fetch(execution, a[0], a[1]);
      default:
        throw new Error(`gas-host: unknown op ${op}`);
    }
  }

  /**
   * A fetch or fetchAll call. Before anything is sent the call is refused as a whole when an address
   * is outside the manifest's whitelist, or when its requests would pass the user's daily quota of
   * URL Fetch calls (each request counts one); a refused call is logged with its error and counts
   * nothing. A request that is sent counts, whatever its answer.
   */
  private fetch(execution: ExecutionInfo, requests: SyncFetchRequest[], timeoutMs: number): SyncFetchOutcome[] | Promise<SyncFetchOutcome[]> {
    const startedAt = this.clock.now();
    const realStart = Date.now();
    // On a virtual clock every request says when it was sent, for a server that models the network (clock.ts).
    const sentHeader = this.clock.virtual ? { [VIRTUAL_SEND_TIME_HEADER]: String(startedAt) } : undefined;
    const timed = requests.map((r) => ({ ...r, timeoutMs, ...(sentHeader ? { headers: { ...r.headers, ...sentHeader } } : {}) }));
    const refusal = this.fetchRefusal(execution, requests);
    if (!refusal) this.count('http.requests', requests.length);
    const record = (outcomes: SyncFetchOutcome[]) => {
      if (this.clock.virtual) this.followAnswerTimes(outcomes);
      outcomes.forEach((outcome, i) => {
        const request = requests[i]!;
        let host = '';
        try {
          host = new URL(request.url).host;
        } catch {
          host = '';
        }
        this.fetchLog.push({
          executionId: execution.id,
          host,
          url: request.url,
          method: (request.method ?? 'GET').toUpperCase(),
          headers: { ...(request.headers ?? {}) },
          payload: request.body,
          status: outcome.ok ? outcome.response.status : undefined,
          error: outcome.ok ? undefined : outcome.error.message,
          startedAt,
          elapsedMs: Date.now() - realStart,
        });
      });
      return outcomes;
    };
    if (refusal) return record(requests.map((r) => ({ ok: false, error: { ...refusal, url: r.url } })));
    if (execution.async) return performFetchAll(timed).then(record);
    return record(this.options.syncFetchAll(timed));
  }

  private fetchRefusal(execution: ExecutionInfo, requests: SyncFetchRequest[]): Omit<SyncFetchFailure, 'url'> | undefined {
    const outside = requests.find((r) => !whitelistAllows(r.url, this.options.urlFetchWhitelist));
    if (outside) return { code: 'NOT_ALLOWED', message: whitelistRefusal(outside.url) };
    const user = this.quotaUser(execution);
    if (this.dailyUse(user, 'urlFetch').used + requests.length > this.options.urlFetchCallsPerDay) return { code: 'QUOTA', message: URL_FETCH_QUOTA_MESSAGE };
    this.spendDaily(user, 'urlFetch', requests.length);
    return undefined;
  }

  /**
   * Moves the virtual clock to when the last answer reached the client, as a server modelling the
   * network said (parallel requests overlap: the latest answer, not the sum), and takes that header
   * out of every response before the script sees it.
   */
  private followAnswerTimes(outcomes: SyncFetchOutcome[]): void {
    let latestMs = -Infinity;
    for (const outcome of outcomes) {
      if (!outcome.ok) continue;
      const { response } = outcome;
      const answerAtMs = Number(response.headers[VIRTUAL_ANSWER_TIME_HEADER]);
      if (Number.isFinite(answerAtMs)) latestMs = Math.max(latestMs, answerAtMs);
      if (VIRTUAL_ANSWER_TIME_HEADER in response.headers) {
        delete response.headers[VIRTUAL_ANSWER_TIME_HEADER];
        response.headerList = response.headerList.filter(([name]) => name !== VIRTUAL_ANSWER_TIME_HEADER);
      }
    }
    if (latestMs > this.clock.now()) this.clock.advanceTo(latestMs);
  }
}

export { cellKey, formatA1 };
