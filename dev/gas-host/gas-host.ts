/**
 * createGasHost: runs a built Apps Script bundle (dist/Code.js) in Node with local services, as the
 * engine of end-to-end tests and of the playground. Single executions (`call`, `evaluateFormula`,
 * trigger runs) run synchronously on the calling thread. `recalculate` runs many custom-function
 * executions truly at once, each in a worker thread with its own vm, while properties, caches, locks
 * and the spreadsheet stay here and are reached over a synchronous Atomics RPC, so locks really
 * exclude and identical formulas really race. See README.md in this folder for the facts reproduced.
 */
import path from 'node:path';
import vm from 'node:vm';
import { MessageChannel, Worker } from 'node:worker_threads';
import { formatA1, parseA1, resolveA1 } from './a1-notation';
import type { HostClock } from './clock';
import { createDeployment, type ScriptDeployment } from './deployment';
import { parseFormula, sumOfNumbers } from './formula';
import {
  GasException,
  HostState,
  type CacheEviction,
  toCellValue,
  TRIGGER_RUNTIME_PER_DAY_MS,
  TRIGGER_RUNTIME_QUOTA_MESSAGE,
  URL_FETCH_CALLS_PER_DAY,
  type AuthModeName,
  type CellValue,
  type ExecutionInfo,
  type FetchLogEntry,
  type LogEntry,
  type SheetModel,
  type TriggerRecord,
} from './host-state';
import { runExecution, type Backend, type ExecutionOutcome, type ExecutionRequest, type RuntimeSettings } from './runtime';
import { createSyncFetch } from './sync-fetch';
import { checkWhitelist } from './url-whitelist';
import { buildWorkerFile } from './worker-build';
import type { WorkerReply } from './execution-worker';

export const EXECUTION_LIMIT_MS = 6 * 60_000;
export const CUSTOM_FUNCTION_LIMIT_MS = 30_000;

export interface GasHostOptions {
  /**
   * The add-on this document belongs to: hosts on one deployment share its clock, script and user
   * state, triggers and locks (deployment.ts); give each its own `documentId`. When given, `clock`,
   * `startTime` and `onTimeAdvance` are the deployment's. Default: a deployment of this host's own.
   */
  deployment?: ScriptDeployment;
  /** The spreadsheet owner (whose user properties custom functions see). Default owner@example.com. */
  owner?: string;
  /** The user of executions that do not name one. Default: the owner. */
  activeUser?: string;
  documentId?: string;
  spreadsheetName?: string;
  /** The spreadsheet's time zone (getSpreadsheetTimeZone). Default America/New_York. */
  timeZone?: string;
  /** The script's time zone (Session.getScriptTimeZone). Default: the spreadsheet's. */
  scriptTimeZone?: string;
  sheets?: string[];
  maxRows?: number;
  maxColumns?: number;
  /** File name -> HTML content, for HtmlService.createHtmlOutputFromFile ('sidebar' -> dist/sidebar.html). */
  htmlFiles?: Record<string, string>;
  /** 'real' (default) or 'virtual': virtual time moves only by Utilities.sleep and advanceTime. */
  clock?: 'real' | 'virtual';
  /** Start of virtual time; default now. */
  startTime?: Date | number;
  /**
   * Virtual clock: called on the main thread each time virtual time moves (Utilities.sleep of an
   * execution on the calling thread, advanceTime), with the milliseconds it moved. Tests use it to move
   * another clock in step, for example a frozen emulator clock. Not called for sleeps inside workers.
   */
  onTimeAdvance?: (ms: number) => void;
  addOnName?: string;
  /** Apply the Editor add-on trigger rules (default true). */
  isAddOn?: boolean;
  executionLimitMs?: number;
  customFunctionLimitMs?: number;
  /** Per-request UrlFetchApp timeout (default 60 s, Apps Script's observed limit). */
  fetchTimeoutMs?: number;
  /** Execution worker threads for recalculate (Apps Script allows 30 simultaneous executions per user). */
  concurrency?: number;
  /**
   * The project's manifest (appsscript.json, parsed). Its urlFetchWhitelist is enforced for every
   * address but loopback ones; without it, or without that field, any address may be fetched.
   */
  manifest?: { urlFetchWhitelist?: unknown[] } & Record<string, unknown>;
  /** URL Fetch calls a user may make in 24 hours; default 20,000 (consumer accounts). */
  urlFetchCallsPerDay?: number;
  /** Trigger runtime a user has in 24 hours; default 90 minutes (consumer accounts). */
  triggerRuntimePerDayMs?: number;
  /** What a full cache (1,000 items) drops: 'expiry' (default, Google's reference) or 'fifo' (what an experiment saw). */
  cacheEviction?: CacheEviction;
}

