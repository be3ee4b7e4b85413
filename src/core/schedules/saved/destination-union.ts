/**
 * The destinations a saved report may have, as its definition holds them: the sheet (its target cell,
 * with the write mode, row cap, incremental and closed months beside it), or a BigQuery table, whose
 * target cell then shows the load's status. This is the one file below the destinations' own rooms
 * (src/core/destinations/) that names each kind: the definition's field for the table, which kind a
 * definition has, and what is said when a kind is not part of this installation. What each kind does
 * is its own room's (refresh/destination.ts names what every destination does).
 */
import * as z from '../../util/zod';
import { ValidationError } from '../../errors';

const name = z.string({ error: 'must be text' });

/** A BigQuery table as a saved report holds it; the names are checked by its destination at save. */
export const bigQueryTableSchema = z.strictObject(
  { projectId: name, datasetId: name, tableId: name, location: name },
  { error: 'must be a BigQuery table: {projectId, datasetId, tableId, location}' },
);

/**
 * The definition's fields that choose a destination other than the sheet: `bigquery`, a table to load
 * the report into, one partition per day. Left out: the report's rows go to the target sheet.
 */
export const destinationFields = { bigquery: z.optional(bigQueryTableSchema) };

/** Every kind of destination, by the name its room and its registration use. */
export const DESTINATION_KINDS = ['sheet', 'bigquery'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** The kind whose reports open in Sheets (Connected Sheets): a table. */
export const OPENS_IN_SHEETS: DestinationKind = 'bigquery';

/** The kind of a definition (or of what the sidebar sent, before any check): a table given, else the sheet. */
export function destinationKindOf(definition: unknown): DestinationKind {
  const given = definition !== null && typeof definition === 'object' ? (definition as { bigquery?: unknown }).bigquery : undefined;
  return given !== undefined ? 'bigquery' : 'sheet';
}

/**
 * Whether the destination loads whole days whatever the report's hours: an hourly report into a table
 * covers its period's UTC days, one partition each (its destination refuses 'lastHours').
 */
export function loadsWholeDays(definition: unknown): boolean {
  return destinationKindOf(definition) !== 'sheet';
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
