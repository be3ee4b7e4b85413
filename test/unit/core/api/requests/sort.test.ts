import { parseSort } from '../../../../../src/core/api/requests/sort';

describe('parseSort', () => {
  it.each([
    ['revenue', { field: 'revenue' }],
    ['revenue desc', { field: 'revenue', order: 'desc' }],
    ['revenue ASC', { field: 'revenue', order: 'asc' }],
    ['-revenue', { field: 'revenue', order: 'desc' }],
    ['+paidClicks', { field: 'paidClicks', order: 'asc' }],
    ['day asc', { field: 'day', order: 'asc' }],
  ])('reads %p', (text, expected) => {
    expect(parseSort('main', text, undefined, ['day'])).toEqual({ sort: expected });
  });

  it('takes the direction from a separate order argument', () => {
    expect(parseSort('main', 'revenue', 'ASC', ['day'])).toEqual({ sort: { field: 'revenue', order: 'asc' } });
  });

  it.each([
    ['revnue', undefined, ['day'], "sort: 'revnue' is not a metric or field of the general report (did you mean 'revenue'?)"],
    ['-revenue', 'asc', ['day'], "order: 'asc' contradicts sort '-revenue'"],
    ['-revenue asc', undefined, ['day'], "sort: '-revenue asc' gives two different directions"],
    ['revenue sideways', undefined, ['day'], 'is not a field with an optional direction'],
    ['paidPvs', undefined, ['widget'], "sort: 'paidPvs' is not available with the 'widget' breakdown"],
    ['totalReqs', undefined, ['day'], "sort: 'totalReqs' is only available with the 'widget' breakdown"],
    ['optInRateByPvs', undefined, ['doc'], "sort: 'optInRateByPvs' is not available with the 'doc' breakdown"],
    ['country.name', undefined, ['day'], "sort: 'country.name' needs the 'country' breakdown"],
    ['revenue', 'up', ['day'], "order: 'up' must be 'asc' or 'desc'"],
  ])('refuses %p (order %p)', (text, order, breakdowns, message) => {
    const result = parseSort('main', text, order, breakdowns);
    expect('problems' in result && result.problems.map((p) => p.message).join('; ')).toContain(message);
  });

  it('accepts an entity field of a requested breakdown', () => {
    expect(parseSort('main', 'country.name asc', undefined, ['country'])).toEqual({ sort: { field: 'country.name', order: 'asc' } });
  });

  it("knows each report's own metrics", () => {
    expect('sort' in parseSort('realtime', 'totalPvs', undefined, ['externalId'])).toBe(true);
    expect('problems' in parseSort('externalId', 'totalPvs', undefined, ['externalId'])).toBe(true);
  });
});