export interface CallOptions {
  authMode?: AuthModeName;
  user?: string;
  /** Override the execution time limit (ms). */
  limitMs?: number;
}

export interface CellRef {
  sheet?: string;
  a1: string;
}

export interface FormulaResult {
  sheet: string;
  a1: string;
  /** The top-left value (what the cell shows; '#ERROR!' etc. on failure). */
  value: CellValue;
  /** The whole result as a grid (a scalar result is [[value]]). */
  values: CellValue[][];
  /** The message shown in the cell's error note, for #ERROR!, #NAME? and #REF!. */
  error?: string;
  executionId?: number;
}

export interface TriggerRun {
  triggerId: string;
  handlerFunction: string;
  user: string;
  ok: boolean;
  error?: string;
}

/** An error thrown by the script (or by a service inside it), carried out of the vm. */
export class GasScriptError extends Error {
  readonly gasName: string;
  readonly exceededTime: boolean;
  constructor(outcome: ExecutionOutcome) {
    super(outcome.error?.message ?? 'unknown script error');
    this.name = 'GasScriptError';
    this.gasName = outcome.error?.name ?? 'Error';
    this.exceededTime = outcome.exceededTime === true;
    if (outcome.error?.stack) this.stack = `${this.gasName}: ${this.message}\n${outcome.error.stack.split('\n').slice(1).join('\n')}`;
  }
}

interface PooledWorker {
  worker: Worker;
  busy: boolean;
  replyPort: MessageChannel['port1'];
  signal: Int32Array;
}

export class GasHost {
  readonly state: HostState;
  readonly clock: HostClock;
  readonly deployment: ScriptDeployment;
  private readonly options: Required<Pick<GasHostOptions, 'owner' | 'activeUser' | 'executionLimitMs' | 'customFunctionLimitMs' | 'concurrency'>>;
  private readonly settings: RuntimeSettings;
  private code: string | undefined;
  private script: vm.Script | undefined;
  private pool: PooledWorker[] = [];
  private readonly pending = new Map<number, { resolve: (o: ExecutionOutcome) => void; info: ExecutionInfo }>();

  constructor(options: GasHostOptions = {}) {
    const owner = options.owner ?? 'owner@example.com';
    this.deployment = options.deployment ?? createDeployment(options);
    this.clock = this.deployment.clock;
    const timeZone = options.timeZone ?? 'America/New_York';
    const syncFetch = createSyncFetch();
    this.state = new HostState({
      deployment: this.deployment,
      owner,
      documentId: options.documentId ?? 'gas-host-spreadsheet',
      spreadsheetName: options.spreadsheetName ?? 'Untitled spreadsheet',
      timeZone,
      scriptTimeZone: options.scriptTimeZone ?? timeZone,
      htmlFiles: options.htmlFiles ?? {},
      isAddOn: options.isAddOn ?? true,
      sheetNames: options.sheets ?? ['Sheet1'],
      maxRows: options.maxRows ?? 1000,
      maxColumns: options.maxColumns ?? 26,
      cacheEviction: options.cacheEviction ?? 'expiry',
      syncFetchAll: (requests) => syncFetch.fetchAllSettled(requests),
      ...(options.manifest?.urlFetchWhitelist ? { urlFetchWhitelist: checkWhitelist(options.manifest.urlFetchWhitelist) } : {}),
      urlFetchCallsPerDay: options.urlFetchCallsPerDay ?? URL_FETCH_CALLS_PER_DAY,
      triggerRuntimePerDayMs: options.triggerRuntimePerDayMs ?? TRIGGER_RUNTIME_PER_DAY_MS,
    });
    this.options = {
      owner,
      activeUser: options.activeUser ?? owner,
      executionLimitMs: options.executionLimitMs ?? EXECUTION_LIMIT_MS,
      customFunctionLimitMs: options.customFunctionLimitMs ?? CUSTOM_FUNCTION_LIMIT_MS,
      concurrency: Math.max(1, options.concurrency ?? 10),
    };
    this.settings = { addOnName: options.addOnName ?? 'Engage for Sheets', fetchTimeoutMs: options.fetchTimeoutMs ?? 60_000, urlLengthLimit: 2048 };
  }

