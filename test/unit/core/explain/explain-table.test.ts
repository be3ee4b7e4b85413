/**
 * An explanation's request and table, on hand-made report results: the rules said all at once, naming
 * their arguments; the two periods joined on their keys (a widget in one period only too), the top
 * keys, Other and the Total from Engage's sums, which the rows add up to exactly, the rounding of
 * those sums included.
 */
import type { ReportResult } from '../../../../src/core/api/paging/paging';
import { buildReportQuery, type ReportInput, type ReportQuery } from '../../../../src/core/api/requests/report-request';
import { ValidationError } from '../../../../src/core/errors';
import { buildExplanation, type ExplainInput } from '../../../../src/core/explain/explain-request';
import { buildExplainTable, ROUNDING_NOTE } from '../../../../src/core/explain/explain-table';

const NOW = Date.UTC(2026, 10, 20, 12);
const build = (input: ReportInput) => buildReportQuery('main', input, { nowMs: NOW, timeZone: 'UTC' });
const report: ReportInput = { entityId: 'abc123', fromDate: '2026-11-09', toDate: '2026-11-15', breakdowns: 'widget' };

function explain(overrides: Partial<ExplainInput> = {}) {
  return buildExplanation({ report, compareWith: 'previous', metric: 'revenue', ...overrides }, 'UTC', build);
}

function problems(overrides: Partial<ExplainInput>): string[] {
  try {
    explain(overrides);
  } catch (e) {
    if (e instanceof ValidationError) return e.problems.map((p) => p.message);
    throw e;
  }
  throw new Error('no problem');
}

describe('buildExplanation', () => {
  it('builds the comparison of the previous 7 days, reading the metric and its parts', () => {
    const { comparison, metric, topN } = explain({ metric: 'REQSRPM', topN: '3' });
    expect([comparison.earlier.fromDate, comparison.earlier.toDate]).toEqual(['20261102', '20261108']);
    expect(metric).toMatchObject({ name: 'reqsRpm', numerator: 'revenue', denominator: 'paidReqs', decimals: 4 });
    expect(comparison.current.metrics).toEqual(['reqsRpm', 'revenue', 'paidReqs']);
    expect(topN).toBe(3);
    expect(explain().topN).toBe(10);
  });

  it('says every problem at once, each naming its argument', () => {
    expect(problems({ metric: 'viewabilityRate', topN: 0, compareWith: 'lastWeek' })).toEqual([
      expect.stringMatching(/^compareWith: /),
      expect.stringMatching(/^metric: viewabilityRate is a ratio whose parts the API does not send as metrics/),
      expect.stringMatching(/^topN: 0 must be a whole number from 1 to 1000/),
    ]);
    expect(problems({ report: { ...report, breakdowns: 'month,platform' } })).toEqual([
      expect.stringMatching(/^breakdowns: month is a change over time, which ENGAGE_COMPARE shows/),
    ]);
    expect(problems({ metric: 'revenue,paidClicks' })).toEqual([
      'metric: explains one metric at a time: "revenue,paidClicks" names several',
    ]);
    expect(problems({ metric: 'totalPvs' })).toEqual(["metric: totalPvs is not available with the 'widget' breakdown"]);
    expect(problems({ report: { ...report, breakdowns: 'country' }, metric: 'reqsPaidCtr' })).toEqual([
      "metric: reqsPaidCtr (its denominator paidReqs) is only available with the 'widget' breakdown",
    ]);
  });
});

/** A general report's result by widget: [id, revenue, paidReqs] per row, and Engage's sums. */
function result(query: ReportQuery, rows: Array<[string, number, number]>, sums: Record<string, number>): ReportResult {
  const items = rows.map(([id, revenue, paidReqs]) => ({
    widget: { id, name: `Widget ${id}` },
    revenue,
    paidReqs,
    reqsRpm: Math.round((revenue / paidReqs) * 1e5) / 100,
  }));
  return { query, items, totalItems: items.length, metricsSums: sums, partial: false, pagesFetched: 1, pagesPlanned: 1 };
}

describe('buildExplainTable', () => {
  it('joins the periods on the widget, keeps the top keys, and adds Other and the Total up exactly', () => {
    const { comparison, metric } = explain();
    const now = result(
      comparison.current,
      [
        ['A', 50.01, 1000],
        ['B', 30, 1000],
        ['New', 5.55, 100],
      ],
      { revenue: 85.57 },
    );
    const before = result(
      comparison.earlier,
      [
        ['A', 60, 1000],
        ['B', 29.99, 1000],
        ['Gone', 3.33, 100],
      ],
      { revenue: 93.32 },
    );
    const table = buildExplainTable(now, before, { metric, topN: 2, timeZone: 'UTC' });
    expect(table.header).toEqual(['widget.id', 'widget.name', 'revenue', 'revenue.previous', 'revenue.change', 'revenue.share%']);
    expect(table.rows).toEqual([
      ['A', 'Widget A', 50.01, 60, -9.99, expect.closeTo((-9.99 / -7.75) * 100, 6)],
      ['New', 'Widget New', 5.55, '', 5.55, expect.closeTo((5.55 / -7.75) * 100, 6)],
      // Gone (-3.33) and B (+0.01), and Engage's sums 0.02 below the rows (85.57 - 93.32 = -7.75, the rows make -7.77 + 0.02).
      ['Other', '2 more', 30, 33.32, -3.31, expect.closeTo((-3.31 / -7.75) * 100, 6)],
    ]);
    expect(table.totals).toEqual(['Total', '', 85.57, 93.32, -7.75, 100]);
    // Without Engage's sums, the Total is the rows' own: Other keeps only the keys past topN.
    const unsummed = buildExplainTable({ ...now, metricsSums: {} }, { ...before, metricsSums: {} }, { metric, topN: 2, timeZone: 'UTC' });
    expect(unsummed.totals).toEqual(['Total', '', 85.56, 93.32, -7.76, 100]);
    expect(unsummed.rows[2]!.slice(0, 5)).toEqual(['Other', '2 more', 30, 33.32, -3.32]);
  });

  it('splits a ratio into mix and rate, and names the rounding of the totals when no key is left for Other', () => {
    const { comparison, metric } = explain({ metric: 'reqsRpm' });
    // Engage's sums are rounded to cents: 81.01 / 2000 requests is an RPM of 40.505, sent as 40.51.
    const now = result(
      comparison.current,
      [
        ['A', 51.01, 1000],
        ['B', 30, 1000],
      ],
      { revenue: 81.01, paidReqs: 2000, reqsRpm: 40.51 },
    );
    const before = result(
      comparison.earlier,
      [
        ['A', 50, 1000],
        ['B', 30, 1000],
      ],
      { revenue: 80, paidReqs: 2000, reqsRpm: 40 },
    );
    const table = buildExplainTable(now, before, { metric, topN: 5, timeZone: 'UTC' });
    expect(table.header.slice(-2)).toEqual(['reqsRpm.mix', 'reqsRpm.rate']);
    // A's RPM rose from 50 to 51.01 on half the requests: 0.505 of rate, no mix; the rounding is 0.005.
    expect(table.rows).toEqual([
      ['A', 'Widget A', 51.01, 50, 0.505, expect.closeTo((0.505 / 0.51) * 100, 6), 0, 0.505],
      ['B', 'Widget B', 30, 30, 0, 0, 0, 0],
      ['Other', ROUNDING_NOTE, '', '', 0.005, expect.closeTo((0.005 / 0.51) * 100, 6), 0, 0.005],
    ]);
    expect(table.totals).toEqual(['Total', '', 40.51, 40, 0.51, 100, 0, 0.51]);
  });
});
