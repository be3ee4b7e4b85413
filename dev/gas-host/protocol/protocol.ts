/**
 * The protocol between the service facades a script calls (services/, run in a vm on the main thread
 * or in a worker) and the state every execution shares (host-state.ts, on the main thread only).
 * `HostOps` is every operation with its arguments and result, one interface per service: facades call
 * it as an object (`ops.cachePut(scope, entries, ttl)`), and the state serves the same operations as
 * `ServedOps`, each told first which execution asks. Only plain, structured-cloneable data crosses, so
 * a worker's call travels as one `OpRequest` message and `serveOp` is the one dispatch at that edge.
 */
import type { GridBox } from '../cells/a1-notation';
import type { CellValue } from '../cells/typed-input';
import type { SyncFetchOutcome, SyncFetchRequest } from '../fetch/fetch-core';

export type AuthModeName = 'NONE' | 'LIMITED' | 'FULL' | 'CUSTOM_FUNCTION';

/** An Apps Script service error; facades rethrow it inside the script's realm with the same name. */
export class GasException extends Error {
  constructor(message: string, name = 'Exception') {
    super(message);
    this.name = name;
  }
}

/** One execution as the state knows it: who runs what, in which mode, until when. */
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
  /** The run of an installable trigger, which has no UI. */
  trigger?: boolean;
  /**
   * No active document (a time-driven trigger's run in the strict reading, strict.ts): the bound
   * document, its properties, cache and lock are out of reach; other documents open by ID.
   */
  withoutDocument?: boolean;
}

// ---------------------------------------------------------------- data that crosses

export type { CellValue };

/** Whose store a properties, cache or lock call reaches. */
export type StoreScope = 'user' | 'document' | 'script';
export type LogSource = 'Logger' | 'console';
export type LogLevel = 'log' | 'info' | 'warn' | 'error';

export interface RangeDescriptor extends GridBox {
  sheetId: number;
}

export interface SpreadsheetInfo {
  id: string;
  name: string;
  timeZone: string;
  /** getSpreadsheetLocale: 'en_US' or 'de_DE'. */
  locale: string;
  owner: string;
  scriptTimeZone: string;
}

/** A spreadsheet's developer metadata (Spreadsheet.addDeveloperMetadata). */
export interface DeveloperMetadataRecord {
  id: number;
  key: string;
  value: string | null;
}

export interface SheetInfo {
  id: number;
  name: string;
  maxRows: number;
  maxColumns: number;
  frozenRows: number;
  frozenColumns: number;
  hidden: boolean;
  /** 1-based position among the sheets. */
  index: number;
}

export type SheetPatch = Partial<{
  name: string;
  frozenRows: number;
  frozenColumns: number;
  maxRows: number;
  maxColumns: number;
  hidden: boolean;
}>;

/** What a clear removes; notes only where the facade method removes them. */
export interface ClearScope {
  contents: boolean;
  formats: boolean;
  notes?: boolean;
}

/** A TextFinder's search (Spreadsheet, Sheet or Range.createTextFinder and its options). */
export interface FindQuery {
  text: string;
  matchCase: boolean;
  matchEntireCell: boolean;
  /** Formula cells are searched by their formula text instead of what they show. */
  matchFormulaText: boolean;
  useRegularExpression: boolean;
  /** Only this box (a Range's finder) or this sheet (a Sheet's); else every sheet. */
  within?: RangeDescriptor | { sheetId: number };
}

/** A range's per-cell attributes, as the Range getters name them. */
export type RangeField = 'values' | 'displayValues' | 'formulas' | 'numberFormats' | 'notes' | 'fontWeights' | 'backgrounds';
export type WritableRangeField = Exclude<RangeField, 'displayValues'>;

/** A chart as EmbeddedChartBuilder.build() describes it; the sheet gives it an id when inserted. */
export interface ChartSpec {
  id?: number;
  type: string;
  /** 'Sheet!C4:C11' for each addRange. */
  ranges: string[];
  position?: { row: number; column: number };
  options: Record<string, unknown>;
}

export interface ChartRecord extends ChartSpec {
  id: number;
}

/**
 * A BigQuery data source spec as BigQueryDataSourceSpecBuilder.build() describes it (Connected Sheets):
 * the billing project, then a table (its project, dataset and id) or a raw query. Unset text is ''.
 */
export interface DataSourceSpecRecord {
  type: 'BIGQUERY';
  projectId: string;
  tableProjectId: string;
  datasetId: string;
  tableId: string;
  rawQuery: string;
  /** setParameterFromCell: each parameter's name and its source cell's A1 text. */
  parameters: Array<{ name: string; sourceCell: string }>;
}

