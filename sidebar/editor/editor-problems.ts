/**
 * The one map from what the server's refusal of a saved report names (its arguments, as
 * src/core/schedules/saved/destination-union.ts argumentOf words them: "notices.webhook", "writeMode",
 * "target.cell", "bigquery.tableId", "alerts.0.metric") to the editor's field that shows it, with the
 * field's visible label. A part naming a field the mount does not show (or hides) finds none here,
 * and is shown beside the button instead (sidebar/widgets/field-problems.ts). No DOM here: the editor
 * finds the field on the page (saved-report-editor.ts).
 */
import { TABLE_FIELD_PATH } from './definition-form';

/**
 * A field: its control's id after the editor's prefix (none: a field of the report itself, shown by the
 * Report tab's builder, whose label words it beside the button), its label, and the field to use when
 * it is not shown.
 */
export interface Named {
  id?: string;
  label: string;
  otherwise?: string;
}

const WRITE_MODE: Named = { id: 'write-mode', label: 'Write mode' };
const SHEET: Named = { id: 'sheet', label: 'Sheet' };
const TELL_ME: Named = { id: 'notify-when', label: 'Tell me' };

/** Each argument the server may name, by its whole path or by its first segments ("schedule.hour" is the schedule's). */
export const ARGUMENT_FIELDS: Readonly<Record<string, Named>> = {
  name: { id: 'name', label: 'Name' },
  schedule: { id: 'every', label: 'Refresh' },
  paused: { id: 'paused', label: 'Paused' },
  target: SHEET,
  'target.sheetName': SHEET,
  'target.cell': { id: 'cell', label: 'Cell' },
  writeMode: WRITE_MODE,
  maxStoredRows: { id: 'max-stored-rows', label: 'Keep at most (rows)', otherwise: 'writeMode' },
  incremental: { id: 'incremental', label: 'Incremental', otherwise: 'writeMode' },
  closedThrough: { id: 'closed', label: 'Months closed through' },
  notices: TELL_ME,
  'notices.when': TELL_ME,
  'notices.email': { id: 'notify-email', label: 'By email to me' },
  'notices.webhook': { id: 'webhook', label: 'Webhook' },
  alerts: { id: 'alerts', label: 'Alerts' },
  [`${TABLE_FIELD_PATH}.projectId`]: { id: 'bq-project', label: 'Project' },
  [`${TABLE_FIELD_PATH}.datasetId`]: { id: 'bq-dataset', label: 'Dataset' },
  [`${TABLE_FIELD_PATH}.tableId`]: { id: 'bq-table', label: 'Table' },
  [`${TABLE_FIELD_PATH}.location`]: { id: 'bq-location', label: 'Location' },
  // The report itself, by the builder's labels (src/core/builder/builder-request.ts BUILDER_FIELD_LABELS).
  kind: { label: 'Report' },
  entityId: { label: 'Publisher' },
  period: { label: 'Period' },
  breakdowns: { label: 'Breakdowns' },
  metrics: { label: 'Metrics' },
  filter: { label: 'Filters' },
  sort: { label: 'Sort by' },
  currencyCode: { label: 'Currency' },
  decDigits: { label: 'Decimals' },
  maxRows: { label: 'Row limit' },
  compareWith: { label: 'Compare with' },
};

/** The entry of an argument: its whole path's, else that of its longest first segments. */
export function namedField(argument: string): Named | undefined {
  const segments = argument.split('.');
  for (let n = segments.length; n > 0; n--) {
    const named = ARGUMENT_FIELDS[segments.slice(0, n).join('.')];
    if (named) return named;
  }
  return undefined;
}

/** The label an argument is worded with where no field of the editor shows it; undefined for one unknown here. */
export function labelOf(argument: string): string | undefined {
  return namedField(argument)?.label;
}

/** Whether the argument is where the rows go: a refusal of it asks for another sheet or cell. */
export function namesThePlace(argument: string): boolean {
  return argument === 'writeMode' || argument === 'incremental' || argument.startsWith('target');
}
