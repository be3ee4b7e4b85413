/**
 * Everything an Apps Script project shares between executions, kept on the host's main thread and
 * composed of one part per service: property stores, caches with their eviction rule, locks, daily
 * quotas, triggers, the spreadsheet model with its cell cap, UrlFetch with its whitelist, quota and
 * virtual-clock headers, UI and mail recordings; and, kept here, the executions running, their logs
 * and call counters. Each part serves its share of `HostOps` (protocol.ts); facades reach them only
 * through `serve`, directly on the main thread or over the Atomics RPC from execution workers, so
 * limits, the owner rule and lock exclusion are enforced in one place.
 */
import type { HostClock } from '../shared/clock';
import type { ScriptDeployment } from './deployment';
import type { ReadingWitness, StrictSettings } from './protocol/strict';
import type { HostLocale } from './cells/typed-input';
import type { SyncFetchOutcome, SyncFetchRequest } from './fetch/fetch-core';
import {
  GasException,
  serveOp,
  type DataExecutionPlan,
  type DocumentOpRequest,
  type ExecutionInfo,
  type ExecutionOps,
  type LogLevel,
  type LogSource,
  type OpRequest,
  type ServedOps,
} from './protocol/protocol';
import { CacheStores, type CacheEviction } from './state/cache';
import { Consent } from './state/consent';
import { storeUser } from './state/document';
import { ExecutionsAtOnce } from './state/executions';
import { LockTable } from './state/locks';
import { MailOutbox } from './state/mail';
import { PropertyStores } from './state/properties';
import { documentOps, type DocumentFile } from './state/spreadsheets/documents';
import { DailyQuotas } from './state/quotas';
import { DocumentSharing } from './state/spreadsheets/sharing';
import { SpreadsheetModel } from './state/spreadsheets/spreadsheet';
import { spreadsheetOps } from './state/spreadsheets/spreadsheet-ops';
import { TriggerStore } from './state/triggers';
import { UiRecordings } from './state/spreadsheets/ui';
import { UrlFetchState } from './state/url-fetch';

export interface LogEntry {
  executionId: number;
  functionName: string;
  source: LogSource;
  level: LogLevel;
  text: string;
}

export interface HostStateOptions {
  /** What this document shares with every other document of the add-on (deployment.ts), its clock included. */
  deployment: ScriptDeployment;
  owner: string;
  /** Editors besides the owner (Spreadsheet.getEditors), who may open this document by ID from another too. */
  editors: readonly string[];
  /** A file in a shared drive: no owner (Spreadsheet.getOwner() is null). */
  sharedDrive: boolean;
  documentId: string;
  spreadsheetName: string;
  timeZone: string;
  /** The spreadsheet's locale: how the strict reading reads typed text (typed-input.ts). */
  locale: HostLocale;
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
  propertyOperationsPerDay: number;
  /** Email recipients a user may send to in 24 hours (MailApp). */
  mailRecipientsPerDay: number;
  /** The reading of Google's rules modelled where a stricter one is allowed (strict.ts). */
  strict: StrictSettings;
  /** Notes where the reading mattered (strict.ts, ReadingWitness). */
  readings: ReadingWitness;
  /** The manifest's oauthScopes; undefined: no manifest, every scope the code needs is granted. */
  oauthScopes?: string[];
  /** Undefined: the account allows Connected Sheets; else the words insertDataSourceSheet throws. */
  connectedSheetsRefusal?: string;
  /** How the data execution of an inserted data source sheet goes. */
  dataExecutionPlan: DataExecutionPlan;
}

/** The daily quotas, per user across the deployment, with the limits the host was given. */
function dailyQuotasOf(options: HostStateOptions, clock: HostClock): DailyQuotas {
  return new DailyQuotas(
    options.deployment.dailyQuotas,
    {
      urlFetch: options.urlFetchCallsPerDay,
      triggerRuntime: options.triggerRuntimePerDayMs,
      propertyOps: options.propertyOperationsPerDay,
      mailRecipients: options.mailRecipientsPerDay,
    },
    clock,
  );
}

