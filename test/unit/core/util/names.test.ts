/**
 * "Did you mean" for every name a report takes: a breakdown, a metric, a filter operator, a filter
 * field and a sort field each get the near name from the one helper (util/names.ts), and a word near
 * nothing gets the names to choose from (a long list once per message) instead.
 */
import { buildReportQuery, type ReportInput } from '../../../../src/core/api/requests/report-request';
import { closest, unknownNameHint } from '../../../../src/core/util/names';

const AT = { nowMs: Date.parse('2026-11-20T12:00:00Z') };
function refusal(extra: Partial<ReportInput>): string {
  try {
    buildReportQuery('main', { entityId: 'abc', fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: 'day', ...extra }, AT);
    return 'accepted';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('did you mean, for every name', () => {
  it.each<[string, Partial<ReportInput>, string]>([
    [
      'a breakdown',
      { breakdowns: 'day,contry' },
      "breakdowns: 'contry' is not a breakdown of the general report (did you mean 'country'?)",
    ],
    ['a metric', { metrics: 'revnue' }, "metrics: 'revnue' is not a metric of the general report (did you mean 'revenue'?)"],
    ['an operator', { filter: 'revenue:gte:10' }, "filter: unknown operator 'gte' (did you mean 'gt'?)"],
    [
      'a filter field',
      { filter: 'paidclick:gt:1' },
      "filter: 'paidclick' is not a metric or field of the general report (did you mean 'paidClicks'?)",
    ],
    [
      'an entity filter field',
      { breakdowns: 'day,country', filter: 'contry.id:in:US' },
      "filter: 'contry.id' is not a field of the general report (did you mean 'country.id'?)",
    ],
    ['a sort field', { sort: 'revenu desc' }, "sort: 'revenu' is not a metric or field of the general report (did you mean 'revenue'?)"],
  ])('%s', (_what, input, message) => {
    expect(refusal(input)).toBe(message);
  });

  it('lists the names instead when no name is near, the same way for breakdowns and metrics', () => {
    expect(refusal({ breakdowns: 'hour' })).toBe(
      "breakdowns: 'hour' is not a breakdown of the general report (use day, month, platform, referrer, country, section, widget, doc, partnerApp)",
    );
    const metrics = refusal({ metrics: 'reach,popularity' });
    expect(metrics).toMatch(
      /^metrics: 'reach' is not a metric of the general report \(use paidPvs, totalPvs, .*optInRateByPvs\); metrics: 'popularity' is not a metric of the general report$/,
    );
  });

  it('suggests only what is near for the word’s length', () => {
    expect(closest('gte', ['eq', 'gt', 'lt'])).toBe('gt');
    expect(closest('foo', ['doc', 'day'])).toBeUndefined();
    expect(unknownNameHint('foo', ['doc', 'day'])).toBe(' (use doc, day)');
    expect(unknownNameHint('foo', ['doc', 'day'], false)).toBe('');
  });
});
