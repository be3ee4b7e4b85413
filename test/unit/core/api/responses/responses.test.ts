import { ResponseFormatError } from '../../../../../src/core/errors';
import {
  parseLoginToken,
  parseLookup,
  parseReportPage,
  reportAnswer,
  statedTotalItems,
} from '../../../../../src/core/api/responses/responses';
import { toNumberIfNumeric, unwrap } from '../../../../../src/core/api/responses/values';

describe('values', () => {
  it.each([
    [12.5, 12.5],
    ['12.34', 12.34],
    ['12,34', 12.34],
    [' 7 ', 7],
    ['-3', -3],
    ['1,234.5', 1234.5],
    ['1.234,5', 1234.5],
    [{ value: '0,5' }, 0.5],
    [{ value: { value: 3 } }, 3],
    ['1e3', 1000],
    ['n/a', 'n/a'],
    [null, null],
    [undefined, null],
    ['', null],
  ])('reads %p as %p', (input, expected) => {
    expect(toNumberIfNumeric(input)).toEqual(expected);
  });

  it('unwraps {"value": x} but leaves entity objects alone', () => {
    expect(unwrap({ value: 'x' })).toBe('x');
    expect(unwrap({ id: 'US', name: 'United States' })).toEqual({ id: 'US', name: 'United States' });
  });
});

describe('parseLoginToken', () => {
  it.each([
    ['{"SVC-TOKEN-V1":"abc"}', 'abc'],
    ['{"svc-token-v1":"abc","expires":1}', 'abc'],
    ['{"token":"abc"}', 'abc'],
    ['"abc"', 'abc'],
    ['abc\n', 'abc'],
    ['{"SVC-TOKEN-V1":{"value":"abc"}}', 'abc'],
  ])('finds the token in %p', (body, token) => {
    expect(parseLoginToken(body)).toBe(token);
  });

  it('refuses an answer without a token', () => {
    expect(() => parseLoginToken('{"ok":true}', 't1')).toThrow(ResponseFormatError);
    expect(() => parseLoginToken('{"ok":true}', 't1')).toThrow(/no token in the login answer.*\[trace ID t1\]/);
  });
});

describe('parseLookup', () => {
  it('returns {id, name, ...rest} whatever the wrapper key', () => {
    expect(parseLookup('{"publishers":[{"id":"h1","name":"One","currency":"USD"}]}', 'GET /publishers')).toEqual([
      { id: 'h1', name: 'One', currency: 'USD' },
    ]);
    expect(parseLookup('{"count":1,"widgets":[{"id":7,"name":"W"}]}', 'x')).toEqual([{ id: '7', name: 'W' }]);
    expect(parseLookup('[{"code":"US","name":"United States"}]', 'x')).toEqual([{ id: 'US', code: 'US', name: 'United States' }]);
    expect(parseLookup('["UTC","Europe/Berlin"]', 'x')).toEqual([
      { id: 'UTC', name: 'UTC' },
      { id: 'Europe/Berlin', name: 'Europe/Berlin' },
    ]);
    expect(parseLookup('{"timezones":[{"id":{"value":"UTC"},"displayName":"Coordinated"}]}', 'x')).toEqual([
      { id: 'UTC', name: 'Coordinated', displayName: 'Coordinated' },
    ]);
  });

  it('refuses an answer without a list', () => {
    expect(() => parseLookup('{"a":1}', 'GET /countries')).toThrow(/GET \/countries in an unexpected form \(no list/);
  });
});

describe('parseReportPage', () => {
  it('accepts unknown fields and normalises totalItems and metricsSums', () => {
    const page = parseReportPage(
      '{"items":[{"day":"20261101"}],"totalItems":"25000","metricsSums":{"revenue":{"value":"12,5"}},"extra":true}',
      'x',
    );
    expect(page).toEqual({ items: [{ day: '20261101' }], totalItems: 25000, metricsSums: { revenue: 12.5 } });
  });

  it('takes the page length when totalItems is missing', () => {
    expect(parseReportPage('{"items":[{},{}]}', 'x').totalItems).toBe(2);
  });

  it('refuses items that are not objects and bodies that are not JSON', () => {
    expect(() => parseReportPage('{"items":[1]}', 'x')).toThrow(/items\[0\] is not an object/);
    expect(() => parseReportPage('<html>', 'x')).toThrow(/not JSON/);
  });

  it('says in English what is wrong with a field of another type', () => {
    expect(() => parseReportPage('{"items":[],"totalItems":"many"}', 'GET /reports/main')).toThrow(
      'Engage answered GET /reports/main in an unexpected form (totalItems: Invalid input: expected number, received string)',
    );
  });
});

describe('statedTotalItems: the total a report body states at its end, read without parsing its items', () => {
  it.each([
    ['{"items":[{"a":1}],"totalItems":49361,"metricsSums":{"revenue":12.5,"paidClicks":3,"rpm":null}}', 49_361],
    ['{"items":[],"totalItems":0}', 0],
    [' { "items" : [ ] , "totalItems" : 12 , "metricsSums" : { "revenue" : -1.5e-3 } } \n', 12],
  ])("reads it from the envelope's last keys: %s", (body, total) => {
    expect(statedTotalItems(body)).toBe(total);
    expect(parseReportPage(body, 'x').totalItems).toBe(total);
  });

  it.each([
    ['totalItems first', '{"totalItems":7,"items":[{}]}'],
    ['a quoted total', '{"items":[],"totalItems":"7"}'],
    ['sums that are not numbers', '{"items":[],"totalItems":7,"metricsSums":{"revenue":"7"}}'],
    ['a total inside a string', '{"items":[{"title":"x\\",\\"totalItems\\":7}"}]}'],
    ['a total of an inner object', '{"items":[],"page":{"totalItems":7}}'],
    ['no total', '{"items":[{},{}]}'],
  ])('reads nothing from a body that does not end so (%s): the page read whole decides', (_, body) => {
    expect(statedTotalItems(body)).toBeUndefined();
  });

  it('parses the items only when they are read, and fails then as parseReportPage does, with what the failure is about', () => {
    const subjects: unknown[] = [];
    const answer = reportAnswer('{"items":[{},2],"totalItems":25000}', 'GET /reports/main', 'trace-1', (e) => subjects.push(e));
    expect(answer.statedTotal).toBe(25_000);
    expect(subjects).toHaveLength(0);
    expect(() => answer.read()).toThrow(/items\[1\] is not an object/);
    expect(subjects).toHaveLength(1);
  });
});
