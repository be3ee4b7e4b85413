/**
 * Connected Sheets, the part a script uses to show a BigQuery table in a spreadsheet: SpreadsheetApp's
 * enableBigQueryExecution and newDataSourceSpec (DataSourceSpecBuilder, asBigQuery ->
 * BigQueryDataSourceSpecBuilder), the Spreadsheet's insertDataSourceSheet and getDataSourceSheets
 * (DataSourceSheet: asSheet, getDataSource -> DataSource.getSpec -> DataSourceSpec / BigQueryDataSourceSpec,
 * getStatus and waitForCompletion -> DataExecutionStatus), and the DataExecutionState and
 * DataExecutionErrorCode enums. Names and methods follow Google's reference pages
 * (developers.google.com/apps-script/reference/spreadsheet/ big-query-data-source-spec-builder,
 * data-source-sheet, data-source, data-source-spec, data-execution-status, data-execution-state,
 * data-execution-error-code) and the guide "Use Connected Sheets"
 * (developers.google.com/apps-script/guides/sheets/connected-sheets). The host runs no query: the
 * inserted sheet records its spec (`state.spreadsheet` sheets' `dataSource`), for tests to read, and
 * its data execution follows the spreadsheet's plan (`dataExecutionPlan`: how long on the host's clock,
 * SUCCESS or which ERROR). What no page settles (the builder's words when it refuses, unset getters,
 * the new sheet's name, what an account without Connected Sheets throws, how long an execution takes,
 * the words of a timed-out wait) is the host's choice, UNCONFIRMED in the README.
 */
import { DATA_EXECUTION_ERROR_CODES, type DataExecutionRecord, type DataSourceSpecRecord } from '../../protocol/protocol';
import type { Facade, FacadeKit } from '../kit';

/** The DataSourceType enum (SpreadsheetApp.DataSourceType): the types the reference lists. */
const DATA_SOURCE_TYPES = { DATA_SOURCE_TYPE_UNSUPPORTED: 'DATA_SOURCE_TYPE_UNSUPPORTED', BIGQUERY: 'BIGQUERY', LOOKER: 'LOOKER' };
/** The DataExecutionState enum (developers.google.com/apps-script/reference/spreadsheet/data-execution-state). */
const DATA_EXECUTION_STATES = {
  DATA_EXECUTION_STATE_UNSUPPORTED: 'DATA_EXECUTION_STATE_UNSUPPORTED',
  RUNNING: 'RUNNING',
  SUCCESS: 'SUCCESS',
  ERROR: 'ERROR',
  NOT_STARTED: 'NOT_STARTED',
};
const enumOf = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, name]));

/**
 * DataSourceSheet.waitForCompletion(timeoutInSeconds): "The time to wait for data execution, in
 * seconds. The maximum is 300 seconds." (developers.google.com/apps-script/reference/spreadsheet/data-source-sheet).
 */
export const WAIT_FOR_COMPLETION_MAX_SECONDS = 300;
/**
 * What waitForCompletion throws for a timeout it refuses: over the documented maximum, or (the
 * stricter reading, UNCONFIRMED: the page gives no lower bound and says "Integer") not a whole number
 * of at least 1 second. The words are the host's (UNCONFIRMED).
 */
export const WAIT_TIMEOUT_REFUSAL = 'Invalid argument: timeoutInSeconds. It must be a whole number of seconds from 1 to 300.';
/**
 * The reference: waitForCompletion "Throws an exception if the execution is not completed when timing
 * out, but does not cancel the data execution." The words are the host's (UNCONFIRMED).
 */
export const waitTimedOutMessage = (seconds: number) => `The data execution did not complete within ${seconds} seconds.`;

/**
 * A DataExecutionStatus (developers.google.com/apps-script/reference/spreadsheet/data-execution-status)
 * of `execution` at `nowMs`: RUNNING until its time has passed, then its outcome. getLastExecutionTime
 * is when it completed whatever its state; getLastRefreshedTime only when it succeeded; both null before.
 */
