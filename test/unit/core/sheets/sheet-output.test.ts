/**
 * reportToSheetBlock: the cells a report becomes, API text exactly as sent, and one number format per
 * column; how values are given to setValues so the cells hold exactly them (every string with a
 * leading apostrophe); and the cells a block adds to a spreadsheet, checked against Sheets' 10,000,000.
 */
import type { ReportResult } from '../../../../src/core/api/paging/paging';
import { buildReportQuery } from '../../../../src/core/api/requests/report-request';
import {
  cellsAdded,
  asTypedInput,
  checkCellRoom,
  columnKind,
  formatNumberAs,
  neutraliseText,
  numberFormatOf,
  reportToSheetBlock,
  cellsFound,
} from '../../../../src/core/sheets/sheet-output';

const NOW = Date.UTC(2026, 10, 20, 12);

function result(
  items: Record<string, unknown>[],
  breakdowns: string,
  metricsSums?: Record<string, unknown>,
  metrics = 'revenue,paidClicks',
): ReportResult {
  const query = buildReportQuery(
    'main',
    { entityId: 'pub', fromDate: '20261101', toDate: '20261102', breakdowns, metrics },
    { nowMs: NOW, timeZone: 'Europe/Berlin' },
  );
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
    // Names Sheets reads as values when typed, in one locale or another: no pattern need know them.
    ['1/2', "'1/2"],
    ['March 2024', "'March 2024"],
    ['12:30', "'12:30"],
    ['$5', "'$5"],
    ['(7)', "'(7)"],
    ['50 %', "'50 %"],
    ['1 1/2', "'1 1/2"],
    ['5 €', "'5 €"],
    ['Sports', "'Sports"],
    ['<img src=x onerror=alert(1)>', "'<img src=x onerror=alert(1)>"],
    ['', ''],
  ])('writes %j as %j', (input, expected) => {
    expect(neutraliseText(input)).toBe(expected);
  });

  it('asTypedInput prefixes every string of a block and leaves numbers, booleans and dates as they are', () => {
    const day = new Date(Date.UTC(2026, 10, 1));
    const values = [
      ['day', 'section.name', 'revenue'],
      [day, '1/2', 12.5],
      ['Total', '', true],
    ];
    expect(asTypedInput(values)).toEqual([
      ["'day", "'section.name", "'revenue"],
      [day, "'1/2", 12.5],
      ["'Total", '', true],
    ]);
    // The block itself keeps the text as the cells are to hold it.
    expect(values[1]![1]).toBe('1/2');
  });
});

describe('columnKind and numberFormatOf', () => {
  it('formats days, money in the report currency with its decimals, counts and percentages', () => {
    expect(
      ['day', 'month', 'revenue', 'rpmByPvs', 'paidClicks', 'paidCtrByPvs', 'viewabilityRate', 'section.name'].map(columnKind),
    ).toEqual(['day', 'month', 'money', 'money', 'count', 'percent', 'percent', 'text']);
    expect(numberFormatOf('money', 'EUR', 3)).toBe('#,##0.000 "EUR"');
    expect(numberFormatOf('money', 'JPY', 0)).toBe('#,##0 "JPY"');
    expect(numberFormatOf('day')).toBe('yyyy-mm-dd');
    expect(numberFormatOf('text')).toBeNull();
  });

  it("formats the hourly reports' hour columns, headed with their zone, as date-times", () => {
    expect(['hour (UTC)', 'dateHour (UTC)'].map(columnKind)).toEqual(['hour', 'hour']);
    expect(numberFormatOf('hour')).toBe('yyyy-mm-dd hh:mm');
  });
});

