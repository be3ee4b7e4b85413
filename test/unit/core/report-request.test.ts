import { ValidationError, type ReportInput, type ReportKind } from '../../../src/core';
import { buildReportQuery, reportPageUrl } from '../../../src/core/report-request';
import { where } from '../../../src/core/filters';
import { queryOf } from '../../support/fakes';
import { BASE_URL, harness, PUBLISHER } from './harness';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0); // 2026-11-22 12:00 UTC
const main = (extra: Partial<ReportInput> = {}): ReportInput => ({ entityId: PUBLISHER, fromDate: '20261101', toDate: '20261121', ...extra });
const hourly = (extra: Partial<ReportInput> = {}): ReportInput => ({ entityId: PUBLISHER, fromDate: '2026112100', toDate: '2026112200', ...extra });

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
    const q = buildReportQuery('main', main({ fromDate: new Date('2026-10-31T23:00:00Z'), toDate: '2026-11-05' }), { nowMs: NOW, timeZone: 'Europe/Berlin' });
    expect([q.fromDate, q.toDate]).toEqual(['20261101', '20261105']);
    expect(buildReportQuery('main', main({ fromDate: 20261102 }), { nowMs: NOW }).fromDate).toBe('20261102');
  });

  it('splits sort into sort and order, upper-cases the currency and keeps breakdown order', () => {
    const q = buildReportQuery('main', main({ breakdowns: 'country, platform', sort: '-paidClicks', currencyCode: 'eur', decDigits: '3' }), { nowMs: NOW });
    expect(q.params).toMatchObject({ breakdowns: 'country,platform', sort: 'paidClicks', order: 'desc', currencyCode: 'EUR', decDigits: '3' });
  });

  it('treats empty cells and nulls as not given', () => {
    const q = buildReportQuery('main', main({ sort: '', filter: '', breakdowns: '', currencyCode: null as unknown as string }), { nowMs: NOW });
    expect(q.params).toEqual({ entityId: PUBLISHER, fromDate: '20261101', toDate: '20261121', breakdowns: 'day' });
  });

  it('accepts built filter conditions and sends them as one expression', () => {
    const q = buildReportQuery('main', main({ breakdowns: ['country'], filter: [where('revenue').gt(10), where('country.id').in(['US', 'DE'])] }), { nowMs: NOW });
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
    expect(buildReportQuery('realtime', hourly({ breakdowns: 'widget,externalId' }), { nowMs: NOW }).breakdowns).toEqual(['widget', 'externalId']);
    expect(buildReportQuery('realtime', hourly({ breakdowns: 'widget' }), { nowMs: NOW }).breakdowns).toEqual(['externalId', 'widget']);
  });

  it('reads a date alone as hour 00 and, for toDate, as hour 00 of the next day (exclusive)', () => {
    const q = buildReportQuery('realtime', hourly({ fromDate: '20261121', toDate: '2026-11-21' }), { nowMs: NOW });
    expect([q.params.fromDate, q.params.toDate]).toEqual(['2026112100', '2026112200']);
  });

  it('takes a date cell at its UTC hour', () => {
    const q = buildReportQuery('externalId', hourly({ fromDate: new Date('2026-11-20T23:00:00Z'), toDate: new Date('2026-11-21T23:30:00Z') }), { nowMs: NOW });
    expect([q.fromDate, q.toDate]).toEqual(['2026112023', '2026112123']);
  });

  it('accepts exactly 24 hours', () => {
    expect(problemsOf('externalId', hourly({ fromDate: '2026112005', toDate: '2026112105' }))).toBe('(accepted)');
  });
});