  // ---------------------------------------------------------------- loading and calling

  /**
   * Loads a bundle and runs its top level once in `authMode` (NONE by default, as for onOpen in a
   * document where the add-on is not yet authorised): a bundle touching a service at module scope fails here.
   */
  load(code: string, options: CallOptions = {}): void {
    this.code = code;
    this.script = new vm.Script(code, { filename: 'Code.js' });
    void this.closeWorkers();
    const outcome = this.execute(undefined, [], { authMode: 'NONE', ...options });
    if (!outcome.ok) throw new GasScriptError(outcome);
  }

  /** Runs a top-level function as one execution; returns its value or throws GasScriptError. */
  call(functionName: string, args: unknown[] = [], options: CallOptions = {}): unknown {
    const outcome = this.run(functionName, args, options);
    if (!outcome.ok) throw new GasScriptError(outcome);
    return outcome.value;
  }

  /** Like call, but returns the outcome (ok, value, error, exceededTime, logText) instead of throwing. */
  run(functionName: string, args: unknown[] = [], options: CallOptions = {}): ExecutionOutcome {
    return this.execute(functionName, args, { authMode: 'FULL', ...options });
  }

  /** Opens the document: runs onOpen({ authMode }) as Sheets does (LIMITED by default). */
  open(options: CallOptions = {}): ExecutionOutcome {
    const authMode = options.authMode ?? 'LIMITED';
    return this.execute('onOpen', [{ authMode, user: options.user ?? this.options.activeUser, source: {} }], { ...options, authMode });
  }

  private newExecution(functionName: string | undefined, options: CallOptions, async: boolean): ExecutionInfo {
    if (!this.script) throw new Error('gas-host: load(code) first');
    const authMode = options.authMode ?? 'FULL';
    const limit = options.limitMs ?? (authMode === 'CUSTOM_FUNCTION' ? this.options.customFunctionLimitMs : this.options.executionLimitMs);
    const startedAt = this.clock.now();
    const info: ExecutionInfo = {
      id: this.deployment.nextExecutionId(),
      user: options.user ?? this.options.activeUser,
      authMode,
      functionName: functionName ?? '(top level)',
      startedAt,
      deadline: startedAt + limit,
      async,
    };
    this.state.beginExecution(info);
    return info;
  }

  private requestFor(info: ExecutionInfo, functionName: string | undefined, args: unknown[], caseInsensitive = false): ExecutionRequest {
    return { executionId: info.id, functionName, args, authMode: info.authMode, user: info.user, startedAt: info.startedAt, deadline: info.deadline, caseInsensitive };
  }

  private execute(functionName: string | undefined, args: unknown[], options: CallOptions, caseInsensitive = false): ExecutionOutcome & { executionId: number } {
    const info = this.newExecution(functionName, options, false);
    const backend: Backend = {
      call: (op, ...opArgs) => {
        const result = this.state.handle(info, op, opArgs);
        if (result instanceof Promise) throw new Error(`gas-host: op ${op} cannot wait on the main thread`);
        return result;
      },
    };
    try {
      return { ...runExecution(this.script!, this.clock, backend, this.settings, this.requestFor(info, functionName, args, caseInsensitive)), executionId: info.id };
    } finally {
      this.state.endExecution(info.id);
    }
  }

  // ---------------------------------------------------------------- the spreadsheet from outside

  private sheetOf(name?: string): SheetModel {
    const sheet = name === undefined ? this.state.sheetById(this.state.activeSheetId) : this.state.sheetByName(name);
    if (!sheet) throw new Error(`gas-host: no sheet named ${name}`);
    return sheet;
  }

