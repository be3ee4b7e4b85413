/**
 * reportToSheetBlock: the cells a report becomes, with API text neutralised and one number format per
 * column.
 */
import type { ReportResult } from '../../../src/core/paging';
import { buildReportQuery } from '../../../src/core/report-request';
import { columnKind, neutraliseText, numberFormatOf, reportToSheetBlock } from '../../../src/core/sheet-output';

const NOW = Date.UTC(2026, 10, 20, 12);

function result(items: Record<string, unknown>[], breakdowns: string, metricsSums?: Record<string, unknown>, metrics = 'revenue,paidClicks'): ReportResult {
  const query = buildReportQuery('main', { entityId: 'pub', fromDate: '20261101', toDate: '20261102', breakdowns, metrics }, { nowMs: NOW, timeZone: 'Europe/Berlin' });
  const r: ReportResult = { query, items, totalItems: items.length, partial: false, pagesFetched: 1, pagesPlanned: 1 };
  if (metricsSums) r.metricsSums = metricsSums;
  return r;
}

describe('neutraliseText', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', '\'=HYPERLINK("http://evil.example","x")'],
    ['+SUM(1)', "'+SUM(1)"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['00123', "'00123"],
    ['1,5', "'1,5"],
    ['TRUE', "'TRUE"],
    ['2026-11-01', "'2026-11-01"],
    ["'quoted", "''quoted"],
    ['Sports', 'Sports'],
    ['<img src=x onerror=alert(1)>', '<img src=x onerror=alert(1)>'],
    ['', ''],
  ])('writes %j as %j', (input, expected) => {
    expect(neutraliseText(input)).toBe(expected);
  });
});

describe('columnKind and numberFormatOf', () => {
  it('formats days, money in the report currency with its decimals, counts and percentages', () => {
    expect(['day', 'month', 'revenue', 'rpmByPvs', 'paidClicks', 'paidCtrByPvs', 'viewabilityRate', 'section.name'].map(columnKind)).toEqual([
      'day', 'month', 'money', 'money', 'count', 'percent', 'percent', 'text',
    ]);
    expect(numberFormatOf('money', 'EUR', 3)).toBe('#,##0.000 "EUR"');
    expect(numberFormatOf('money', 'JPY', 0)).toBe('#,##0 "JPY"');
    expect(numberFormatOf('day')).toBe('yyyy-mm-dd');
    expect(numberFormatOf('text')).toBeNull();
  });
});

describe('reportToSheetBlock', () => {
  it('neutralises hostile section names and keeps numbers and dates as they are', () => {
    const block = reportToSheetBlock(
      result(
        [
          { day: '20261101', section: { id: '=1+1', name: '=HYPERLINK("http://evil.example","click")' }, revenue: 12.5, paidClicks: 3 },
          { day: '20261102', section: { id: 's2', name: '<img src=x onerror=alert(1)>' }, revenue: '7,25', paidClicks: { value: 4 } },
        ],
        'day,section',
        { revenue: 19.75, paidClicks: 7 },
      ),
      { timeZone: 'Europe/Berlin', currencyCode: 'EUR' },
    );
    expect(block.values[0]).toEqual(['day', 'section.id', 'section.name', 'revenue', 'paidClicks']);
    expect(block.values[1]!.slice(1)).toEqual(["'=1+1", '\'=HYPERLINK("http://evil.example","click")', 12.5, 3]);
    expect(block.values[2]!.slice(1)).toEqual(['s2', '<img src=x onerror=alert(1)>', 7.25, 4]);
    expect(block.values[1]![0]).toBeInstanceOf(Date);
    expect(block.values[3]).toEqual(['Total', '', '', 19.75, 7]);
    expect(block.numberFormats).toEqual(['yyyy-mm-dd', null, null, '#,##0.00 "EUR"', '#,##0']);
    expect(block.dataRows).toBe(2);
    expect(block.hasTotals).toBe(true);
  });
});
