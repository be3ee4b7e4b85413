/**
 * Builds the add-on's use cases (core EngageAddon, or the user's EngageSession alone where no formula
 * is involved) from Apps Script services. Called at the start of each execution, never at module
 * scope: the services available depend on the auth mode, and a service touched while the bundle loads
 * would break onOpen in AuthMode.NONE.
 */
import { type AddonDeps, EngageAddon, EngageSession } from '../../core';
import { DEPLOYMENT } from '../adapters/deployment';
import { onExecutionEnd } from '../adapters/execution';
import { gzipCompressor } from '../adapters/gzip-compressor';
import { UrlFetchTransport } from '../adapters/fetch/url-fetch-transport';
import { PropertiesStore } from '../adapters/properties-store';
import { ServiceCache } from '../adapters/service-cache';
import { ServiceLock } from '../adapters/service-lock';
import { blockingSleeper, systemClock } from '../adapters/system-time';

export interface AddonContext {
  /** True when running a custom function: user properties are the owner's, and messages say so. */
  inCustomFunction?: boolean;
}

export function createAddon(context: AddonContext = {}): EngageAddon {
  const deps = addonDeps(context);
  // A formula reads what its spreadsheet's owner lets formulas use, kept under the spreadsheet's ID.
  const spreadsheet = context.inCustomFunction ? SpreadsheetApp.getActiveSpreadsheet() : null;
  return new EngageAddon(spreadsheet ? { ...deps, spreadsheetId: spreadsheet.getId() } : deps);
}

export function createSession(context: AddonContext = {}): EngageSession {
  return new EngageSession(addonDeps(context));
}

function addonDeps(context: AddonContext): AddonDeps {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  // Outside a document (a trigger's run Apps Script started without one) the document's cache and lock
  // are null: the user's stand in, and a scheduled run keeps its rate windows there (docs/shared-state.md).
  const documentCache = CacheService.getDocumentCache() ?? CacheService.getUserCache();
  // Only user- and document-scoped services: the script's lock and cache are shared by every user of the add-on.
  return {
    transport: new UrlFetchTransport(UrlFetchApp),
    userStore: new PropertiesStore(PropertiesService.getUserProperties()),
    userLock: new ServiceLock(LockService.getUserLock()),
    documentCache: new ServiceCache(documentCache),
    compressor: gzipCompressor,
    documentLock: new ServiceLock(LockService.getDocumentLock() ?? LockService.getUserLock()),
    clock: systemClock,
    sleeper: blockingSleeper,
    timeZone: spreadsheet ? spreadsheet.getSpreadsheetTimeZone() : Session.getScriptTimeZone(),
    inCustomFunction: context.inCustomFunction === true,
    deployment: DEPLOYMENT,
    atExecutionEnd: onExecutionEnd,
  };
}