/** Each case: report, arguments, and a part of the message it must produce. */
const INVALID: Array<[string, ReportKind, ReportInput, string]> = [
  ['missing entityId', 'main', main({ entityId: '' }), 'entityId: is required'],
  ['entityId with spaces', 'main', main({ entityId: 'a b' }), "entityId: 'a b' must not contain spaces"],
  ['missing fromDate', 'main', main({ fromDate: undefined as unknown as string }), 'fromDate: is required'],
  ['missing toDate as empty cell', 'main', main({ toDate: '' }), 'toDate: is required'],
  ['fromDate not a date', 'main', main({ fromDate: '2026/11/01' }), "fromDate: '2026/11/01' is not a date (use yyyyMMdd, yyyy-MM-dd or a date cell)"],
  ['impossible date', 'main', main({ toDate: '20260231' }), "toDate: '20260231' is not a date"],
  ['hour on the general report', 'main', main({ fromDate: '2026110105' }), "fromDate: '2026110105' is not a date"],
  ['invalid Date object', 'main', main({ fromDate: new Date('nope') }), 'fromDate: an invalid date is not a valid date'],
  ['toDate before fromDate', 'main', main({ fromDate: '20261121', toDate: '20261101' }), "toDate: '20261101' is before fromDate '20261121'"],
  ['day and month', 'main', main({ breakdowns: ['day', 'month'] }), "breakdowns: 'day' and 'month' cannot be combined"],
  ['referrer and country', 'main', main({ breakdowns: 'referrer,country' }), "breakdowns: 'referrer' and 'country' cannot be combined"],
  ['referrer and doc', 'main', main({ breakdowns: 'referrer,doc' }), "breakdowns: 'referrer' and 'doc' cannot be combined"],
  ['country and doc', 'main', main({ breakdowns: 'doc,country' }), "breakdowns: 'country' and 'doc' cannot be combined"],
  ['five breakdowns', 'main', main({ breakdowns: 'day,platform,country,section,widget' }), 'breakdowns: [\'day\', \'platform\', \'country\', \'section\', \'widget\'] has 5 breakdowns; the general report allows at most 4'],
  ['unknown breakdown', 'main', main({ breakdowns: 'weekday' }), "breakdowns: 'weekday' is not a breakdown of the general report"],
  ['duplicate breakdown', 'main', main({ breakdowns: 'day,day' }), "breakdowns: 'day' is listed twice"],
  ['breakdowns of the wrong type', 'main', main({ breakdowns: 5 as unknown as string }), 'breakdowns: 5 must be a list of names'],
  ['doc older than 12 months', 'main', main({ breakdowns: 'doc', fromDate: '20251121' }), "fromDate: '20251121' is more than 12 months ago, and the 'doc' breakdown only covers the last 12 months (earliest 20251122)"],
  ['limit above 10000', 'main', main({ limit: 10001 }), 'limit: 10001 is above the maximum: it must be a whole number from 1 to 10000 for the general report'],
  ['limit zero', 'main', main({ limit: 0 }), 'limit: 0 is below the minimum'],
  ['limit not whole', 'main', main({ limit: 2.5 }), 'limit: 2.5 must be a whole number'],
  ['limit as text', 'main', main({ limit: 'many' }), "limit: 'many' must be a whole number"],
  ['negative offset', 'main', main({ offset: -1 }), 'offset: -1 is below the minimum'],
  ['decDigits 7', 'main', main({ decDigits: 7 }), 'decDigits: 7 is above the maximum: it must be a whole number from 0 to 6'],
  ['decDigits negative', 'main', main({ decDigits: -1 }), 'decDigits: -1 is below the minimum'],
  ['currency not three letters', 'main', main({ currencyCode: 'EURO' }), "currencyCode: 'EURO' must be a three-letter currency code"],
  ['unknown sort field', 'main', main({ sort: 'revnue' }), "sort: 'revnue' is not a metric or field of the general report (did you mean 'revenue'?)"],
  ['sort metric unavailable with widget', 'main', main({ breakdowns: 'widget', sort: 'paidPvs' }), "sort: 'paidPvs' is not available with the 'widget' breakdown"],
  ['order not asc or desc', 'main', main({ order: 'down' }), "order: 'down' must be 'asc' or 'desc'"],
  ['malformed filter', 'main', main({ filter: 'revenue:gt:ten' }), "filter: 'ten' is not a number (gt compares numbers) at character 12 of 'revenue:gt:ten'"],
  ['filter on unknown field', 'main', main({ filter: 'revenue:gt:1;clicks:gt:1' }), "filter: 'clicks' is not a metric or field of the general report"],
  ['filter on entity not broken down', 'main', main({ filter: 'country.id:in:US' }), "filter: 'country.id' needs the 'country' breakdown at character 1"],
  ['unknown parameter', 'main', main({ publisher: 'x' } as Partial<ReportInput>), 'publisher: is not a parameter of the general report'],
  ['bad time zone', 'main', main(), 'timeZone: \'Mars/Olympus\' is not an IANA time zone'],
  ['hourly range over 24 hours', 'externalId', hourly({ fromDate: '2026112000', toDate: '2026112101' }), "toDate: '2026112101' is 25 hours after fromDate '2026112000'; the external-ID report covers at most 24 hours"],
  ['hourly dates alone spanning two days', 'externalId', hourly({ fromDate: '20261120', toDate: '20261121' }), "toDate: '20261121' is 48 hours after fromDate"],
  ['hourly toDate equal to fromDate', 'externalId', hourly({ fromDate: '2026112105', toDate: '2026112105' }), "toDate: '2026112105' must be after fromDate '2026112105'"],
  ['hour 24', 'externalId', hourly({ fromDate: '2026112124' }), "fromDate: '2026112124' is not a date or hour (use yyyyMMddHH in UTC"],
  ['external-ID limit above 5000', 'externalId', hourly({ limit: 5001 }), 'limit: 5001 is above the maximum: it must be a whole number from 1 to 5000 for the external-ID report'],
  ['decDigits on the external-ID report', 'externalId', hourly({ decDigits: 2 }), 'decDigits: 2 is not accepted by the external-ID report'],
  ['main breakdown on the external-ID report', 'externalId', hourly({ breakdowns: 'country' }), "breakdowns: 'country' is not a breakdown of the external-ID report (use externalId, widget, externalSecondaryId)"],
  ['realtime metric on the external-ID report', 'externalId', hourly({ sort: 'totalPvs' }), "sort: 'totalPvs' is not a metric or field of the external-ID report"],
  ['externalId filter value over 110 characters', 'externalId', hourly({ filter: `externalId:in:${'x'.repeat(111)}` }), `filter: '${'x'.repeat(40)}...' is 111 characters long; externalId values have at most 110`],
  ['realtime before the 48-hour window', 'realtime', hourly({ fromDate: '2026112010', toDate: '2026112020' }), "fromDate: '2026112010' is older than the realtime window of the last 48 hours (earliest 2026112012 UTC)"],
  ['realtime in the future', 'realtime', hourly({ fromDate: '2026112214', toDate: '2026112216' }), "fromDate: '2026112214' is in the future"],
  ['currency on the realtime report', 'realtime', hourly({ currencyCode: 'EUR' }), "currencyCode: 'EUR' is not accepted by the realtime external-ID report (its revenue is always USD)"],
  ['realtime limit above 5000', 'realtime', hourly({ limit: 6000 }), 'limit: 6000 is above the maximum'],
  ['realtime range over 24 hours', 'realtime', hourly({ fromDate: '2026112100', toDate: '2026112201' }), "toDate: '2026112201' is 25 hours after fromDate"],
];

describe('invalid report arguments', () => {
  it.each(INVALID)('%s: says what is wrong and sends nothing', (_name, kind, input, message) => {
    const { client, transport } = harness();
    const timeZone = _name === 'bad time zone' ? 'Mars/Olympus' : 'UTC';
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
  });

  it('lists every problem at once', () => {
    const message = problemsOf('main', main({ breakdowns: 'referrer,country', decDigits: 9, limit: 0 }));
    expect(message.split('; ')).toHaveLength(3);
  });
});
