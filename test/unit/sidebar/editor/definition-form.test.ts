/**
 * The saved-report editor's one mapping (sidebar/editor/definition-form.ts): a definition becomes the
 * editor's fields and the fields the same definition again, whatever the destination and write mode;
 * what a BigQuery table or a report refuses never reaches the definition; the builder's request is
 * the report, keeping what the builder does not show.
 */
import type { BuilderRequest, SavedReportInput } from '../../../../src/core';
import {
  allowedFields,
  definitionOf,
  editorStateOf,
  incrementalAllowed,
  keptTablePeriod,
  loadsToTable,
  loadsWholeDays,
  placeOf,
  reportFieldsOf,
  reportOfBuilder,
  reportSummary,
  tableProblem,
} from '../../../../sidebar/editor/definition-form';

const DAILY: SavedReportInput = {
  name: 'Daily revenue',
  kind: 'main',
  entityId: '1234',
  period: { type: 'lastDays', days: 7, endingYesterday: true },
  breakdowns: ['day'],
  metrics: ['revenue'],
  sort: 'day asc',
  destination: { kind: 'sheet', target: { sheetName: 'Scheduled', cell: 'B2' } },
  schedule: { every: 'day', hour: 6 },
  notices: { when: 'failure', email: true },
};
const TABLE = { projectId: 'p-1', datasetId: 'engage', tableId: 'daily', location: 'EU' };
type SheetFields = Omit<Extract<SavedReportInput['destination'], { kind: 'sheet' }>, 'kind' | 'target'>;
/** DAILY into its sheet with the sheet's fields (write mode, row cap, incremental, closed months). */
const inSheet = (fields: SheetFields, definition: SavedReportInput = DAILY): SavedReportInput => ({
  ...definition,
  destination: { kind: 'sheet', target: DAILY.destination.target, ...fields },
});
/** DAILY loaded into TABLE, its status at the same cell. */
const INTO_TABLE = { kind: 'bigquery', target: DAILY.destination.target, table: TABLE } as const;
const inTable = (definition: SavedReportInput = DAILY): SavedReportInput => ({ ...definition, destination: INTO_TABLE });

const roundTrip = (definition: SavedReportInput) => definitionOf(reportFieldsOf(definition), editorStateOf(definition));

describe('a definition through the editor and back', () => {
  it.each<[string, SavedReportInput]>([
    ['a replace into the sheet', DAILY],
    ['an append with its row cap, paused', inSheet({ writeMode: 'append', maxStoredRows: 5000 }, { ...DAILY, paused: true })],
    ['an incremental upsert with closed months', inSheet({ writeMode: 'upsert', incremental: true, closedThrough: '2026-10' })],
    ['an incremental report saved before write modes', inSheet({ incremental: true })],
    [
      'a report with alerts and a webhook',
      {
        ...DAILY,
        notices: { when: 'always', email: false, webhook: 'https://hooks.slack.com/…' },
        alerts: [{ kind: 'below', metric: 'revenue', value: 10 }],
      },
    ],
    ['a BigQuery report, its page size and Total row kept', inTable({ ...DAILY, pageSize: 500, totals: false })],
  ])('gives %s back unchanged', (_, definition) => {
    expect(roundTrip(definition)).toEqual(definition);
  });

  it('keeps the report itself apart from the fields it edits', () => {
    const destination = { ...INTO_TABLE, writeMode: 'append', maxStoredRows: 10, closedThrough: '2026-10' } as const;
    expect(reportFieldsOf({ ...DAILY, destination })).toEqual({
      kind: 'main',
      entityId: '1234',
      period: DAILY.period,
      breakdowns: ['day'],
      metrics: ['revenue'],
      sort: 'day asc',
    });
  });

  it('reads where the report writes and whether it loads a table', () => {
    expect(placeOf(DAILY)).toEqual({ sheetName: 'Scheduled', cell: 'B2' });
    expect(loadsToTable(DAILY)).toBe(false);
    expect(loadsToTable(inTable())).toBe(true);
  });
});

