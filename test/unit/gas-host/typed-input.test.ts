/**
 * How the local host reads a string written with setValue(s) or typed by a user, in its two readings
 * (dev/gas-host/cells/typed-input.ts): the kind one (plain numbers, TRUE/FALSE and formulas, as always) and
 * the strict switch `textParsedAsTyped` (the Sheets API's USER_ENTERED: dates, times, money,
 * percentages, fractions... in the spreadsheet's locale, en_US or de_DE). Also the rules both share
 * (a formula, a leading apostrophe) and the plain-text format `@`, whose undocumented corners the
 * strict reading takes at their strictest.
 */
import { createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
function write(a1, rows) { SpreadsheetApp.getActiveSheet().getRange(a1).setValues(rows); }
function writeOne(a1, value) { SpreadsheetApp.getActiveSheet().getRange(a1).setValue(value); }
function format(a1, f) { SpreadsheetApp.getActiveSheet().getRange(a1).setNumberFormat(f); }
function read(a1) {
  var range = SpreadsheetApp.getActiveSheet().getRange(a1);
  return range.getValues().map(function (row, r) {
    return row.map(function (v, c) {
      return { date: v instanceof Date, value: v instanceof Date ? v.toISOString() : v, format: range.getNumberFormats()[r][c], formula: range.getFormulas()[r][c] };
    });
  });
}
function locale() { return SpreadsheetApp.getActiveSpreadsheet().getSpreadsheetLocale(); }
`;

/** 5 March 2026, noon UTC: "this year" for a date typed without one. */
const NOW = '2026-03-05T12:00:00.000Z';

interface Read {
  date: boolean;
  value: unknown;
  format: string;
  formula: string;
}

function hostOf(strict: boolean, locale?: string) {
  const host = createGasHost({
    strict: { textParsedAsTyped: strict },
    timeZone: 'Europe/Berlin',
    clock: 'virtual',
    startTime: new Date(NOW),
    ...(locale ? { locale } : {}),
  });
  host.load(BUNDLE);
  return host;
}

/** Writes each text into its own row of column A with one setValues, and reads the column back. */
function writeAndRead(host: ReturnType<typeof hostOf>, texts: readonly string[]): Read[] {
  const a1 = `A1:A${texts.length}`;
  host.call('write', [a1, texts.map((t) => [t])]);
  return (host.call('read', [a1]) as Read[][]).map((row) => row[0]!);
}

/** The instant of a wall time in Europe/Berlin (CET, +01:00, in January to March; CEST +02:00 in summer). */
const berlin = (isoWallTime: string, offset = '+01:00') => new Date(`${isoWallTime}${offset}`).toISOString();

describe('the strict reading, en_US (textParsedAsTyped)', () => {
  const cases: Array<[string, unknown, string, boolean]> = [
    // text, value, the number format Sheets gives it, whether it is a Date
    ['1/2', berlin('2026-01-02T00:00:00'), 'M/d/yyyy', true],
    ['1/2/2026', berlin('2026-01-02T00:00:00'), 'M/d/yyyy', true],
    ['2026-01-02', berlin('2026-01-02T00:00:00'), 'yyyy-mm-dd', true],
    ['March 2024', berlin('2024-03-01T00:00:00'), 'mmmm yyyy', true],
    ['Mar 2024', berlin('2024-03-01T00:00:00'), 'mmm yyyy', true],
    ['2 March 2024', berlin('2024-03-02T00:00:00'), 'M/d/yyyy', true],
    ['March 2, 2024', berlin('2024-03-02T00:00:00'), 'M/d/yyyy', true],
    ['1/2/2026 12:30', berlin('2026-01-02T12:30:00'), 'M/d/yyyy H:mm:ss', true],
    ['$5', 5, '"$"#,##0', false],
    ['$1,234.50', 1234.5, '"$"#,##0.00', false],
    ['-$5', -5, '"$"#,##0', false],
    ['(7)', -7, '0.###############', false],
    ['1,234', 1234, '#,##0', false],
    ['50%', 0.5, '0%', false],
    ['1 1/2', 1.5, '# ?/?', false],
    ['1e3', 1000, '0.00E+00', false],
    ['TRUE', true, '0.###############', false],
    ['true', true, '0.###############', false],
    ['False', false, '0.###############', false],
    ['00123', 123, '0.###############', false],
  ];
  it.each(cases)('reads %p as Sheets reads it typed: %p', (text, value, format, date) => {
    const [cell] = writeAndRead(hostOf(true), [text]);
    expect(cell).toEqual({ date, value, format, formula: '' });
  });

  it('reads times as Dates on Sheets day 0 (30 December 1899), as Apps Script returns time cells', () => {
    const cells = writeAndRead(hostOf(true), ['12:30', '12:30:45', '1:30 PM']);
    expect(cells.map((c) => c.date)).toEqual([true, true, true]);
    expect(cells.map((c) => c.format)).toEqual(['h:mm', 'h:mm:ss', 'h:mm am/pm']);
    // The wall time in the spreadsheet's zone, whatever its offset in 1899.
    const wall = (iso: unknown) =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone: 'Europe/Berlin',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(String(iso)));
    expect(cells.map((c) => wall(c.value))).toEqual(['1899-12-30, 12:30:00', '1899-12-30, 12:30:45', '1899-12-30, 13:30:00']);
  });

  it('keeps as text what Sheets would not read, exactly as written', () => {
    const texts = ['News', 'Homepage Feed', '1,5', '13/40', 'March', '12:75', '$', '(-7)', '2026-02-30', 'Section 1/2'];
    expect(writeAndRead(hostOf(true), texts).map((c) => c.value)).toEqual(texts);
  });

  it('gives a date typed into a cell of an explicit number format its serial number, the format kept', () => {
    const host = hostOf(true);
    host.call('format', ['A1:A2', '0.###############']);
    host.call('format', ['A3', 'yyyy-mm-dd']);
    const cells = writeAndRead(host, ['1/2/2026', '12:00', '1/2/2026']);
    expect(cells).toEqual([
      { date: false, value: 46024, format: '0.###############', formula: '' },
      { date: false, value: 0.5, format: '0.###############', formula: '' },
      { date: true, value: berlin('2026-01-02T00:00:00'), format: 'yyyy-mm-dd', formula: '' },
    ]);
  });

  it('reads what a user types with host.setCell by the same rules', () => {
    const host = hostOf(true);
    host.setCell('Sheet1', 'B1', '$5');
    host.setCell('Sheet1', 'B2', 'March 2024');
    host.setCell('Sheet1', 'B3', "'March 2024");
    expect([host.getCell('Sheet1', 'B1').value, host.getCell('Sheet1', 'B1').numberFormat]).toEqual([5, '"$"#,##0']);
    expect(host.getCell('Sheet1', 'B2').value).toEqual(new Date(berlin('2024-03-01T00:00:00')));
    expect(host.getCell('Sheet1', 'B3').value).toBe('March 2024');
  });
});

describe('the strict reading, de_DE (a comma-decimal locale)', () => {
  const cases: Array<[string, unknown, string, boolean]> = [
    ['1,5', 1.5, '0.###############', false],
    ['1.234,5', 1234.5, '#,##0.00', false],
    ['1.234', 1234, '#,##0', false],
    ['1.2.2026', berlin('2026-02-01T00:00:00'), 'dd.MM.yyyy', true],
    ['1.2.', berlin('2026-02-01T00:00:00'), 'dd.MM.yyyy', true],
    ['2. März 2024', berlin('2024-03-02T00:00:00'), 'dd.MM.yyyy', true],
    ['50 %', 0.5, '0%', false],
    ['5 €', 5, '#,##0 "€"', false],
    ['-1.234,50 €', -1234.5, '#,##0.00 "€"', false],
    ['(7)', -7, '0.###############', false],
    ['WAHR', true, '0.###############', false],
    ['TRUE', true, '0.###############', false],
    ['2026-01-02', berlin('2026-01-02T00:00:00'), 'yyyy-mm-dd', true],
  ];
  it.each(cases)('reads %p as Sheets reads it typed in a German spreadsheet: %p', (text, value, format, date) => {
    const [cell] = writeAndRead(hostOf(true, 'de_DE'), [text]);
    expect(cell).toEqual({ date, value, format, formula: '' });
  });

  it('reads a time in the locale, and keeps en_US money and decimals as text', () => {
    const cells = writeAndRead(hostOf(true, 'de_DE'), ['12:30', '$5', '1.5e']);
    expect([cells[0]!.date, cells[0]!.format]).toEqual([true, 'HH:mm']);
    expect(cells.slice(1).map((c) => c.value)).toEqual(['$5', '1.5e']);
  });

  it('says its locale to scripts: getSpreadsheetLocale', () => {
    expect(hostOf(true, 'de_DE').call('locale')).toBe('de_DE');
    expect(hostOf(false).call('locale')).toBe('en_US');
    expect(() => createGasHost({ locale: 'fr_FR' })).toThrow('gas-host: locale fr_FR is not modelled (en_US, de_DE)');
  });
});

describe('the kind reading (switch off) stays as it was: numbers, TRUE/FALSE and formulas only', () => {
  it('reads plain numbers and booleans, and keeps dates, times, money, percentages and fractions as text', () => {
    const texts = ['1/2', 'March 2024', '12:30', '$5', '(7)', '50%', '1 1/2', '1,234', '1/2/2026 12:30'];
    const cells = writeAndRead(hostOf(false), [...texts, '00123', '1e3', 'TRUE', 'false']);
    expect(cells.map((c) => c.value)).toEqual([...texts, 123, 1000, true, false]);
    // No number format is given by what was typed.
    expect(new Set(cells.map((c) => c.format))).toEqual(new Set(['0.###############']));
  });

  it('reads a de_DE spreadsheet the same way: the locale matters only to the strict reading', () => {
    expect(writeAndRead(hostOf(false, 'de_DE'), ['1,5', '1.2.2026', '5 €']).map((c) => c.value)).toEqual(['1,5', '1.2.2026', '5 €']);
  });
});

describe('rules of both readings, and the plain-text format', () => {
  it.each([false, true])('strict %p: "=..." is a formula, a leading apostrophe keeps text and is not part of the value', (strict) => {
    const cells = writeAndRead(hostOf(strict), ['=1+2', "'=1+2", "'1/2", "'TRUE", "'$5", "'"]);
    expect(cells.map((c) => c.formula)).toEqual(['=1+2', '', '', '', '', '']);
    expect(cells.slice(1).map((c) => c.value)).toEqual(['=1+2', '1/2', 'TRUE', '$5', '']);
  });

  it('a plain-text (@) cell keeps the string in both readings', () => {
    for (const strict of [false, true]) {
      const host = hostOf(strict);
      host.call('format', ['A1:A3', '@']);
      expect(writeAndRead(host, ['1/2', '00123', 'TRUE']).map((c) => [c.value, c.format])).toEqual([
        ['1/2', '@'],
        ['00123', '@'],
        ['TRUE', '@'],
      ]);
    }
  });

  it('strict: a @ cell keeps a leading apostrophe as part of the value, and still takes "=..." as a formula (both UNCONFIRMED)', () => {
    const host = hostOf(true);
    host.call('format', ['A1:A2', '@']);
    const cells = writeAndRead(host, ["'1/2", '=1+2']);
    expect(cells.map((c) => [c.value, c.formula])).toEqual([
      ["'1/2", ''],
      ['', '=1+2'],
    ]);
  });

  it('kind: a @ cell drops a leading apostrophe as any cell does, as before', () => {
    const host = hostOf(false);
    host.call('format', ['A1', '@']);
    expect(writeAndRead(host, ["'1/2"]).map((c) => c.value)).toEqual(['1/2']);
  });

  it('setValue reads its string as setValues does', () => {
    const host = hostOf(true);
    host.call('writeOne', ['C1', '50%']);
    expect(host.getCell('Sheet1', 'C1').value).toBe(0.5);
  });
});
