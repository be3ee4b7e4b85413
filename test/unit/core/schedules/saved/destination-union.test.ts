/**
 * A saved report's one `destination`, and the one door definitions in the shape saved before it go
 * through: every flat field moved into it under its name (the table as `table`), nothing dropped, the
 * fields' order kept; refusals named as users know the fields, whichever shape was sent.
 */
import { checkSavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { argumentOf, destinationKindOf, withDestination } from '../../../../../src/core/schedules/saved/destination-union';
import { ValidationError } from '../../../../../src/core/errors';

const report = {
  name: 'Daily',
  kind: 'main',
  entityId: 'p1',
  period: { type: 'lastDays', days: 7 },
  breakdowns: ['day'],
  schedule: { every: 'day', hour: 6 },
};
const target = { sheetName: 'Daily', cell: 'B2' };
const table = { projectId: 'p', datasetId: 'd', tableId: 't', location: 'EU' };

function problems(input: unknown): string[] {
  try {
    checkSavedReport(input);
  } catch (e) {
    if (e instanceof ValidationError) return e.problems.map((p) => p.argument);
    throw e;
  }
  return [];
}

describe('withDestination', () => {
  it('moves the flat fields of a sheet into one destination where the target was, keeping every value', () => {
    const flat = { ...report, target, writeMode: 'append', maxStoredRows: 500, closedThrough: '2026-10', totals: false };
    const converted = withDestination(flat) as Record<string, unknown>;
    expect(Object.keys(converted)).toEqual(['name', 'kind', 'entityId', 'period', 'breakdowns', 'schedule', 'destination', 'totals']);
    expect(converted.destination).toEqual({ kind: 'sheet', target, writeMode: 'append', maxStoredRows: 500, closedThrough: '2026-10' });
    expect(checkSavedReport(flat).destination).toEqual(converted.destination);
  });

  it('makes a table its destination, with the target cell of its status', () => {
    const converted = withDestination({ ...report, target, bigquery: table }) as Record<string, unknown>;
    expect(converted.destination).toEqual({ kind: 'bigquery', target, table });
    expect(converted).not.toHaveProperty('bigquery');
    expect(destinationKindOf({ ...report, target, bigquery: table })).toBe('bigquery');
    expect(destinationKindOf(converted)).toBe('bigquery');
    expect(destinationKindOf({ ...report, target })).toBe('sheet');
  });

  it('leaves a definition that has a destination as it is, and anything that is not an object', () => {
    const current = { ...report, destination: { kind: 'sheet', target } };
    expect(withDestination(current)).toBe(current);
    expect(withDestination(null)).toBeNull();
    expect(withDestination('text')).toBe('text');
  });
});

describe('refusals name the fields as users know them, in either shape', () => {
  it('a bad cell, write mode or table name', () => {
    expect(problems({ ...report, target: { sheetName: 'Daily', cell: 'nope' } })).toEqual(['target.cell']);
    expect(problems({ ...report, destination: { kind: 'sheet', target: { sheetName: 'Daily', cell: 'nope' } } })).toEqual(['target.cell']);
    expect(problems({ ...report, target, writeMode: 'merge' })).toEqual(['writeMode']);
    expect(problems({ ...report, destination: { kind: 'sheet', target, writeMode: 'merge' } })).toEqual(['writeMode']);
    expect(problems({ ...report, target, bigquery: { ...table, tableId: 4 } })).toEqual(['bigquery.tableId']);
    expect(problems({ ...report })).toEqual(['target']);
  });

  it('an unknown kind, and a flat field beside a destination', () => {
    expect(problems({ ...report, destination: { kind: 'ftp', target } })).toEqual(['destination.kind']);
    expect(problems({ ...report, destination: { kind: 'sheet', target }, writeMode: 'append' })).toEqual(['writeMode']);
    expect(argumentOf(['destination', 'table', 'location'])).toBe('bigquery.location');
    expect(argumentOf(['schedule', 'hour'])).toBe('schedule.hour');
  });
});