describe('what a destination and a report allow', () => {
  it('gives a BigQuery table no write mode, row cap, incremental option, closed months or alerts', () => {
    const state = {
      ...editorStateOf(inSheet({ writeMode: 'upsert', incremental: true, closedThrough: '2026-10' })),
      notices: { notices: { when: 'failure' as const, email: true }, alerts: [{ kind: 'zero' as const, metric: 'revenue', key: 'day' }] },
      table: TABLE,
    };
    const definition = definitionOf(reportFieldsOf(DAILY), state);
    expect(definition.destination).toEqual(INTO_TABLE);
    for (const field of ['writeMode', 'maxStoredRows', 'incremental', 'closedThrough'])
      expect(definition.destination).not.toHaveProperty(field);
    expect(definition).not.toHaveProperty('alerts');
    expect(definition.notices).toEqual({ when: 'failure', email: true });
    expect(allowedFields(DAILY, true)).toEqual({ writeMode: false, closedMonths: false, alerts: false, statusCell: true });
  });

  it('closes months only of a report whose revisions are tracked: by day, without a comparison', () => {
    expect(allowedFields(DAILY, false)).toEqual({ writeMode: true, closedMonths: true, alerts: true, statusCell: false });
    expect(allowedFields({ ...DAILY, breakdowns: ['country'] }, false).closedMonths).toBe(false);
    expect(allowedFields({ ...DAILY, compareWith: 'previous' }, false).closedMonths).toBe(false);
    const byCountry = { ...DAILY, breakdowns: ['country'] };
    expect(
      definitionOf(reportFieldsOf(byCountry), { ...editorStateOf(byCountry), closedThrough: '2026-10' }).destination,
    ).not.toHaveProperty('closedThrough');
  });

  it('offers incremental where the report could merge by day', () => {
    expect(incrementalAllowed(DAILY)).toBe(true);
    expect(incrementalAllowed({ ...DAILY, totals: true })).toBe(false);
    expect(incrementalAllowed({ ...DAILY, compareWith: 'previous' })).toBe(false);
    expect(incrementalAllowed({ ...DAILY, maxRows: 100 })).toBe(false);
    expect(incrementalAllowed({ ...DAILY, period: { type: 'fixed', fromDate: '20261001', toDate: '20261007' } })).toBe(false);
    expect(incrementalAllowed({ ...DAILY, kind: 'externalId', period: { type: 'lastHours', hours: 24 } })).toBe(false);
  });

  it("refuses the builder's row limit and comparison for a table, in the builder's words", () => {
    expect(tableProblem({})).toBeUndefined();
    expect(tableProblem({ maxRows: 10 })).toBe(
      'Row limit: a BigQuery table takes every row of the period; empty the Row limit above, or choose This sheet.',
    );
    expect(tableProblem({ compareWith: 'previous' })).toBe(
      'Compare with: a BigQuery table takes no comparison; set Compare with to None above, or choose This sheet.',
    );
  });

  it('loads the hourly report into a table by whole days, keeping a saved period that is no hour window', () => {
    expect(loadsWholeDays('externalId', true)).toBe(true);
    expect(loadsWholeDays('externalId', false)).toBe(false);
    expect(loadsWholeDays('main', true)).toBe(false);
    const since = { type: 'since' as const, fromDate: '20260101' };
    expect(keptTablePeriod(inTable({ ...DAILY, period: since }))).toEqual(since);
    expect(keptTablePeriod({ ...DAILY, period: since })).toBeUndefined();
    expect(keptTablePeriod(undefined)).toBeUndefined();
  });
});

describe("the builder's request as the report", () => {
  const request: BuilderRequest = {
    kind: 'main',
    entityId: '1234',
    fromDate: '2026-11-01',
    toDate: '2026-11-07',
    breakdowns: ['day'],
    metrics: ['revenue'],
    sort: 'day',
    order: 'asc',
  };

  it('is the report alone, with what the builder does not show kept from the saved report', () => {
    const report = reportOfBuilder(request, DAILY.period, inSheet({ writeMode: 'append' }, { ...DAILY, pageSize: 500, totals: false }));
    expect(report).toEqual({ ...reportFieldsOf(DAILY), pageSize: 500, totals: false });
    expect(definitionOf(report, editorStateOf(DAILY))).toEqual({ ...DAILY, pageSize: 500, totals: false });
  });
});

describe("the Schedules tab's line of a saved report", () => {
  it('says its period, comparison, write mode and closed months', () => {
    expect(reportSummary(DAILY)).toBe('the 7 days before today (UTC days)');
    expect(reportSummary(inSheet({ writeMode: 'append', maxStoredRows: 5000 }))).toBe(
      'the 7 days before today (UTC days), append, up to 5,000 rows',
    );
    expect(reportSummary(inSheet({ incremental: true, closedThrough: '2026-10' }))).toBe(
      'the 7 days before today (UTC days), incremental, months closed through 2026-10',
    );
  });
});
