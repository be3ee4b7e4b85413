/**
 * createGasHost's options and their defaults, in one place: each option falls back to the figure
 * Apps Script documents for consumer accounts, or to a neutral value for the document itself.
 */
import { createDeployment, type ScriptDeployment } from './deployment';
import type { HostStateOptions } from './host-state';
import type { AuthModeName, DataExecutionPlan } from './protocol/protocol';
import type { InstallationSourceName, RuntimeSettings } from './protocol/execution';
import type { CacheEviction } from './state/cache';
import { MAIL_RECIPIENTS_PER_DAY, PROPERTY_OPERATIONS_PER_DAY, TRIGGER_RUNTIME_PER_DAY_MS, URL_FETCH_CALLS_PER_DAY } from './state/quotas';
import { createSyncFetch } from './fetch/sync-fetch';
import { checkWhitelist } from './fetch/url-whitelist';
import { type ReadingWitness, readingWitness, resolveStrict, type StrictSettings } from './protocol/strict';
import { HOST_LOCALES, isHostLocale } from './cells/typed-input';

export const EXECUTION_LIMIT_MS = 6 * 60_000;
export const CUSTOM_FUNCTION_LIMIT_MS = 30_000;
/** onOpen and the other simple triggers: "They cannot run for longer than 30 seconds" (Google's "Simple triggers" guide). */
export const SIMPLE_TRIGGER_LIMIT_MS = 30_000;
/** UrlFetchApp's per-request timeout as Apps Script is observed to apply it. */
const FETCH_TIMEOUT_MS = 60_000;
/** UrlFetchApp refuses longer URLs (`Limit Exceeded: URLFetch URL Length.`). */
const URL_LENGTH_LIMIT_CHARS = 2048;

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
  /**
   * Users besides the owner who may edit the document (Spreadsheet.getEditors) and open it by ID from
   * another document too. A user who runs an execution in the document becomes one (they have it
   * open), unless `removeAccess` or removeEditor took their access away. Default none.
   */
  editors?: string[];
  /** A file in a shared drive: Spreadsheet.getOwner() is null (custom functions still read `owner`'s properties). */
  sharedDrive?: boolean;
  documentId?: string;
  spreadsheetName?: string;
  /** The spreadsheet's time zone (getSpreadsheetTimeZone). Default America/New_York. */
  timeZone?: string;
  /**
   * The spreadsheet's locale (getSpreadsheetLocale): `en_US` (default) or `de_DE`, a comma-decimal
   * locale. In the strict reading (`textParsedAsTyped`) text written to cells is read by its rules.
   */
  locale?: string;
  /** The script's time zone (Session.getScriptTimeZone). Default: the spreadsheet's. */
  scriptTimeZone?: string;
  sheets?: string[];
  maxRows?: number;
  maxColumns?: number;
  /** File name -> HTML content, for HtmlService.createHtmlOutputFromFile ('sidebar' -> dist/sidebar.html). */
  htmlFiles?: Record<string, string>;
  /**
   * 'real' (default), 'virtual' (time moves only by Utilities.sleep and advanceTime) or 'shifted': real
   * time that advanceTime moves forward, running the triggers that fall due (the playground's clock).
   */
  clock?: 'real' | 'virtual' | 'shifted';
  /** Start of virtual time; default now. */
  startTime?: Date | number;
  /**
   * Virtual or shifted clock: called on the main thread each time virtual time moves (Utilities.sleep of an
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
   * Recalculate as Sheets does, without being asked: the formulas a script's cell changes make dirty
   * start when it calls SpreadsheetApp.flush() (an execution in a worker) or when it ends (any
   * execution), while it may go on. Default false: formulas compute only when `recalculate` or
   * `evaluateFormula` is called.
   */
  autoRecalculate?: boolean;
  /**
   * The project's manifest (appsscript.json, parsed). Its urlFetchWhitelist is enforced for every
   * address but loopback ones; without it, or without that field, any address may be fetched. Its
   * oauthScopes are required by the methods whose scopes the host knows (services/kit.ts requireScopes), and
   * decide whether other documents open by ID (`https://www.googleapis.com/auth/spreadsheets` is needed);
   * without the field, every scope the code uses is granted, as Apps Script does.
   */
  manifest?: { urlFetchWhitelist?: unknown[]; oauthScopes?: unknown[] } & Record<string, unknown>;
  /**
   * Whether the user's account allows Connected Sheets (Spreadsheet.insertDataSourceSheet): true (the
   * default); false, refused with CONNECTED_SHEETS_REFUSAL; or the words the refusal throws. What
   * Apps Script throws for an account or domain without Connected Sheets is UNCONFIRMED (README).
   */
  connectedSheets?: boolean | string;
  /**
   * How the data execution that insertDataSourceSheet starts goes: `durationMs` on the host's clock
   * (default DATA_EXECUTION_MS) and its `outcome`, SUCCESS (the default) or ERROR with a
   * DataExecutionErrorCode and message (state.spreadsheet.dataExecutionPlan changes it later).
   */
  dataExecution?: Partial<DataExecutionPlan>;
  /** URL Fetch calls a user may make in 24 hours; default 20,000 (consumer accounts). */
  urlFetchCallsPerDay?: number;
  /** Trigger runtime a user has in 24 hours; default 90 minutes (consumer accounts). */
  triggerRuntimePerDayMs?: number;
  /** Property reads and writes a user may make in 24 hours; default 50,000 (consumer accounts). */
  propertyOperationsPerDay?: number;
  /** Email recipients a user may send to in 24 hours (MailApp); default 100 (consumer accounts; 1,500 on Workspace). */
  mailRecipientsPerDay?: number;
  /** What a full cache (1,000 items) drops: 'expiry' (default, Google's reference) or 'fifo' (what an experiment saw). */
  cacheEviction?: CacheEviction;
  /**
   * Which reading of Google's rules the host models where the documentation allows a stricter one
   * than the kind default (strict.ts): `true` every switch on, `false` none, an object the switches it
   * names. Left out: every switch on when the environment has GAS_HOST_STRICT=1, else none.
   */
  strict?: boolean | Partial<StrictSettings>;
  /**
   * What each user granted, by email: the manifest's scopes they allowed (a user not named granted
   * them all). Honoured in the strict reading's `partialConsent` (strict.ts); in the kind reading every
   * user granted every scope. `host.grantScopes(user, scopes)` changes a grant later.
   */
  grantedScopes?: Record<string, readonly string[]>;
  /**
   * ScriptApp.getInstallationSource(): `WEB_STORE_ADD_ON` (the default: a user installed the add-on from
   * the Marketplace), `APPS_MARKETPLACE_DOMAIN_ADD_ON` (an administrator installed it for the domain),
   * or `NONE` (the script is not running as an add-on: a test deployment, whose executions create no
   * installable trigger; the testing guide: test deployments "have limitations such as not supporting
   * installable triggers").
   */
  installationSource?: InstallationSourceName;
}

