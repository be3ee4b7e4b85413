import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { buildReportTable, periodStartMs, reportResultToTable, tableToValues } from '../../../../src/core/sheets/report-table';
import { reportHandler } from '../../../support/fakes';
import { harness, PUBLISHER } from '../api/client/harness';

describe('buildReportTable', () => {
  it('puts breakdowns first in requested order, expands entities, then metrics in the spec order', () => {
    const items = [
      {
        revenue: '12,5',
        country: { id: 'US', name: 'United States' },
        paidClicks: { value: '3' },
        platform: { id: 'd', name: 'Desktop', kind: 'web' },
        mystery: '7',
      },
      { country: { name: 'Germany', id: 'DE', region: 'EU' }, platform: { value: { id: 'm', name: 'Mobile' } }, revenue: 1, paidPvs: 10 },
    ];
    const table = buildReportTable(items, { kind: 'main', breakdowns: ['platform', 'country'], timeZone: 'UTC' });
    expect(table.header).toEqual([
      'platform.id',
      'platform.name',
      'platform.kind',
      'country.id',
      'country.name',
      'country.region',
      'paidPvs',
      'revenue',
      'paidClicks',
      'mystery',
    ]);
    expect(table.rows).toEqual([
      ['d', 'Desktop', 'web', 'US', 'United States', '', '', 12.5, 3, 7],
      ['m', 'Mobile', '', 'DE', 'Germany', 'EU', 10, 1, '', ''],
    ]);
  });

  it('turns day and month into dates that show the same calendar day in the sheet time zone', () => {
    const items = [
      { day: '20261101', revenue: 1 },
      { day: { value: '20260329' }, revenue: 2 },
    ];
    const table = buildReportTable(items, { kind: 'main', breakdowns: ['day'], timeZone: 'America/Los_Angeles' });
    expect((table.rows[0]![0] as Date).toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect((table.rows[1]![0] as Date).toISOString()).toBe('2026-03-29T07:00:00.000Z');
    const months = buildReportTable([{ month: '202611', revenue: 1 }], { kind: 'main', breakdowns: ['month'], timeZone: 'Asia/Tokyo' });
    expect((months.rows[0]![0] as Date).toISOString()).toBe('2026-10-31T15:00:00.000Z');
  });

  it('shows hours of the hourly report at their UTC wall time, labelled UTC', () => {
    const table = buildReportTable([{ externalId: 'a', hour: '2026112105', revenue: 1 }], {
      kind: 'externalId',
      breakdowns: ['externalId'],
      timeZone: 'Europe/Berlin',
    });
    expect(table.header).toEqual(['externalId', 'hour (UTC)', 'revenue']);
    expect((table.rows[0]![1] as Date).toISOString()).toBe('2026-11-21T04:00:00.000Z');
  });

  it('adds a totals row from metricsSums', () => {
    const table = buildReportTable([{ day: '20261101', revenue: 1, paidClicks: 2 }], {
      kind: 'main',
      breakdowns: ['day'],
      timeZone: 'UTC',
      metricsSums: { revenue: '10,5', paidClicks: 4 },
    });
    expect(table.totals).toEqual(['Total', 10.5, 4]);
    expect(tableToValues(table)).toHaveLength(3);
  });

  it('labels the totals of rows cut short as the whole report’s, not the rows shown', () => {
    const items = [{ day: '20261101', revenue: 1 }];
    const options = { kind: 'main' as const, breakdowns: ['day'], timeZone: 'UTC', metricsSums: { revenue: 12 } };
    expect(buildReportTable(items, { ...options, totalItems: 1234 }).totals).toEqual(['Total of all 1,234 rows', 12]);
    expect(buildReportTable(items, { ...options, totalItems: 1 }).totals).toEqual(['Total', 12]);
  });

  it('keeps API text exactly as sent (sheet-output neutralises it for setValues)', () => {
    const table = buildReportTable([{ referrer: { id: '=HYPERLINK("x")', name: '+1 news' }, revenue: 1 }], {
      kind: 'main',
      breakdowns: ['referrer'],
      timeZone: 'UTC',
    });
    expect(table.rows[0]!.slice(0, 2)).toEqual(['=HYPERLINK("x")', '+1 news']);
  });

  it('keeps an unparseable day as text rather than inventing a date', () => {
    expect(buildReportTable([{ day: 'unknown' }], { kind: 'main', breakdowns: ['day'], timeZone: 'UTC' }).rows[0]).toEqual(['unknown']);
    expect(periodStartMs('day', '20261341', 'UTC')).toBeNull();
  });

  it('still has a header for an empty report', () => {
    const table = buildReportTable([], {
      kind: 'realtime',
      breakdowns: ['externalId', 'widget'],
      timeZone: 'UTC',
      metricsSums: { revenue: 0 },
    });
    expect(table.header).toEqual(['externalId', 'widget', 'revenue']);
    expect(table.totals).toEqual(['Total', '', 0]);
  });

  it('builds the table of a fetched report with its totals', () => {
    const { client } = harness(reportHandler(3, (i) => ({ day: '20261101', revenue: `${i},5` }), { revenue: '4,5' }));
    const result = client.runReport(
      client.buildQuery('main', { entityId: PUBLISHER, fromDate: '20261101', toDate: '20261102', metrics: 'all' }),
    );
    const table = reportResultToTable(result, { timeZone: 'UTC' });
    expect(table.rows.map((r) => r[1])).toEqual([0.5, 1.5, 2.5]);
    expect(table.totals).toEqual(['Total', 4.5]);
  });

  it('puts an unsorted report by day in date order, earliest first, rows of one day as Engage sent them', () => {
    // Engage sorts by revenue: the days come shuffled.
    const sent = [
      ['20261203', 'US', 90],
      ['20261202', 'US', 80],
      ['20261201', 'US', 70],
      ['20261203', 'DE', 60],
      ['20261130', 'US', 50],
      ['20261204', 'US', 40],
      ['20261201', 'DE', 30],
    ] as const;
    const { client } = harness(
      reportHandler(sent.length, (i) => ({ day: sent[i]![0], country: { id: sent[i]![1] }, revenue: sent[i]![2] })),
    );
    const query = (extra: Record<string, string> = {}) =>
      client.buildQuery('main', {
        entityId: PUBLISHER,
        fromDate: '20261130',
        toDate: '20261204',
        breakdowns: 'day,country',
        metrics: 'revenue',
        ...extra,
      });
    const rows = (extra?: Record<string, string>) =>
      tableToValues(reportResultToTable(client.runReport(query(extra)), { timeZone: 'UTC' }))
        .slice(1)
        .map((r) => [r[0] instanceof Date ? r[0].toISOString().slice(0, 10) : r[0], r[1], r[3]]);
    expect(rows()).toEqual([
      ['2026-11-30', 'US', 50],
      ['2026-12-01', 'US', 70],
      ['2026-12-01', 'DE', 30],
      ['2026-12-02', 'US', 80],
      ['2026-12-03', 'US', 90],
      ['2026-12-03', 'DE', 60],
      ['2026-12-04', 'US', 40],
      ['Total', '', 7],
    ]);
    // A sort the user chose is kept as Engage sent it.
    expect(rows({ sort: 'revenue desc' }).map((r) => r[2])).toEqual([90, 80, 70, 60, 50, 40, 30, 7]);
  });

  it('puts an unsorted report by month in month order, and leaves a report without a date as it came', () => {
    const months = ['202611', '202609', '202610'];
    const byMonth = harness(reportHandler(3, (i) => ({ month: months[i], revenue: 3 - i }))).client;
    const monthly = byMonth.runReport(
      byMonth.buildQuery('main', {
        entityId: PUBLISHER,
        fromDate: '20260901',
        toDate: '20261130',
        breakdowns: 'month',
        metrics: 'revenue',
      }),
    );
    expect(reportResultToTable(monthly, { timeZone: 'UTC', totals: false }).rows.map((r) => r[1])).toEqual([2, 1, 3]);
    const countries = ['US', 'DE', 'FR'];
    const byCountry = harness(reportHandler(3, (i) => ({ country: { id: countries[i] }, revenue: 3 - i }))).client;
    const plain = byCountry.runReport(
      byCountry.buildQuery('main', {
        entityId: PUBLISHER,
        fromDate: '20261101',
        toDate: '20261107',
        breakdowns: 'country',
        metrics: 'revenue',
      }),
    );
    expect(reportResultToTable(plain, { timeZone: 'UTC', totals: false }).rows.map((r) => r[0])).toEqual(['US', 'DE', 'FR']);
  });

  it('turns a 100,000-row response into rows in less than twice the time JSON.parse takes', () => {
    // Timed in its own process: jest workers share the CPU with other test files.
    const output = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'report-table.bench.ts')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const { parseMs, tableMs } = JSON.parse(output.trim().split('\n').pop()!) as { parseMs: number; tableMs: number };
    expect(tableMs).toBeLessThan(2 * parseMs);
  });
});
