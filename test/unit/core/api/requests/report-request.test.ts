import { ValidationError, type ReportInput, type ReportKind } from '../../../../../src/core';
import { buildReportQuery, reportPageUrl } from '../../../../../src/core/api/requests/report-request';
import { where } from '../../../../../src/core/api/requests/filters';
import { queryOf } from '../../../../support/fakes';
import { BASE_URL, harness, PUBLISHER } from '../client/harness';
import {
  INVALID_REPORT_ARGUMENTS,
  INVALID_ARGUMENTS_NOW as NOW,
  mainInput as main,
  hourlyInput as hourly,
} from './invalid-report-arguments';

function problemsOf(kind: ReportKind, input: ReportInput, timeZone = 'UTC'): string {
  try {
    buildReportQuery(kind, input, { nowMs: NOW, timeZone });
  } catch (e) {
    if (e instanceof ValidationError) return e.message;
    throw e;
  }
  return '(accepted)';
}

describe('buildReportQuery for the general report', () => {
  it('sends the default day breakdown and only the parameters given', () => {
    const q = buildReportQuery('main', main(), { nowMs: NOW });
    expect(q.params).toEqual({ entityId: PUBLISHER, fromDate: '20261101', toDate: '20261121', breakdowns: 'day' });
    expect(q.breakdowns).toEqual(['day']);
  });

  it('accepts yyyy-MM-dd, numbers and date cells, reading a Date in the sheet time zone', () => {
    // Midnight of 2026-11-01 in Berlin is 2026-10-31 23:00 UTC: the sheet shows Nov 1.
    const q = buildReportQuery('main', main({ fromDate: new Date('2026-10-31T23:00:00Z'), toDate: '2026-11-05' }), {
      nowMs: NOW,
      timeZone: 'Europe/Berlin',
    });
    expect([q.fromDate, q.toDate]).toEqual(['20261101', '20261105']);
    expect(buildReportQuery('main', main({ fromDate: 20261102 }), { nowMs: NOW }).fromDate).toBe('20261102');
  });

  it('splits sort into sort and order, upper-cases the currency and keeps breakdown order', () => {
    const q = buildReportQuery(
      'main',
      main({ breakdowns: 'country, platform', sort: '-paidClicks', currencyCode: 'eur', decDigits: '3' }),
      { nowMs: NOW },
    );
    expect(q.params).toMatchObject({
      breakdowns: 'country,platform',
      sort: 'paidClicks',
      order: 'desc',
      currencyCode: 'EUR',
      decDigits: '3',
    });
  });

  it('treats empty cells and nulls as not given', () => {
    const q = buildReportQuery('main', main({ sort: '', filter: '', breakdowns: '', currencyCode: null as unknown as string }), {
      nowMs: NOW,
    });
    expect(q.params).toEqual({ entityId: PUBLISHER, fromDate: '20261101', toDate: '20261121', breakdowns: 'day' });
  });

  it('accepts built filter conditions and sends them as one expression', () => {
    const q = buildReportQuery(
      'main',
      main({ breakdowns: ['country'], filter: [where('revenue').gt(10), where('country.id').in(['US', 'DE'])] }),
      { nowMs: NOW },
    );
    expect(q.params.filter).toBe('revenue:gt:10;country.id:in:US,DE');
  });

  it('builds the page address with limit and offset', () => {
    const q = buildReportQuery('main', main({ filter: 'revenue:gt:1' }), { nowMs: NOW });
    const url = reportPageUrl(`${BASE_URL}/`, q, { limit: 10000, offset: 20000 });
    expect(url.startsWith(`${BASE_URL}/reports/main?`)).toBe(true);
    expect(queryOf({ url, method: 'get' })).toMatchObject({ filter: 'revenue:gt:1', limit: '10000', offset: '20000' });
  });

  it('allows the doc breakdown inside the last 12 months', () => {
    expect(problemsOf('main', main({ breakdowns: 'doc', fromDate: '20251122' }))).toBe('(accepted)');
  });
});