/**
 * The DataExecutionErrorCode enum (SpreadsheetApp.DataExecutionErrorCode), as Google's reference page
 * lists it (developers.google.com/apps-script/reference/spreadsheet/data-execution-error-code).
 */
export const DATA_EXECUTION_ERROR_CODES = [
  'DATA_EXECUTION_ERROR_CODE_UNSUPPORTED',
  'NONE',
  'TIME_OUT',
  'TOO_MANY_ROWS',
  'TOO_MANY_COLUMNS',
  'TOO_MANY_CELLS',
  'ENGINE',
  'PARAMETER_INVALID',
  'UNSUPPORTED_DATA_TYPE',
  'DUPLICATE_COLUMN_NAMES',
  'INTERRUPTED',
  'OTHER',
  'TOO_MANY_CHARS_PER_CELL',
  'DATA_NOT_FOUND',
  'PERMISSION_DENIED',
] as const;
export type DataExecutionErrorCodeName = (typeof DATA_EXECUTION_ERROR_CODES)[number];

/**
 * How the data execution that insertDataSourceSheet starts goes (the reference: it "Inserts a new
 * DataSourceSheet in the spreadsheet and starts data execution"): how long it runs on the host's clock
 * (UNCONFIRMED: no page gives a figure) and how it ends, SUCCESS or ERROR with a DataExecutionErrorCode
 * and the message DataExecutionStatus.getErrorMessage() gives (its words UNCONFIRMED).
 */
export interface DataExecutionPlan {
  durationMs: number;
  outcome:
    | { state: 'SUCCESS'; truncated?: boolean }
    | { state: 'ERROR'; errorCode: Exclude<DataExecutionErrorCodeName, 'NONE'>; errorMessage: string };
}

/** A data source sheet's data execution: the plan it follows, from when it started (epoch ms of the host's clock). */
export interface DataExecutionRecord extends DataExecutionPlan {
  startedAtMs: number;
}

export interface MenuRecord {
  title: string;
  addon: boolean;
  items: Array<{ caption: string; functionName: string } | { separator: true } | { subMenu: MenuRecord }>;
}

/** An HtmlOutput as shown: its title, size and content. */
export interface HtmlSnapshot {
  title: string;
  width?: number;
  height?: number;
  html: string;
}

export interface DialogSpec {
  title: string;
  html: string;
  modal: boolean;
}

/** MailApp.sendEmail's message, as the script gave it. */
export type MailMessage = Record<string, unknown>;

export type TriggerEventType = 'CLOCK' | 'ON_OPEN' | 'ON_EDIT' | 'ON_CHANGE' | 'ON_FORM_SUBMIT';

/** What a TriggerBuilder collected before create(); no event type yet: forSpreadsheet() without onOpen() etc. */
export interface TriggerSpec {
  handlerFunction: string;
  eventType?: TriggerEventType;
  everyMinutes?: number;
  everyHours?: number;
  everyDays?: number;
  everyWeeks?: number;
  atHour?: number;
  onWeekDay?: number;
  /** Epoch ms, for at(date). */
  at?: number;
  after?: number;
}

export interface TriggerRecord {
  id: string;
  handlerFunction: string;
  eventType: TriggerEventType;
  user: string;
  documentId: string;
  /** For CLOCK triggers: the repeat interval and the next due time on the host clock. */
  intervalMs?: number;
  atHour?: number;
  nextRunAt?: number;
}

// ---------------------------------------------------------------- the operations, per service

export interface ExecutionOps {
  /** A Logger or console line. */
  logWrite(source: LogSource, level: LogLevel, text: string): void;
  /** The facade calls an execution made, by `Type.method`, sent once when it ends. */
  countCalls(counts: Record<string, number>): void;
}

export interface PropertiesOps {
  propertiesGet(scope: StoreScope, key: string): string | null;
  propertiesGetAll(scope: StoreScope): Record<string, string>;
  propertiesKeys(scope: StoreScope): string[];
  /** `method` is the facade method a refusal names. */
  propertiesSet(scope: StoreScope, entries: Record<string, string>, replaceAll: boolean, method: string): void;
  /** `key` null: every property of the store. */
  propertiesDelete(scope: StoreScope, key: string | null, method: string): void;
}

export interface CacheOps {
  cacheGet(scope: StoreScope, key: string): string | null;
  cacheGetAll(scope: StoreScope, keys: string[]): Record<string, string>;
  /** `ttlSeconds` undefined: the Cache service's default. */
  cachePut(scope: StoreScope, entries: Record<string, string>, ttlSeconds: number | undefined): void;
  cacheRemove(scope: StoreScope, keys: string[]): void;
}

export interface LockOps {
  /** True once the lock is held; false when `timeoutMs` (or the execution's time) ran out first. */
  lockAcquire(scope: StoreScope, timeoutMs: number): boolean;
  lockRelease(scope: StoreScope): void;
  lockHas(scope: StoreScope): boolean;
}

