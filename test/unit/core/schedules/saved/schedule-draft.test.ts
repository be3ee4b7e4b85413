import type { BuilderRequest } from '../../../../../src/core/builder/builder-request';
import { checkSavedReport, incrementalProblem } from '../../../../../src/core/schedules/saved/saved-reports';
import {
  builderRequestOfSaved,
  describePeriod,
  periodForPreset,
  presetOfPeriod,
  savedReportFromBuilder,
  schedulePeriod,
  type PeriodChoice,
} from '../../../../../src/core/schedules/saved/schedule-draft';
import { resolvePeriod } from '../../../../../src/core/schedules/saved/period';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const request: BuilderRequest = {
  kind: 'main',
  entityId: 'pub',
  fromDate: '2026-11-13',
  toDate: '2026-11-19',
  breakdowns: ['day', 'country'],
  filter: 'revenue:gt:5',
  sort: 'revenue',
  order: 'desc',
  currencyCode: 'EUR',
  decDigits: 3,
};

describe('saving a builder report to a schedule', () => {
  it('turns each day preset into a period that moves, covering the same days as the preset today', () => {
    const at = (preset: Parameters<typeof periodForPreset>[1]) => resolvePeriod(periodForPreset('main', preset), NOW);
    expect(at('yesterday')).toEqual({ fromDate: '20261119', toDate: '20261119' });
    expect(at('last7')).toEqual({ fromDate: '20261113', toDate: '20261119' });
    expect(at('last30')).toEqual({ fromDate: '20261021', toDate: '20261119' });
    expect(at('today')).toEqual({ fromDate: '20261120', toDate: '20261120' });
    expect(at('thisMonth')).toEqual({ fromDate: '20261101', toDate: '20261120' });
    expect(at('lastMonth')).toEqual({ fromDate: '20261001', toDate: '20261031' });
    expect(resolvePeriod(periodForPreset('main', 'lastMonth'), Date.parse('2027-01-05T00:00:00Z'))).toEqual({
      fromDate: '20261201',
      toDate: '20261231',
    });
  });

  it('keeps a custom range fixed unless it may grow up to today', () => {
    expect(periodForPreset('main', 'custom', { fromDate: '2026-10-01', toDate: '2026-10-15' })).toEqual({
      type: 'fixed',
      fromDate: '20261001',
      toDate: '20261015',
    });
    expect(periodForPreset('main', 'custom', { fromDate: '2026-10-01', toDate: '2026-10-15', growing: true })).toEqual({
      type: 'since',
      fromDate: '20261001',
    });
  });

  it('refreshes the hourly reports over a rolling 24-hour UTC window whatever their preset', () => {
    for (const preset of ['last24h', 'previous24h', 'yesterdayUtc', 'custom'] as const) {
      expect(periodForPreset('externalId', preset)).toEqual({ type: 'lastHours', hours: 24 });
    }
    expect(periodForPreset('realtime', 'last24h')).toEqual({ type: 'lastHours', hours: 24 });
  });

  it('keeps the request of the builder, with the sort and its order in one argument, and passes the server check', () => {
    const report = savedReportFromBuilder(request, {
      name: '  Daily by country ',
      period: periodForPreset('main', 'last7'),
      schedule: { every: 'day', hour: 6 },
      target: { sheetName: 'Data', cell: 'b3' },
    });
    expect(report).toEqual({
      name: 'Daily by country',
      kind: 'main',
      entityId: 'pub',
      period: { type: 'lastDays', days: 7, endingYesterday: true },
      breakdowns: ['day', 'country'],
      filter: 'revenue:gt:5',
      sort: 'revenue desc',
      currencyCode: 'EUR',
      decDigits: 3,
      // The default set, stored: a saved report without metrics would show every metric.
      metrics: ['paidPvs', 'totalPvs', 'revenue', 'rpmByPvs', 'paidClicks', 'paidCtrByPvs', 'viewabilityRate'],
      destination: { kind: 'sheet', target: { sheetName: 'Data', cell: 'B3' } },
      schedule: { every: 'day', hour: 6 },
    });
    expect(checkSavedReport(report)).toEqual(report);
  });

  it("keeps the builder's row limit, which rules out an incremental refresh", () => {
    const report = savedReportFromBuilder(
      { ...request, maxRows: 500, preset: 'last7' },
      {
        name: 'Top 500',
        period: periodForPreset('main', 'last7'),
        schedule: { every: 'day', hour: 6 },
        target: { sheetName: 'D', cell: 'A1' },
      },
    );
    expect(report.maxRows).toBe(500);
    expect(report).not.toHaveProperty('preset');
    expect(checkSavedReport(report)).toEqual(report);
    expect(incrementalProblem(report)?.rule).toMatch(/cannot be combined with maxRows/);
  });

  it('leaves out what a report type does not take, and an empty breakdown list means by day', () => {
    const realtime = savedReportFromBuilder(
      { ...request, kind: 'realtime', breakdowns: [], currencyCode: 'EUR', decDigits: 2 },
      {
        name: 'Live',
        period: periodForPreset('realtime', 'last24h'),
        schedule: { every: 'hour' },
        target: { sheetName: 'Live', cell: 'A1' },
      },
    );
    expect(realtime).not.toHaveProperty('currencyCode');
    expect(realtime).not.toHaveProperty('decDigits');
    expect(realtime).not.toHaveProperty('breakdowns');
    expect(incrementalProblem({ kind: 'main', breakdowns: [], period: { type: 'lastDays', days: 7 } })).toBeUndefined();
  });

  it('offers incremental refresh only where rows can be merged by day', () => {
    const moving = periodForPreset('main', 'last7');
    expect(incrementalProblem({ kind: 'main', breakdowns: ['day', 'country'], period: moving })).toBeUndefined();
    expect(incrementalProblem({ kind: 'main', breakdowns: ['country'], period: moving })?.rule).toMatch(/broken down by day/);
    expect(
      incrementalProblem({ kind: 'main', breakdowns: ['day'], period: { type: 'fixed', fromDate: '20261001', toDate: '20261002' } })?.rule,
    ).toMatch(/period that moves/);
    expect(incrementalProblem({ kind: 'externalId', breakdowns: ['externalId'], period: { type: 'lastHours', hours: 24 } })?.rule).toMatch(
      /general report/,
    );
    expect(() =>
      checkSavedReport({
        ...savedReportFromBuilder(request, {
          name: 'x',
          period: moving,
          schedule: { every: 'hour' },
          target: { sheetName: 'S', cell: 'A1' },
          incremental: true,
        }),
        totals: true,
      }),
    ).toThrow(/totals: cannot be combined with incremental/);
  });

  it('describes each period in words, naming UTC', () => {
    expect(describePeriod({ type: 'lastDays', days: 7, endingYesterday: true })).toBe('the 7 days before today (UTC days)');
    expect(describePeriod({ type: 'lastDays', days: 1, endingYesterday: true })).toBe('yesterday (UTC day)');
    expect(describePeriod({ type: 'lastDays', days: 3 })).toBe('the last 3 days up to today (UTC days)');
    expect(describePeriod({ type: 'since', fromDate: '20261001' })).toBe('from 2026-10-01 up to today (UTC days)');
    expect(describePeriod({ type: 'fixed', fromDate: '20261001', toDate: '20261015' })).toBe(
      '2026-10-01 to 2026-10-15, always the same days',
    );
    expect(describePeriod({ type: 'lastHours', hours: 24 })).toBe('the last 24 hours up to the current one (UTC)');
  });
});