  private cellAt(ref: CellRef): { sheet: SheetModel; row: number; column: number } {
    const parsed = parseA1(ref.a1);
    const sheet = this.sheetOf(ref.sheet ?? parsed?.sheetName);
    if (!parsed) throw new Error(`gas-host: bad A1 notation ${ref.a1}`);
    const box = resolveA1(parsed, sheet.maxRows, sheet.maxColumns);
    return { sheet, row: box.row, column: box.column };
  }

  /** Types into a cell as a user would ("=F(A1)" becomes a formula, "'=x" text); dependents become dirty. */
  setCell(sheet: string | undefined, a1: string, input: unknown): void {
    const at = this.cellAt({ sheet, a1 });
    this.state.writeInput(at.sheet, at.row, at.column, input);
  }

  /** What a cell holds: its value (formula result or spilled value), formula, error note and formats. */
  getCell(sheet: string | undefined, a1: string): { value: CellValue; formula: string; error?: string; note: string; numberFormat?: string } {
    const at = this.cellAt({ sheet, a1 });
    const record = this.state.cell(at.sheet, at.row, at.column);
    return { value: record?.value ?? '', formula: record?.formula ?? '', error: record?.error, note: record?.note ?? '', numberFormat: record?.numberFormat };
  }

  /** Selects a cell or range as a user does: getActiveRange/getActiveCell/getCurrentCell return it. */
  setActiveRange(sheet: string | undefined, a1: string): void {
    const target = this.sheetOf(sheet);
    this.state.activeRange = this.state.resolveRange(a1, target.id);
    this.state.activeSheetId = target.id;
  }

  /** A block of values, as Range.getValues would return them; without `a1`, the sheet's whole grid. */
  getValues(sheet: string | undefined, a1?: string): CellValue[][] {
    const target = this.sheetOf(sheet);
    if (a1 === undefined) return this.state.readValues({ sheetId: target.id, row: 1, column: 1, numRows: target.maxRows, numColumns: target.maxColumns });
    return this.state.readValues(this.state.resolveRange(a1, target.id));
  }

  // ---------------------------------------------------------------- custom functions

  private formulaCall(sheet: SheetModel, row: number, column: number): { functionName: string; args: unknown[] } | { error: string; errorCode: string } | { values: CellValue[][] } {
    const formula = this.state.cell(sheet, row, column)?.formula;
    if (!formula) return { error: 'The cell has no formula.', errorCode: '#ERROR!' };
    // A formula that is only numbers added and subtracted (`=2026-11-01`, which is 2014) needs no script.
    const sum = sumOfNumbers(formula.slice(1));
    if (sum !== undefined) return { values: [[sum]] };
    const parsed = parseFormula(formula);
    if (!parsed) return { error: 'Formula parse error.', errorCode: '#ERROR!' };
    if (parsed.functionName.endsWith('_')) return { error: `Unknown function: '${parsed.functionName}'.`, errorCode: '#NAME?' };
    const args = parsed.args.map((arg) => {
      if (arg.kind === 'omitted') return undefined;
      if (arg.kind === 'literal') return arg.value;
      if (arg.kind === 'name') {
        const named = this.state.namedRanges.get(arg.name);
        if (!named) return '#NAME?';
        const values = this.state.readValues(named);
        return named.numRows === 1 && named.numColumns === 1 ? values[0]![0] : values;
      }
      const source = arg.ref.sheetName !== undefined ? this.state.sheetByName(arg.ref.sheetName) : sheet;
      if (!source) return '#REF!';
      const box = resolveA1(arg.ref, source.maxRows, source.maxColumns);
      const values = this.state.readValues({ sheetId: source.id, ...box });
      // A one-cell reference or range arrives as its value; a larger range as a 2D array.
      return box.numRows === 1 && box.numColumns === 1 ? values[0]![0] : values;
    });
    return { functionName: parsed.functionName, args };
  }

