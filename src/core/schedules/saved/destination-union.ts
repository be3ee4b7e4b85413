/**
 * The destinations a saved report may have, as its definition holds them in its one `destination`
 * field: the sheet (its target cell, with the write mode, row cap, incremental and closed months beside
 * it), or a BigQuery table, whose target cell then shows the load's status. This is the one file below
 * the destinations' own rooms (src/core/destinations/) that names each kind: the field's shape for
 * each, which kind a definition has, how a definition saved before the field is read, and what is said
 * when a kind is not part of this installation. What each kind does is its own room's
 * (refresh/destination.ts names what every destination does).
 */
import * as z from '../../util/zod';
import { A1_CELL_PATTERN } from '../../util/a1-notation';
import { controlCharacterIndex } from '../../util/text';
import { ValidationError } from '../../errors';
import { MAX_STORED_ROWS_LIMIT, WRITE_MODES } from './write-modes';

const name = z.string({ error: 'must be text' });
const noControlCharacters = (v: string) => controlCharacterIndex(v) < 0;
const cellError = 'must be one cell such as A1';
const rowsError = `must be a whole number from 1 to ${MAX_STORED_ROWS_LIMIT}`;

/** A BigQuery table as a saved report holds it; the names are checked by its destination at save. */
export const bigQueryTableSchema = z.strictObject(
  { projectId: name, datasetId: name, tableId: name, location: name },
  { error: 'must be a BigQuery table: {projectId, datasetId, tableId, location}' },
);

/** The sheet and cell a report's rows (or a table's status) are written at. */
const targetSchema = z.strictObject(
  {
    sheetName: z
      .string({ error: 'needs a sheet name' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'needs a sheet name' }),
        z.maxLength(100, { error: 'must be at most 100 characters' }),
        z.refine(noControlCharacters, { error: 'must not contain control characters' }),
      ),
    cell: z.string({ error: cellError }).check(z.trim(), z.regex(A1_CELL_PATTERN, { error: cellError })),
  },
  { error: 'must be a sheet name and a cell such as A1: {sheetName, cell}' },
);

/**
 * The sheet's fields: where, and how a run's rows meet those already there. A table's destination takes
 * the same fields so that its own check refuses the sheet's ways by name (bigquery/definition.ts).
 */
const sheetFields = {
  target: targetSchema,
  /**
   * How a run's rows meet the rows already in the sheet (write-modes.ts): 'replace' (left out: the
   * default, or an upsert for an incremental report), 'append' or 'upsert'.
   */
  writeMode: z.optional(z.enum(WRITE_MODES, { error: "must be 'replace', 'append' or 'upsert'" })),
  /** Rows an append or upsert keeps at most, the oldest going first; left out: DEFAULT_MAX_STORED_ROWS. */
  maxStoredRows: z.optional(
    z.int({ error: rowsError }).check(z.minimum(1, { error: rowsError }), z.maximum(MAX_STORED_ROWS_LIMIT, { error: rowsError })),
  ),
  /**
   * Months up to and including this one ("2026-10") are closed: a revision of one of their days
   * raises a notice (revisions.ts). Daily general reports only; left out: no month is closed.
   */
  closedThrough: z.optional(
    z
      .string({ error: 'must be a month as yyyy-MM, such as "2026-10"' })
      .check(z.trim(), z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'must be a month as yyyy-MM, such as "2026-10"' })),
  ),
  /** Fetch only new days plus the last 3 and merge by day and breakdown keys (general report with day): an upsert of the recent days. */
  incremental: z.optional(z.boolean({ error: 'must be true or false' })),
};

/** A saved report's one destination, by its kind. */
export const destinationSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('sheet'), ...sheetFields }),
    /** A table to load the report into, one partition per day; `target` shows the load's status. */
    z.strictObject({ kind: z.literal('bigquery'), ...sheetFields, table: bigQueryTableSchema }),
  ],
  { error: "must be a destination: {kind: 'sheet', target} or {kind: 'bigquery', target, table}" },
);
export type SavedDestination = z.infer<typeof destinationSchema>;

/** Every kind of destination, by the name its room and its registration use. */
export const DESTINATION_KINDS = ['sheet', 'bigquery'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** The kind whose reports open in Sheets (Connected Sheets): a table. */
export const OPENS_IN_SHEETS: DestinationKind = 'bigquery';

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The fields a definition saved before `destination` (any saved until 2026-12) held at its top level. */
const FLAT_FIELDS = ['target', 'writeMode', 'maxStoredRows', 'closedThrough', 'incremental', 'bigquery'] as const;

/**
 * A definition with its `destination`: one saved before the field (its target and the sheet's fields at
 * the top level, and `bigquery` for a table) is moved into it, field by field, nothing dropped; what the
 * sidebar or a test sends in that shape is read the same way. One that has `destination` is left as it
 * is (a flat field beside it is then an unknown field). This is the one door: every check at save and
 * every read of a stored definition goes through it.
 */
export function withDestination(definition: unknown): unknown {
  if (!isRecord(definition) || 'destination' in definition) return definition;
  const destination: Record<string, unknown> = { kind: definition.bigquery !== undefined ? 'bigquery' : 'sheet' };
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(definition)) {
    // The destination takes the place of the target, so a definition's fields keep their order.
    if (key === 'target') converted.destination = destination;
    if (!(FLAT_FIELDS as readonly string[]).includes(key)) converted[key] = value;
    else if (value !== undefined) destination[key === 'bigquery' ? 'table' : key] = value;
  }
  if (!('destination' in converted)) converted.destination = destination;
  return converted;
}

/**
 * The argument a problem in a definition is named by: a destination's fields by the names users know
 * them by (`target.cell`, `writeMode`, `bigquery.tableId`), whichever shape was sent.
 */
export function argumentOf(path: readonly string[]): string {
  if (path[0] !== 'destination' || path.length < 2 || path[1] === 'kind') return path.join('.');
  return [path[1] === 'table' ? 'bigquery' : path[1], ...path.slice(2)].join('.');
}

/** The kind of a definition (or of what the sidebar sent, before any check): its destination's, else the sheet. */
export function destinationKindOf(definition: unknown): DestinationKind {
  const converted = withDestination(definition);
  const destination = isRecord(converted) ? converted.destination : undefined;
  const kind = isRecord(destination) ? destination.kind : undefined;
  return (DESTINATION_KINDS as readonly unknown[]).includes(kind) ? (kind as DestinationKind) : 'sheet';
}

/**
 * Whether the destination loads whole days whatever the report's hours: an hourly report into a table
 * covers its period's UTC days, one partition each (its destination refuses 'lastHours').
 */
export function loadsWholeDays(definition: unknown): boolean {
  return destinationKindOf(definition) !== 'sheet';
}

/** The table a report loads into, when its destination is one. */
export function tableOf(report: { destination: SavedDestination }): z.infer<typeof bigQueryTableSchema> | undefined {
  return report.destination.kind === 'bigquery' ? report.destination.table : undefined;
}

/**
 * Why a destination this installation was not built with cannot be used: at save (and when asked to
 * open it), naming what to do instead, or at a refresh of a report saved elsewhere.
 */
export function unavailableDestination(kind: DestinationKind, when: 'save' | 'refresh'): ValidationError {
  // Only the sheet is in every build; only BigQuery may be left out.
  const said = `this installation of Engage does not load into BigQuery (its deploy config does not say "bigquery": true)`;
  return ValidationError.single(kind, when === 'save' ? `${said}; choose a sheet, or ask whoever deployed it` : said);
}
