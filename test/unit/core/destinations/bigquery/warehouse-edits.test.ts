/**
 * Saving and changing BigQuery reports (src/core/destinations/bigquery/warehouse-edits.ts): one table
 * takes one saved report, refused naming the field; a change of what the table holds, or a period that
 * now starts earlier, starts the backfill again from the period's first day, keeping the day's loads
 * counted for the same table.
 */
import { backfillAfterEdit, checkTableFree, statusAfterEdit } from '../../../../../src/core/destinations/bigquery/warehouse-edits';
import { dueReports } from '../../../../../src/core/schedules/refresh/due-order';
import { Destinations } from '../../../../../src/core/schedules/refresh/destination';
import { sheetDestination } from '../../../../../src/core/destinations/sheet/sheet-destination';
import { bigQueryDestination } from '../../../../../src/core/destinations/bigquery/bigquery-destination';
import { backfillKey, loadablePeriod } from '../../../../../src/core/destinations/bigquery/warehouse-refresh';
import type { RefreshStatus, SavedReport, SavedReportInput } from '../../../../../src/core/schedules/saved/saved-reports';
import { dayLoaded, loadCounted, startBackfill } from '../../../../../src/core/warehouse/backfill';

const NOW = Date.parse('2026-11-20T06:00:00Z');
const TABLE = { projectId: 'my-project-1', datasetId: 'engage', tableId: 'daily', location: 'EU' };
const TARGET = { sheetName: 'BQ', cell: 'A1' };
/** A destination loading into `table`, its status at the report's cell. */
const intoTable = (table: typeof TABLE) => ({ kind: 'bigquery', target: TARGET, table }) as const;
/** The same report's cell as a sheet destination. */
const INTO_SHEET = { kind: 'sheet', target: TARGET } as const;

const report = (extra: Partial<SavedReportInput> = {}): SavedReportInput =>
  ({
    name: 'Ledger',
    kind: 'main',
    entityId: 'c0ffee5eed1a2b3c4d5e6f708192a3b4',
    period: { type: 'lastDays', days: 30, endingYesterday: true },
    breakdowns: ['day', 'platform'],
    destination: intoTable(TABLE),
    schedule: { every: 'day', hour: 6 },
    ...extra,
  }) as SavedReportInput;

describe('one table, one saved report', () => {
  it('refuses a table another saved report loads into, naming the field and that report', () => {
    const others = [{ id: 'r1', name: 'Ledger EU', destination: intoTable({ ...TABLE, tableId: ' daily ' }) }];
    expect(() => checkTableFree(report(), others)).toThrow(
      'bigquery.tableId: my-project-1.engage.daily already takes the saved report "Ledger EU": each day\'s load replaces that day with one report\'s rows',
    );
    // The report itself, another table of the dataset, and sheet reports are no obstacle.
    expect(() => checkTableFree(report(), others, 'r1')).not.toThrow();
    expect(() => checkTableFree(report({ destination: intoTable({ ...TABLE, tableId: 'daily_us' }) }), others)).not.toThrow();
    expect(() => checkTableFree(report(), [{ id: 'r2', name: 'Sheet', destination: INTO_SHEET }])).not.toThrow();
  });
});

