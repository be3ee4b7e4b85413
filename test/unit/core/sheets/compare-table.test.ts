/**
 * The comparison table (compare-table.ts): rows of the two periods joined on the non-time breakdowns,
 * days and months aligned by position, blanks (never zeros) where a row is in one period only or a
 * period is shorter, totals from each period's metricsSums, and the formats and notes of its block.
 */
import type { DayRange } from '../../../../src/core/api/requests/compare-periods';
import type { ReportResult } from '../../../../src/core/api/paging/paging';
import { buildReportQuery } from '../../../../src/core/api/requests/report-request';
import { buildCompareTable, compareColumnCount, compareColumnKind, compareToSheetBlock } from '../../../../src/core/sheets/compare-table';
import { asTypedInput } from '../../../../src/core/sheets/sheet-output';

const NOW = Date.UTC(2026, 10, 20, 12);
const CURRENT: DayRange = { fromDate: '20261101', toDate: '20261103' };
const EARLIER: DayRange = { fromDate: '20261025', toDate: '20261027' };

function result(
  range: DayRange,
  breakdowns: string,
  items: Record<string, unknown>[],
  metricsSums?: Record<string, unknown>,
): ReportResult {
  const query = buildReportQuery('main', { entityId: 'p1', ...range, breakdowns }, { nowMs: NOW });
  return {
    query,
    items,
    totalItems: items.length,
    partial: false,
    pagesFetched: 1,
    pagesPlanned: 1,
    ...(metricsSums ? { metricsSums } : {}),
  };
}

const options = (metrics: string[], extra: Record<string, unknown> = {}) => ({
  metrics,
  currentRange: CURRENT,
  earlierRange: EARLIER,
  timeZone: 'UTC',
  ...extra,
});
const day = (text: string) => new Date(`${text}T00:00:00Z`);
const tidyPercent = (change: number, before: number) => Number(((change / before) * 100).toPrecision(12));

