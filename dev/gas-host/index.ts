/** The public surface of the local Apps Script host: createGasHost, createDeployment and the synchronous HTTP module. */
export { createGasHost, GasHost, GasScriptError, EXECUTION_LIMIT_MS, CUSTOM_FUNCTION_LIMIT_MS } from './gas-host';
export { createDeployment } from './deployment';
export type { DeploymentOptions, ScriptDeployment } from './deployment';
export type { GasHostOptions, CallOptions, CellRef, FormulaResult, TriggerRun } from './gas-host';
export type { AuthModeName, CellValue, FetchLogEntry, LogEntry, TriggerRecord } from './host-state';
export type { ExecutionOutcome } from './runtime';
export { createSyncFetch, SyncFetchError } from './sync-fetch';
export type { SyncFetch, SyncFetchRequest, SyncFetchResponse, SyncFetchOutcome } from './sync-fetch';
