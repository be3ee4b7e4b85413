/**
 * A comparison built in the sidebar (compare-request.ts): its ENGAGE_COMPARE formula, written with
 * compareWith after toDate and refresh last, and the compareWith a request may carry.
 */
import { availableMetrics } from '../../../../src/core/api/requests/report-metrics';
import type { BuilderRequest } from '../../../../src/core/builder/builder-request';
import { compareFormula, requestedComparison } from '../../../../src/core/builder/compare-request';
import { savedReportFromBuilder } from '../../../../src/core/schedules/saved/schedule-draft';

const request: BuilderRequest = {
  kind: 'main',
  entityId: 'p1',
  fromDate: '2026-11-01',
  toDate: '2026-11-07',
  breakdowns: ['day', 'country'],
  compareWith: 'previous',
};

describe('compareFormula', () => {
  it('leaves out trailing empty arguments, and the default metrics of a comparison', () => {
    expect(compareFormula({ ...request, metrics: ['totalPvs', 'revenue', 'rpmByPvs', 'paidCtrByPvs'] })).toBe(
      '=ENGAGE_COMPARE("p1","2026-11-01","2026-11-07","previous","day,country")',
    );
  });

  it('keeps every position when later arguments are given, and the refresh cell last', () => {
    expect(
      compareFormula(
        {
          ...request,
          compareWith: '2026-10-01..2026-10-07',
          metrics: ['revenue'],
          filter: 'revenue:gt:1',
          sort: 'revenue',
          order: 'asc',
          currencyCode: 'EUR',
          decDigits: 0,
        },
        'EngageRefresh',
      ),
    ).toBe(
      '=ENGAGE_COMPARE("p1","2026-11-01","2026-11-07","2026-10-01..2026-10-07","day,country","revenue","revenue:gt:1","revenue asc","","EUR",0,EngageRefresh)',
    );
  });

  it('writes "all" for every metric, and the names of any other choice', () => {
    const every = availableMetrics('main', ['day']);
    expect(compareFormula({ ...request, breakdowns: [], metrics: every })).toBe(
      '=ENGAGE_COMPARE("p1","2026-11-01","2026-11-07","previous","","all")',
    );
    expect(compareFormula({ ...request, breakdowns: [], metrics: every.slice(1) })).toContain(`"${every.slice(1).join(',')}"`);
  });
});

describe('requestedComparison', () => {
  it('is undefined without compareWith, the text with it', () => {
    expect(requestedComparison({ ...request, compareWith: undefined })).toBeUndefined();
    expect(requestedComparison({ ...request, compareWith: '' })).toBeUndefined();
    expect(requestedComparison(request)).toBe('previous');
  });

  it('refuses a compareWith that is not text, or one of an hourly report', () => {
    expect(() => requestedComparison({ ...request, compareWith: { type: 'previous' } })).toThrow(/compareWith: must be text/);
    expect(() => requestedComparison({ ...request, kind: 'realtime' })).toThrow(/compareWith: compares the general report only/);
  });
});

describe('savedReportFromBuilder', () => {
  it('keeps the comparison with the saved report', () => {
    const draft = {
      name: 'Weekly',
      period: { type: 'lastDays', days: 7 } as const,
      schedule: { every: 'hour' } as const,
      target: { sheetName: 'S', cell: 'A1' },
    };
    expect(savedReportFromBuilder(request, draft).compareWith).toBe('previous');
    expect(savedReportFromBuilder({ ...request, compareWith: undefined }, draft)).not.toHaveProperty('compareWith');
  });
});
