import { createGasHost } from '../../../dev/gas-host';
import { startTestHttpServer, type TestHttpServer } from '../../support/gas-http-server';

const BUNDLE = `
/** @customfunction */
function DESCRIBE(a, b, c) {
  function kind(v) { return v === undefined ? 'undefined' : v instanceof Date ? 'date:' + v.toISOString() : Array.isArray(v) ? 'grid:' + v.length + 'x' + v[0].length : typeof v + ':' + v; }
  return [[kind(a), kind(b), kind(c)]];
}
/** @customfunction */
function TABLE(n) { var rows = [['h1', 'h2']]; for (var i = 1; i <= n; i++) rows.push([i, i * 10]); return rows; }
/** @customfunction */
function COLUMN() { return [1, 2, 3]; }
/** @customfunction */
function FAIL(message) { throw new Error(message); }
/** @customfunction */
function ECHO(v, refresh) { return v; }
function helper_() { return 1; }
/** @customfunction */
function SLEEPY(ms) { Utilities.sleep(ms); return 'done'; }
/** @customfunction */
function SLOWFETCH(url) { return UrlFetchApp.fetch(url).getContentText(); }
`;

describe('custom functions', () => {
  let server: TestHttpServer;
  beforeAll(async () => {
    server = await startTestHttpServer();
  });
  afterAll(() => server.close());

  it('passes a date cell as a Date, a range as a 2D array, an omitted argument as undefined and an empty cell as ""', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.setCell(undefined, 'A1', new Date('2024-01-05T00:00:00Z'));
    host.setCell(undefined, 'B1', 1);
    host.setCell(undefined, 'B2', 2);
    const result = host.evaluateFormula(undefined, 'D1', '=DESCRIBE(A1, B1:B2, )');
    expect(result.values).toEqual([['date:2024-01-05T00:00:00.000Z', 'grid:2x1', 'undefined']]);
    expect(host.evaluateFormula(undefined, 'D2', '=DESCRIBE(C9, "text", 2.5)').values).toEqual([['string:', 'string:text', 'number:2.5']]);
  });

  it('computes numbers added and subtracted as Sheets does: an unquoted date is a number, in a cell and as an argument', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.evaluateFormula(undefined, 'A1', '=2026-11-01')).toMatchObject({ value: 2014, error: undefined });
    expect(host.evaluateFormula(undefined, 'A2', '= -1 + 2.5 - -3')).toMatchObject({ value: 4.5 });
    expect(host.evaluateFormula(undefined, 'A3', '=DESCRIBE(2026-11-01, "2026-11-01", -2)').values).toEqual([
      ['number:2014', 'string:2026-11-01', 'number:-2'],
    ]);
    // Anything richer is still not guessed at.
    expect(host.evaluateFormula(undefined, 'A4', '=2026-11-01T')).toMatchObject({ value: '#ERROR!', error: 'Formula parse error.' });
  });

  it('passes TODAY() give or take days as the date of midnight in the spreadsheet zone, by the host clock', () => {
    // 2026-03-08 06:30 UTC is still 7 March in Los Angeles (22:30 PST), the day its clocks go forward.
    // The kind reading, where TODAY() may be an argument (the volatile arguments below cover the strict one).
    const host = createGasHost({
      clock: 'virtual',
      startTime: Date.parse('2026-03-08T06:30:00Z'),
      timeZone: 'America/Los_Angeles',
      strict: { volatileToday: false },
    });
    host.load(BUNDLE);
    expect(host.evaluateFormula(undefined, 'A1', '=DESCRIBE(TODAY(), TODAY()-14, TODAY() + 1)').values).toEqual([
      ['date:2026-03-07T08:00:00.000Z', 'date:2026-02-21T08:00:00.000Z', 'date:2026-03-08T08:00:00.000Z'],
    ]);
    // After the change, midnight is 07:00 UTC.
    expect(host.evaluateFormula(undefined, 'A2', '=DESCRIBE(TODAY()+2)').values).toEqual([
      ['date:2026-03-09T07:00:00.000Z', 'undefined', 'undefined'],
    ]);
    expect(host.evaluateFormula(undefined, 'A3', '=TODAY()').value).toEqual(new Date('2026-03-07T08:00:00.000Z'));
    // Other calls inside arguments are not guessed at.
    expect(host.evaluateFormula(undefined, 'A5', '=DESCRIBE(TODAY()*2)')).toMatchObject({
      value: '#ERROR!',
      error: 'Formula parse error.',
    });
  });

  it('computes the date functions of rolling periods as Sheets does: DATE, YEAR, MONTH, DAY, TEXT and & around TODAY()', () => {
    // 15 January 2026, 00:30 in Berlin (still the 14th in UTC): this month began on 1 January, last month was December 2025.
    const host = createGasHost({
      clock: 'virtual',
      startTime: Date.parse('2026-01-14T23:30:00Z'),
      timeZone: 'Europe/Berlin',
      strict: { volatileToday: false },
    });
    host.load(BUNDLE);
    expect(
      host.evaluateFormula(
        undefined,
        'A1',
        '=DESCRIBE(TODAY()-DAY(TODAY())+1, DATE(YEAR(TODAY()),MONTH(TODAY())-1,1), TODAY()-DAY(TODAY()))',
      ).values,
    ).toEqual([['date:2025-12-31T23:00:00.000Z', 'date:2025-11-30T23:00:00.000Z', 'date:2025-12-30T23:00:00.000Z']]);
    // A formula that is only an expression shows its value; a date minus a date is a number of days.
    expect(host.evaluateFormula(undefined, 'A2', '=TEXT(TODAY()-2,"yyyy-mm-dd")').value).toBe('2026-01-13');
    expect(host.evaluateFormula(undefined, 'A3', '=TEXT(DATE(2026,1,5),"yyyymmdd")').value).toBe('20260105');
    expect(host.evaluateFormula(undefined, 'A4', '=YEAR(TODAY()) + MONTH(TODAY()) - DAY(TODAY())').value).toBe(2026 + 1 - 15);
    // & joins text after + and -; a date joins as its serial number, as in Sheets.
    expect(host.evaluateFormula(undefined, 'A9', '=TEXT(TODAY()-1,"yyyymmdd")&"12"').value).toBe('2026011412');
    expect(host.evaluateFormula(undefined, 'A10', '="day "&DAY(TODAY())+1&"/"&DATE(2026,1,1)').value).toBe('day 16/46023');
    expect(host.evaluateFormula(undefined, 'A5', '=TODAY()-DATE(2026,1,1)').value).toBe(14);
    // DATE rolls months and days over and takes a two-digit year as 19xx, as Sheets does.
    expect(host.evaluateFormula(undefined, 'A6', '=DATE(2026,3,0)').value).toEqual(new Date('2026-02-27T23:00:00.000Z'));
    expect(host.evaluateFormula(undefined, 'A7', '=DATE(26,13,1)').value).toEqual(new Date('1926-12-31T23:00:00.000Z'));
    expect(host.evaluateFormula(undefined, 'A8', '=DESCRIBE(TEXT(TODAY()-1,"yyyy-mm-dd"), YEAR(TODAY()))').values).toEqual([
      ['string:2026-01-14', 'number:2026', 'undefined'],
    ]);
    // What Sheets cannot compute is the cell's error, and the function does not run.
    expect(host.evaluateFormula(undefined, 'B1', '=YEAR("soon")')).toMatchObject({ value: '#VALUE!' });
    expect(host.evaluateFormula(undefined, 'B2', '=DESCRIBE(DATE(-1,1,1))')).toMatchObject({ value: '#NUM!' });
    expect(host.evaluateFormula(undefined, 'B3', '=DESCRIBE(TEXT(TODAY(),"hh:mm"))')).toMatchObject({ value: '#VALUE!' });
    // Functions the host does not compute, and wrong argument counts, are not guessed at.
    for (const formula of ['=DESCRIBE(EOMONTH(TODAY(),-1))', '=DATE(2026,1)', '=DESCRIBE(TODAY(1))', '=DESCRIBE(DAY(A1))'])
      expect(host.evaluateFormula(undefined, 'C1', formula)).toMatchObject({ value: '#ERROR!', error: 'Formula parse error.' });
  });

  describe('volatile functions as arguments ("Custom functions in Google Sheets": NOW() and RAND() "are not allowed as arguments")', () => {
    // 15 January 2026, 00:30 in Berlin.
    const start = Date.parse('2026-01-14T23:30:00Z');
    const volatileFormulas = [
      '=ECHO(NOW())',
      '=ECHO(RAND())',
      '=DESCRIBE("x", NOW()-1)',
      '=ECHO(TEXT(NOW(),"yyyy-mm-dd"))',
      '=ECHO(1, RAND()+1)',
    ];
    const todayFormulas = [
      '=ECHO(TODAY())',
      '=ECHO(TODAY()-14)',
      '=ECHO(DATE(YEAR(TODAY()),MONTH(TODAY())-1,1))',
      '=ECHO(1, TEXT(TODAY()-2,"yyyymmdd")&"12")',
    ];

    it.each([
      ['kind', false],
      ['strict', true],
    ])(
      '%s reading: NOW() or RAND() anywhere in an argument shows Loading... for good, and the function never runs',
      async (_reading, volatileToday) => {
        const host = createGasHost({ clock: 'virtual', startTime: start, timeZone: 'Europe/Berlin', strict: { volatileToday } });
        host.load(BUNDLE);
        volatileFormulas.forEach((formula, i) => {
          const result = host.evaluateFormula(undefined, `A${i + 1}`, formula);
          expect([formula, result]).toEqual([formula, expect.objectContaining({ value: 'Loading...', loading: true, error: undefined })]);
          expect(result.executionId).toBeUndefined();
          expect(host.getCell(undefined, `A${i + 1}`)).toMatchObject({ value: 'Loading...', loading: true, formula });
          expect(host.getValues(undefined, `A${i + 1}`)).toEqual([['Loading...']]);
        });
        // Recalculating does not run it either, and a later hour does not end the wait.
        host.advanceTime(3_600_000);
        const again = await host.recalculate(volatileFormulas.map((_f, i) => ({ a1: `A${i + 1}` })));
        expect(again.map((r) => [r.value, r.executionId])).toEqual(volatileFormulas.map(() => ['Loading...', undefined]));
        // The built-in functions on their own are computed: NOW() with its time of day.
        expect(host.evaluateFormula(undefined, 'B1', '=NOW()').value).toEqual(new Date('2026-01-15T00:30:00.000Z'));
        const random = host.evaluateFormula(undefined, 'B2', '=RAND()').value as number;
        expect(random >= 0 && random < 1).toBe(true);
        expect(host.evaluateFormula(undefined, 'B3', '=TODAY()').value).toEqual(new Date('2026-01-14T23:00:00.000Z'));
        // Typing another formula into the cell ends "Loading...".
        expect(host.evaluateFormula(undefined, 'A1', '=ECHO("now")')).toMatchObject({ value: 'now' });
        expect(host.getCell(undefined, 'A1').loading).toBeUndefined();
      },
    );

    it('kind reading: TODAY() as an argument, in an expression or not, is passed as the date of its day', () => {
      const host = createGasHost({ clock: 'virtual', startTime: start, timeZone: 'Europe/Berlin', strict: { volatileToday: false } });
      host.load(BUNDLE);
      const values = todayFormulas.map((formula, i) => host.evaluateFormula(undefined, `A${i + 1}`, formula));
      expect(values.map((r) => [r.value, r.loading])).toEqual([
        [new Date('2026-01-14T23:00:00.000Z'), undefined],
        [new Date('2025-12-31T23:00:00.000Z'), undefined],
        [new Date('2025-11-30T23:00:00.000Z'), undefined],
        [1, undefined],
      ]);
      expect(values.every((r) => r.executionId !== undefined)).toBe(true);
    });

    it('strict reading (volatileToday): TODAY() anywhere in an argument shows Loading... for good; =TODAY() alone and a cell holding it still work', () => {
      const host = createGasHost({ clock: 'virtual', startTime: start, timeZone: 'Europe/Berlin', strict: { volatileToday: true } });
      expect(host.strict.volatileToday).toBe(true);
      host.load(BUNDLE);
      todayFormulas.forEach((formula, i) => {
        const result = host.evaluateFormula(undefined, `A${i + 1}`, formula);
        expect([formula, result.value, result.loading, result.executionId]).toEqual([formula, 'Loading...', true, undefined]);
      });
      expect(host.evaluateFormula(undefined, 'B1', '=TODAY()').value).toEqual(new Date('2026-01-14T23:00:00.000Z'));
      expect(host.evaluateFormula(undefined, 'B2', '=TEXT(TODAY()-1,"yyyymmdd")').value).toBe('20260114');
      // A reference to a cell holding TODAY() is an ordinary argument; so is relative text.
      expect(host.evaluateFormula(undefined, 'C1', '=ECHO(B1)')).toMatchObject({ value: new Date('2026-01-14T23:00:00.000Z') });
      expect(host.evaluateFormula(undefined, 'C2', '=ECHO("7daysAgo")')).toMatchObject({ value: '7daysAgo' });
    });
  });

  it('spills a 2D result into the cells below and to the right', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.evaluateFormula(undefined, 'B2', '=TABLE(2)');
    expect(host.getValues(undefined, 'B2:C4')).toEqual([
      ['h1', 'h2'],
      [1, 10],
      [2, 20],
    ]);
    expect(host.getCell(undefined, 'C3').formula).toBe('');
    host.evaluateFormula(undefined, 'B2', '=COLUMN()');
    expect(host.getValues(undefined, 'B2:C4')).toEqual([
      [1, ''],
      [2, ''],
      [3, ''],
    ]);
  });

  it('shows #REF! when the result would overwrite data', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.setCell(undefined, 'C3', 'in the way');
    const result = host.evaluateFormula(undefined, 'B2', '=TABLE(2)');
    expect(result.value).toBe('#REF!');
    expect(result.error).toBe('Array result was not expanded because it would overwrite data in C3.');
  });

  it('shows #ERROR! with the thrown message, and #NAME? for unknown or private functions', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.evaluateFormula(undefined, 'A1', '=FAIL("bad fromDate")')).toMatchObject({ value: '#ERROR!', error: 'bad fromDate' });
    expect(host.evaluateFormula(undefined, 'A2', '=NOPE(1)')).toMatchObject({ value: '#NAME?', error: "Unknown function: 'NOPE'." });
    expect(host.evaluateFormula(undefined, 'A3', '=helper_()')).toMatchObject({ value: '#NAME?' });
    expect(host.evaluateFormula(undefined, 'A4', '=echo(7)')).toMatchObject({ value: 7 });
  });

  it('recalculates only formulas whose text or referenced cells changed', async () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.setCell(undefined, 'A1', 'v1');
    host.setCell(undefined, 'Z1', 0);
    host.setCell(undefined, 'B1', '=ECHO(A1, Z1)');
    host.setCell(undefined, 'B2', '=ECHO("constant")');
    try {
      expect((await host.recalculate()).map((r) => r.a1)).toEqual(['B1', 'B2']);
      expect(await host.recalculate()).toEqual([]);
      host.setCell(undefined, 'Z1', 1);
      const again = await host.recalculate();
      expect(again.map((r) => [r.a1, r.value])).toEqual([['B1', 'v1']]);
    } finally {
      await host.close();
    }
  });

  it('fails a custom function that passes 30 s of virtual time', () => {
    const host = createGasHost({ clock: 'virtual' });
    host.load(BUNDLE);
    expect(host.evaluateFormula(undefined, 'A1', '=SLEEPY(29000)').value).toBe('done');
    expect(host.evaluateFormula(undefined, 'A2', '=SLEEPY(31000)')).toMatchObject({
      value: '#ERROR!',
      error: 'Exceeded maximum execution time',
    });
  });

  it('fails a custom function whose fetch is still in flight when its time is up (real clock)', () => {
    const host = createGasHost({ customFunctionLimitMs: 400 });
    host.load(BUNDLE);
    const started = Date.now();
    const result = host.evaluateFormula(undefined, 'A1', `=SLOWFETCH("${server.baseUrl}/slow/3000")`);
    expect(result).toMatchObject({ value: '#ERROR!', error: 'Exceeded maximum execution time' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('cannot be caught by the script: the limit ends the execution', () => {
    const host = createGasHost({ clock: 'virtual' });
    host.load(
      `/** @customfunction */ function STUBBORN() { try { Utilities.sleep(40000); } catch (e) { return 'caught'; } return 'slept'; }`,
    );
    expect(host.evaluateFormula(undefined, 'A1', '=STUBBORN()').error).toBe('Exceeded maximum execution time');
  });
});
