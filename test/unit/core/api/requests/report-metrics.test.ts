import { toReportInput } from '../../../../../src/core/builder/builder-request';
import { ValidationError } from '../../../../../src/core/errors';
import { metricsArgument, reportFormula } from '../../../../../src/core/builder/formula-text';
import { effectiveBreakdowns } from '../../../../../src/core/api/requests/report-fields';
import {
  availableMetrics,
  defaultMetrics,
  METRIC_GROUPS,
  METRIC_INFO,
  metricNote,
  resolveMetrics,
} from '../../../../../src/core/api/requests/report-metrics';
import { buildReportQuery, type ReportInput } from '../../../../../src/core/api/requests/report-request';
import { buildReportTable, reportColumnCount } from '../../../../../src/core/sheets/report-table';
import { checkSavedReport, reportInputOf } from '../../../../../src/core/schedules/saved/saved-reports';
import { savedReportFromBuilder } from '../../../../../src/core/schedules/saved/schedule-draft';
import { reportToSheetBlock } from '../../../../../src/core/sheets/sheet-output';
import { REPORT_SPECS, type ReportKind } from '../../../../../src/core/spec';
import { allowedBreakdownCombinations } from '../../../../support/breakdown-combinations';

const NOW = Date.parse('2026-11-20T12:00:00Z');
/** A new Google Sheet has columns A to Z, and a formula's result never adds columns. */
const NEW_SHEET_COLUMNS = 26;
const KINDS: ReportKind[] = ['main', 'externalId', 'realtime'];
const main = (extra: Partial<ReportInput> = {}): ReportInput => ({ entityId: 'pub', fromDate: '20261101', toDate: '20261107', ...extra });

function problems(kind: ReportKind, input: ReportInput): string {
  try {
    buildReportQuery(kind, input, { nowMs: NOW });
  } catch (e) {
    if (e instanceof ValidationError) return e.message;
    throw e;
  }
  return '(accepted)';
}

