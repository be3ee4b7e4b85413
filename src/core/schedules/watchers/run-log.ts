/**
 * The run log: one row per run of a saved report, by its schedule or the sidebar's Run now, in the
 * sheet "Engage log" of the report's spreadsheet (time on the spreadsheet's clock, report, outcome,
 * how it ran, rows, requests, duration, and a failure's trace ID and error). It watches refreshes
 * (run-events.ts) and writes once when the run is over in the spreadsheet, one batch for all its
 * reports; it keeps the latest LOG_KEEP_ROWS rows, the oldest going first.
 *
 * The sheet is made, with a marker in the spreadsheet (OwnSheet.remembered), by the first run of a
 * saved report there: a log costs nothing to ask for and is there when something goes wrong. A user
 * who deletes the sheet turns the log off: the marker outlives the sheet, and a run that finds the
 * marker without the sheet writes nothing. A sheet named "Engage log" made again by hand turns it on.
 */
import type { Cell, OwnRows, OwnSheet, OwnSheets } from '../../ports';
import type { ReportRunEvent, RunObserver } from '../refresh/run-events';

export const RUN_LOG_SHEET: OwnSheet = {
  name: 'Engage log',
  header: ['Time', 'Report', 'Outcome', 'Run', 'Rows', 'Requests', 'Duration (s)', 'Trace ID', 'Error'],
  remembered: true,
};

/** The latest rows the log keeps; older ones are dropped as new ones come. */
export const LOG_KEEP_ROWS = 1000;

/** Date and time as the spreadsheet shows them (a Date cell shows its wall time on the spreadsheet's clock). */
export const TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const FORMATS: (string | null)[] = [TIME_FORMAT, null, null, null, '#,##0', '#,##0', '0.0', null, null];

/** The log's row for one report of a run. */
export function logRow(event: ReportRunEvent): Cell[] {
  const failed = event.outcome === 'failed';
  const error = failed ? event.status.lastError : undefined;
  return [
    new Date(event.startedAtMs),
    event.report.name,
    event.outcome,
    event.by === 'schedule' ? 'scheduled' : 'Run now',
    failed ? '' : (event.status.rows ?? event.block?.dataRows ?? ''),
    // A failed refresh counts none of the requests it sent before failing: blank, rather than a 0 that is not true.
    failed && event.requests === 0 ? '' : event.requests,
    Math.round((event.endedAtMs - event.startedAtMs) / 100) / 10,
    error?.traceId ?? '',
    error?.message ?? '',
  ];
}

export class RunLog implements RunObserver {
  private readonly rows: Cell[][] = [];

  constructor(private readonly sheets: OwnSheets) {}

  afterReport(event: ReportRunEvent): void {
    this.rows.push(logRow(event));
  }

  afterRun(): void {
    if (this.rows.length === 0) return;
    const rows: OwnRows = { values: this.rows.splice(0), formats: [] };
    rows.formats = rows.values.map(() => FORMATS);
    if (this.sheets.state(RUN_LOG_SHEET) === 'deleted') return;
    this.sheets.append(RUN_LOG_SHEET, rows, LOG_KEEP_ROWS);
  }
}