describe('builderRequestOfSaved', () => {
  it('reopens a saved report in the builder: the preset its period moves as, its dates now, sort and order apart', () => {
    const saved = savedReportFromBuilder(
      { ...request, filter: 'revenue:gt:1', sort: 'day', order: 'asc', metrics: ['revenue'], currencyCode: 'EUR', decDigits: 3 },
      {
        name: 'Daily',
        period: periodForPreset('main', 'last7'),
        schedule: { every: 'day', hour: 6 },
        target: { sheetName: 'S', cell: 'B2' },
      },
    );
    expect(builderRequestOfSaved(saved, NOW)).toEqual({
      growing: false,
      request: {
        kind: 'main',
        entityId: 'pub',
        fromDate: '2026-11-13',
        toDate: '2026-11-19',
        breakdowns: ['day', 'country'],
        metrics: ['revenue'],
        filter: 'revenue:gt:1',
        sort: 'day',
        order: 'asc',
        currencyCode: 'EUR',
        decDigits: 3,
        preset: 'last7',
      },
    });
    const growing = builderRequestOfSaved({ ...saved, period: { type: 'since', fromDate: '20261101' } }, NOW);
    expect(growing).toMatchObject({ growing: true, request: { preset: 'custom', fromDate: '2026-11-01', toDate: '2026-11-20' } });
    const hourly = builderRequestOfSaved({ ...saved, kind: 'externalId', period: { type: 'lastHours', hours: 24 } }, NOW);
    expect(hourly.request).toMatchObject({ preset: 'last24h', fromDate: '2026-11-19 13:00', toDate: '2026-11-20 13:00' });
  });

  it('maps every period a preset makes back to that preset, and other ranges to custom', () => {
    for (const preset of ['today', 'yesterday', 'last7', 'last14', 'last30', 'thisMonth', 'lastMonth'] as const)
      expect(presetOfPeriod(periodForPreset('main', preset))).toBe(preset);
    expect(presetOfPeriod({ type: 'lastDays', days: 10, endingYesterday: true })).toBe('custom');
    expect(presetOfPeriod({ type: 'fixed', fromDate: '20261001', toDate: '20261015' })).toBe('custom');
  });
});

