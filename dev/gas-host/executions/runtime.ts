/**
 * One Apps Script execution: a fresh vm context whose globals are the service facades (services/),
 * the bundle's top level run in it (as Apps Script does for every execution), then one top-level
 * function called. Facades reach shared state only through `HostOps` (protocol.ts), served by the
 * host state directly on the main thread or over an Atomics RPC from a worker, so this file runs
 * unchanged in both places. It never throws for a script's error: the outcome carries it.
 */
import vm from 'node:vm';
import type { HostClock } from '../../shared/clock';
import type { ExecutionOutcome, ExecutionRequest, RuntimeSettings } from '../protocol/execution';
import type { HostOps } from '../protocol/protocol';
import { blobs } from '../services/blob';
import { cacheService } from '../services/cache';
import { htmlFacades } from '../services/spreadsheets/html';
import { createFacadeKit, EXCEEDED_MESSAGE, ExceededTime, type ExecutionKit, fromRealm } from '../services/kit';
import { lockService } from '../services/lock';
import { loggingServices } from '../services/logger';
import { mailService } from '../services/mail';
import { propertiesService } from '../services/properties';
import { scriptAppService } from '../services/script-app';
import { sessionService, userFacade } from '../services/session';
import { spreadsheetServices } from '../services/spreadsheets/spreadsheet';
import { uiFacade } from '../services/spreadsheets/ui';
import { urlFetchService } from '../services/url-fetch';
import { utilitiesService } from '../services/utilities';

/** Scripts see the host's virtual time through `new Date()` and `Date.now()`. */
function installVirtualDate(context: vm.Context, clock: HostClock): void {
  const install = vm.runInContext(
    `(function (now) {
    var RealDate = Date;
    function VDate(a, b, c, d, e, f, g) {
      if (!new.target) return new RealDate(now()).toString();
      switch (arguments.length) {
        case 0: return new RealDate(now());
        case 1: return new RealDate(a);
        default: return new RealDate(a, b, c === undefined ? 1 : c, d || 0, e || 0, f || 0, g || 0);
      }
    }
    VDate.prototype = RealDate.prototype;
    VDate.now = function () { return now(); };
    VDate.parse = RealDate.parse;
    VDate.UTC = RealDate.UTC;
    Object.defineProperty(RealDate.prototype, 'constructor', { value: VDate, writable: true, configurable: true });
    globalThis.Date = VDate;
  })`,
    context,
  ) as (now: () => number) => void;
  install(() => clock.now());
}

/** Puts the service facades in the execution's globals; returns the logging services, whose text the outcome carries. */
function installServices(context: vm.Context, kit: ExecutionKit): ReturnType<typeof loggingServices> {
  const blobFactory = blobs(kit);
  const html = htmlFacades(kit);
  const user = userFacade(kit);
  const logging = loggingServices(kit);
  const { SpreadsheetApp, Charts } = spreadsheetServices(kit, uiFacade(kit, html), user);
  Object.assign(context, {
    SpreadsheetApp,
    PropertiesService: propertiesService(kit),
    CacheService: cacheService(kit),
    LockService: lockService(kit),
    UrlFetchApp: urlFetchService(kit, blobFactory),
    ScriptApp: scriptAppService(kit),
    HtmlService: html.HtmlService,
    Session: sessionService(kit, user),
    Utilities: utilitiesService(kit, blobFactory),
    Logger: logging.Logger,
    MailApp: mailService(kit),
    Charts,
    console: logging.console,
  });
  return logging;
}

/** The script's top-level function of that name; Sheets upper-cases what the user types (=myfn() shows as =MYFN()) and still finds myFn. */
function scriptFunction(globals: Record<string, unknown>, name: string, caseInsensitive: boolean): unknown {
  const fn = globals[name];
  if (typeof fn === 'function' || !caseInsensitive) return fn;
  const match = Object.keys(globals).find((k) => k.toUpperCase() === name.toUpperCase() && typeof globals[k] === 'function');
  return match ? globals[match] : fn;
}

/** Runs one execution. Never throws for script errors: the outcome carries them. */
export function runExecution(
  script: vm.Script,
  clock: HostClock,
  ops: HostOps,
  settings: RuntimeSettings,
  request: ExecutionRequest,
): ExecutionOutcome {
  const context = vm.createContext({});
  // The kit takes the realm's own Date first: values it rebuilds there are plain Dates.
  const kit = createFacadeKit(context, clock, ops, settings, request);
  if (clock.virtual || clock.shifted) installVirtualDate(context, clock);
  const logging = installServices(context, kit);

  const outcome = (partial: Partial<ExecutionOutcome>): ExecutionOutcome => {
    if (Object.keys(kit.counts).length > 0) {
      try {
        ops.countCalls(kit.counts);
      } catch {
        // Counting must never change an execution's result.
      }
    }
    return { ok: false, logText: logging.logText(), ...partial };
  };
  const failure = (error: unknown): ExecutionOutcome => {
    const e = error as { name?: string; message?: string; stack?: string; code?: string };
    if (kit.isExpired() || error instanceof ExceededTime || e?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' || e?.message === EXCEEDED_MESSAGE) {
      return outcome({ ok: false, exceededTime: true, error: { name: 'Error', message: EXCEEDED_MESSAGE } });
    }
    if (e && typeof e === 'object' && typeof e.message === 'string')
      return outcome({ ok: false, error: { name: e.name ?? 'Error', message: e.message, stack: e.stack } });
    return outcome({ ok: false, error: { name: 'Error', message: String(error) } });
  };
  // A real-time backstop for scripts that loop without calling any service.
  const backstopMs = () => Math.max(1, request.deadline - clock.now()) + (clock.virtual ? 60_000 : 1_000);

  try {
    script.runInContext(context, { timeout: backstopMs() });
  } catch (error) {
    return failure(error);
  }
  if (request.functionName === undefined) return kit.isExpired() ? failure(new ExceededTime()) : outcome({ ok: true });
  const globals = context as Record<string, unknown>;
  const fn = scriptFunction(globals, request.functionName, Boolean(request.caseInsensitive));
  if (typeof fn !== 'function') {
    return outcome({
      ok: false,
      functionNotFound: true,
      error: { name: 'Exception', message: `Script function not found: ${request.functionName}` },
    });
  }
  const realmArgs = request.args.map(kit.toRealm);
  try {
    globals.__gasHostInvoke__ = () => (fn as (...a: unknown[]) => unknown).apply(undefined, realmArgs);
    const value = vm.runInContext('__gasHostInvoke__()', context, { timeout: backstopMs() });
    if (kit.isExpired() || clock.now() > request.deadline) return failure(new ExceededTime());
    return outcome({ ok: true, value: fromRealm(value) });
  } catch (error) {
    return failure(error);
  } finally {
    delete globals.__gasHostInvoke__;
  }
}