describe('the metrics argument', () => {
  it('means the default set when not given or empty, and sends the same request whatever the metrics', () => {
    const omitted = buildReportQuery('main', main(), { nowMs: NOW });
    expect(omitted.metrics).toEqual(['paidPvs', 'totalPvs', 'revenue', 'rpmByPvs', 'paidClicks', 'paidCtrByPvs', 'viewabilityRate']);
    expect(buildReportQuery('main', main({ metrics: '' }), { nowMs: NOW }).metrics).toEqual(omitted.metrics);
    // The API has no metrics parameter: the add-on keeps columns, the request stays the same.
    expect(buildReportQuery('main', main({ metrics: 'revenue' }), { nowMs: NOW }).params).toEqual(omitted.params);
  });

  it('takes names in any case, returns them in the API spelling and in the order given, from text or a list', () => {
    expect(buildReportQuery('main', main({ metrics: ' REVENUE , rpmbypvs' }), { nowMs: NOW }).metrics).toEqual(['revenue', 'rpmByPvs']);
    expect(buildReportQuery('main', main({ metrics: ['rpmByPvs', 'Revenue'] }), { nowMs: NOW }).metrics).toEqual(['rpmByPvs', 'revenue']);
  });

  it('takes "all" in any case for every metric', () => {
    expect(buildReportQuery('main', main({ metrics: 'All' }), { nowMs: NOW }).metrics).toBe('all');
    expect(
      buildReportQuery('realtime', { entityId: 'pub', fromDate: '2026112000', toDate: '2026112010', metrics: ['ALL'] }, { nowMs: NOW })
        .metrics,
    ).toBe('all');
  });

  it.each([
    [
      'an unknown metric, with the nearest name',
      main({ metrics: 'revenue,rpmByPv' }),
      "metrics: 'rpmByPv' is not a metric of the general report (did you mean 'rpmByPvs'?)",
    ],
    [
      'an unknown metric with no near name, listing the metrics once',
      main({ metrics: 'popularity,reach' }),
      "metrics: 'popularity' is not a metric of the general report (use paidPvs, totalPvs",
    ],
    ['a metric listed twice, in another case', main({ metrics: 'revenue,Revenue' }), "metrics: 'revenue' is listed twice"],
    [
      'text that names no metric',
      main({ metrics: ' , ' }),
      'metrics: lists no metric: name at least one (such as "revenue,rpmByPvs"), write "all", or leave it empty for the default set',
    ],
    ['an empty list', main({ metrics: [] }), 'metrics: lists no metric'],
    ['"all" with other names', main({ metrics: 'all,revenue' }), 'metrics: "all" already means every metric: write it alone'],
    [
      'a page-view metric by widget',
      main({ breakdowns: 'widget', metrics: 'paidPvs' }),
      "metrics: 'paidPvs' is not available with the 'widget' breakdown",
    ],
    [
      'a request metric without the widget breakdown',
      main({ metrics: 'totalReqs' }),
      "metrics: 'totalReqs' is only available with the 'widget' breakdown",
    ],
    [
      'an opt-in rate by doc',
      main({ breakdowns: 'doc', metrics: 'optInRateByPvs' }),
      "metrics: 'optInRateByPvs' is not available with the 'doc' breakdown",
    ],
    [
      'a number instead of names',
      main({ metrics: 5 as unknown as string }),
      'metrics: 5 must be a list of metric names or a comma-separated text',
    ],
  ])('refuses %s, naming the argument and the metric', (_title, input, message) => {
    expect(problems('main', input)).toContain(message);
  });

  it('knows which metrics each report has', () => {
    expect(problems('realtime', { entityId: 'pub', fromDate: '2026112000', toDate: '2026112010', metrics: 'videoPlays' })).toContain(
      "metrics: 'videoPlays' is not a metric of the realtime external-ID report",
    );
    expect(problems('externalId', { entityId: 'pub', fromDate: '2026111900', toDate: '2026112000', metrics: 'rpmByPvs' })).toMatch(
      /metrics: 'rpmByPvs' is not a metric of the external-ID report/,
    );
  });

  it('lists every problem of a list at once', () => {
    const message = problems('main', main({ metrics: 'revenue,revenue,nope,paidReqs' }));
    expect(message).toContain("'revenue' is listed twice");
    expect(message).toContain("'nope' is not a metric");
    expect(message).toContain("'paidReqs' is only available with the 'widget' breakdown");
  });

  it('gives the resolved list with the problems', () => {
    expect(resolveMetrics('main', 'revenue,nope', ['day'])).toMatchObject({ metrics: ['revenue'], problems: [{ argument: 'metrics' }] });
  });
});

describe('the default set', () => {
  it('swaps page-view metrics for their request twins by widget, and keeps the spec order', () => {
    expect(defaultMetrics('main', ['day', 'widget'])).toEqual([
      'paidReqs',
      'totalReqs',
      'revenue',
      'reqsRpm',
      'paidClicks',
      'reqsPaidCtr',
      'viewabilityRate',
    ]);
    expect(defaultMetrics('externalId', ['externalId'])).toEqual([
      'totalReqs',
      'paidReqs',
      'paidClicks',
      'reqsPaidCtr',
      'revenue',
      'reqsRpm',
      'widgetViewableImpressions',
    ]);
    expect(defaultMetrics('realtime', ['externalId'])).toEqual([...REPORT_SPECS.realtime.metrics]);
  });

  it.each(KINDS)('fits a new 26-column sheet from column A for every allowed breakdown combination of the %s report', (kind) => {
    const combinations = allowedBreakdownCombinations(kind);
    expect(combinations.length).toBeGreaterThan(kind === 'main' ? 150 : 7);
    for (const combination of combinations) {
      const breakdowns = effectiveBreakdowns(kind, combination);
      const width = reportColumnCount(kind, breakdowns, defaultMetrics(kind, breakdowns));
      if (width > NEW_SHEET_COLUMNS) throw new Error(`${kind} by ${combination.join(',')}: ${width} columns`);
    }
  });

  it('always has revenue and an RPM, which the chart draws', () => {
    for (const kind of KINDS) {
      for (const combination of allowedBreakdownCombinations(kind)) {
        const metrics = defaultMetrics(kind, effectiveBreakdowns(kind, combination));
        expect(metrics).toContain('revenue');
        expect(metrics.some((m) => m === 'rpmByPvs' || m === 'reqsRpm')).toBe(true);
      }
    }
  });

  it('is what every metric of the spec is grouped, labelled and explained for', () => {
    const groups = new Set(METRIC_GROUPS.map((g) => g.id));
    for (const kind of KINDS) {
      for (const metric of REPORT_SPECS[kind].metrics) {
        expect(groups.has(METRIC_INFO[metric]!.group)).toBe(true);
        expect(metricNote(metric)).toMatch(/^[A-Z].+: .+/);
      }
    }
    expect(metricNote('rpmByPvs')).toBe('RPM (page views): (revenue / paidPvs) * 1000');
    expect(metricNote('day')).toBe('');
  });

  it('"all" is every metric the breakdowns provide, in the spec order', () => {
    expect(availableMetrics('main', ['day', 'widget'])).not.toContain('paidPvs');
    expect(availableMetrics('main', ['doc'])).not.toContain('optInRateByReqs');
    expect(availableMetrics('main', ['day'])).toHaveLength(REPORT_SPECS.main.metrics.length - 3);
  });
});