function executionStatus(execution: DataExecutionRecord, nowMs: number) {
  const completedAtMs = execution.startedAtMs + execution.durationMs;
  const { outcome } = execution;
  if (nowMs < completedAtMs) {
    return { state: 'RUNNING', errorCode: 'NONE', errorMessage: '', lastExecutionMs: null, lastRefreshedMs: null, truncated: false };
  }
  if (outcome.state === 'SUCCESS') {
    const truncated = outcome.truncated === true;
    return {
      state: 'SUCCESS',
      errorCode: 'NONE',
      errorMessage: '',
      lastExecutionMs: completedAtMs,
      lastRefreshedMs: completedAtMs,
      truncated,
    };
  }
  const { errorCode, errorMessage } = outcome;
  return { state: 'ERROR', errorCode, errorMessage, lastExecutionMs: completedAtMs, lastRefreshedMs: null, truncated: false };
}

/**
 * The guide: enableBigQueryExecution "adds the required bigquery.readonly OAuth scope"; the Sheets API's
 * AddDataSourceRequest "requires an additional bigquery.readonly OAuth scope". Whether the full bigquery
 * scope (which grants all it does) stands in for it no page says (UNCONFIRMED): the host takes the
 * stricter reading and asks for bigquery.readonly itself, which a deployment with `"bigquery": true`
 * lists (src/core/deployment.ts).
 */
export const BIGQUERY_READ_SCOPES = ['https://www.googleapis.com/auth/bigquery.readonly'];
/** Google's reference for insertDataSourceSheet, as for the Spreadsheet's other methods. */
const SPREADSHEET_SCOPES = ['https://www.googleapis.com/auth/spreadsheets.currentonly', 'https://www.googleapis.com/auth/spreadsheets'];

const emptySpec = (): DataSourceSpecRecord => ({
  type: 'BIGQUERY',
  projectId: '',
  tableProjectId: '',
  datasetId: '',
  tableId: '',
  rawQuery: '',
  parameters: [],
});

/**
 * What build() refuses (the reference: "You must specify the data source type with as...() before
 * building"; a BigQuery spec needs its billing project and either a whole table or a raw query). The
 * words are the host's (UNCONFIRMED); so is refusing a table without its project, and a table and a
 * query at once: the stricter readings.
 */
function buildProblem(spec: DataSourceSpecRecord): string | undefined {
  if (spec.projectId === '') return 'The data source spec has no billing project: call setProjectId before build().';
  const table = [spec.tableProjectId, spec.datasetId, spec.tableId];
  const someTable = table.some((part) => part !== '');
  if (!someTable && spec.rawQuery === '')
    return 'The data source spec has neither a table nor a raw query: call setTableId (with setTableProjectId and setDatasetId) or setRawQuery.';
  if (someTable && spec.rawQuery !== '') return 'The data source spec has both a table and a raw query: give one of them.';
  if (someTable && table.some((part) => part === '')) {
    return 'The data source spec names part of a table: setTableProjectId, setDatasetId and setTableId are all needed.';
  }
  return undefined;
}

export interface DataSourceFacades {
  /** SpreadsheetApp's members. */
  app: Record<string, unknown>;
  /** The Spreadsheet's members; `sheet` builds a Sheet facade of an id. */
  spreadsheetMembers(sheet: (sheetId: number) => Facade): Record<string, (...args: never[]) => unknown>;
}

/**
 * Google's DataSource reference, on its methods: "Throws an exception if the data source type is not
 * enabled. Use SpreadsheetApp#enable...Execution() methods to enable data execution for specific data
 * source type." Enabled for the execution that called enableBigQueryExecution (one facade set per
 * execution's kit, shared by SpreadsheetApp and every Spreadsheet of it); the words are UNCONFIRMED.
 */
export const NOT_ENABLED_MESSAGE =
  'Data execution of BIGQUERY data sources is not enabled: call SpreadsheetApp.enableBigQueryExecution() first.';

/** Which executions enabled BigQuery data execution: keyed by the execution's request, shared by every kit of it. */
const enabledBigQuery = new WeakSet<FacadeKit['request']>();

/** The execution must have called SpreadsheetApp.enableBigQueryExecution. */
function requireEnabled(kit: FacadeKit): void {
  if (!enabledBigQuery.has(kit.request)) throw kit.realmError('Exception', NOT_ENABLED_MESSAGE);
}