describe('buildCompareTable', () => {
  it('aligns days by position, whatever order the API sent them in, with the earlier day beside each', () => {
    // Sorted by revenue, as the API does by default: not by day.
    const now = result(CURRENT, 'day', [
      { day: '20261102', revenue: 30, rpmByPvs: 3 },
      { day: '20261101', revenue: 20, rpmByPvs: 2 },
      { day: '20261103', revenue: 10, rpmByPvs: 1 },
    ]);
    const before = result(EARLIER, 'day', [
      { day: '20261027', revenue: 8, rpmByPvs: 4 },
      { day: '20261025', revenue: 10, rpmByPvs: 2 },
      { day: '20261026', revenue: 0, rpmByPvs: 0 },
    ]);
    const table = buildCompareTable(now, before, options(['revenue', 'rpmByPvs']));
    expect(table.header).toEqual([
      'day',
      'day.previous',
      'revenue',
      'revenue.previous',
      'revenue.change',
      'revenue.change%',
      'rpmByPvs',
      'rpmByPvs.previous',
      'rpmByPvs.change',
      'rpmByPvs.change%',
    ]);
    expect(table.rows).toEqual([
      [day('2026-11-01'), day('2026-10-25'), 20, 10, 10, 100, 2, 2, 0, 0],
      // The earlier value is 0: the change is there, the change in % is blank.
      [day('2026-11-02'), day('2026-10-26'), 30, 0, 30, '', 3, 0, 3, ''],
      [day('2026-11-03'), day('2026-10-27'), 10, 8, 2, 25, 1, 4, -3, -75],
    ]);
    expect(table.totals).toBeUndefined();
  });

  it('shows blank days and values on the side of the shorter period', () => {
    const longer: DayRange = { fromDate: '20261020', toDate: '20261024' };
    const now = result(CURRENT, 'day', [{ day: '20261101', revenue: 5 }]);
    const before = result(longer, 'day', [
      { day: '20261020', revenue: 4 },
      { day: '20261024', revenue: 1 },
    ]);
    const table = buildCompareTable(now, before, options(['revenue'], { earlierRange: longer }));
    expect(table.rows).toEqual([
      [day('2026-11-01'), day('2026-10-20'), 5, 4, 1, 25],
      // Position 5 is beyond the report's three days: its day is blank, and so is its value.
      ['', day('2026-10-24'), '', 1, '', ''],
    ]);
  });

  it('joins on the entity id; a country in one period only has blanks on the other side, never zeros', () => {
    const now = result(CURRENT, 'country', [
      { country: { id: 'US', name: 'United States' }, revenue: 12.5, paidClicks: 0 },
      { country: { id: 'MX', name: 'Mexico' }, revenue: 3, paidClicks: 2 },
    ]);
    const before = result(EARLIER, 'country', [
      { country: { id: 'AU', name: 'Australia' }, revenue: 4, paidClicks: 1 },
      { country: { id: 'US', name: 'United States' }, revenue: 10, paidClicks: 0 },
    ]);
    const table = buildCompareTable(now, before, options(['revenue', 'paidClicks']));
    expect(table.rows).toEqual([
      ['US', 'United States', 12.5, 10, 2.5, 25, 0, 0, 0, ''],
      ['MX', 'Mexico', 3, '', '', '', 2, '', '', ''],
      ['AU', 'Australia', '', 4, '', '', '', 1, '', ''],
    ]);
  });

  it('joins day and country: the same country on the same position', () => {
    const now = result(CURRENT, 'day,country', [
      { day: '20261102', country: { id: 'US', name: 'United States' }, revenue: 2 },
      { day: '20261101', country: { id: 'US', name: 'United States' }, revenue: 1 },
    ]);
    const before = result(EARLIER, 'day,country', [
      { day: '20261025', country: { id: 'DE', name: 'Germany' }, revenue: 7 },
      { day: '20261026', country: { id: 'US', name: 'United States' }, revenue: 1 },
    ]);
    const rows = buildCompareTable(now, before, options(['revenue'])).rows;
    expect(rows.map((r) => [r[2], r[4], r[5]])).toEqual([
      ['US', 1, ''],
      ['DE', '', 7],
      ['US', 2, 1],
    ]);
  });

  it("compares each period's metricsSums in the Total row, never a sum of rows", () => {
    const now = result(CURRENT, 'country', [{ country: { id: 'US', name: 'US' }, rpmByPvs: 3, revenue: 9 }], {
      rpmByPvs: '2,5',
      revenue: 9,
    });
    const before = result(EARLIER, 'country', [{ country: { id: 'US', name: 'US' }, rpmByPvs: 1, revenue: 6 }], {
      rpmByPvs: { value: 2 },
      revenue: 6,
    });
    const table = buildCompareTable(now, before, options(['rpmByPvs', 'revenue']));
    expect(table.totals).toEqual(['Total', '', 2.5, 2, 0.5, 25, 9, 6, 3, 50]);
    expect(buildCompareTable(now, before, options(['revenue'], { totals: false })).totals).toBeUndefined();
  });

  it('keeps the first maxRows rows, with the totals of every row', () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ country: { id: `C${i}`, name: `C${i}` }, revenue: i }));
    const table = buildCompareTable(
      result(CURRENT, 'country', items(5), { revenue: 10 }),
      result(EARLIER, 'country', items(5), { revenue: 10 }),
      options(['revenue'], { maxRows: 2 }),
    );
    expect(table.rows.map((r) => r[0])).toEqual(['C0', 'C1']);
    expect(table.totals).toEqual(['Total', '', 10, 10, 0, 0]);
  });

  it('keeps the Total row alone with maxRows 0: the comparison of the two periods in one row', () => {
    const items = [{ day: '20261101', revenue: 3 }];
    const table = buildCompareTable(
      result(CURRENT, 'day', items, { revenue: 12 }),
      result(EARLIER, 'day', [{ day: '20261025', revenue: 2 }], { revenue: 8 }),
      options(['revenue'], { maxRows: 0 }),
    );
    expect(table.rows).toEqual([]);
    expect(table.totals).toEqual(['Total', '', 12, 8, 4, 50]);
  });

  /** A period of several publishers, as publisher-reports.ts combines it: the publisher on each row, the publishers listed. */
  function several(range: DayRange, items: Record<string, unknown>[], metricsSums: Record<string, unknown>): ReportResult {
    const one = result(range, 'day,country', items, metricsSums);
    return {
      ...one,
      query: { ...one.query, breakdowns: ['publisher', ...one.query.breakdowns] },
      publishers: [
        { id: 'pA', name: 'Alpha' },
        { id: 'pB', name: 'Bravo' },
      ],
    };
  }
  const A = { id: 'pA', name: 'Alpha' };
  const B = { id: 'pB', name: 'Bravo' };
  const US = { id: 'US', name: 'United States' };
  const MX = { id: 'MX', name: 'Mexico' };

  it("joins several publishers on the publisher too: each publisher's rows together, maxRows a publisher, totals of the combined sums", () => {
    // Sorted by revenue over all, as the rows of one period would never be: Bravo's best row before Alpha's.
    const now = several(
      CURRENT,
      [
        { publisher: A, day: '20261101', country: US, revenue: 5 },
        { publisher: A, day: '20261102', country: US, revenue: 6 },
        { publisher: B, day: '20261101', country: US, revenue: 50 },
        { publisher: B, day: '20261101', country: MX, revenue: 7 },
      ],
      { revenue: 68 },
    );
    const before = several(
      EARLIER,
      [
        { publisher: B, day: '20261025', country: US, revenue: 40 },
        { publisher: A, day: '20261025', country: US, revenue: 4 },
        // Alpha had Mexico the week before only: its row comes with Alpha's rows, blank this week.
        { publisher: A, day: '20261026', country: MX, revenue: 1 },
      ],
      { revenue: 45 },
    );
    const table = buildCompareTable(now, before, options(['revenue']));
    expect(table.header).toEqual([
      'publisher.id',
      'publisher.name',
      'day',
      'day.previous',
      'country.id',
      'country.name',
      'revenue',
      'revenue.previous',
      'revenue.change',
      'revenue.change%',
    ]);
    expect(table.rows).toEqual([
      ['pA', 'Alpha', day('2026-11-01'), day('2026-10-25'), 'US', 'United States', 5, 4, 1, 25],
      ['pA', 'Alpha', day('2026-11-02'), day('2026-10-26'), 'US', 'United States', 6, '', '', ''],
      ['pA', 'Alpha', day('2026-11-02'), day('2026-10-26'), 'MX', 'Mexico', '', 1, '', ''],
      ['pB', 'Bravo', day('2026-11-01'), day('2026-10-25'), 'US', 'United States', 50, 40, 10, 25],
      ['pB', 'Bravo', day('2026-11-01'), day('2026-10-25'), 'MX', 'Mexico', 7, '', '', ''],
    ]);
    expect(table.totals).toEqual(['Total', '', '', '', '', '', 68, 45, 23, tidyPercent(23, 45)]);
    const cut = buildCompareTable(now, before, options(['revenue'], { maxRows: 1 }));
    expect(cut.rows.map((r) => [r[0], r[4]])).toEqual([
      ['pA', 'US'],
      ['pB', 'US'],
    ]);
    expect(compareColumnCount(['publisher', 'day', 'country'], ['revenue'])).toBe(10);
  });

  it('aligns months by position', () => {
    const now = result({ fromDate: '20261001', toDate: '20261130' }, 'month', [
      { month: '202611', revenue: 2 },
      { month: '202610', revenue: 1 },
    ]);
    const before = result({ fromDate: '20260801', toDate: '20260930' }, 'month', [{ month: '202608', revenue: 4 }]);
    const table = buildCompareTable(now, before, {
      metrics: ['revenue'],
      currentRange: { fromDate: '20261001', toDate: '20261130' },
      earlierRange: { fromDate: '20260801', toDate: '20260930' },
      timeZone: 'UTC',
    });
    expect(table.header.slice(0, 2)).toEqual(['month', 'month.previous']);
    expect(table.rows).toEqual([
      [day('2026-10-01'), day('2026-08-01'), 1, 4, -3, -75],
      [day('2026-11-01'), day('2026-09-01'), 2, '', '', ''],
    ]);
  });
});