describe('a table of chosen metrics', () => {
  const items = [
    {
      day: '20261101',
      country: { id: 'US', name: 'United States', region: 'Americas' },
      revenue: 10,
      rpmByPvs: 2.5,
      paidClicks: 4,
      mystery: 1,
    },
    { day: '20261102', country: 'DE', revenue: '7,5' },
  ];

  it('has exactly the breakdowns (an entity as id and name) and the chosen metrics in the order asked', () => {
    const table = buildReportTable(items, {
      kind: 'main',
      breakdowns: ['day', 'country'],
      metrics: ['rpmByPvs', 'revenue', 'totalPvs'],
      timeZone: 'UTC',
      metricsSums: { revenue: 17.5, rpmByPvs: 2, paidClicks: 4 },
    });
    expect(table.header).toEqual(['day', 'country.id', 'country.name', 'rpmByPvs', 'revenue', 'totalPvs']);
    // A metric the answer left out is a blank column; an entity sent as text is its id.
    expect(table.rows.map((r) => r.slice(1))).toEqual([
      ['US', 'United States', 2.5, 10, ''],
      ['DE', '', '', 7.5, ''],
    ]);
    // Totals follow the chosen metrics.
    expect(table.totals).toEqual(['Total', '', '', 2, 17.5, '']);
    expect(table.header).toHaveLength(reportColumnCount('main', ['day', 'country'], ['rpmByPvs', 'revenue', 'totalPvs']));
  });

  it('keeps the same header when no row comes back', () => {
    const table = buildReportTable([], { kind: 'externalId', breakdowns: ['externalId', 'widget'], metrics: ['revenue'], timeZone: 'UTC' });
    expect(table.header).toEqual(['externalId', 'widget.id', 'widget.name', 'revenue']);
    expect(table.header.length).toBeLessThanOrEqual(reportColumnCount('externalId', ['externalId', 'widget'], ['revenue']));
  });

  it('with "all" shows every field the API sent, as before', () => {
    const table = buildReportTable(items, { kind: 'main', breakdowns: ['day', 'country'], metrics: 'all', timeZone: 'UTC' });
    expect(table.header).toEqual([
      'day',
      'country',
      'country.id',
      'country.name',
      'country.region',
      'revenue',
      'rpmByPvs',
      'paidClicks',
      'mystery',
    ]);
  });

  it('notes each metric header cell with its label, and leaves the header the API names', () => {
    const query = buildReportQuery('main', main({ breakdowns: 'day', metrics: 'revenue,rpmByPvs' }), { nowMs: NOW });
    const block = reportToSheetBlock(
      { query, items: [{ day: '20261101', revenue: 1, rpmByPvs: 2 }], totalItems: 1, partial: false, pagesFetched: 1, pagesPlanned: 1 },
      { timeZone: 'UTC' },
    );
    expect(block.values[0]).toEqual(['day', 'revenue', 'rpmByPvs']);
    expect(block.headerNotes).toEqual(['', 'Revenue: total revenue', 'RPM (page views): (revenue / paidPvs) * 1000']);
  });
});

