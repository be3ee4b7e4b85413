/**
 * One execution as the host hands it to the runtime, and what comes back: who runs which function,
 * in which AuthMode, until when (ExecutionRequest); the settings every execution of a host shares
 * (RuntimeSettings); and the outcome (ExecutionOutcome). Plain data only, since a request and its
 * outcome cross to and from a worker. It sits below both the runtime and the service facades
 * (services/kit.ts), so the facades can read a request without importing the runtime that builds them.
 */
import type { AuthModeName } from './protocol';
import type { StrictSettings } from './strict';

export interface ExecutionRequest {
  executionId: number;
  /** Undefined: only run the bundle's top level (what `load` does). */
  functionName?: string;
  args: unknown[];
  authMode: AuthModeName;
  user: string;
  startedAt: number;
  deadline: number;
  /** Custom functions: find the function whatever the case the formula used. */
  caseInsensitive?: boolean;
  /** The run of an installable trigger: no UI, as in a custom function. */
  trigger?: boolean;
  /** No active document (strict.ts, triggerWithoutDocument): the document's services return null. */
  withoutDocument?: boolean;
}

export interface RuntimeSettings {
  addOnName: string;
  /** Per-request timeout UrlFetchApp uses, bounded further by the execution's remaining time. */
  fetchTimeoutMs: number;
  urlLengthLimit: number;
  /** The reading of Google's rules modelled where a stricter one is allowed (strict.ts). */
  strict: StrictSettings;
  /** The manifest's oauthScopes: a method whose documented scope is missing is refused. Undefined: no manifest, no check. */
  oauthScopes?: readonly string[];
  /** ScriptApp.getInstallationSource(): how this add-on came to be installed for its users. */
  installationSource: InstallationSourceName;
}

/** Google's enum InstallationSource (developers.google.com/apps-script/reference/script/installation-source). */
export type InstallationSourceName = 'APPS_MARKETPLACE_DOMAIN_ADD_ON' | 'NONE' | 'WEB_STORE_ADD_ON';

export interface ExecutionOutcome {
  ok: boolean;
  value?: unknown;
  error?: { name: string; message: string; stack?: string };
  exceededTime?: boolean;
  functionNotFound?: boolean;
  logText: string;
}