export interface CallOptions {
  authMode?: AuthModeName;
  user?: string;
  /** Override the execution time limit (ms). */
  limitMs?: number;
  /** The run of an installable trigger: it has no UI (`SpreadsheetApp.getUi()` fails). */
  trigger?: boolean;
  /**
   * The execution has no active document, as a time-driven trigger's run in the strict reading
   * (strict.ts, triggerWithoutDocument): the host sets it for those runs; a test may set it too.
   */
  withoutDocument?: boolean;
}

/** Every option with its default, split by what uses it. */
export interface ResolvedHostOptions {
  deployment: ScriptDeployment;
  state: HostStateOptions;
  settings: RuntimeSettings;
  activeUser: string;
  executionLimitMs: number;
  customFunctionLimitMs: number;
  concurrency: number;
  autoRecalculate: boolean;
  strict: StrictSettings;
  /** Notes the places where the switches the environment decides would have acted differently. */
  readings: ReadingWitness;
}

/**
 * The words the host throws from insertDataSourceSheet for an account that does not allow Connected
 * Sheets. UNCONFIRMED: no official page gives Apps Script's message for it,
 * so the add-on must not depend on these words; tests give others through the option.
 */
export const CONNECTED_SHEETS_REFUSAL = 'Connected Sheets is not available for this account. Contact your administrator.';

