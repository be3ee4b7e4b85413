/**
 * The destinations of a build with BigQuery, for unit tests that never reach BigQuery (its client
 * throws when asked for), and a definition checked as the scheduling service checks it at save: its
 * fields, then its destination's own rules.
 */
import { Destinations } from '../../src/core/schedules/refresh/destination';
import { sheetDestination } from '../../src/core/destinations/sheet/sheet-destination';
import { bigQueryDestination } from '../../src/core/destinations/bigquery/bigquery-destination';
import { checkSavedReport as checkFields, type SavedReportInput } from '../../src/core/schedules/saved/saved-reports';

export const BOTH_DESTINATIONS = new Destinations([
  sheetDestination(),
  bigQueryDestination({
    client: () => {
      throw new Error('no BigQuery call');
    },
  }),
]);

export function checkAtSave(input: unknown): SavedReportInput {
  return checkFields(input, (report) => BOTH_DESTINATIONS.of(report).checkDefinition(report));
}