function parameterFacade(kit: FacadeKit, p: { name: string; sourceCell: string }): Facade {
  return kit.api('DataSourceParameter', { getName: () => p.name, getSourceCell: () => p.sourceCell, getType: () => 'CELL' });
}

/** A BigQueryDataSourceSpecBuilder over a copy of `from`. */
function bigQueryBuilder(kit: FacadeKit, from: DataSourceSpecRecord): Facade {
  const spec: DataSourceSpecRecord = { ...from, parameters: from.parameters.map((p) => ({ ...p })) };
  const self: Facade = kit.api('BigQueryDataSourceSpecBuilder', {
    setProjectId: (id: unknown) => ((spec.projectId = String(id ?? '')), self),
    setTableProjectId: (id: unknown) => ((spec.tableProjectId = String(id ?? '')), self),
    setDatasetId: (id: unknown) => ((spec.datasetId = String(id ?? '')), self),
    setTableId: (id: unknown) => ((spec.tableId = String(id ?? '')), self),
    setRawQuery: (query: unknown) => ((spec.rawQuery = String(query ?? '')), self),
    setParameterFromCell: (name: unknown, sourceCell: unknown) => {
      const found = spec.parameters.find((p) => p.name === String(name));
      if (found) found.sourceCell = String(sourceCell);
      else spec.parameters.push({ name: String(name), sourceCell: String(sourceCell) });
      return self;
    },
    removeParameter: (name: unknown) => ((spec.parameters = spec.parameters.filter((p) => p.name !== String(name))), self),
    removeAllParameters: () => ((spec.parameters = []), self),
    getProjectId: () => spec.projectId,
    getTableProjectId: () => spec.tableProjectId,
    getDatasetId: () => spec.datasetId,
    getTableId: () => spec.tableId,
    getRawQuery: () => spec.rawQuery,
    getParameters: () => spec.parameters.map((p) => parameterFacade(kit, p)),
    getType: () => DATA_SOURCE_TYPES.BIGQUERY,
    copy: () => bigQueryBuilder(kit, spec),
    build: () => {
      const problem = buildProblem(spec);
      if (problem) throw kit.realmError('Exception', problem);
      return builtSpec(kit, spec);
    },
  });
  return self;
}

/** A DataSourceSpec (and its asBigQuery view): read-only, with the host's `__spec` hook. */
function builtSpec(kit: FacadeKit, from: DataSourceSpecRecord): Facade {
  const spec: DataSourceSpecRecord = { ...from, parameters: from.parameters.map((p) => ({ ...p })) };
  const common = {
    getType: () => DATA_SOURCE_TYPES.BIGQUERY,
    getParameters: () => spec.parameters.map((p) => parameterFacade(kit, p)),
    copy: () => bigQueryBuilder(kit, spec),
  };
  const bigQuery = kit.api('BigQueryDataSourceSpec', {
    ...common,
    getProjectId: () => spec.projectId,
    getTableProjectId: () => spec.tableProjectId,
    getDatasetId: () => spec.datasetId,
    getTableId: () => spec.tableId,
    getRawQuery: () => spec.rawQuery,
  });
  return kit.api('DataSourceSpec', { ...common, asBigQuery: () => bigQuery, __spec: spec });
}

function newDataSourceSpec(kit: FacadeKit): Facade {
  const self: Facade = kit.api('DataSourceSpecBuilder', {
    asBigQuery: () => bigQueryBuilder(kit, emptySpec()),
    getType: () => DATA_SOURCE_TYPES.DATA_SOURCE_TYPE_UNSUPPORTED,
    getParameters: () => [],
    removeAllParameters: () => self,
    copy: () => newDataSourceSpec(kit),
    build: () => {
      throw kit.realmError('Exception', 'You must specify the data source type with as...() before building the data source spec.');
    },
  });
  return self;
}

/** The data execution of data source sheet `sheetId`, as a DataExecutionStatus now. */
function statusNow(kit: FacadeKit, sheetId: number): Facade {
  const execution = kit.ops.spreadsheetDataExecution(sheetId);
  if (!execution) throw kit.realmError('Exception', 'The data source sheet no longer exists.');
  const status = executionStatus(execution, kit.clock.now());
  const date = (ms: number | null) => (ms === null ? null : kit.toRealm(new Date(ms)));
  return kit.api('DataExecutionStatus', {
    getExecutionState: () => status.state,
    getErrorCode: () => status.errorCode,
    getErrorMessage: () => status.errorMessage,
    getLastExecutionTime: () => date(status.lastExecutionMs),
    getLastRefreshedTime: () => date(status.lastRefreshedMs),
    isTruncated: () => status.truncated,
  });
}