describe('buildReportQuery for the hourly reports', () => {
  it('puts externalId first in the external-ID report, whatever the order given', () => {
    const q = buildReportQuery('externalId', hourly({ breakdowns: ['widget', 'externalId'] }), { nowMs: NOW });
    expect(q.params.breakdowns).toBe('externalId,widget');
  });

  it('lets the realtime report put another breakdown first when all are listed', () => {
    expect(buildReportQuery('realtime', hourly({ breakdowns: 'widget,externalId' }), { nowMs: NOW }).breakdowns).toEqual([
      'widget',
      'externalId',
    ]);
    expect(buildReportQuery('realtime', hourly({ breakdowns: 'widget' }), { nowMs: NOW }).breakdowns).toEqual(['externalId', 'widget']);
  });

  it('reads a date alone as hour 00 and, for toDate, as hour 00 of the next day (exclusive)', () => {
    const q = buildReportQuery('realtime', hourly({ fromDate: '20261121', toDate: '2026-11-21' }), { nowMs: NOW });
    expect([q.params.fromDate, q.params.toDate]).toEqual(['2026112100', '2026112200']);
  });

  it('takes a date cell at its UTC hour', () => {
    const q = buildReportQuery(
      'externalId',
      hourly({ fromDate: new Date('2026-11-20T23:00:00Z'), toDate: new Date('2026-11-21T23:30:00Z') }),
      { nowMs: NOW },
    );
    expect([q.fromDate, q.toDate]).toEqual(['2026112023', '2026112123']);
  });

  it('accepts exactly 24 hours', () => {
    expect(problemsOf('externalId', hourly({ fromDate: '2026112005', toDate: '2026112105' }))).toBe('(accepted)');
  });
});

describe('relative days (today, yesterday, NdaysAgo, the month bounds) on the spreadsheet clock', () => {
  // 02:00 UTC on 22 November: still the 21st in Los Angeles, already the 22nd in Berlin.
  const AT = Date.UTC(2026, 10, 22, 2);
  const days = (kind: ReportKind, fromDate: unknown, toDate: unknown, timeZone: string, nowMs = AT) => {
    const q = buildReportQuery(kind, main({ fromDate, toDate } as Partial<ReportInput>), { nowMs, timeZone });
    return [q.params.fromDate, q.params.toDate];
  };

  it('asks the general report for the calendar days they name there, as date cells of those days', () => {
    expect(days('main', '7daysAgo', 'yesterday', 'America/Los_Angeles')).toEqual(['20261114', '20261120']);
    expect(days('main', '7daysAgo', 'yesterday', 'Europe/Berlin')).toEqual(['20261115', '20261121']);
    // The date cells a sheet in Berlin passes for TODAY()-7 and TODAY()-1: the same request.
    expect(days('main', new Date('2026-11-14T23:00:00Z'), new Date('2026-11-20T23:00:00Z'), 'Europe/Berlin')).toEqual([
      '20261115',
      '20261121',
    ]);
    expect(days('main', 'TODAY', ' 0daysAgo ', 'Europe/Berlin')).toEqual(['20261122', '20261122']);
    expect(days('main', 'startOfMonth', 'today', 'America/Los_Angeles')).toEqual(['20261101', '20261121']);
    expect(days('main', 'startOfLastMonth', 'endOfLastMonth', 'Europe/Berlin')).toEqual(['20261001', '20261031']);
    // Beside a fixed day.
    expect(days('main', '2026-11-01', 'yesterday', 'Europe/Berlin')).toEqual(['20261101', '20261121']);
  });

  it('moves with the day: the request, and so every cache keyed by it, is another one after midnight there', () => {
    const before = days('main', '7daysAgo', 'yesterday', 'Europe/Berlin', Date.parse('2026-11-22T22:59:00Z'));
    const after = days('main', '7daysAgo', 'yesterday', 'Europe/Berlin', Date.parse('2026-11-22T23:01:00Z'));
    expect([before, after]).toEqual([
      ['20261115', '20261121'],
      ['20261116', '20261122'],
    ]);
  });

  it("asks the hourly reports for that UTC day, whole: from its hour 00, and as toDate up to the next day's", () => {
    expect(days('externalId', 'yesterday', 'yesterday', 'America/Los_Angeles')).toEqual(['2026112000', '2026112100']);
    expect(days('externalId', '2daysAgo', '2daysAgo', 'Europe/Berlin')).toEqual(['2026112000', '2026112100']);
    // Realtime: today's UTC day is inside its 48 hours; the rules apply to the resolved hours.
    expect(days('realtime', 'today', 'today', 'Europe/Berlin')).toEqual(['2026112200', '2026112300']);
    // Where the spreadsheet's today is already tomorrow in UTC (Kiritimati, UTC+14), its UTC day has not begun.
    expect(problemsOf('realtime', main({ fromDate: 'today', toDate: 'today' }), 'Pacific/Kiritimati')).toBe(
      "fromDate: 'today' (2026-11-23 00:00 UTC) is in the future (now is 2026-11-22 12:00 UTC)",
    );
  });
});

