/**
 * A saved report's definition as the editor's fields, and the fields as a definition again; with the
 * rules of which fields a destination and a report allow. It is the sidebar's one reader and writer of
 * a definition's destination (its sheet and first cell, its BigQuery table, its write mode, row cap,
 * incremental option and closed months): the Report tab's Schedule section and the Schedules tab's
 * Edit both go through it (saved-report-editor.ts), so a change to the definition's shape is a change
 * to this file. No DOM here: what it says is tested in Node. The server checks every definition again.
 */
import {
  type AlertRule,
  type BuilderRequest,
  describeCompareWith,
  describePeriod,
  incrementalProblem,
  type NoticeSettingsInput,
  type Period,
  REPORT_SPECS,
  type ReportKind,
  type SavedReportInput,
  type Schedule,
  savedReportFromBuilder,
  tracksRevisions,
  writeModeSummary,
} from '../../src/core';

type SavedDestination = SavedReportInput['destination'];
export type BigQueryTable = Extract<SavedDestination, { kind: 'bigquery' }>['table'];
/** How the server's refusal names a table's field: "bigquery.tableId: …" (destination-fields.ts shows it under the field). */
export const TABLE_FIELD_PATH = 'bigquery';
/** The sheet and its first cell: where the rows go, or, for a BigQuery table, where the loads' status is written. */
export interface Place {
  sheetName: string;
  cell: string;
}
/** How each run meets the rows in the sheet: the write mode, its row cap and the incremental option. */
export type WriteChoice = Pick<SavedDestination, 'writeMode' | 'maxStoredRows' | 'incremental'>;
/** When and how refreshes are told, and the alert rules (notice-fields.ts). */
export interface NoticeChoice {
  notices?: NoticeSettingsInput;
  alerts?: AlertRule[];
}

/** What the editor's fields hold. */
export interface EditorState {
  name: string;
  schedule: Schedule;
  paused: boolean;
  place: Place;
  /** The BigQuery table the rows are loaded into; undefined: they go to the sheet at `place`. */
  table: BigQueryTable | undefined;
  write: WriteChoice;
  /** Months closed through ("2026-10"); empty: none. */
  closedThrough: string;
  notices: NoticeChoice;
}

/** The fields of a definition the editor edits; the rest is the report itself (publisher, period, breakdowns...). */
const EDITOR_KEYS = ['name', 'schedule', 'paused', 'destination', 'notices', 'alerts'] as const;
/** The report itself: what a definition holds besides the editor's fields. */
export type ReportFields = Omit<SavedReportInput, (typeof EDITOR_KEYS)[number]>;

/** What the rules need to know of the report. */
type RuledReport = Pick<SavedReportInput, 'kind' | 'breakdowns' | 'compareWith'>;

/** The fields the report allows where it goes. */
export interface AllowedFields {
  /** Write mode, row cap and incremental: a BigQuery table replaces each day's partition instead. */
  writeMode: boolean;
  /** Closed months: the reports whose revisions are tracked (by day, without a comparison), into a sheet. */
  closedMonths: boolean;
  /** Alerts watch a sheet's figures: a BigQuery report has none. */
  alerts: boolean;
  /** The sheet's cell holds the loads' status rather than the rows. */
  statusCell: boolean;
}

export function allowedFields(report: RuledReport, toTable: boolean): AllowedFields {
  return { writeMode: !toTable, closedMonths: !toTable && tracksRevisions(report), alerts: !toTable, statusCell: toTable };
}

/** Whether the incremental option is offered: when the report could merge by day (checkSavedReport's own rule). */
export function incrementalAllowed(
  report: Pick<SavedReportInput, 'kind' | 'breakdowns' | 'period' | 'maxRows' | 'totals' | 'compareWith'>,
): boolean {
  return incrementalProblem({ ...report, totals: false }) === undefined && !report.totals;
}

/** The hourly external-ID report into a table is loaded by whole UTC days: the builder's hour windows do not apply. */
export function loadsWholeDays(kind: ReportKind, toTable: boolean): boolean {
  return toTable && REPORT_SPECS[kind].hourly;
}

/** What a BigQuery table refuses of the builder's report, named as the builder names it; undefined when it takes it. */
export function tableProblem(report: Pick<BuilderRequest, 'maxRows' | 'compareWith'>): string | undefined {
  // A table keeps every row of every day.
  if (report.maxRows !== undefined)
    return 'Row limit: a BigQuery table takes every row of the period; empty the Row limit above, or choose This sheet.';
  if (report.compareWith)
    return 'Compare with: a BigQuery table takes no comparison; set Compare with to None above, or choose This sheet.';
  return undefined;
}