describe('schedulePeriod, editing a saved report', () => {
  /** What the builder shows of a saved report reopened in it (builder.ts edit()). */
  function shownOf(period: ReturnType<typeof periodForPreset>): PeriodChoice {
    const draft = { name: 'Ten days', period, schedule: { every: 'day' as const, hour: 6 }, target: { sheetName: 'S', cell: 'A1' } };
    const { request: reopened, growing } = builderRequestOfSaved(savedReportFromBuilder(request, draft), NOW);
    const preset = reopened.preset!;
    return preset === 'custom'
      ? { kind: 'main', preset, custom: { fromDate: reopened.fromDate, toDate: reopened.toDate, growing } }
      : { kind: 'main', preset };
  }

  it('keeps a rolling period no preset matches while the period is left as it opened, where the builder alone would fix its days', () => {
    const tenDays = { type: 'lastDays' as const, days: 10, endingYesterday: true };
    const shown = shownOf(tenDays);
    expect(shown).toEqual({ kind: 'main', preset: 'custom', custom: { fromDate: '2026-11-10', toDate: '2026-11-19', growing: false } });
    // Without the saved period, the builder's custom range is saved as fixed days: the rolling period lost.
    expect(schedulePeriod(shown)).toEqual({ type: 'fixed', fromDate: '20261110', toDate: '20261119' });
    expect(schedulePeriod(shown, { period: tenDays, shown })).toEqual(tenDays);
    expect(schedulePeriod({ ...shown, custom: { ...shown.custom! } }, { period: tenDays, shown })).toEqual(tenDays);
    const sixHours = { type: 'lastHours' as const, hours: 6 };
    const hourly: PeriodChoice = { kind: 'externalId', preset: 'last24h' };
    expect(schedulePeriod(hourly, { period: sixHours, shown: hourly })).toEqual(sixHours);
  });

  it("saves the builder's period once the user changes it: another preset, other days, growing to today, another report type", () => {
    const tenDays = { type: 'lastDays' as const, days: 10, endingYesterday: true };
    const shown = shownOf(tenDays);
    const kept = { period: tenDays, shown };
    expect(schedulePeriod({ ...shown, preset: 'last7', custom: undefined } as PeriodChoice, kept)).toEqual(
      periodForPreset('main', 'last7'),
    );
    expect(schedulePeriod({ ...shown, custom: { ...shown.custom!, fromDate: '2026-11-01' } }, kept)).toEqual({
      type: 'fixed',
      fromDate: '20261101',
      toDate: '20261119',
    });
    expect(schedulePeriod({ ...shown, custom: { ...shown.custom!, growing: true } }, kept)).toEqual({
      type: 'since',
      fromDate: '20261110',
    });
    expect(schedulePeriod({ kind: 'externalId', preset: 'last24h' }, kept)).toEqual({ type: 'lastHours', hours: 24 });
  });
});
