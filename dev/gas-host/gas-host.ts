/**
 * createGasHost: runs a built Apps Script bundle (dist/Code.js) in Node with local services, as the
 * engine of end-to-end tests and of the playground. Single executions (`call`, `evaluateFormula`,
 * trigger runs) run synchronously on the calling thread. `recalculate` runs many custom-function
 * executions truly at once, each in a worker thread with its own vm (worker-pool.ts), while the state
 * stays here (host-state.ts) and is reached over a synchronous Atomics RPC, so locks really exclude
 * and identical formulas really race. See README.md in this folder for the facts reproduced.
 */
import vm from 'node:vm';
import { formatA1, parseA1, resolveA1 } from './cells/a1-notation';
import type { HostClock } from '../shared/clock';
import type { ScriptDeployment } from './deployment';
import { applyFormulaOutcome, formulaOutcome, type FormulaResult, type FormulaRules, planFormulaCall } from './formulas/formula-cells';
import { customFunctionNames, typeableAsFormula } from './formulas/formula-functions';
import { HostState, type LogEntry } from './host-state';
import { resolveHostOptions, SIMPLE_TRIGGER_LIMIT_MS, type CallOptions, type GasHostOptions, type ResolvedHostOptions } from './options';
import { hostOpsClient, type CellValue, type ExecutionInfo, type TriggerRecord } from './protocol/protocol';
import type { ExecutionOutcome, ExecutionRequest } from './protocol/execution';
import { runExecution } from './executions/runtime';
import { TOO_MANY_EXECUTIONS_MESSAGE, type ExecutionsAtOnceView } from './state/executions';
import { TRIGGER_RUNTIME_QUOTA_MESSAGE } from './state/quotas';
import type { CellRecord, SheetModel } from './state/spreadsheets/spreadsheet';
import type { FetchLogEntry } from './state/url-fetch';
import type { StrictSettings } from './protocol/strict';
import { ExecutionPool } from './executions/worker-pool';

export { CUSTOM_FUNCTION_LIMIT_MS, EXECUTION_LIMIT_MS, SIMPLE_TRIGGER_LIMIT_MS } from './options';
export type { CallOptions, GasHostOptions } from './options';
export type { FormulaResult } from './formulas/formula-cells';
export { LOADING_TEXT } from './formulas/formula-cells';

export interface CellRef {
  sheet?: string;
  a1: string;
}

/** One formula cell's execution in a recalculation, for tests and the bench (`host.formulaRuns`). */
export interface FormulaRun {
  sheet: string;
  a1: string;
  executionId: number;
  /** When the recalculation started it: from then it counts as running, waiting for a worker or not. */
  admittedAtMs: number;
  /** When a worker took it (its 30 s count from there); absent when it was refused. */
  startedAtMs?: number;
  endedAtMs: number;
  /** Refused at its start: 30 executions of its user ran already (strict reading). */
  refused: boolean;
  /** The message under #ERROR! (or #NAME?, #REF!), when it failed. */
  error?: string;
}