describe('the comparison block', () => {
  it('has two columns per breakdown and four per metric: the default four with four breakdowns fit 26 columns', () => {
    expect(compareColumnCount(['day', 'country'], ['revenue'])).toBe(8);
    expect(compareColumnCount(['day', 'platform', 'country', 'section'], ['totalPvs', 'revenue', 'rpmByPvs', 'paidCtrByPvs'])).toBe(24);
  });

  it('formats money, counts and percentages per column and notes which period each holds', () => {
    const now = result(CURRENT, 'day', [{ day: '20261101', revenue: 1, totalPvs: 10, paidCtrByPvs: 1 }], { revenue: 1 });
    const before = result(EARLIER, 'day', [{ day: '20261025', revenue: 2, totalPvs: 5, paidCtrByPvs: 2 }], { revenue: 2 });
    const block = compareToSheetBlock(now, before, { ...options(['revenue', 'totalPvs']), currencyCode: 'EUR', decDigits: 1 });
    expect(block.kinds).toEqual(['day', 'day', 'money', 'money', 'money', 'percent', 'count', 'count', 'count', 'percent']);
    expect(block.numberFormats[3]).toBe('#,##0.0 "EUR"');
    expect(block.numberFormats[5]).toBe('0.00"%"');
    expect(block.headerNotes![3]).toMatch(/^Revenue: .*; earlier period 2026-10-25 to 2026-10-27$/);
    expect(block.headerNotes![1]).toMatch(/the day of the earlier period at the same position/);
    expect(block.headerNotes![5]).toMatch(/change in % of the earlier period's value; blank when that is 0 or missing/);
    expect(block).toMatchObject({ dataRows: 1, hasTotals: true });
    expect(block.values.at(-1)![0]).toBe('Total');
    expect(compareColumnKind('paidCtrByPvs.change')).toBe('percent');
  });

  it('keeps API text exactly as sent; setValues gets it with the apostrophe that keeps it text', () => {
    const evil = { id: '=HYPERLINK("x")', name: '+1' };
    const block = compareToSheetBlock(
      result(CURRENT, 'section', [{ section: evil, revenue: 1 }]),
      result(EARLIER, 'section', []),
      options(['revenue']),
    );
    expect(block.values[1]!.slice(0, 2)).toEqual(['=HYPERLINK("x")', '+1']);
    expect(asTypedInput(block.values)[1]!.slice(0, 2)).toEqual(['\'=HYPERLINK("x")', "'+1"]);
  });
});
