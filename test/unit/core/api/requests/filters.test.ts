import { ValidationError, FilterSyntaxError } from '../../../../../src/core/errors';
import { buildFilter, parseFilter, where, type FilterCondition } from '../../../../../src/core/api/requests/filters';

function syntaxError(expression: string): FilterSyntaxError {
  try {
    parseFilter(expression);
  } catch (e) {
    if (e instanceof FilterSyntaxError) return e;
    throw e;
  }
  throw new Error(`'${expression}' was accepted`);
}

describe('buildFilter', () => {
  it('writes each of the eight operators in its value form, chained with ;', () => {
    const conditions: FilterCondition[] = [
      where('revenue').eq(5),
      where('paidClicks').gt(10),
      where('reqsRpm').lt(0.5),
      where('totalReqs').between(1, 100),
      where('country.id').in(['US', 'DE']),
      where('platform.name').notIn(['Desktop']),
      where('referrer.name').contains('news'),
      where('section.name').notContains('sport'),
    ];
    expect(buildFilter(conditions)).toBe(
      'revenue:eq:5;paidClicks:gt:10;reqsRpm:lt:0.5;totalReqs:between:1,100;country.id:in:US,DE;platform.name:not_in:Desktop;referrer.name:contains:news;section.name:not_contains:sport',
    );
  });

  it('round-trips through the parser', () => {
    const text = 'revenue:between:-1.5,2;country.id:in:US,DE;doc.name:contains:a:b';
    expect(buildFilter(parseFilter(text).map(({ position, ...c }) => c as FilterCondition))).toBe(text);
  });

  it.each([
    [[where('country.id').in([])], /needs at least one value/],
    [[where('country.id').in(['A,B'])], /cannot carry the value 'A,B'/],
    [[where('doc.name').contains('a;b')], /cannot carry the text 'a;b'/],
    [[where('revenue').gt(Number.NaN)], /needs a finite number/],
    [[where('revenue').between(5, 1)], /lower number first/],
    [[where('1bad').eq(1)], /invalid field name '1bad'/],
  ])('refuses values the syntax cannot carry (%#)', (conditions, message) => {
    expect(() => buildFilter(conditions as FilterCondition[])).toThrow(message);
    expect(() => buildFilter(conditions as FilterCondition[])).toThrow(ValidationError);
  });
});

describe('parseFilter', () => {
  it('reads a chain into typed conditions with their positions', () => {
    expect(parseFilter('revenue:gt:10;country.id:in:US,DE; doc.name:not_contains:x')).toEqual([
      { field: 'revenue', op: 'gt', value: 10, position: 0 },
      { field: 'country.id', op: 'in', value: ['US', 'DE'], position: 14 },
      { field: 'doc.name', op: 'not_contains', value: 'x', position: 35 },
    ]);
  });

  it('treats a blank expression as no filter', () => {
    expect(parseFilter('  ')).toEqual([]);
  });

  it('keeps colons inside a contains value', () => {
    expect(parseFilter('referrer.name:contains:https://x.test')[0]!.value).toBe('https://x.test');
  });

  it.each([
    ['revenue:equals:5', 8, "unknown operator 'equals'"],
    ['revenue:gt:ten', 11, "'ten' is not a number"],
    ['revenue:gt:', 11, 'missing value'],
    ['revenue:gt', 10, "missing ':' and value"],
    ['revenue', 0, 'is not <field>:<operator>:<value>'],
    ['revenue:gt:5;', 13, 'empty condition'],
    ['revenue:gt:5;;paidClicks:gt:1', 13, 'empty condition'],
    ['revenue:between:5', 16, 'two numbers separated by a comma'],
    ['revenue:between:9,x', 18, "'x' is not a number"],
    ['revenue:between:9,1', 16, 'lower number first'],
    ['country.id:in:US,,DE', 17, 'empty item'],
    ['rev-enue:gt:1', 3, "invalid field name 'rev-enue'"],
    [':gt:1', 0, 'missing field name'],
    ['revenue::1', 8, 'missing operator'],
  ])('refuses %p at character index %p (%s)', (expression, index, rule) => {
    const error = syntaxError(expression);
    expect(error.position).toBe(index);
    expect(error.argument).toBe('filter');
    expect(error.message).toContain(rule);
    expect(error.message).toContain(`at character ${index + 1} of '${expression}'`);
  });
});

describe('parseFilter and control characters', () => {
  it('refuses a control character anywhere, with its position and code', () => {
    expect(() => parseFilter('section.name:contains:sp\u0007orts')).toThrow(
      /^filter: a control character \(U\+0007\) cannot be part of a filter at character 25 of 'section.name:contains:sp\\u0007orts'/,
    );
  });

  it('quotes a long expression in part', () => {
    expect(() => parseFilter(`x${'y'.repeat(3000)}`)).toThrow(
      /is not <field>:<operator>:<value> at character 1 of 'xy{39}\.\.\.' \(3001 characters\)$/,
    );
  });
});