/** The document's spreadsheet, as the host's options shape it. */
function spreadsheetModelOf(options: HostStateOptions, clock: HostClock): SpreadsheetModel {
  return new SpreadsheetModel({
    sheetNames: options.sheetNames,
    maxRows: options.maxRows,
    maxColumns: options.maxColumns,
    timeZone: options.timeZone,
    locale: options.locale,
    textParsedAsTyped: options.strict.textParsedAsTyped,
    readings: options.readings,
    now: () => clock.now(),
    connectedSheetsRefusal: options.connectedSheetsRefusal,
    dataExecutionPlan: options.dataExecutionPlan,
  });
}

/** Operations on the bound document, which an execution without a document cannot reach. */
const DOCUMENT_OP = /^(spreadsheet|sheet|range)[A-Z]/;

export class HostState {
  readonly options: HostStateOptions;
  readonly clock: HostClock;
  /** One per facade method (`Range.setValues`...), plus `Properties.reads`/`writes` and `http.requests`. */
  readonly counters: Record<string, number> = {};
  readonly logs: LogEntry[] = [];
  /** This document's executions running now (admitted, in a worker or waiting for one). */
  readonly executions = new Map<number, ExecutionInfo>();
  /** Each user's executions at once across the deployment, refused past 30 under the strict reading. */
  readonly executionsAtOnce: ExecutionsAtOnce;
  /**
   * Told when an execution flushes (SpreadsheetApp.flush) or ends, on this thread: the host starts the
   * formulas its changes made dirty there, when it recalculates automatically.
   */
  onChangesApplied: ((execution: ExecutionInfo, moment: 'flush' | 'end') => void) | undefined;
  private readonly document: { documentId: string; owner: string };
  readonly properties: PropertyStores;
  readonly caches: CacheStores;
  readonly locks: LockTable;
  /** Daily quotas are per user, whatever the document: kept by the deployment, keyed by user. */
  readonly quotas: DailyQuotas;
  readonly triggers: TriggerStore;
  readonly spreadsheet: SpreadsheetModel;
  /** The owner and the editors. */
  readonly sharing: DocumentSharing;
  readonly urlFetch: UrlFetchState;
  readonly ui: UiRecordings;
  readonly mail: MailOutbox;
  /** What each user granted: per user across the deployment (`consent.grant(user, scopes)` changes it). */
  readonly consent: Consent;
  /** This document as a file of the deployment: who may open it, whether it is in the trash. */
  readonly file: DocumentFile;
  /** Every operation of `HostOps`, each served by the part that owns its state. */
  readonly ops: ServedOps;