describe('reportToSheetBlock', () => {
  it('writes the header alone for a report with no rows: no Total row of zeros', () => {
    const empty = reportToSheetBlock(result([], 'day', { revenue: 0, paidClicks: 0 }), { timeZone: 'UTC' });
    expect(empty.values).toEqual([['day', 'revenue', 'paidClicks']]);
    expect(empty.dataRows).toBe(0);
    expect(empty.hasTotals).toBe(false);
    const one = reportToSheetBlock(result([{ day: '20261101', revenue: 2, paidClicks: 3 }], 'day', { revenue: 2, paidClicks: 3 }), {
      timeZone: 'UTC',
    });
    expect(one.values.at(-1)).toEqual(['Total', 2, 3]);
  });

  it('keeps hostile section names exactly as sent, and numbers and dates as they are', () => {
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
    expect(block.values[1]!.slice(1)).toEqual(['=1+1', '=HYPERLINK("http://evil.example","click")', 12.5, 3]);
    expect(block.values[2]!.slice(1)).toEqual(['s2', '<img src=x onerror=alert(1)>', 7.25, 4]);
    expect(block.values[1]![0]).toBeInstanceOf(Date);
    expect(block.values[3]).toEqual(['Total', '', '', 19.75, 7]);
    expect(block.numberFormats).toEqual(['yyyy-mm-dd', null, null, '#,##0.00 "EUR"', '#,##0']);
    expect(block.dataRows).toBe(2);
    expect(block.hasTotals).toBe(true);
  });
});

describe('cellsAdded and checkCellRoom', () => {
  const at = (row: number, column: number) => ({ sheetName: 'S', row, column });

  it('counts a new sheet as Sheets inserts it (1,000 x 26), grown to hold the block', () => {
    expect(cellsAdded(at(1, 1), 7, 20, null)).toBe(26_000);
    expect(cellsAdded(at(1, 1), 1242, 29, null)).toBe(1242 * 29);
  });

  it('counts only the growth of an existing sheet, and nothing for a block that fits', () => {
    expect(cellsAdded(at(1, 1), 900, 20, { rows: 1000, columns: 26 })).toBe(0);
    expect(cellsAdded(at(5, 3), 1000, 30, { rows: 1000, columns: 26 })).toBe(1004 * 32 - 1000 * 26);
  });

  it('refuses in one sentence with the cells needed and the cells left', () => {
    expect(() => checkCellRoom(9_990_000, 10_000)).not.toThrow();
    expect(() => checkCellRoom(9_990_000, 10_001)).toThrow(
      'target: the report needs 10,001 more cells, but this spreadsheet has only 10,000 left of the 10,000,000 a Google spreadsheet holds: delete sheets, rows or columns you do not need, or ask for fewer rows',
    );
    expect(() => checkCellRoom(10_000_000, 1)).toThrow(/has only 0 left/);
  });
});

describe('formatNumberAs', () => {
  it('shows a number as a cell of the format numberFormatOf gives shows it', () => {
    expect(formatNumberAs(386.9, numberFormatOf('money'))).toBe('386.90 USD');
    expect(formatNumberAs(1234.5, numberFormatOf('money', 'JPY', 0))).toBe('1,235 JPY');
    expect(formatNumberAs(0.6543, numberFormatOf('percent'))).toBe('0.65%');
    expect(formatNumberAs(-12.5, numberFormatOf('percent'))).toBe('-12.50%');
    expect(formatNumberAs(23777, numberFormatOf('count'))).toBe('23,777');
    // No format, or one outside that set: the number plainly, up to 4 decimals.
    expect(formatNumberAs(0.65432, null)).toBe('0.6543');
    expect(formatNumberAs(12345, 'yyyy-mm-dd')).toBe('12,345');
  });
});

describe('cellsFound', () => {
  const area = { sheetName: 'Data', row: 3, column: 2, rows: 3, columns: 3 };
  const values = [
    ['', '', ''],
    ['', 'x', ''],
    [7, '', ''],
  ];
  const formulas = [
    ['', '', '=A1'],
    ['', '', ''],
    ['', '', ''],
  ];

  it('counts the cells holding a value or a formula, with the smallest rectangle around them', () => {
    expect(cellsFound(values, formulas, area)).toEqual({ count: 3, box: { sheetName: 'Data', row: 3, column: 2, rows: 3, columns: 3 } });
  });

  it('leaves out the cells inside `except` on the same sheet, and none on another', () => {
    const except = { sheetName: 'Data', row: 3, column: 4, rows: 2, columns: 1 };
    expect(cellsFound(values, formulas, area, except)).toEqual({
      count: 2,
      box: { sheetName: 'Data', row: 4, column: 2, rows: 2, columns: 2 },
    });
    expect(cellsFound(values, formulas, area, { ...except, sheetName: 'Other' })?.count).toBe(3);
  });

  it('is null when every cell is empty', () => {
    expect(cellsFound([['', '']], [['', '']], area)).toBeNull();
  });
});
