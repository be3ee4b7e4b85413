/**
 * The small synchronous interfaces the core is driven through, all of them here: every interface an
 * adapter in src/gas implements, with the data they carry. Apps Script is synchronous, so every port
 * is too. Adapters over the URL Fetch, Properties, Cache and Lock services, the utilities service (sleep, gzip and
 * base64), the spreadsheet and the script's triggers live in src/gas; tests use the counting fakes in
 * test/support/fakes.ts. Nothing here names a platform global, so the core runs unchanged in Apps
 * Script V8 and in Node.
 */

export type HttpMethod = 'get' | 'post' | 'delete';

export interface HttpRequest {
  url: string;
  method: HttpMethod;
  headers?: Record<string, string>;
  payload?: string;
  contentType?: string;
}

export interface HttpResponse {
  status: number;
  /** Header names lowercased by the adapter, so lookups need no case folding. */
  headers: Record<string, string>;
  body: string;
}

/** URL Fetch refuses addresses longer than 2 KB ("Limit Exceeded: URLFetch URL Length"): check before sending. */
export const FETCH_URL_MAX_CHARS = 2000;

/**
 * Sends HTTP requests. Any status is returned as a response (URL Fetch with muteHttpExceptions);
 * only a failure to get an answer at all (DNS, refused connection, timeout) throws a TransportError.
 */
export interface HttpTransport {
  fetch(request: HttpRequest): HttpResponse;
  /** Sends the requests in parallel; answers come back in request order. */
  fetchAll(requests: HttpRequest[]): HttpResponse[];
}

/** String-only persistent store (Apps Script properties: at most 9 KB per value). */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

/** A store that can also list what it holds (all of a properties store), to prune it and measure it. */
export interface ListableStore extends KeyValueStore {
  entries(): Record<string, string>;
}

/** Best-effort cache; entries may disappear before their time (Cache service: at most 100 KB per value). */
export interface Cache {
  get(key: string): string | null;
  getAll?(keys: string[]): Record<string, string>;
  put(key: string, value: string, ttlSeconds: number): void;
  remove(key: string): void;
}

/** A cache that may also write and remove several entries in one call (the Cache service's putAll and removeAll). */
export type BatchCache = Cache & {
  putAll?(values: Record<string, string>, ttlSeconds: number): void;
  removeAll?(keys: string[]): void;
};

/**
 * Compresses text into ASCII text and back (gzip and base64 with the utilities service), so that a large value
 * takes fewer cache entries. `decompress` throws on anything `compress` did not make.
 */
export interface Compressor {
  compress(text: string): string;
  decompress(compressed: string): string;
}

