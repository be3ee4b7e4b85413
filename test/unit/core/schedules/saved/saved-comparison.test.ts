/**
 * A saved report with a comparison: compareWith is checked when saved (its words, a custom period's
 * days, the general report only, no incremental refresh), and a report saved before comparisons,
 * without the field, stays a plain report.
 */
import { checkSavedReport, incrementalProblem } from '../../../../../src/core/schedules/saved/saved-reports';

const report = (extra: Record<string, unknown> = {}) => ({
  name: 'Weekly',
  kind: 'main',
  entityId: 'p1',
  period: { type: 'lastDays', days: 7 },
  breakdowns: ['day'],
  target: { sheetName: 'S', cell: 'A1' },
  schedule: { every: 'hour' },
  ...extra,
});

describe('a saved comparison', () => {
  it.each(['previous', 'year', 'yearWeekday', '2026-10-01..2026-10-07'])('keeps compareWith %s', (compareWith) => {
    expect(checkSavedReport(report({ compareWith })).compareWith).toBe(compareWith);
  });

  it('has none when saved without it', () => {
    expect(checkSavedReport(report())).not.toHaveProperty('compareWith');
  });

  it.each([
    [{ compareWith: 'last week' }, /^compareWith: must be "previous", "year", "yearWeekday" or an earlier period/],
    [{ compareWith: 'year-weekday' }, /^compareWith: must be "previous", "year", "yearWeekday" or an earlier period/],
    [{ compareWith: '2026-10-07..2026-10-01' }, /^compareWith: must be "previous"/],
    [{ compareWith: 7 }, /^compareWith: must be text/],
    [{ compareWith: 'previous', kind: 'realtime', period: { type: 'lastHours', hours: 24 } }, /compares the general report only/],
    [{ compareWith: 'previous', incremental: true }, /^incremental: cannot be combined with a comparison/],
  ])('refuses %j', (extra, rule) => {
    expect(() => checkSavedReport(report(extra))).toThrow(rule);
  });

  it('offers no incremental refresh for a comparison', () => {
    expect(incrementalProblem({ kind: 'main', breakdowns: ['day'], period: { type: 'lastDays', days: 7 } })).toBeUndefined();
    expect(
      incrementalProblem({ kind: 'main', breakdowns: ['day'], period: { type: 'lastDays', days: 7 }, compareWith: 'year' }),
    ).toMatchObject({
      argument: 'incremental',
    });
  });
});