  private resultGrid(outcome: ExecutionOutcome): { values?: CellValue[][]; error?: string; errorCode?: string } {
    if (outcome.functionNotFound) return { error: `Unknown function: '${/Script function not found: (.*)$/.exec(outcome.error?.message ?? '')?.[1] ?? ''}'.`, errorCode: '#NAME?' };
    if (!outcome.ok) return { error: outcome.error?.message ?? 'Error', errorCode: '#ERROR!' };
    const value = outcome.value;
    if (Array.isArray(value)) {
      if (value.length === 0) return { values: [['']] };
      // A 1-D array fills down a column.
      return { values: value.map((row) => (Array.isArray(row) ? row.map(toCellValue) : [toCellValue(row)])) };
    }
    return { values: [[toCellValue(value)]] };
  }

  private applyResult(sheet: SheetModel, row: number, column: number, grid: ReturnType<GasHost['resultGrid']>, executionId?: number): FormulaResult {
    this.state.writeFormulaResult(sheet, row, column, grid);
    const record = this.state.cell(sheet, row, column);
    const value = record?.value ?? '';
    return {
      sheet: sheet.name,
      a1: formatA1({ row, column, numRows: 1, numColumns: 1 }),
      value,
      values: grid.values && !record?.error ? grid.values : [[value]],
      error: record?.error,
      executionId,
    };
  }

  /**
   * Evaluates a custom-function cell now, as one CUSTOM_FUNCTION execution (30 s limit). With
   * `formula`, first types it into the cell. The result is written (spilled) into the sheet.
   */
  evaluateFormula(sheet: string | undefined, a1: string, formula?: string, options: { user?: string } = {}): FormulaResult {
    const at = this.cellAt({ sheet, a1 });
    if (formula !== undefined) this.state.writeFormula(at.sheet, at.row, at.column, formula);
    const planned = this.formulaCall(at.sheet, at.row, at.column);
    if (!('functionName' in planned)) return this.applyResult(at.sheet, at.row, at.column, planned);
    const outcome = this.execute(planned.functionName, planned.args, { authMode: 'CUSTOM_FUNCTION', user: options.user }, true);
    return this.applyResult(at.sheet, at.row, at.column, this.resultGrid(outcome), outcome.executionId);
  }

  /**
   * Recalculates formula cells concurrently, one CUSTOM_FUNCTION execution per cell, each in a worker
   * thread (up to `concurrency` at once) sharing this host's cache, properties, locks and sheet.
   * Without `cells`, recalculates every formula whose text or referenced cells changed.
   */
  async recalculate(cells?: CellRef[], options: { user?: string } = {}): Promise<FormulaResult[]> {
    const targets = cells ? cells.map((ref) => this.cellAt(ref)) : this.state.dirtyFormulaCells();
    const planned = targets.map((t) => ({ ...t, plan: this.formulaCall(t.sheet, t.row, t.column) }));
    const results: FormulaResult[] = new Array(planned.length);
    await Promise.all(
      planned.map(async (p, index) => {
        if (!('functionName' in p.plan)) {
          results[index] = this.applyResult(p.sheet, p.row, p.column, p.plan);
          return;
        }
        const info = this.newExecution(p.plan.functionName, { authMode: 'CUSTOM_FUNCTION', user: options.user }, true);
        const outcome = await this.runInWorker(info, this.requestFor(info, p.plan.functionName, p.plan.args, true));
        results[index] = this.applyResult(p.sheet, p.row, p.column, this.resultGrid(outcome), info.id);
      }),
    );
    return results;
  }

  /** Runs any function in a worker (for concurrency tests of non-formula code). */
  async callConcurrently(calls: Array<{ functionName: string; args?: unknown[]; options?: CallOptions }>): Promise<ExecutionOutcome[]> {
    return Promise.all(
      calls.map((c) => {
        const info = this.newExecution(c.functionName, { authMode: 'FULL', ...c.options }, true);
        return this.runInWorker(info, this.requestFor(info, c.functionName, c.args ?? []));
      }),
    );
  }

  // ---------------------------------------------------------------- worker pool

