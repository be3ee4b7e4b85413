/** The public surface of the local Apps Script host: createGasHost, createDeployment and the synchronous HTTP module. */
export {
  createGasHost,
  GasHost,
  GasScriptError,
  EXECUTION_LIMIT_MS,
  CUSTOM_FUNCTION_LIMIT_MS,
  SIMPLE_TRIGGER_LIMIT_MS,
  LOADING_TEXT,
} from './gas-host';
export { createDeployment } from './deployment';
export type { DeploymentOptions, ScriptDeployment } from './deployment';
export type { GasHostOptions, CallOptions, CellRef, FormulaResult, TriggerRun } from './gas-host';
export type { LogEntry } from './host-state';
export type { AuthModeName, CellValue, DataExecutionPlan, DataSourceSpecRecord, TriggerRecord } from './protocol/protocol';
export { CONNECTED_SHEETS_REFUSAL, DATA_EXECUTION_MS } from './options';
export type { FetchLogEntry } from './state/url-fetch';
export type { ExecutionOutcome } from './protocol/execution';
export { createSyncFetch, SyncFetchError } from './fetch/sync-fetch';
export type { SyncFetch, SyncFetchRequest, SyncFetchResponse, SyncFetchOutcome } from './fetch/sync-fetch';
export { describeStrict, KIND_READING, resolveStrict, STRICT_ENV, STRICT_READING } from './protocol/strict';
export type { StrictSettings } from './protocol/strict';