/** Mutual exclusion across executions (Lock service). */
export interface Lock {
  /** Returns false when the lock was not obtained within the time. */
  tryLock(timeoutMs: number): boolean;
  releaseLock(): void;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** Blocks the execution (Apps Script's sleep); every millisecond counts against the execution limit. */
export interface Sleeper {
  sleep(ms: number): void;
}

/**
 * The user's own OAuth access token for Google's APIs (the script service's getOAuthToken): it carries the
 * manifest's scopes, such as bigquery, and is sent as a Bearer token to Google only, never stored.
 */
export interface OAuthTokenSource {
  oauthToken(): string;
}

/** A source of numbers in [0, 1) for retry jitter; injectable so tests are deterministic. */
export type RandomSource = () => number;

// ---- The spreadsheet and the script's triggers ----

/** A cell's value as Sheets reads and writes it. */
export type Cell = string | number | boolean | Date;

/** How a column of a written block is formatted. */
export type ColumnKind = 'day' | 'month' | 'hour' | 'dateTime' | 'money' | 'percent' | 'count' | 'text';

export interface SheetBlock {
  /**
   * Header first, then data rows, then the totals row when present: as the cells are to hold them, API
   * text exactly as sent. A writer gives setValues asTypedInput(values) (sheets/sheet-output.ts).
   */
  values: Cell[][];
  /** One kind per column. */
  kinds: ColumnKind[];
  /**
   * One Sheets number format per column, applied to the rows below the header; null (text) leaves the
   * column with WRITE_NUMBER_FORMAT, which the whole block gets before its values are written.
   */
  numberFormats: (string | null)[];
  /** One note per header cell: a metric's friendly label and meaning, "" for other columns. */
  headerNotes?: string[];
  /** Number of data rows (without header and totals). */
  dataRows: number;
  hasTotals: boolean;
}

/** Where a block goes: the sheet and its top-left cell (1-based). */
export interface BlockPlacement {
  sheetName: string;
  row: number;
  column: number;
}

/** What a write covered, kept with a saved report so the next write can clear its leftovers. */
export interface WrittenBlock extends BlockPlacement {
  rows: number;
  columns: number;
}

/**
 * Writes a block in a constant number of spreadsheet calls: one for all values, one per column format,
 * a few for the header style. Called only once every page has arrived, so a failed fetch never touches
 * the sheet; cells of the previous block that the new one does not cover are cleared after the write.
 */
export interface SheetWriter {
  write(placement: BlockPlacement, block: SheetBlock, previous?: WrittenBlock): WrittenBlock;
  /** Names of the sheets the spreadsheet has now. */
  sheetNames(): string[];
}

/** The cells holding something (a value or a formula) in an area, or null when there are none. */
export interface CellsFound {
  count: number;
  /** The smallest rectangle around them. */
  box: WrittenBlock;
}

/** What Run to sheet reads of the cells it is about to write, to ask before writing over them. */
export interface SheetContents {
  /**
   * The cells of `area` that hold something, leaving out those inside `except`; null when there are
   * none or the sheet does not exist. `area` may reach past the sheet's grid: only its cells count.
   */
  contentIn(area: WrittenBlock, except?: WrittenBlock): CellsFound | null;
}

/** The sheet of a saved report: the shared writer, plus reading back the last block and the status note. */
export interface ReportSheet extends SheetWriter {
  /** Values (header first) of a block written earlier, or null when the sheet no longer has it. */
  read(block: WrittenBlock): Cell[][] | null;
  /** Puts the status text in a note on the block's first cell (the header of the first column). */
  note(placement: BlockPlacement, text: string): void;
}

/**
 * A sheet the add-on keeps for itself in a spreadsheet: the run log, the revisions, the first figures
 * behind them. Its header is row 1; its rows below are the add-on's records.
 */
export interface OwnSheet {
  name: string;
  header: string[];
  /** Hidden from the tab bar: records for the add-on, not for reading. */
  hidden?: boolean;
  /**
   * The spreadsheet remembers that the add-on made it (a marker that outlives the sheet), so that a user
   * who deletes it turns it off: it is then 'deleted', and never made again.
   */
  remembered?: boolean;
}

/** Whether an own sheet is there, was never made, or was made and then deleted by a user (remembered sheets only). */
export type OwnSheetState = 'present' | 'new' | 'deleted';

/** Rows for an own sheet: values as the cells are to hold them, and one number format per cell (null: none in particular). */
export interface OwnRows {
  values: Cell[][];
  formats: (string | null)[][];
}

/**
 * The add-on's own sheets of one spreadsheet, for one run: in the spreadsheet itself, so a run that
 * opened it by ID (no document, no document properties) reads and writes them as a run in it does.
 * Each call writes in a constant number of spreadsheet calls, whatever the number of rows; text goes
 * through asTypedInput, on cells given a number format first.
 */
export interface OwnSheets {
  state(sheet: OwnSheet): OwnSheetState;
  /** Its rows below the header, as the cells hold them; none when it is missing. */
  read(sheet: OwnSheet): Cell[][];
  /**
   * Adds rows below its last row, making it first when it is 'new' (with its header and, when
   * remembered, the marker), then drops its oldest rows past `keepRows`. Never called on a 'deleted' sheet.
   */
  append(sheet: OwnSheet, rows: OwnRows, keepRows: number): void;
  /** Replaces every row below the header with these (making the sheet when it is missing). */
  replace(sheet: OwnSheet, rows: OwnRows): void;
}

/** A refresh cell: the group it names, its number, when it was last changed (0: never, or not a time), and whether its cell exists yet. */
export interface RefreshCell {
  name: string;
  groupNumber: number;
  stampMs: number;
  exists: boolean;
}

/**
 * The refresh cells of one spreadsheet (named cells `EngageRefresh`, `EngageRefresh2`, ... on a hidden
 * sheet) and the ENGAGE_* formulas that take them as their `refresh` argument. Each change applies at
 * once: the formulas it reaches start computing before the call returns.
 */
export interface RefreshCells {
  /** Every refresh group in number order; the first even before its cell exists (formulas may reference its name already). */
  groups(): RefreshCell[];
  /** How many ENGAGE_* formulas reference the group's cell now. */
  formulas(group: string): number;
  /** Sets these groups' cells to the time `stampMs`, making a group's cell where it does not exist yet. */
  touch(groups: readonly string[], stampMs: number): void;
  /** Makes group `to`'s cell, holding `stampMs`, and moves to it `count` of `from`'s formulas, from the `skip`th found on. */
  move(from: string, to: string, skip: number, count: number, stampMs: number): void;
}

/**
 * The user's hourly trigger of scheduled refreshes: one per user with spreadsheetAccess "all" (it
 * serves every spreadsheet), one per user per spreadsheet with "current" (this document's).
 */
export interface TriggerPort {
  isInstalled(): boolean;
  /** Installs it unless present; true when created now. */
  ensure(): boolean;
  /** Removes it from this spreadsheet (never from another); true when there was one. */
  remove(): boolean;
  /** A run's own trigger (its event's triggerUid) when the user has another to serve this spreadsheet; true when removed. */
  retire(uid: string): boolean;
  /** Its unique ID (a run's event carries it as triggerUid), when installed. */
  uniqueId(): string | undefined;
}

/** What identifies one of the user's spreadsheets in the schedule registry. */
export interface SpreadsheetRef {
  id: string;
  name: string;
  url: string;
  /** Its IANA zone: schedules and the times in notes. */
  timeZone: string;
}

/** A spreadsheet a scheduled run refreshes: the one it runs in, or one opened by ID. */
export interface ScheduledSpreadsheet {
  readonly ref: SpreadsheetRef;
  readonly sheet: ReportSheet;
  /**
   * Makes the spreadsheet's formulas that reference the refresh cell fetch again; never throws. With
   * `wrote` false (the run wrote nothing there), only when the day has changed since the refresh cell
   * was last changed, so that formulas with relative days ("7daysAgo", "yesterday") move to the new day.
   * The formulas recalculate in waves until `deadlineAtMs` (left out: 25 s); waves with no time left
   * wait for the next refresh. With `awaitLastWave`, the last wave is waited for too (another
   * spreadsheet's follow). True when every refresh cell now holds this refresh's time (or none needed one).
   */
  refreshFormulas(wrote: boolean, deadlineAtMs?: number, options?: { awaitLastWave?: boolean }): boolean;
}

/**
 * Email to the user the execution runs as (the mail service, which needs the `script.send_mail` scope): the
 * owner of the saved reports a run refreshes. One plain-text message at a time.
 */
export interface Mailer {
  /** The user's address; '' when Apps Script does not give it. */
  address(): string;
  /** Recipients the user may still send to today (Apps Script's daily quota). */
  remainingToday(): number;
  /** Throws when Apps Script refuses it (the quota spent, no address). */
  send(message: { to: string; subject: string; body: string }): void;
}

/** Opens the user's spreadsheets by ID (spreadsheetAccess "all"). */
export interface SpreadsheetOpener {
  /** Throws SpreadsheetUnreachableError when the user cannot open it (deleted, unshared, no scope). */
  open(spreadsheetId: string): ScheduledSpreadsheet;
}

/** A BigQuery table as Connected Sheets takes it: the project that pays for its queries, and where the table is. */
export interface DataSourceTable {
  billingProjectId: string;
  projectId: string;
  datasetId: string;
  tableId: string;
}

/**
 * A data execution's status as Sheets reports it (DataExecutionStatus): `state` a DataExecutionState
 * name ('SUCCESS', 'ERROR', 'RUNNING', 'NOT_STARTED' ...), and for ERROR a DataExecutionErrorCode name
 * ('DATA_NOT_FOUND', 'PERMISSION_DENIED' ...) with Sheets' message, which may be empty.
 */
export interface DataExecution {
  state: string;
  errorCode: string;
  errorMessage: string;
}

/** A data source sheet just added, whose first data execution (its query in BigQuery) has started. */
export interface ConnectedSheet {
  /** The sheet's name. */
  name: string;
  /**
   * Waits at most `timeoutSeconds` (1 to 300, Google's limit) for the first execution, and gives its
   * status then: still RUNNING if it has not ended. Throws only when Sheets cannot tell its status.
   */
  waitForCompletion(timeoutSeconds: number): DataExecution;
  /** Deletes the sheet (and so its connection). */
  remove(): void;
}

/** The spreadsheet's data source sheets (Connected Sheets), over the spreadsheet service. */
export interface ConnectedSheets {
  /** Every sheet's name, for a new name no sheet has. */
  sheetNames(): string[];
  /**
   * Adds a sheet connected to the table, named `sheetName`, which starts its first data execution.
   * Throws whatever Sheets throws: the account or domain does not allow Connected Sheets, a scope is
   * missing, or any other failure; nothing is added then.
   */
  insertDataSourceSheet(table: DataSourceTable, sheetName: string): ConnectedSheet;
}

/** Of the scopes asked about, those the user has not granted, and Google's link to grant them. */
export interface ConsentAnswer {
  missing: string[];
  /** Apps Script's getAuthorizationUrl: null when nothing is missing, or Google gave none. */
  authorizationUrl: string | null;
}

/**
 * What the user granted the add-on (Apps Script's getAuthorizationInfo in FULL): since August 2025 a
 * user may grant only some of the manifest's scopes. `check` throws when Apps Script refuses to say.
 */
export interface ConsentPort {
  check(scopes: readonly string[]): ConsentAnswer;
}