export interface SpreadsheetOps {
  spreadsheetInfo(): SpreadsheetInfo;
  spreadsheetSetTimeZone(timeZone: string): void;
  spreadsheetSheets(): Array<{ id: number; name: string }>;
  spreadsheetActiveSheet(): number;
  spreadsheetSetActiveSheet(sheetId: number): void;
  /** The new sheet's id; it becomes the active sheet. */
  spreadsheetInsertSheet(name: string | undefined, index: number | undefined): number;
  spreadsheetDeleteSheet(sheetId: number): void;
  /** A1 text, "Sheet!A1:B2" or against `sheetId` (default: the active sheet). */
  spreadsheetResolve(a1: string, sheetId: number | undefined): RangeDescriptor;
  spreadsheetActiveRange(): RangeDescriptor;
  spreadsheetSetActiveRange(range: RangeDescriptor): void;
  spreadsheetNamedRange(name: string): RangeDescriptor | null;
  spreadsheetSetNamedRange(name: string, range: RangeDescriptor): void;
  /** Every named range, in the order they were made. */
  spreadsheetNamedRanges(): Array<{ name: string; range: RangeDescriptor }>;
  /** The developer metadata of the spreadsheet itself (not of its sheets, rows or columns), in the order added. */
  spreadsheetDeveloperMetadata(): DeveloperMetadataRecord[];
  /** Adds developer metadata to the spreadsheet; its id. */
  spreadsheetAddDeveloperMetadata(key: string, value: string | null): number;
  spreadsheetRemoveDeveloperMetadata(id: number): void;
  /** The cells a TextFinder's findAll returns: sheet by sheet, row by row. */
  spreadsheetFind(query: FindQuery): RangeDescriptor[];
  /** SpreadsheetApp.flush: the execution's changes apply now (with automatic recalculation, their formulas start). */
  spreadsheetFlush(): void;
  /**
   * Spreadsheet.insertDataSourceSheet: a new sheet connected to the spec, which becomes the active
   * sheet, its data execution started by the spreadsheet's plan; its id. Refused when the account does
   * not allow Connected Sheets (the host's option).
   */
  spreadsheetInsertDataSourceSheet(spec: DataSourceSpecRecord): number;
  /** The data source sheets, in the sheets' order, with their specs. */
  spreadsheetDataSourceSheets(): Array<{ sheetId: number; spec: DataSourceSpecRecord }>;
  /** The data execution of data source sheet `sheetId` (started by insertDataSourceSheet); null for another sheet. */
  spreadsheetDataExecution(sheetId: number): DataExecutionRecord | null;
}

/** Who owns the document and who may edit it (state/spreadsheets/sharing.ts). */
export interface SharingOps {
  /** The owner's email; null for a file in a shared drive. */
  sharingOwner(): string | null;
  /** Every editor's email, the owner first. */
  sharingEditors(): string[];
  sharingAddEditors(emails: string[]): void;
  sharingRemoveEditor(email: string): void;
}

export interface SheetOps {
  sheetInfo(sheetId: number): SheetInfo;
  /** Apart from sheetInfo: finding the last row and column reads every cell, and most calls need neither. */
  sheetExtent(sheetId: number): { lastRow: number; lastColumn: number };
  sheetUpdate(sheetId: number, patch: SheetPatch): void;
  /** Throws as Sheets does for a box outside the sheet's grid. */
  sheetCheckBox(sheetId: number, box: GridBox): void;
  sheetClear(sheetId: number, scope: ClearScope): void;
  sheetAppendRow(sheetId: number, values: unknown[]): void;
  /** Sheet.deleteRows: the rows go, those below move up, and the grid shrinks by as many. */
  sheetDeleteRows(sheetId: number, rowPosition: number, howMany: number): void;
  /** Sheet.deleteColumns: the columns go, those to the right move left, and the grid narrows by as many. */
  sheetDeleteColumns(sheetId: number, columnPosition: number, howMany: number): void;
  sheetCharts(sheetId: number): ChartRecord[];
  /** The inserted chart's id. */
  sheetInsertChart(sheetId: number, chart: ChartSpec): number;
  sheetRemoveChart(sheetId: number, chartId: number): void;
}

export interface RangeOps {
  rangeGet(range: RangeDescriptor, field: RangeField): CellValue[][];
  /** `grid` has the range's shape; values are read as typed input. */
  rangeSet(range: RangeDescriptor, field: WritableRangeField, grid: unknown[][]): void;
  rangeClear(range: RangeDescriptor, scope: ClearScope): void;
}

