/**
 * A BigQuery report's passes (src/core/destinations/bigquery/warehouse-refresh.ts): a first backfill of
 * the whole period, its end following a period that moves while it runs, then, once done, passes of
 * the days gained and the last RESTATED_DAYS days; the progress text the Schedules tab shows; and the
 * saved report's rules for a BigQuery destination (destinations/bigquery/definition.ts), each refusal naming
 * its field.
 */
import { planPass, RESTATED_DAYS, warehouseProgress } from '../../../../../src/core/destinations/bigquery/warehouse-refresh';
import { type Backfill, dayLoaded, startBackfill } from '../../../../../src/core/warehouse/backfill';
import { checkAtSave } from '../../../../support/destinations';

const checkSavedReport = checkAtSave;

const YEAR = { fromDate: '20251120', toDate: '20261119' };

describe('the pass a run works on', () => {
  it('starts a backfill of the whole period when none is under way', () => {
    expect(planPass(undefined, YEAR)).toEqual({ fromDay: '20251120', toDay: '20261119', nextDay: '20251120' });
  });

  it('keeps a backfill under way, its cursor where it was, its end moving with the period', () => {
    const under = { ...startBackfill('20251120', '20261119'), nextDay: '20260301', msPerDay: 900, requestsPerDay: 0.4 };
    expect(planPass(under, YEAR)).toEqual(under);
    expect(planPass(under, { fromDate: '20251121', toDate: '20261120' })).toEqual({ ...under, toDay: '20261120' });
  });

  it('starts again at the period when it no longer reaches the next day, keeping what a day costs', () => {
    const under = { ...startBackfill('20240101', '20241231'), nextDay: '20240301', msPerDay: 900, requestsPerDay: 0.4 };
    expect(planPass(under, YEAR)).toEqual({
      fromDay: '20251120',
      toDay: '20261119',
      nextDay: '20251120',
      msPerDay: 900,
      requestsPerDay: 0.4,
    });
  });

  it(`once done, loads again the previous pass's last ${RESTATED_DAYS} days, which Engage may restate, and the days since`, () => {
    let done = startBackfill('20251120', '20251122');
    for (const day of ['20251120', '20251121', '20251122']) done = dayLoaded(done, day, { ms: 1_000, requests: 0.5 });
    const costs = { msPerDay: done.msPerDay, requestsPerDay: done.requestsPerDay };
    // The same period: its last three days.
    expect(planPass({ ...done, fromDay: '20241123', toDay: '20251122' }, { fromDate: '20241123', toDate: '20251122' })).toEqual({
      fromDay: '20251120',
      toDay: '20251122',
      nextDay: '20251120',
      ...costs,
    });
    // A day later: the previous pass's last three (loaded while Engage could restate them) and the day gained.
    expect(planPass({ ...done, toDay: '20251122' }, { fromDate: '20241124', toDate: '20251123' })).toMatchObject({
      fromDay: '20251120',
      toDay: '20251123',
    });
    // A week later (a weekly schedule): again from the previous pass's last three, not only the days gained.
    expect(planPass({ ...done, toDay: '20251122' }, { fromDate: '20241130', toDate: '20251129' })).toMatchObject({
      fromDay: '20251120',
      toDay: '20251129',
    });
  });

  it('starts again, keeping the window, when the days loaded hold something else (an edit a run wrote over)', () => {
    let done: Backfill = { ...startBackfill('20251120', '20251122'), key: 'table-a', window: { startMs: 5, loads: 3 } };
    for (const day of ['20251120', '20251121', '20251122']) done = dayLoaded(done, day, { ms: 1_000, requests: 0.5 });
    const period = { fromDate: '20241123', toDate: '20251122' };
    expect(planPass(done, period, 'table-a')).toMatchObject({ fromDay: '20251120', key: 'table-a' });
    expect(planPass(done, period, 'table-b')).toEqual({
      fromDay: '20241123',
      toDay: '20251122',
      nextDay: '20241123',
      key: 'table-b',
      window: { startMs: 5, loads: 3 },
    });
    // A backfill from before keys were kept takes the report's key and goes on.
    const { key: _k, ...unkeyed } = done;
    expect(planPass(unkeyed, period, 'table-b')).toMatchObject({ fromDay: '20251120', key: 'table-b' });
  });

  it('tells the progress: days loaded of the pass, what is left and the next day', () => {
    const under = { ...startBackfill('20251120', '20261119'), nextDay: '20260301' };
    expect(warehouseProgress(under)).toBe('BigQuery: 101 of 365 days loaded (2025-11-20 to 2026-11-19); 264 left, next 2026-03-01');
    const { nextDay: _next, ...done } = under;
    expect(warehouseProgress(done)).toBe('BigQuery: 365 of 365 days loaded (2025-11-20 to 2026-11-19)');
    expect(warehouseProgress(undefined)).toBeUndefined();
  });
});