/** Refused at its start under the strict reading: the execution never ran. */
function refusedOutcome(): ExecutionOutcome {
  return { ok: false, logText: '', error: { name: 'Exception', message: TOO_MANY_EXECUTIONS_MESSAGE } };
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

const formatA1Cell = (row: number, column: number) => formatA1({ row, column, numRows: 1, numColumns: 1 });

export class GasHost {
  readonly state: HostState;
  readonly clock: HostClock;
  readonly deployment: ScriptDeployment;
  /** The reading of Google's rules this host models (strict.ts): each switch on is the stricter one. */
  readonly strict: StrictSettings;
  private readonly options: ResolvedHostOptions;
  /** Every formula execution `recalculate` started (automatic recalculation included), oldest first. */
  readonly formulaRuns: FormulaRun[] = [];
  private readonly pool: ExecutionPool;
  private script: vm.Script | undefined;
  /** Upper-cased names the loaded script declares `@customfunction` (formula-functions.ts). */
  private customFunctions: ReadonlySet<string> = new Set();
  /** Formula cells whose execution runs now: a recalculation of dirty cells leaves them to it. */
  private readonly evaluating = new Set<CellRecord>();
  /** Automatic recalculations under way (autoRecalculate). */
  private readonly automatic = new Set<Promise<unknown>>();

  constructor(options: GasHostOptions = {}) {
    this.options = resolveHostOptions(options);
    this.deployment = this.options.deployment;
    this.strict = this.options.strict;
    this.clock = this.deployment.clock;
    this.state = new HostState(this.options.state);
    this.pool = new ExecutionPool(this.state, this.options.settings, this.options.concurrency);
    this.state.onChangesApplied = (execution, moment) => this.changesApplied(execution, moment);
    for (const [user, scopes] of Object.entries(options.grantedScopes ?? {})) this.state.consent.grant(user, scopes);
  }

  // ---------------------------------------------------------------- loading and calling

  /**
   * Loads a bundle and runs its top level once in `authMode` (NONE by default, as for onOpen in a
   * document where the add-on is not yet authorised): a bundle touching a service at module scope fails here.
   */
  load(code: string, options: CallOptions = {}): void {
    this.script = new vm.Script(code, { filename: 'Code.js' });
    this.customFunctions = customFunctionNames(code);
    this.pool.load(code);
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

  /**
   * Opens the document: runs onOpen({ authMode }) as Sheets does (LIMITED by default), within the 30 s
   * of a simple trigger (Google's "Simple triggers" guide: "They cannot run for longer than 30 seconds").
   */
  open(options: CallOptions = {}): ExecutionOutcome {
    const authMode = options.authMode ?? 'LIMITED';
    return this.execute('onOpen', [{ authMode, user: options.user ?? this.options.activeUser, source: {} }], {
      limitMs: SIMPLE_TRIGGER_LIMIT_MS,
      ...options,
      authMode,
    });
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
      ...(options.trigger ? { trigger: true } : {}),
      ...(options.withoutDocument ? { withoutDocument: true } : {}),
    };
    return info;
  }

  private requestFor(info: ExecutionInfo, functionName: string | undefined, args: unknown[], caseInsensitive = false): ExecutionRequest {
    return {
      executionId: info.id,
      functionName,
      args,
      authMode: info.authMode,
      user: info.user,
      startedAt: info.startedAt,
      deadline: info.deadline,
      caseInsensitive,
      ...(info.trigger ? { trigger: true } : {}),
      ...(info.withoutDocument ? { withoutDocument: true } : {}),
    };
  }

  private execute(
    functionName: string | undefined,
    args: unknown[],
    options: CallOptions,
    caseInsensitive = false,
  ): ExecutionOutcome & { executionId: number } {
    const info = this.newExecution(functionName, options, false);
    if (!this.state.beginExecution(info)) return { ...refusedOutcome(), executionId: info.id };
    const ops = hostOpsClient((request) => {
      const result = this.state.serve(info, request);
      if (result instanceof Promise) throw new Error(`gas-host: op ${request.op} cannot wait on the main thread`);
      return result;
    });
    try {
      return {
        ...runExecution(this.script!, this.clock, ops, this.options.settings, this.requestFor(info, functionName, args, caseInsensitive)),
        executionId: info.id,
      };
    } finally {
      this.state.endExecution(info.id);
    }
  }

  // ---------------------------------------------------------------- the spreadsheet from outside

  private sheetOf(name?: string): SheetModel {
    const { spreadsheet } = this.state;
    const sheet = name === undefined ? spreadsheet.sheetById(spreadsheet.activeSheetId) : spreadsheet.sheetByName(name);
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
    this.state.spreadsheet.writeInput(at.sheet, at.row, at.column, input);
  }

  /** What a cell holds: its value (formula result or spilled value), formula, error note and formats. */
  getCell(
    sheet: string | undefined,
    a1: string,
  ): { value: CellValue; formula: string; error?: string; loading?: true; note: string; numberFormat?: string } {
    const at = this.cellAt({ sheet, a1 });
    const record = this.state.spreadsheet.cell(at.sheet, at.row, at.column);
    return {
      value: record?.value ?? '',
      formula: record?.formula ?? '',
      error: record?.error,
      ...(record?.loading ? { loading: true as const } : {}),
      note: record?.note ?? '',
      numberFormat: record?.numberFormat,
    };
  }

  /** Selects a cell or range as a user does: getActiveRange/getActiveCell/getCurrentCell return it. */
  setActiveRange(sheet: string | undefined, a1: string): void {
    const target = this.sheetOf(sheet);
    this.state.spreadsheet.activeRange = this.state.spreadsheet.resolveRange(a1, target.id);
    this.state.spreadsheet.activeSheetId = target.id;
  }

  /** A block of values, as Range.getValues would return them; without `a1`, the sheet's whole grid. */
  getValues(sheet: string | undefined, a1?: string): CellValue[][] {
    const target = this.sheetOf(sheet);
    const { spreadsheet } = this.state;
    if (a1 === undefined)
      return spreadsheet.readValues({ sheetId: target.id, row: 1, column: 1, numRows: target.maxRows, numColumns: target.maxColumns });
    return spreadsheet.readValues(spreadsheet.resolveRange(a1, target.id));
  }

  // ---------------------------------------------------------------- custom functions

  /** Whether a formula may call a function: any name but a `_` one (strict), or only a `@customfunction` (kind). */
  /** The reading's rules for a formula's arguments, telling the witness where TODAY() is one. */
  private get formulaRules(): FormulaRules {
    return { volatileToday: this.strict.volatileToday, onTodayArgument: () => this.options.readings.differs('volatileToday') };
  }

  private readonly typeable = (functionName: string): boolean => {
    const { readings } = this.options;
    if (readings.listens('anyFunctionAsFormula')) {
      const [kind, strict] = [false, true].map((any) => typeableAsFormula(functionName, any, this.customFunctions));
      if (kind !== strict) readings.differs('anyFunctionAsFormula');
    }
    return typeableAsFormula(functionName, this.strict.anyFunctionAsFormula, this.customFunctions);
  };

  /**
   * Evaluates a custom-function cell now, as one CUSTOM_FUNCTION execution (30 s limit). With
   * `formula`, first types it into the cell. The result is written (spilled) into the sheet.
   */
  evaluateFormula(sheet: string | undefined, a1: string, formula?: string, options: { user?: string } = {}): FormulaResult {
    const at = this.cellAt({ sheet, a1 });
    const model = this.state.spreadsheet;
    if (formula !== undefined) model.writeFormula(at.sheet, at.row, at.column, formula);
    const planned = planFormulaCall(model, at.sheet, at.row, at.column, this.clock.now(), this.formulaRules, this.typeable);
    if (!('functionName' in planned)) return applyFormulaOutcome(model, at.sheet, at.row, at.column, planned);
    const outcome = this.execute(planned.functionName, planned.args, { authMode: 'CUSTOM_FUNCTION', user: options.user }, true);
    return applyFormulaOutcome(model, at.sheet, at.row, at.column, formulaOutcome(outcome), outcome.executionId);
  }

  /**
   * Recalculates formula cells concurrently, one CUSTOM_FUNCTION execution per cell, each in a worker
   * thread (up to `concurrency` at once) sharing this host's cache, properties, locks and sheet.
   * Without `cells`, recalculates every formula whose text or referenced cells changed (but those
   * already computing). Every cell starts at the same moment, as Sheets starts a recalculation: each
   * counts as running from then, waiting for a worker or not, and under the strict reading those past
   * their user's 30 executions at once show #ERROR! with Google's message at once.
   */
  async recalculate(cells?: CellRef[], options: { user?: string } = {}): Promise<FormulaResult[]> {
    const model = this.state.spreadsheet;
    const targets = cells
      ? cells.map((ref) => this.cellAt(ref))
      : model.dirtyFormulaCells().filter((t) => !this.evaluating.has(model.cell(t.sheet, t.row, t.column)!));
    const now = this.clock.now();
    const planned = targets.map((t) => ({
      ...t,
      plan: planFormulaCall(model, t.sheet, t.row, t.column, now, this.formulaRules, this.typeable),
    }));
    return Promise.all(planned.map((p) => this.evaluateInWorker(p, p.plan, options.user)));
  }

  /** One cell of a recalculation: started now (or refused), its result written when it ends. */
  private async evaluateInWorker(
    at: { sheet: SheetModel; row: number; column: number },
    plan: ReturnType<typeof planFormulaCall>,
    user: string | undefined,
  ): Promise<FormulaResult> {
    const model = this.state.spreadsheet;
    if (!('functionName' in plan)) return applyFormulaOutcome(model, at.sheet, at.row, at.column, plan);
    const record = model.cell(at.sheet, at.row, at.column)!;
    // A change to its arguments from now on makes it dirty again, to be computed after this run.
    record.dirty = false;
    const info = this.newExecution(plan.functionName, { authMode: 'CUSTOM_FUNCTION', user }, true);
    const run: FormulaRun = {
      sheet: at.sheet.name,
      a1: formatA1Cell(at.row, at.column),
      executionId: info.id,
      admittedAtMs: info.startedAt,
      endedAtMs: info.startedAt,
      refused: false,
    };
    this.formulaRuns.push(run);
    let outcome: ExecutionOutcome;
    if (!this.state.beginExecution(info)) {
      run.refused = true;
      outcome = refusedOutcome();
    } else {
      this.evaluating.add(record);
      try {
        outcome = await this.pool.run(info, this.requestFor(info, plan.functionName, plan.args, true));
      } finally {
        this.evaluating.delete(record);
      }
      run.startedAtMs = info.startedAt;
    }
    run.endedAtMs = this.clock.now();
    // Read again: its arguments may have changed while it ran (TypeScript still sees the false set above).
    const stillDirty = model.cell(at.sheet, at.row, at.column)?.dirty === true;
    const result = applyFormulaOutcome(model, at.sheet, at.row, at.column, formulaOutcome(outcome), info.id);
    if (stillDirty) record.dirty = true;
    if (result.error !== undefined) run.error = result.error;
    return result;
  }

  /**
   * Automatic recalculation: an execution's cell changes start their formulas when it flushes (in a
   * worker) or ends. An execution on the calling thread cannot overlap its formulas (their workers
   * need this thread to serve them), so only its end starts them.
   */
  private changesApplied(execution: ExecutionInfo, moment: 'flush' | 'end'): void {
    if (!this.options.autoRecalculate || execution.authMode === 'CUSTOM_FUNCTION') return;
    if (moment === 'flush' && !execution.async) return;
    this.recalculateAutomatically(execution.user);
  }

  private recalculateAutomatically(user: string): void {
    const model = this.state.spreadsheet;
    if (!model.dirtyFormulaCells().some((t) => !this.evaluating.has(model.cell(t.sheet, t.row, t.column)!))) return;
    const pass: Promise<unknown> = this.recalculate(undefined, { user }).finally(() => {
      this.automatic.delete(pass);
      // Formulas whose arguments changed while they computed run again.
      this.recalculateAutomatically(user);
    });
    this.automatic.add(pass);
  }

  /** Resolves when no automatic recalculation is under way (autoRecalculate), its follow-ups included. */
  async whenRecalculated(): Promise<void> {
    while (this.automatic.size > 0) await Promise.allSettled([...this.automatic]);
  }

  /** A user's executions at once across the deployment: running now, the peak since `resetExecutionsAtOnce`, and those refused. */
  executionsAtOnce(user = this.options.activeUser): ExecutionsAtOnceView {
    return this.state.executionsAtOnce.view(user);
  }

  /** Starts the peaks and refusals of executions at once afresh (every user). */
  resetExecutionsAtOnce(): void {
    this.state.executionsAtOnce.reset();
  }

  /** Runs any function in a worker (for concurrency tests of non-formula code). */
  async callConcurrently(calls: Array<{ functionName: string; args?: unknown[]; options?: CallOptions }>): Promise<ExecutionOutcome[]> {
    return Promise.all(
      calls.map((c) => {
        const info = this.newExecution(c.functionName, { authMode: 'FULL', ...c.options }, true);
        if (!this.state.beginExecution(info)) return refusedOutcome();
        return this.pool.run(info, this.requestFor(info, c.functionName, c.args ?? []));
      }),
    );
  }

  /** Stops the execution workers. Call it in afterAll. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  // ---------------------------------------------------------------- triggers and time

  /** This document's triggers. */
  get triggers(): readonly TriggerRecord[] {
    return this.state.triggers.ofDocument();
  }

  /**
   * Runs every time-driven trigger of this document that is due on the host clock, each as its creator in FULL mode.
   * Each run spends its creator's daily trigger runtime: a run finding none left fails at once with
   * Apps Script's message, and a run may last no longer than what is left (then it ends as one that
   * outlives its time limit does; UNCONFIRMED: Apps Script may say the quota message instead).
   */
  runDueTriggers(): TriggerRun[] {
    return this.takeDueTriggers().map(({ trigger, event }) =>
      this.runTrigger(trigger, (options) => this.execute(trigger.handlerFunction, [event], options)),
    );
  }

  /**
   * As runDueTriggers, but every due run is an execution in a worker, all started at once: documents of
   * one deployment whose triggers fall due together (`Promise.all` over their hosts) run them at the
   * same time, as Apps Script runs each document's triggers on its own. Each run may last what its
   * user had left when it started, and spends its time when it ends, so overlapping runs of one user
   * are held to the daily runtime only as far as the script keeps itself to it.
   */
  async runDueTriggersConcurrently(): Promise<TriggerRun[]> {
    return Promise.all(
      this.takeDueTriggers().map(({ trigger, event }) =>
        this.runTrigger(trigger, (options) => {
          const info = this.newExecution(trigger.handlerFunction, options, true);
          if (!this.state.beginExecution(info)) return Promise.resolve(refusedOutcome());
          return this.pool.run(info, this.requestFor(info, trigger.handlerFunction, [event]));
        }),
      ),
    );
  }

  /**
   * One due trigger's run within its creator's daily trigger runtime: refused at once when none is
   * left; else `run` executes the handler with the options given (its creator, FULL mode, a limit of
   * what is left), and the time from its start to its end (at once, or when its promise settles) is spent.
   */
  private runTrigger(trigger: TriggerRecord, run: (options: CallOptions) => ExecutionOutcome): TriggerRun;
  private runTrigger(trigger: TriggerRecord, run: (options: CallOptions) => Promise<ExecutionOutcome>): Promise<TriggerRun>;
  private runTrigger(
    trigger: TriggerRecord,
    run: (options: CallOptions) => ExecutionOutcome | Promise<ExecutionOutcome>,
  ): TriggerRun | Promise<TriggerRun> {
    const leftMs = this.state.quotas.left(trigger.user, 'triggerRuntime');
    if (leftMs <= 0) return this.triggerRun(trigger, { ok: false, error: { message: TRIGGER_RUNTIME_QUOTA_MESSAGE } });
    const startedAt = this.clock.now();
    const finish = (outcome: ExecutionOutcome) => {
      this.state.quotas.spendDaily(trigger.user, 'triggerRuntime', this.clock.now() - startedAt);
      return this.triggerRun(trigger, outcome);
    };
    // The strict reading: a time-driven trigger's run has no active document (strict.ts).
    if (trigger.eventType === 'CLOCK') this.options.readings.differs('triggerWithoutDocument');
    const withoutDocument = trigger.eventType === 'CLOCK' && this.strict.triggerWithoutDocument;
    const outcome = run({
      authMode: 'FULL',
      user: trigger.user,
      limitMs: Math.min(this.options.executionLimitMs, leftMs),
      trigger: true,
      ...(withoutDocument ? { withoutDocument } : {}),
    });
    return outcome instanceof Promise ? outcome.then(finish) : finish(outcome);
  }

  /**
   * The due time-driven triggers with their event, each moved on to its next time (a one-off removed).
   * A test deployment (installationSource NONE) runs none of them: test deployments "have limitations such
   * as not supporting installable triggers" (developers.google.com/workspace/add-ons/how-tos/testing-editor-addons).
   * No page says whether creating one fails there; the host takes the harder case for the add-on: it is
   * created, and never runs.
   */
  private takeDueTriggers(): Array<{ trigger: TriggerRecord; event: Record<string, unknown> }> {
    const now = this.clock.now();
    const due = this.triggers.filter((t) => t.eventType === 'CLOCK' && t.nextRunAt !== undefined && t.nextRunAt <= now);
    const taken = due.map((trigger) => {
      if (trigger.intervalMs) {
        // Missed runs are not caught up: the next one is one interval after the latest due time.
        while (trigger.nextRunAt! <= now) trigger.nextRunAt! += trigger.intervalMs;
      } else {
        this.state.triggers.remove(trigger.id);
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
      return { trigger, event };
    });
    // Their times pass all the same in a test deployment, which runs none of them.
    return this.options.settings.installationSource === 'NONE' ? [] : taken;
  }

  private triggerRun(trigger: TriggerRecord, outcome: { ok: boolean; error?: { message: string } }): TriggerRun {
    return {
      triggerId: trigger.id,
      handlerFunction: trigger.handlerFunction,
      user: trigger.user,
      ok: outcome.ok,
      ...(outcome.error ? { error: outcome.error.message } : {}),
    };
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

  // ---------------------------------------------------------------- the document as a file

  /** The document's ID (what `Spreadsheet.getId()` returns and `openById` takes). */
  get documentId(): string {
    return this.state.file.documentId;
  }

  /** Lets `user` open the document (an editor), by ID from other documents too. */
  shareWith(user: string): void {
    this.state.file.removed.delete(user.toLowerCase());
    this.state.file.editors.add(user.toLowerCase());
  }

  /**
   * Takes `user`'s access away: `openById` refuses them, and their triggers in this document are gone
   * (UNCONFIRMED: no page says what becomes of them; the add-on must cope with either answer).
   */
  removeAccess(user: string): void {
    if (user === this.state.file.owner)
      throw new Error('gas-host: the owner cannot lose access to their document (deleteDocument trashes it)');
    this.state.file.editors.delete(user.toLowerCase());
    this.state.file.removed.add(user.toLowerCase());
    this.state.triggers.removeOfDocument(user);
  }

  /**
   * Moves the document to the trash: `openById` and `openByUrl` refuse it for everyone, and its triggers
   * are gone (UNCONFIRMED, as for removeAccess). The host itself goes on serving calls, for tests to look.
   */
  deleteDocument(): void {
    this.state.file.trashed = true;
    this.state.triggers.removeOfDocument();
  }

  // ---------------------------------------------------------------- what users granted

  /**
   * What `user` granted the add-on from now on, in every document of the deployment: the manifest's
   * scopes among `scopes` (a user consenting again, or withholding one). Only the strict reading's
   * `partialConsent` lets a grant be partial (protocol/strict.ts).
   */
  grantScopes(user: string, scopes: readonly string[]): void {
    this.state.consent.grant(user, scopes);
  }

  /** The scopes `user` holds now: null without a manifest (every scope the code needs is granted). */
  grantedScopes(user = this.options.activeUser): string[] | null {
    return this.state.consent.granted(user);
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
    return this.state.urlFetch.log;
  }

  /** The requests sent to one host ("127.0.0.1:8080"). */
  requestsTo(host: string): FetchLogEntry[] {
    return this.state.urlFetch.log.filter((entry) => entry.host === host);
  }

  get menus() {
    return this.state.ui.menus;
  }

  get sidebars() {
    return this.state.ui.sidebars;
  }

  get alerts() {
    return this.state.ui.alerts;
  }

  get mails() {
    return this.state.mail.sent;
  }

  /** A property store, for arranging and asserting (user defaults to the owner). */
  properties(scope: 'user' | 'document' | 'script', user?: string): Map<string, string> {
    return this.state.properties.of(scope, user);
  }

  /** Drops cache entries, as Apps Script may at any time. Without keys, empties that cache. */
  evictCache(scope: 'user' | 'document' | 'script', keys?: string[], user?: string): void {
    this.state.caches.evict(scope, keys, user);
  }
}

export function createGasHost(options: GasHostOptions = {}): GasHost {
  return new GasHost(options);
}