  private startWorker(): PooledWorker {
    const file = buildWorkerFile(path.join(__dirname, 'execution-worker.ts'));
    const channel = new MessageChannel();
    const signalBuffer = new SharedArrayBuffer(4);
    const worker = new Worker(file, {
      workerData: { code: this.code, clock: this.clock.descriptor(), settings: this.settings, signal: signalBuffer, replyPort: channel.port2 },
      transferList: [channel.port2],
      // The built worker is plain CommonJS: do not inherit a TypeScript loader (tsx) that would slow every start.
      execArgv: [],
    });
    const pooled: PooledWorker = { worker, busy: false, replyPort: channel.port1, signal: new Int32Array(signalBuffer) };
    worker.on('message', (message: { type: string; executionId: number; op?: string; args?: unknown[]; outcome?: ExecutionOutcome }) => {
      if (message.type === 'rpc') void this.serveRpc(pooled, message.executionId, message.op!, message.args!);
      else if (message.type === 'done') {
        const waiting = this.pending.get(message.executionId);
        this.pending.delete(message.executionId);
        this.state.endExecution(message.executionId);
        pooled.busy = false;
        // An idle worker must not keep the process alive; a busy one must.
        pooled.worker.unref();
        waiting?.resolve(message.outcome!);
        this.dispatch();
      }
    });
    worker.on('error', (error) => {
      for (const [id, waiting] of this.pending) {
        if (this.assigned.get(id) === pooled) {
          this.pending.delete(id);
          this.state.endExecution(id);
          waiting.resolve({ ok: false, logText: '', error: { name: 'Error', message: `gas-host worker crashed: ${error.message}` } });
        }
      }
    });
    worker.unref();
    channel.port1.unref();
    this.pool.push(pooled);
    return pooled;
  }

  private async serveRpc(pooled: PooledWorker, executionId: number, op: string, args: unknown[]): Promise<void> {
    const info = this.state.executions.get(executionId);
    let reply: WorkerReply;
    try {
      if (!info) throw new Error(`gas-host: unknown execution ${executionId}`);
      reply = { result: await this.state.handle(info, op, args) };
    } catch (error) {
      const e = error as { name?: string; message?: string };
      reply = { error: { name: error instanceof GasException ? e.name! : e.name ?? 'Error', message: e.message ?? String(error) } };
    }
    pooled.replyPort.postMessage(reply);
    Atomics.store(pooled.signal, 0, 1);
    Atomics.notify(pooled.signal, 0);
  }

  private readonly queue: Array<{ request: ExecutionRequest }> = [];
  private readonly assigned = new Map<number, PooledWorker>();

