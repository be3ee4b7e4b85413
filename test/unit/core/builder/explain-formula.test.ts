/**
 * "Explain the change" of a comparison built in the sidebar: the request's `explain` is checked (a
 * metric and a list of breakdowns, on a comparison only), its ENGAGE_EXPLAIN formula is written as a
 * user would type it (a rolling preset's relative days, the filter with its quotes doubled, the
 * refresh reference last), and its input is the formula's: the report's publisher, days and filter,
 * without the report's own metrics, sort, currency or decimals, which the formula does not take.
 */
import type { BuilderRequest } from '../../../../src/core/builder/builder-request';
import { explainFormula, explainInputOf, requestedExplanation } from '../../../../src/core/builder/explain-formula';
import { ValidationError } from '../../../../src/core/errors';

const REQUEST: BuilderRequest = {
  kind: 'main',
  entityId: 'p1',
  fromDate: '2026-11-13',
  toDate: '2026-11-19',
  breakdowns: ['day'],
  metrics: ['revenue', 'rpmByPvs'],
  sort: 'revenue',
  order: 'desc',
  currencyCode: 'EUR',
  decDigits: 3,
  compareWith: 'previous',
};
const CHOICE = { metric: 'revenue', breakdowns: ['widget'] };

describe('the request’s explain', () => {
  it('is read when given, and refused naming explain when it is not a metric and breakdowns, or without a comparison', () => {
    expect(requestedExplanation(REQUEST)).toBeUndefined();
    expect(requestedExplanation({ ...REQUEST, explain: CHOICE })).toEqual(CHOICE);
    const refusal = (request: unknown) => {
      try {
        requestedExplanation(request);
      } catch (e) {
        return e instanceof ValidationError ? e.problems.map((p) => p.message) : [String(e)];
      }
      return [];
    };
    expect(refusal({ ...REQUEST, explain: { metric: 'revenue', breakdowns: 'widget' } })).toEqual([
      expect.stringMatching(/^explain: must name a metric and a list of breakdowns/),
    ]);
    expect(refusal({ ...REQUEST, compareWith: undefined, explain: CHOICE })).toEqual([
      'explain: explains a comparison: choose what to compare with first',
    ]);
  });
});

describe('the formula', () => {
  it('writes the dates, or a rolling preset’s relative days, with the refresh reference last', () => {
    expect(explainFormula(REQUEST, CHOICE)).toBe('=ENGAGE_EXPLAIN("p1","2026-11-13","2026-11-19","previous","revenue","widget")');
    expect(
      explainFormula({ ...REQUEST, preset: 'last7' }, { metric: 'reqsRpm', breakdowns: ['platform', 'country'] }, 'EngageRefresh'),
    ).toBe('=ENGAGE_EXPLAIN("p1","7daysAgo","yesterday","previous","reqsRpm","platform,country","","",EngageRefresh)');
    expect(explainFormula({ ...REQUEST, filter: 'widget.name:eq:"Top"' }, CHOICE)).toBe(
      '=ENGAGE_EXPLAIN("p1","2026-11-13","2026-11-19","previous","revenue","widget","","widget.name:eq:""Top""")',
    );
  });

  it('asks for what the formula asks: the publisher, days, filter and comparison, by the chosen breakdowns', () => {
    expect(explainInputOf({ ...REQUEST, filter: 'revenue:gt:1' }, CHOICE)).toEqual({
      report: { entityId: 'p1', fromDate: '2026-11-13', toDate: '2026-11-19', filter: 'revenue:gt:1', breakdowns: ['widget'] },
      compareWith: 'previous',
      metric: 'revenue',
    });
  });
});