/** The fields of a saved report. */
export function editorStateOf(definition: SavedReportInput): EditorState {
  return {
    name: definition.name,
    schedule: definition.schedule,
    paused: definition.paused === true,
    place: placeOf(definition),
    table: definition.destination.kind === 'bigquery' ? definition.destination.table : undefined,
    write: writeChoiceOf(definition.destination),
    closedThrough: definition.destination.closedThrough ?? '',
    notices: {
      ...(definition.notices ? { notices: definition.notices } : {}),
      ...(definition.alerts ? { alerts: definition.alerts } : {}),
    },
  };
}

/** The report itself, without the editor's fields. */
export function reportFieldsOf(definition: SavedReportInput): ReportFields {
  const report: Record<string, unknown> = { ...definition };
  for (const key of EDITOR_KEYS) delete report[key];
  return report as ReportFields;
}

/**
 * The builder's report for a period (savedReportFromBuilder words it), and, from the saved report it
 * edits, what the builder does not show: its page size and Total row, which stay as saved.
 */
export function reportOfBuilder(request: BuilderRequest, period: Period, saved?: SavedReportInput): ReportFields {
  const report = reportFieldsOf(
    savedReportFromBuilder(request, { name: '', period, schedule: { every: 'hour' }, target: { sheetName: '', cell: '' } }),
  );
  if (saved?.pageSize !== undefined) report.pageSize = saved.pageSize;
  if (saved?.totals !== undefined) report.totals = saved.totals;
  return report;
}

/** The definition of the report with the editor's fields; each field only where the report and its destination allow it. */
export function definitionOf(report: ReportFields, state: EditorState): SavedReportInput {
  const toTable = state.table !== undefined;
  const allowed = allowedFields(report, toTable);
  const target = { ...state.place };
  const destination: SavedDestination = state.table ? { kind: 'bigquery', target, table: state.table } : { kind: 'sheet', target };
  const definition: SavedReportInput = { ...report, name: state.name, schedule: state.schedule, destination };
  if (allowed.writeMode) Object.assign(destination, writeChoiceOf(state.write));
  if (state.paused) definition.paused = true;
  if (allowed.closedMonths && state.closedThrough) destination.closedThrough = state.closedThrough;
  if (state.notices.notices) definition.notices = state.notices.notices;
  if (allowed.alerts && state.notices.alerts) definition.alerts = state.notices.alerts;
  return definition;
}

/** Where a saved report writes: its sheet and first cell (a BigQuery report's status). */
export function placeOf(definition: SavedReportInput): Place {
  const { sheetName, cell } = definition.destination.target;
  return { sheetName, cell };
}

/** Whether a saved report is loaded into a BigQuery table. */
export function loadsToTable(definition: SavedReportInput): boolean {
  return definition.destination.kind === 'bigquery';
}

/** The write choice as saved: only the fields set (a replace has none). */
function writeChoiceOf(choice: WriteChoice): WriteChoice {
  return {
    ...(choice.writeMode && choice.writeMode !== 'replace' ? { writeMode: choice.writeMode } : {}),
    ...(choice.maxStoredRows !== undefined ? { maxStoredRows: choice.maxStoredRows } : {}),
    ...(choice.incremental ? { incremental: true } : {}),
  };
}

/**
 * The period a BigQuery report keeps while its days to load are not changed: its own days (a period
 * saved through the API: since, a month...), unless it is an hour window; undefined for a sheet's report.
 */
export function keptTablePeriod(definition: SavedReportInput | undefined): Period | undefined {
  return definition && loadsToTable(definition) && definition.period.type !== 'lastHours' ? definition.period : undefined;
}

/** The Schedules tab's line after the target: the period, the comparison, the write mode and the closed months. */
export function reportSummary(definition: SavedReportInput): string {
  const compared = definition.compareWith ? `, compared with ${describeCompareWith(definition.compareWith)}` : '';
  const mode = writeModeSummary(definition);
  const { closedThrough } = definition.destination;
  const closed = closedThrough ? `, months closed through ${closedThrough}` : '';
  return `${describePeriod(definition.period)}${compared}${mode ? `, ${mode}` : ''}${closed}`;
}