describe('the backfill after a change', () => {
  // Ten days loaded, three loads counted in the day's window.
  let loaded = loadCounted(loadCounted(loadCounted(startBackfill('20261021', '20261119'), NOW - 3), NOW - 2), NOW - 1);
  for (let i = 0; i < 10; i++) loaded = dayLoaded(loaded, loaded.nextDay!, { ms: 1_000, requests: 0.1 });

  it('goes on as it was for a change of name, schedule, notices or a later start', () => {
    expect(backfillAfterEdit(report(), report({ name: 'Renamed', schedule: { every: 'hour' } }), loaded, NOW)).toBeUndefined();
    expect(
      backfillAfterEdit(report(), report({ period: { type: 'lastDays', days: 20, endingYesterday: true } }), loaded, NOW),
    ).toBeUndefined();
    expect(backfillAfterEdit(report(), report({ destination: INTO_SHEET }), loaded, NOW)).toBeUndefined();
  });

  it('starts again from the first day for new breakdowns, metrics, filter or publisher, keeping the window', () => {
    for (const change of [
      { breakdowns: ['day', 'country'] },
      { metrics: ['revenue'] },
      { filter: 'revenue:gt:1' },
      { entityId: '0123456789abcdef0123456789abcdef' },
    ]) {
      expect(backfillAfterEdit(report(), report(change), loaded, NOW)).toEqual({
        fromDay: '20261021',
        toDay: '20261119',
        nextDay: '20261021',
        key: expect.any(String),
        window: { startMs: NOW - 3, loads: 3 },
      });
    }
  });

  it('starts again, with a window of its own, for a new table; and from the new first day for a longer period', () => {
    expect(backfillAfterEdit(report(), report({ destination: intoTable({ ...TABLE, tableId: 'daily2' }) }), loaded, NOW)).toEqual({
      fromDay: '20261021',
      toDay: '20261119',
      nextDay: '20261021',
      key: expect.any(String),
    });
    expect(
      backfillAfterEdit(report(), report({ period: { type: 'lastDays', days: 60, endingYesterday: true } }), loaded, NOW),
    ).toMatchObject({ fromDay: '20260921', nextDay: '20260921', window: { loads: 3 } });
  });
});

describe('the days a BigQuery report loads', () => {
  it('end today at the latest: a day not begun would be loaded empty', () => {
    const fixed = { type: 'fixed', fromDate: '20261101', toDate: '20271231' } as const;
    expect(loadablePeriod(fixed, NOW)).toEqual({ fromDate: '20261101', toDate: '20261120' });
    expect(loadablePeriod({ type: 'fixed', fromDate: '20270101', toDate: '20271231' }, NOW)).toEqual({
      fromDate: '20270101',
      toDate: '20270101',
    });
    // A period moved later by an edit starts again with no day after today either.
    const later = backfillAfterEdit(report(), report({ period: fixed, metrics: ['revenue'] }), startBackfill('20261021', '20261119'), NOW);
    expect(later).toMatchObject({ fromDay: '20261101', toDay: '20261120' });
  });
});

describe('when a changed report loads again', () => {
  const saved = (extra: Partial<SavedReportInput> = {}): SavedReport =>
    ({ ...report(extra), id: 'r1', ownerId: 'me', createdAtMs: 0, updatedAtMs: 0 }) as SavedReport;
  const done = { ...startBackfill('20261021', '20261119'), key: backfillKey(report()) };
  const { nextDay: _n, ...finished } = done;

  it('is due at the next hourly run, not at its slot a week away; or when the table takes loads again', () => {
    const slot = NOW + 7 * 86_400_000;
    const after = statusAfterEdit(report(), report({ metrics: ['revenue'] }), { backfill: finished, nextRunAtMs: slot, rows: 5 }, NOW)!;
    expect(after.nextRunAtMs).toBeUndefined();
    expect(after.rows).toBe(5);
    expect(after.backfill).toMatchObject({ fromDay: '20261021', nextDay: '20261021' });
    const spent = { ...finished, window: { startMs: NOW - 1_000, loads: 700 } };
    expect(statusAfterEdit(report(), report({ metrics: ['revenue'] }), { backfill: spent, nextRunAtMs: slot }, NOW)!.nextRunAtMs).toBe(
      NOW - 1_000 + 86_400_000,
    );
    expect(statusAfterEdit(report(), report({ name: 'Renamed' }), { backfill: finished, nextRunAtMs: slot }, NOW)).toBeUndefined();
  });

  it('is due at once when a run under way wrote the old days back over the edit', () => {
    const noClient = (): never => {
      throw new Error('no BigQuery call');
    };
    const store = (r: SavedReport, status: RefreshStatus) => ({ list: () => [r], status: () => status });
    const slot = NOW + 7 * 86_400_000;
    // The run's status, keyed for the old table, over a report now pointed at another.
    const status: RefreshStatus = { backfill: finished, nextRunAtMs: slot };
    const destinations = new Destinations([sheetDestination(), bigQueryDestination({ client: noClient })]);
    expect(dueReports(store(saved(), status), 'me', NOW, destinations)).toEqual([]);
    const moved = saved({ destination: intoTable({ ...TABLE, tableId: 'daily_new' }) });
    expect(dueReports(store(moved, status), 'me', NOW, destinations).map((r) => r.id)).toEqual(['r1']);
  });
});