describe('a saved report with a BigQuery destination', () => {
  const TARGET = { sheetName: 'BigQuery', cell: 'A1' };
  const TABLE = { projectId: ' my-project-123 ', datasetId: 'engage', tableId: 'daily docs', location: 'EU' };
  /** A destination loading into `table`, its status at the report's cell. */
  const intoTable = (table: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    kind: 'bigquery',
    target: TARGET,
    table,
    ...extra,
  });
  const report = (extra: Record<string, unknown> = {}) => ({
    name: 'Ledger',
    kind: 'main',
    entityId: 'c0ffee5eed1a2b3c4d5e6f708192a3b4',
    period: { type: 'lastDays', days: 365, endingYesterday: true },
    breakdowns: ['day', 'doc'],
    destination: intoTable(TABLE),
    schedule: { every: 'day', hour: 6 },
    ...extra,
  });

  it('is kept with its names trimmed', () => {
    expect(checkSavedReport(report()).destination).toEqual({
      kind: 'bigquery',
      target: TARGET,
      table: {
        projectId: 'my-project-123',
        datasetId: 'engage',
        tableId: 'daily docs',
        location: 'EU',
      },
    });
  });

  it.each([
    [
      'an unknown name in the destination',
      { destination: intoTable({ projectId: 'my-project-123', datasetId: 'e', tableId: 't', location: 'EU', region: 'x' }) },
      'bigquery.region',
      /is not a field of a saved report/,
    ],
    [
      'a table name with a dot',
      { destination: intoTable({ projectId: 'my-project-123', datasetId: 'e', tableId: 'a.b', location: 'EU' }) },
      'bigquery.tableId',
      /is not a table name/,
    ],
    [
      'no location',
      { destination: intoTable({ projectId: 'my-project-123', datasetId: 'e', tableId: 't', location: '' }) },
      'bigquery.location',
      /is missing/,
    ],
    [
      'an hourly report over hours',
      { kind: 'externalId', period: { type: 'lastHours', hours: 3 }, breakdowns: ['externalId'] },
      'period',
      /is loaded by whole UTC days/,
    ],
    [
      'the realtime report',
      { kind: 'realtime', period: { type: 'lastHours', hours: 3 }, breakdowns: [] },
      'kind',
      /realtime report covers only/,
    ],
    ['several publishers', { entityId: 'all' }, 'entityId', /loads one publisher/],
    ['a comparison', { compareWith: 'previous' }, 'compareWith', /applies to a sheet only/],
    ['incremental', { destination: intoTable(TABLE, { incremental: true }) }, 'incremental', /applies to a sheet only/],
    ['a row cap', { maxRows: 10 }, 'maxRows', /applies to a sheet only/],
  ] as const)('refuses %s, naming the field', (_title, extra, argument, rule) => {
    let error: unknown;
    try {
      checkSavedReport(report(extra));
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ argument });
    expect((error as Error).message).toMatch(rule);
  });
});
