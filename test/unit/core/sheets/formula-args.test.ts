/** Reading custom-function arguments the way Sheets passes them. */
import {
  isGiven,
  optionalBoolean,
  optionalInteger,
  optionalList,
  optionalText,
  requiredDate,
  requiredText,
  stringList,
} from '../../../../src/core/sheets/formula-args';

describe('formula arguments', () => {
  it('treats an omitted argument, an empty cell and a range of empty cells as not given', () => {
    expect([undefined, '', '  ', [['', '']], null].map(isGiven)).toEqual([false, false, false, false, false]);
    expect(isGiven(0)).toBe(true);
  });

  it('reads breakdowns from text or from a range', () => {
    expect(optionalList('day,country', 'breakdowns')).toBe('day,country');
    expect(optionalList([['day'], ['country'], ['']], 'breakdowns')).toBe('day,country');
    expect(optionalList(undefined, 'breakdowns')).toBeUndefined();
    expect(() => optionalList([[true]], 'breakdowns')).toThrow(/^breakdowns: must be text/);
  });

  it('splits keyword lists given as text or ranges', () => {
    expect(stringList('sports, football,', 'keywords')).toEqual(['sports', 'football']);
    expect(stringList([['a'], ['b,c']], 'keywords')).toEqual(['a', 'b', 'c']);
  });

  it('refuses a range where one value is expected', () => {
    expect(() => optionalText([['a', 'b']], 'sort')).toThrow('sort: must be one value, not a range of 2 cells');
    expect(optionalText([['revenue']], 'sort')).toBe('revenue');
  });

  it('names the missing required argument', () => {
    expect(() => requiredText('', 'entityId', 'the publisher ID')).toThrow('entityId: is required (the publisher ID)');
    expect(() => requiredDate(undefined, 'fromDate')).toThrow(/^fromDate: is required/);
    expect(() => requiredDate(true, 'fromDate')).toThrow('fromDate: must be a date, not the boolean TRUE');
  });

  it('keeps date cells as dates and text as text', () => {
    const d = new Date(Date.UTC(2026, 10, 1));
    expect(requiredDate(d, 'fromDate')).toBe(d);
    expect(requiredDate('2026-11-01', 'fromDate')).toBe('2026-11-01');
  });

  it('bounds whole numbers', () => {
    expect(optionalInteger('25', 'maxRows', 1, 100)).toBe(25);
    expect(() => optionalInteger(0, 'maxRows', 1, 100)).toThrow('maxRows: 0 must be from 1 to 100');
    expect(() => optionalInteger(2.5, 'maxRows', 1, 100)).toThrow('maxRows: 2.5 must be a whole number from 1 to 100');
    expect(() => optionalInteger('ten', 'maxRows', 1, 100)).toThrow("maxRows: 'ten' must be a whole number from 1 to 100");
  });

  it('reads booleans with a fallback', () => {
    expect(optionalBoolean(undefined, 'testMode', true)).toBe(true);
    expect(optionalBoolean('false', 'testMode', true)).toBe(false);
    expect(() => optionalBoolean('maybe', 'testMode', true)).toThrow("testMode: 'maybe' must be TRUE or FALSE");
  });
});