/**
 * How long the first data execution of an inserted data source sheet runs on the host's clock, by
 * default: a preview of a small table. UNCONFIRMED: no official page gives a figure; it depends on
 * BigQuery's load and the table's size, so the add-on waits a bounded time and says when it is still running.
 */
export const DATA_EXECUTION_MS = 4_000;

function connectedSheetsRefusal(option: boolean | string | undefined): { connectedSheetsRefusal?: string } {
  if (option === undefined || option === true) return {};
  return { connectedSheetsRefusal: option === false ? CONNECTED_SHEETS_REFUSAL : option };
}

const INSTALLATION_SOURCES: readonly InstallationSourceName[] = ['APPS_MARKETPLACE_DOMAIN_ADD_ON', 'NONE', 'WEB_STORE_ADD_ON'];

function installationSourceOf(option: string | undefined): InstallationSourceName {
  if (option === undefined) return 'WEB_STORE_ADD_ON';
  const source = INSTALLATION_SOURCES.find((name) => name === option);
  if (!source) throw new Error(`gas-host: installationSource ${option} is none of ${INSTALLATION_SOURCES.join(', ')}`);
  return source;
}

export function resolveHostOptions(options: GasHostOptions): ResolvedHostOptions {
  const owner = options.owner ?? 'owner@example.com';
  const deployment = options.deployment ?? createDeployment(options);
  const timeZone = options.timeZone ?? 'America/New_York';
  const syncFetch = createSyncFetch();
  const strict = resolveStrict(options.strict);
  const readings = readingWitness(options.strict);
  const locale = options.locale ?? 'en_US';
  if (!isHostLocale(locale)) throw new Error(`gas-host: locale ${locale} is not modelled (${HOST_LOCALES.join(', ')})`);
  return {
    deployment,
    state: {
      deployment,
      owner,
      editors: options.editors ?? [],
      sharedDrive: options.sharedDrive ?? false,
      documentId: options.documentId ?? 'gas-host-spreadsheet',
      spreadsheetName: options.spreadsheetName ?? 'Untitled spreadsheet',
      timeZone,
      locale,
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
      propertyOperationsPerDay: options.propertyOperationsPerDay ?? PROPERTY_OPERATIONS_PER_DAY,
      mailRecipientsPerDay: options.mailRecipientsPerDay ?? MAIL_RECIPIENTS_PER_DAY,
      strict,
      readings,
      ...(Array.isArray(options.manifest?.oauthScopes) ? { oauthScopes: options.manifest.oauthScopes.map(String) } : {}),
      ...connectedSheetsRefusal(options.connectedSheets),
      dataExecutionPlan: {
        durationMs: options.dataExecution?.durationMs ?? DATA_EXECUTION_MS,
        outcome: options.dataExecution?.outcome ?? { state: 'SUCCESS' },
      },
    },
    settings: {
      addOnName: options.addOnName ?? 'Engage for Sheets',
      fetchTimeoutMs: options.fetchTimeoutMs ?? FETCH_TIMEOUT_MS,
      urlLengthLimit: URL_LENGTH_LIMIT_CHARS,
      strict,
      ...(Array.isArray(options.manifest?.oauthScopes) ? { oauthScopes: options.manifest.oauthScopes.map(String) } : {}),
      installationSource: installationSourceOf(options.installationSource),
    },
    activeUser: options.activeUser ?? owner,
    executionLimitMs: options.executionLimitMs ?? EXECUTION_LIMIT_MS,
    customFunctionLimitMs: options.customFunctionLimitMs ?? CUSTOM_FUNCTION_LIMIT_MS,
    concurrency: Math.max(1, options.concurrency ?? 10),
    autoRecalculate: options.autoRecalculate === true,
    strict,
    readings,
  };
}