describe('invalid report arguments', () => {
  it.each(INVALID_REPORT_ARGUMENTS.map(([n, k, i, m, tz]) => [n, k, i, m, tz ?? 'UTC'] as const))(
    '%s: says what is wrong and sends nothing',
    (_name, kind, input, message, timeZone) => {
      const { client, transport } = harness();
      let error: unknown;
      try {
        client.runReport(client.buildQuery(kind, input, timeZone));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toContain(message);
      expect((error as ValidationError).argument).toBe(message.split(':')[0]);
      expect(transport.requestCount).toBe(0);
    },
  );

  it('lists every problem at once', () => {
    const message = problemsOf('main', main({ breakdowns: 'referrer,country', decDigits: 9, limit: 0 }));
    expect(message.split('; ')).toHaveLength(3);
  });
});

describe('entityId, currency and message rules found by the bad-input evidence', () => {
  const at = { nowMs: Date.parse('2026-11-20T12:00:00Z') };
  const ok = { entityId: PUBLISHER, fromDate: '20261101', toDate: '20261107' };

  it.each([
    ['a formula', '=HYPERLINK("x")', /^entityId: '=HYPERLINK\("x"\)' is not a publisher ID/],
    ['markup', '<script>alert(1)</script>', /is not a publisher ID/],
    ['control characters', 'ab\u0000cd', /^entityId: 'ab\\u0000cd' is not a publisher ID/],
    ['a paragraph', 'x'.repeat(129), /is longer than 128 characters, the most a publisher ID has/],
  ])('refuses %s as entityId', (_what, entityId, message) => {
    expect(() => buildReportQuery('main', { ...ok, entityId }, at)).toThrow(message);
  });

  it('accepts hex and base64 publisher IDs', () => {
    expect(buildReportQuery('main', { ...ok, entityId: '653e5ee6b140b03fae04134988786fe5' }, at).entityId).toBe(
      '653e5ee6b140b03fae04134988786fe5',
    );
    expect(buildReportQuery('main', { ...ok, entityId: 'ZXhh+bXBsZQ/==' }, at).entityId).toBe('ZXhh+bXBsZQ/==');
  });

  it('refuses a three-letter code that is no currency, and a real one Engage does not report in; accepts one it does', () => {
    expect(() => buildReportQuery('main', { ...ok, currencyCode: 'XYZ' }, at)).toThrow(
      /^currencyCode: 'XYZ' is not an ISO 4217 currency code/,
    );
    expect(() => buildReportQuery('main', { ...ok, currencyCode: 'chf' }, at)).toThrow(
      /^currencyCode: 'chf' is not a currency Engage reports in \(use USD, EUR, GBP, JPY, CAD, AUD, BRL, INR, ILS\)$/,
    );
    expect(buildReportQuery('main', { ...ok, currencyCode: 'gbp' }, at).params.currencyCode).toBe('GBP');
  });

  it('suggests a name only when the word is close to it for its length: not doc for foo', () => {
    const message = (filter: string) => {
      try {
        buildReportQuery('main', { ...ok, filter }, at);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(message('foo:gt:1')).toMatch(/'foo' is not a metric or field of the general report$/);
    expect(message('foo:gt:1')).not.toMatch(/did you mean/);
    expect(message('revnue:gt:1')).toMatch(/did you mean 'revenue'\?/);
    expect(message('paidclick:gt:1')).toMatch(/did you mean 'paidClicks'\?/);
    expect(message('dy:gt:1')).toMatch(/did you mean 'day'\?/);
  });

  it('cuts a long value in a message and shows its length', () => {
    const error = (() => {
      try {
        buildReportQuery('main', { ...ok, breakdowns: 'b'.repeat(5000) }, at);
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error!.message).toMatch(/^breakdowns: 'b{40}\.\.\.' \(5000 characters\) is not a breakdown/);
    expect(error!.message.length).toBeLessThan(300);
  });
});

describe('EngageClient.buildQuery', () => {
  it('refuses a filter that would make a page address longer than UrlFetchApp sends, naming the filter', () => {
    const { client } = harness();
    const filter = `country.id:in:${Array.from({ length: 400 }, () => 'US').join(',')}`;
    expect(() =>
      client.buildQuery('main', { entityId: PUBLISHER, fromDate: '20261101', toDate: '20261107', breakdowns: 'country', filter }),
    ).toThrow(/^filter: makes the request address \d+ characters long, more than the 2000 Apps Script can send/);
    expect(
      reportPageUrl(
        BASE_URL,
        client.buildQuery('main', {
          entityId: PUBLISHER,
          fromDate: '20261101',
          toDate: '20261107',
          breakdowns: 'country',
          filter: 'country.id:in:US,DE',
        }),
        { limit: 10000, offset: 0 },
      ).length,
    ).toBeLessThan(2000);
  });
});