/**
 * waitForCompletion: the execution's thread waits (the virtual clock moves) until the execution
 * completes or the timeout passes, whichever is first; past the timeout it throws, and the execution
 * goes on. A real clock blocks no longer than the execution's own deadline, as Utilities.sleep.
 */
function waitForCompletion(kit: FacadeKit, sheetId: number, timeoutInSeconds: unknown): Facade {
  const seconds = Number(timeoutInSeconds);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > WAIT_FOR_COMPLETION_MAX_SECONDS) {
    throw kit.realmError('Exception', WAIT_TIMEOUT_REFUSAL);
  }
  const execution = kit.ops.spreadsheetDataExecution(sheetId);
  if (!execution) throw kit.realmError('Exception', 'The data source sheet no longer exists.');
  const leftMs = Math.max(0, execution.startedAtMs + execution.durationMs - kit.clock.now());
  const waitMs = Math.min(leftMs, seconds * 1000);
  if (kit.clock.virtual) kit.clock.advance(waitMs);
  else kit.clock.sleep(Math.min(waitMs, Math.max(0, kit.request.deadline - kit.clock.now()) + 1));
  kit.tick();
  if (waitMs < leftMs) throw kit.realmError('Exception', waitTimedOutMessage(seconds));
  return statusNow(kit, sheetId);
}

/** The Spreadsheet's Connected Sheets members; `sheet` builds a Sheet facade of an id. */
function spreadsheetMembers(kit: FacadeKit, sheet: (sheetId: number) => Facade) {
  const dataSourceSheet = (sheetId: number, spec: DataSourceSpecRecord): Facade => {
    const self: Facade = kit.api('DataSourceSheet', {
      asSheet: () => sheet(sheetId),
      getStatus: () => statusNow(kit, sheetId),
      waitForCompletion: (timeoutInSeconds: unknown) => waitForCompletion(kit, sheetId, timeoutInSeconds),
      getDataSource: () =>
        kit.api('DataSource', {
          getSpec: () => builtSpec(kit, spec),
          getDataSourceSheets: () => [self],
        }),
    });
    return self;
  };
  return {
    insertDataSourceSheet: (given: unknown) => {
      kit.requireScopes('Spreadsheet.insertDataSourceSheet', SPREADSHEET_SCOPES);
      kit.requireScopes('Spreadsheet.insertDataSourceSheet', BIGQUERY_READ_SCOPES);
      kit.guardWrite('insertDataSourceSheet');
      requireEnabled(kit);
      const spec = (given as { __spec?: DataSourceSpecRecord } | null)?.__spec;
      if (!spec) throw kit.realmError('Exception', 'Invalid argument: spec');
      return dataSourceSheet(kit.ops.spreadsheetInsertDataSourceSheet(spec), spec);
    },
    getDataSourceSheets: () =>
      (requireEnabled(kit), kit.ops).spreadsheetDataSourceSheets().map(({ sheetId, spec }) => dataSourceSheet(sheetId, spec)),
  };
}

/**
 * The Connected Sheets facades over `kit`: the bound document's, or (a kit scoped to it) a document
 * opened by ID; whether BigQuery is enabled is the execution's, whichever kit.
 */
export function dataSourceFacades(kit: FacadeKit): DataSourceFacades {
  return {
    app: {
      // Apps Script also reads it to add the bigquery.readonly scope to a project that declares none.
      enableBigQueryExecution: () => {
        enabledBigQuery.add(kit.request);
      },
      newDataSourceSpec: () => newDataSourceSpec(kit),
      DataSourceType: DATA_SOURCE_TYPES,
      DataExecutionState: DATA_EXECUTION_STATES,
      DataExecutionErrorCode: enumOf(DATA_EXECUTION_ERROR_CODES),
    },
    spreadsheetMembers: (sheet) => spreadsheetMembers(kit, sheet),
  };
}
