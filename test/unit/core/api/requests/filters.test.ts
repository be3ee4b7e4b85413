import { ValidationError, FilterSyntaxError } from '../../../../../src/core/errors';
import { buildFilter, parseFilter, where, type FilterCondition } from '../../../../../src/core/api/requests/filters';
import { filterOperatorsFor } from '../../../../../src/core/api/requests/filter-fields';
import { buildReportQuery } from '../../../../../src/core/api/requests/report-request';

const AT = { nowMs: Date.parse('2026-11-20T12:00:00Z') };

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
    ['revenue:equals:5', 8, "unknown operator 'equals' (use eq, gt, lt, between, in, not_in, contains, not_contains)"],
    ['revenue:gte:5', 8, "unknown operator 'gte' (did you mean 'gt'?)"],
    ['revenue:notin:5', 8, "unknown operator 'notin' (did you mean 'not_in'?)"],
    ['revenue:gt:ten', 11, "'ten' is not a number"],
    ['revenue:gt:', 11, 'missing value'],
    ['revenue:gt', 10, "missing ':' and value"],
    ['revenue', 0, `'revenue' is not <field>:<operator>:<value>, such as "revenue:gt:100"`],
    ['revenue>100', 0, `'revenue>100' is not <field>:<operator>:<value>: write "revenue:gt:100"`],
    ['paidClicks < 5', 0, `write "paidClicks:lt:5"`],
    ['revenue:gt:5;', 13, 'empty condition'],
    ['revenue:gt:5;;paidClicks:gt:1', 13, 'empty condition'],
    ['revenue:between:5', 16, 'two numbers separated by a comma'],
    ['revenue:between:9,x', 18, "'x' is not a number"],
    ['revenue:between:9,1', 16, 'lower number first'],
    ['country.id:in:US,,DE', 17, 'empty item'],
    ['rev-enue:gt:1', 3, "invalid field name 'rev-enue'"],
    [':gt:1', 0, `':gt:1' has no field name, as in "revenue:gt:1"`],
    ['revenue::1', 8, `'revenue::1' has no operator, as in "revenue:gt:1"`],
  ])('refuses %p (the problem at index %p): %s', (expression, index, rule) => {
    const error = syntaxError(expression);
    expect(error.position).toBe(index);
    expect(error.argument).toBe('filter');
    expect(error.message).toContain(rule);
    // Where the problem is, only when there are several conditions to tell apart: "at character 1" of one says nothing.
    if (expression.includes(';')) expect(error.message).toMatch(new RegExp(`at character ${index + 1} of '`));
    else expect(error.message).not.toMatch(/at character/);
  });
});

describe('parseFilter and control characters', () => {
  it('refuses a control character anywhere, with its position and code', () => {
    expect(() => parseFilter('section.name:contains:sp\u0007orts')).toThrow(
      /^filter: a control character \(U\+0007\) cannot be part of a filter \(character 25 of 'section.name:contains:sp\\u0007orts'\)$/,
    );
  });

  it('quotes a long expression in part', () => {
    expect(() => parseFilter(`x${'y'.repeat(3000)}`)).toThrow(
      /^filter: 'xy{39}\.\.\.' \(3001 characters\) is not <field>:<operator>:<value>, such as "revenue:gt:100"$/,
    );
  });
});

describe('conditions against their field’s type (filter-fields.ts)', () => {
  const check = (filter: string, breakdowns = 'day,country') => {
    try {
      buildReportQuery('main', { entityId: 'abc', fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns, filter }, AT);
      return 'accepted';
    } catch (e) {
      return (e as Error).message;
    }
  };
  it.each([
    [
      'revenue:contains:abc',
      'filter: contains does not apply to revenue, a number: use eq, gt, lt, between, in or not_in, as in "revenue:gt:100"',
    ],
    ['paidClicks:not_contains:1', 'filter: not_contains does not apply to paidClicks, a number'],
    ['revenue:in:1,abc', `filter: revenue is a number and 'abc' is not, as in "revenue:in:10,20"`],
    ['country.id:gt:5', 'filter: gt does not apply to country.id, an ID: use in or not_in, as in "country.id:in:US,DE"'],
    ['country:contains:U', 'filter: contains does not apply to country, an ID: use in or not_in'],
    ['country.name:between:1,2', 'filter: between does not apply to country.name, text: use in, not_in, contains or not_contains'],
    ['day:contains:2026', 'filter: contains does not apply to day, a date: use eq, gt, lt, between, in or not_in'],
    ['day:gt:2026', `filter: '2026' is not a day written yyyyMMdd, as in "day:between:20261101,20261107"`],
    ['day:in:20261101,20261131', `filter: '20261131' is not a day written yyyyMMdd`],
    [
      'revenue:gt:1;country.id:lt:3',
      'filter: lt does not apply to country.id, an ID: use in or not_in, as in "country.id:in:US,DE" at character 14 of \'revenue:gt:1;country.id:lt:3\'',
    ],
  ])('refuses %p before sending', (filter, message) => {
    expect(check(filter)).toContain(message);
  });
  it('refuses a month that is not yyyyMM', () => {
    expect(check('month:eq:2026', 'month')).toContain(`'2026' is not a month written yyyyMM, as in "month:eq:202611"`);
  });
  it.each([
    'revenue:between:1,2',
    'revenue:in:1,2.5',
    'day:between:20261101,20261107',
    'day:not_in:20261102',
    'country.id:in:US,DE',
    'country:not_in:US',
    'country.name:contains:king',
    'country.name:in:Germany',
  ])('accepts %p, which fits its field', (filter) => {
    expect(check(filter)).toBe('accepted');
  });
  it('offers each field the operators of its type', () => {
    expect(filterOperatorsFor('main', 'revenue')).toEqual(['eq', 'gt', 'lt', 'between', 'in', 'not_in']);
    expect(filterOperatorsFor('main', 'day')).toEqual(['eq', 'gt', 'lt', 'between', 'in', 'not_in']);
    expect(filterOperatorsFor('main', 'country.name')).toEqual(['in', 'not_in', 'contains', 'not_contains']);
    expect(filterOperatorsFor('externalId', 'externalId')).toEqual(['in', 'not_in', 'contains', 'not_contains']);
    expect(filterOperatorsFor('main', 'widget.id')).toEqual(['in', 'not_in']);
  });
});