describe('metrics in the sidebar request, its formula and its saved report', () => {
  const request = { kind: 'main' as const, entityId: 'pub', fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: ['day'] };

  it('writes the metrics argument after the breakdowns: empty for the default set, "all" for every metric, else the names', () => {
    expect(metricsArgument('main', ['day'], defaultMetrics('main', ['day']))).toBe('');
    expect(metricsArgument('main', [], undefined)).toBe('');
    expect(metricsArgument('main', ['widget'], availableMetrics('main', ['widget']))).toBe('all');
    expect(reportFormula({ ...request, metrics: ['revenue', 'rpmByPvs'] })).toBe(
      '=ENGAGE_REPORT("pub","2026-11-01","2026-11-07","day","revenue,rpmByPvs")',
    );
    expect(reportFormula({ ...request, metrics: defaultMetrics('main', ['day']), sort: 'revenue', order: 'asc' })).toBe(
      '=ENGAGE_REPORT("pub","2026-11-01","2026-11-07","day","","","revenue asc")',
    );
    // The hourly reports' default set follows their effective breakdowns (externalId is always one).
    expect(
      reportFormula({
        kind: 'externalId',
        entityId: 'p',
        fromDate: 'a',
        toDate: 'b',
        breakdowns: [],
        metrics: defaultMetrics('externalId', ['externalId']),
      }),
    ).toBe('=ENGAGE_EXTERNALID_REPORT("p","a","b")');
  });

  it('passes the metrics on, and refuses anything but a list of names', () => {
    expect(toReportInput({ ...request, metrics: ['revenue'] }).input.metrics).toEqual(['revenue']);
    expect(() => toReportInput({ ...request, metrics: 'revenue' })).toThrow(/^metrics: must be a list of metric names/);
    expect(() => toReportInput({ ...request, metrics: ['revenue', 7] })).toThrow(/^metrics: must be a list/);
  });

  it('stores the chosen metrics with a saved report, and the default set when the builder sent none', () => {
    const draft = {
      name: 'Daily',
      period: { type: 'lastDays' as const, days: 7 },
      schedule: { every: 'day' as const, hour: 6 },
      target: { sheetName: 'Data', cell: 'A1' },
    };
    expect(savedReportFromBuilder({ ...request, metrics: ['revenue'] }, draft).metrics).toEqual(['revenue']);
    expect(savedReportFromBuilder({ ...request, breakdowns: ['widget'] }, draft).metrics).toEqual(defaultMetrics('main', ['widget']));
  });

  it('refreshes a saved report with its metrics, and one saved before metrics existed with every metric', () => {
    const saved = (extra: Record<string, unknown>) =>
      checkSavedReport({
        name: 'Daily',
        kind: 'main',
        entityId: 'pub',
        period: { type: 'lastDays', days: 7 },
        breakdowns: ['day'],
        target: { sheetName: 'Data', cell: 'A1' },
        schedule: { every: 'day', hour: 6 },
        ...extra,
      });
    expect(reportInputOf(saved({ metrics: ['revenue', 'paidClicks'] }), NOW).metrics).toEqual(['revenue', 'paidClicks']);
    const older = saved({});
    expect(older).not.toHaveProperty('metrics');
    expect(buildReportQuery('main', reportInputOf(older, NOW), { nowMs: NOW }).metrics).toBe('all');
    expect(() => saved({ metrics: [] })).toThrow(/^metrics: lists no metric/);
    expect(() => saved({ metrics: 'revenue' })).toThrow(/^metrics: must be a list of metric names/);
  });
});