export interface UiOps {
  uiMenu(menu: MenuRecord): void;
  uiSidebar(sidebar: HtmlSnapshot): void;
  uiDialog(dialog: DialogSpec): void;
  uiAlert(title: string | undefined, prompt: string): void;
  /** Spreadsheet.toast. */
  uiToast(message: string, title: string | undefined): void;
  /** The HTML of a project file ('sidebar' or 'sidebar.html'). */
  htmlFile(name: string): string;
}

export interface MailOps {
  /** Records the message; refused when its recipients pass what is left of the user's day. */
  mailSend(message: MailMessage): void;
  /** MailApp.getRemainingDailyQuota: the user's email recipients left in the open 24-hour window. */
  mailRemaining(): number;
}

export interface TriggerOps {
  triggerCreate(spec: TriggerSpec): TriggerRecord;
  /**
   * 'user': the user's triggers in one document (`documentId`, default this one: getUserTriggers(spreadsheet));
   * 'project': the user's triggers in every document.
   */
  triggerList(which: 'user' | 'project', documentId?: string): TriggerRecord[];
  triggerDelete(triggerId: string): void;
}

/** The operations of one document's Spreadsheet (its sharing included), Sheet and Range facades. */
export type DocumentOpName = keyof SpreadsheetOps | keyof SheetOps | keyof RangeOps | keyof SharingOps;
export type DocumentOpRequest = { [K in DocumentOpName]: { op: K; args: Parameters<HostOps[K]> } }[DocumentOpName];

/** Other documents of the add-on, opened by ID or URL (SpreadsheetApp.openById / openByUrl). */
export interface DocumentOps {
  /** Checks that the execution may open the document (scope, existence, the user's access); returns its ID. */
  documentOpen(target: string, how: 'id' | 'url'): string;
  /** One Spreadsheet, Sheet or Range operation on a document opened by ID; its access is checked again. */
  documentOp(documentId: string, request: DocumentOpRequest): unknown;
}

export interface UrlFetchOps {
  /** One fetch or fetchAll: every request's outcome, in order; `timeoutMs` bounds each request. */
  urlFetch(requests: SyncFetchRequest[], timeoutMs: number): SyncFetchOutcome[];
}

/** What the execution's user granted the add-on (state/consent.ts). */
export interface ConsentOps {
  /** The manifest's scopes the user granted; null without a manifest (every scope the code needs is granted). */
  consentGranted(): string[] | null;
}

/** Every host operation a facade may call: a renamed or reshaped operation fails to compile on both sides. */
export interface HostOps
  extends ExecutionOps,
    PropertiesOps,
    CacheOps,
    LockOps,
    SpreadsheetOps,
    SharingOps,
    SheetOps,
    RangeOps,
    UiOps,
    MailOps,
    TriggerOps,
    DocumentOps,
    UrlFetchOps,
    ConsentOps {}

export type OpName = keyof HostOps;
export type OpArgs<K extends OpName> = Parameters<HostOps[K]>;
export type OpResult<K extends OpName> = ReturnType<HostOps[K]>;

/**
 * Operations the main thread may serve later: waiting for a lock another execution holds, or for an
 * HTTP answer. Only an execution in a worker can be kept waiting; on the calling thread they must
 * answer at once.
 */
export type WaitingOp = 'lockAcquire' | 'urlFetch';
export type Served<K extends OpName> = K extends WaitingOp ? OpResult<K> | Promise<OpResult<K>> : OpResult<K>;

/** How the state serves operations `K`: each handler is given the execution that calls. */
export type ServedOps<K extends OpName = OpName> = { [P in K]: (execution: ExecutionInfo, ...args: OpArgs<P>) => Served<P> };

/** One operation as a message: `op` and its arguments, for any op. */
export type OpRequest = { [K in OpName]: { op: K; args: OpArgs<K> } }[OpName];

/** The one dispatch from a request to its handler. */
export function serveOp<K extends OpName>(ops: ServedOps, execution: ExecutionInfo, request: { op: K; args: OpArgs<K> }): Served<K> {
  const handler: ServedOps[K] = ops[request.op];
  return handler(execution, ...request.args);
}

/**
 * `HostOps` for facades, made from one function that carries a request to the state and returns its
 * answer (directly on the main thread, by Atomics RPC from a worker). The answer is the state's
 * `Served` result for that very request, so this edge, where a message's name picks its type, is the
 * only place the result is taken on trust.
 */
export function hostOpsClient(send: (request: OpRequest) => unknown): HostOps {
  return new Proxy({} as HostOps, {
    // Only operation names are properties; a symbol (an inspector's hook) is not an operation.
    get: (_target, op) => (typeof op === 'string' ? (...args: unknown[]) => send({ op, args } as OpRequest) : undefined),
  });
}