  private runInWorker(info: ExecutionInfo, request: ExecutionRequest): Promise<ExecutionOutcome> {
    return new Promise((resolve) => {
      this.pending.set(info.id, { resolve, info });
      this.queue.push({ request });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let idle = this.pool.find((w) => !w.busy);
      if (!idle && this.pool.length < this.options.concurrency) idle = this.startWorker();
      if (!idle) return;
      const { request } = this.queue.shift()!;
      const info = this.state.executions.get(request.executionId);
      if (info) {
        // Queued time counts: Apps Script's clock starts when the execution starts, so restart it here.
        const limit = info.deadline - info.startedAt;
        info.startedAt = this.clock.now();
        info.deadline = info.startedAt + limit;
        request.startedAt = info.startedAt;
        request.deadline = info.deadline;
      }
      idle.busy = true;
      idle.worker.ref();
      this.assigned.set(request.executionId, idle);
      idle.worker.postMessage({ type: 'run', request });
    }
  }

  private async closeWorkers(): Promise<void> {
    const workers = this.pool;
    this.pool = [];
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  /** Stops the execution workers. Call it in afterAll. */
  async close(): Promise<void> {
    await this.closeWorkers();
  }

  // ---------------------------------------------------------------- triggers and time

  /** This document's triggers. */
  get triggers(): readonly TriggerRecord[] {
    return this.state.triggers.filter((t) => t.documentId === this.state.options.documentId);
  }

  /**
   * Runs every time-driven trigger of this document that is due on the host clock, each as its creator in FULL mode.
   * Each run spends its creator's daily trigger runtime: a run finding none left fails at once with
   * Apps Script's message, and a run may last no longer than what is left (then it ends as one that
   * outlives its time limit does; UNCONFIRMED: Apps Script may say the quota message instead).
   */
  runDueTriggers(): TriggerRun[] {
    const now = this.clock.now();
    const due = this.triggers.filter((t) => t.eventType === 'CLOCK' && t.nextRunAt !== undefined && t.nextRunAt <= now);
    const runs: TriggerRun[] = [];
    for (const trigger of due) {
      if (trigger.intervalMs) {
        // Missed runs are not caught up: the next one is one interval after the latest due time.
        while (trigger.nextRunAt! <= now) trigger.nextRunAt! += trigger.intervalMs;
      } else {
        this.state.triggers.splice(this.state.triggers.indexOf(trigger), 1);
      }
      const at = new Date(now);
      const event = {
        authMode: 'FULL',
        triggerUid: trigger.id,
        year: at.getUTCFullYear(),
        month: at.getUTCMonth() + 1,
        'day-of-month': at.getUTCDate(),
        hour: at.getUTCHours(),
        minute: at.getUTCMinutes(),
        second: at.getUTCSeconds(),
        timezone: 'UTC',
      };
      const leftMs = this.state.dailyLimit('triggerRuntime') - this.state.dailyUse(trigger.user, 'triggerRuntime').used;
      if (leftMs <= 0) {
        runs.push({ triggerId: trigger.id, handlerFunction: trigger.handlerFunction, user: trigger.user, ok: false, error: TRIGGER_RUNTIME_QUOTA_MESSAGE });
        continue;
      }
      const startedAt = this.clock.now();
      const outcome = this.execute(trigger.handlerFunction, [event], { authMode: 'FULL', user: trigger.user, limitMs: Math.min(this.options.executionLimitMs, leftMs) });
      this.state.spendDaily(trigger.user, 'triggerRuntime', this.clock.now() - startedAt);
      runs.push({ triggerId: trigger.id, handlerFunction: trigger.handlerFunction, user: trigger.user, ok: outcome.ok, error: outcome.error?.message });
    }
    return runs;
  }

  /** Virtual clock: moves time forward by `ms`, running this document's triggers at the moments they fall due. */
  advanceTime(ms: number): TriggerRun[] {
    const target = this.clock.now() + ms;
    const runs: TriggerRun[] = [];
    for (;;) {
      const next = this.triggers
        .filter((t) => t.eventType === 'CLOCK' && t.nextRunAt !== undefined && t.nextRunAt <= target)
        .reduce<number | undefined>((min, t) => (min === undefined || t.nextRunAt! < min ? t.nextRunAt : min), undefined);
      if (next === undefined) break;
      if (next > this.clock.now()) this.clock.advance(next - this.clock.now());
      runs.push(...this.runDueTriggers());
    }
    if (target > this.clock.now()) this.clock.advance(target - this.clock.now());
    return runs;
  }

  now(): Date {
    return new Date(this.clock.now());
  }

  // ---------------------------------------------------------------- observations for tests

  get counters(): Record<string, number> {
    return this.state.counters;
  }

  resetCounters(): void {
    for (const key of Object.keys(this.state.counters)) delete this.state.counters[key];
  }

  get logs(): readonly LogEntry[] {
    return this.state.logs;
  }

  /** Everything Logger and console printed, one line per entry (for "no secret in the logs" checks). */
  logText(): string {
    return this.state.logs.map((l) => l.text).join('\n');
  }

  get fetchLog(): readonly FetchLogEntry[] {
    return this.state.fetchLog;
  }

  /** The requests sent to one host ("127.0.0.1:8080"). */
  requestsTo(host: string): FetchLogEntry[] {
    return this.state.fetchLog.filter((entry) => entry.host === host);
  }

  get menus() {
    return this.state.menus;
  }

  get sidebars() {
    return this.state.sidebars;
  }

  get alerts() {
    return this.state.alerts;
  }

  get mails() {
    return this.state.mails;
  }

  /** A property store, for arranging and asserting (user defaults to the owner). */
  properties(scope: 'user' | 'document' | 'script', user?: string): Map<string, string> {
    return this.state.propertiesOf(scope, user);
  }

  /** Drops cache entries, as Apps Script may at any time. Without keys, empties that cache. */
  evictCache(scope: 'user' | 'document' | 'script', keys?: string[], user?: string): void {
    this.state.evictCache(scope, keys, user);
  }
}

export function createGasHost(options: GasHostOptions = {}): GasHost {
  return new GasHost(options);
}
