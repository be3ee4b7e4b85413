import { incrementalRange, keyColumns, mergeIncremental } from '../../../../../src/core/schedules/refresh/incremental';
import { periodStartMs } from '../../../../../src/core/sheets/report-table';
import type { SheetBlock } from '../../../../../src/core/ports';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const day = (d: string) => new Date(periodStartMs('day', d, 'UTC')!);
const block = (rows: (string | number | Date)[][]): SheetBlock => ({
  values: [['day', 'country.id', 'revenue'], ...rows],
  kinds: ['day', 'text', 'money'],
  numberFormats: [null, null, null],
  dataRows: rows.length,
  hasTotals: false,
});

describe('incremental refresh', () => {
  it('fetches the whole period the first time, then new days plus the 3 before the last one fetched', () => {
    expect(incrementalRange({ type: 'since', fromDate: '20261001' }, undefined, NOW)).toEqual({
      fromDate: '20261001',
      toDate: '20261120',
      full: true,
    });
    expect(incrementalRange({ type: 'since', fromDate: '20261001' }, '20261119', NOW)).toEqual({
      fromDate: '20261116',
      toDate: '20261120',
      full: false,
    });
    expect(incrementalRange({ type: 'lastDays', days: 3 }, '20261119', NOW).full).toBe(true);
  });

  it('replaces refetched days, keeps older ones, drops days that left the period and orders by day and key', () => {
    const previous = block([
      [day('20261115'), 'US', 1],
      [day('20261117'), 'US', 2],
      [day('20261118'), 'DE', 3],
      [day('20261118'), 'US', 4],
    ]).values;
    const fresh = block([
      [day('20261120'), 'US', 9],
      [day('20261118'), 'US', 40],
      [day('20261118'), 'DE', 30],
    ]);
    const merged = mergeIncremental(previous, fresh, {
      breakdowns: ['day', 'country'],
      timeZone: 'UTC',
      replaceFrom: '20261118',
      keepFrom: '20261116',
    })!;
    expect(merged.values.slice(1).map((r) => r[2])).toEqual([2, 30, 40, 9]);
    expect(merged.dataRows).toBe(4);
  });

  it('compares text read back from the sheet as it is: names that look like values are keys like any other', () => {
    // What the sheet holds: the API's text exactly (it was written with a leading apostrophe).
    const sectionBlock = (rows: (string | number | Date)[][]): SheetBlock => ({
      values: [['day', 'section.id', 'section.name', 'revenue'], ...rows],
      kinds: ['day', 'text', 'text', 'money'],
      numberFormats: ['yyyy-mm-dd', null, null, '#,##0.00'],
      dataRows: rows.length,
      hasTotals: false,
    });
    const previous = sectionBlock([
      [day('20261117'), '1/2', '1/2', 1],
      [day('20261117'), '=1+2', '=1+2', 2],
      [day('20261118'), '1/2', '1/2', 3],
      [day('20261118'), '=1+2', '=1+2', 4],
    ]).values;
    const fresh = sectionBlock([
      [day('20261118'), '=1+2', '=1+2', 40],
      [day('20261118'), '1/2', '1/2', 30],
    ]);
    const merged = mergeIncremental(previous, fresh, {
      breakdowns: ['day', 'section'],
      timeZone: 'UTC',
      replaceFrom: '20261118',
      keepFrom: '20261101',
    })!;
    expect(merged.values.slice(1).map((r) => [r[1], r[3]])).toEqual([
      ['1/2', 1],
      ['=1+2', 2],
      ['1/2', 30],
      ['=1+2', 40],
    ]);
  });

  it('refuses to merge with a block of another shape, so the caller fetches everything', () => {
    const previous = [
      ['day', 'revenue'],
      [day('20261118'), 1],
    ];
    expect(
      mergeIncremental(previous, block([]), { breakdowns: ['day'], timeZone: 'UTC', replaceFrom: '20261118', keepFrom: '20261101' }),
    ).toBeNull();
  });
});

describe('keyColumns', () => {
  it('identifies a row of a report of several publishers by its publisher too', () => {
    const header = ['publisher.id', 'publisher.name', 'day', 'country.id', 'country.name', 'revenue'];
    expect(keyColumns(header, ['publisher', 'day', 'country'])).toEqual([0, 2, 3]);
    expect(keyColumns(header.slice(2), ['day', 'country'])).toEqual([0, 1]);
  });
});