  constructor(options: HostStateOptions) {
    this.options = options;
    const { deployment } = options;
    const clock = (this.clock = deployment.clock);
    const document = (this.document = { documentId: options.documentId, owner: options.owner });
    this.executionsAtOnce = new ExecutionsAtOnce(deployment.executionsAtOnce, options.strict.executionsPerUserLimit, options.readings);
    const count = (name: string, by?: number) => this.count(name, by);
    this.quotas = dailyQuotasOf(options, clock);
    this.properties = new PropertyStores(deployment, document, count, this.quotas);
    this.caches = new CacheStores(deployment.caches, document, options.cacheEviction, clock);
    this.locks = new LockTable(deployment, document, clock);
    this.triggers = new TriggerStore(
      deployment.triggers,
      document,
      { isAddOn: options.isAddOn, scriptTimeZone: options.scriptTimeZone },
      clock,
      deployment.nextTriggerId,
    );
    this.spreadsheet = spreadsheetModelOf(options, clock);
    const whitelist = options.urlFetchWhitelist ? { urlFetchWhitelist: options.urlFetchWhitelist } : {};
    this.urlFetch = new UrlFetchState({ syncFetchAll: options.syncFetchAll, ...whitelist }, document, this.quotas, clock, count);
    this.ui = new UiRecordings(options.htmlFiles);
    this.mail = new MailOutbox(document, this.quotas);
    this.consent = new Consent(deployment, document, options.oauthScopes, options.strict.partialConsent, options.readings);
    const ownOps = spreadsheetOps(
      this.spreadsheet,
      {
        documentId: options.documentId,
        spreadsheetName: options.spreadsheetName,
        owner: options.owner,
        scriptTimeZone: options.scriptTimeZone,
      },
      (execution) => this.onChangesApplied?.(execution, 'flush'),
    );
    if (deployment.documents.has(options.documentId)) {
      throw new Error(`gas-host: the deployment already has a document ${options.documentId}: give each host its own documentId`);
    }
    this.file = {
      documentId: options.documentId,
      owner: options.owner,
      editors: new Set(options.editors),
      removed: new Set(),
      trashed: false,
      serve: (execution, request: DocumentOpRequest) => serveOp({ ...ownOps, ...this.sharing.ops } as ServedOps, execution, request),
    };
    deployment.documents.set(options.documentId, this.file);
    // Who may edit is one list: the file's, which openById checks and getEditors shows.
    this.sharing = new DocumentSharing({ owner: options.owner, sharedDrive: options.sharedDrive, file: this.file });
    this.ops = {
      ...this.executionOps(),
      ...this.properties.ops,
      ...this.caches.ops,
      ...this.locks.ops,
      ...this.triggers.ops,
      ...ownOps,
      ...this.sharing.ops,
      ...documentOps(deployment.documents, options.oauthScopes),
      ...this.urlFetch.ops,
      ...this.ui.ops,
      ...this.mail.ops,
      ...this.consent.ops,
    };
  }

  /** An execution's log lines and its calls counted. */
  private executionOps(): ServedOps<keyof ExecutionOps> {
    return {
      logWrite: (execution, source, level, text) => {
        this.logs.push({ executionId: execution.id, functionName: execution.functionName, source, level, text });
      },
      countCalls: (_execution, counts) => {
        for (const [name, n] of Object.entries(counts)) this.count(name, n);
      },
    };
  }

  count(name: string, by = 1): void {
    this.counters[name] = (this.counters[name] ?? 0) + by;
  }

  /**
   * Starts an execution: counted against its user (a custom function's against the owner) among the
   * executions at once; false, and nothing started, when the strict reading refuses it (30 run already).
   * A user who runs something in the document has it open: they may open it by ID too, unless their
   * access was removed.
   */
  beginExecution(info: ExecutionInfo): boolean {
    if (!this.executionsAtOnce.admit(info.id, storeUser(this.document, info))) return false;
    this.executions.set(info.id, info);
    const user = info.user.toLowerCase();
    if (user !== this.file.owner.toLowerCase() && !this.file.removed.has(user)) this.file.editors.add(user);
    return true;
  }

  /** Releases whatever the execution still holds, as Apps Script does when an execution ends. */
  endExecution(executionId: number): void {
    const info = this.executions.get(executionId);
    this.locks.releaseAll(executionId);
    this.executions.delete(executionId);
    this.executionsAtOnce.end(executionId);
    if (info) this.onChangesApplied?.(info, 'end');
  }

  /** Serves one facade request. Returns a Promise only for a waiting operation of an execution in a worker. */
  serve(execution: ExecutionInfo, request: OpRequest): unknown {
    if (execution.withoutDocument && this.reachesDocument(request)) {
      throw new GasException(`gas-host: ${request.op} reached the bound document from an execution without one`);
    }
    return serveOp(this.ops, execution, request);
  }

  /** Whether an operation reaches the bound document (its sheets, or its properties, cache or lock). */
  private reachesDocument(request: OpRequest): boolean {
    // spreadsheetInfo also carries the script's time zone (Session.getScriptTimeZone): no cell, no property.
    if (request.op === 'spreadsheetInfo') return false;
    if (DOCUMENT_OP.test(request.op)) return true;
    return /^(properties|cache|lock)/.test(request.op) && request.args[0] === 'document';
  }
}
