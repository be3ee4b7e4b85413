/**
 * A table of invalid report arguments: each case names the report, the arguments, a part of the
 * message the user must see (starting with the argument at fault) and optionally the sheet time
 * zone. Shared by the unit test and the integration test, which both check that nothing is sent.
 * The cases assume "now" is INVALID_ARGUMENTS_NOW (realtime and doc windows).
 */
import type { ReportInput, ReportKind } from '../../../../../src/core';

export const INVALID_ARGUMENTS_NOW = Date.UTC(2026, 10, 22, 12, 0, 0); // 2026-11-22 12:00 UTC
export const INVALID_ARGUMENTS_PUBLISHER = 'a1b2c3d4e5';
export const mainInput = (extra: Partial<ReportInput> = {}): ReportInput => ({
  entityId: INVALID_ARGUMENTS_PUBLISHER,
  fromDate: '20261101',
  toDate: '20261121',
  ...extra,
});
export const hourlyInput = (extra: Partial<ReportInput> = {}): ReportInput => ({
  entityId: INVALID_ARGUMENTS_PUBLISHER,
  fromDate: '2026112100',
  toDate: '2026112200',
  ...extra,
});

/** Each case: report, arguments, and a part of the message it must produce. */
export const INVALID_REPORT_ARGUMENTS: Array<[string, ReportKind, ReportInput, string, string?]> = [
  ['missing entityId', 'main', mainInput({ entityId: '' }), 'entityId: is required'],
  ['entityId with spaces', 'main', mainInput({ entityId: 'a b' }), "entityId: 'a b' must not contain spaces"],
  ['missing fromDate', 'main', mainInput({ fromDate: undefined as unknown as string }), 'fromDate: is required'],
  ['missing toDate as empty cell', 'main', mainInput({ toDate: '' }), 'toDate: is required'],
  [
    'fromDate not a date',
    'main',
    mainInput({ fromDate: '2026/11/01' }),
    "fromDate: '2026/11/01' is not a date: write yyyy-MM-dd, yyyyMMdd, a date cell, today, yesterday, NdaysAgo such as 7daysAgo, startOfMonth, startOfLastMonth or endOfLastMonth",
  ],
  ['impossible date', 'main', mainInput({ toDate: '20260231' }), "toDate: '20260231' is not a date"],
  ['hour on the general report', 'main', mainInput({ fromDate: '2026110105' }), "fromDate: '2026110105' is not a date"],
  ['a singular relative day', 'main', mainInput({ fromDate: '7dayago' }), "fromDate: '7dayago' is not a date: write yyyy-MM-dd"],
  ['a relative day with a space', 'main', mainInput({ fromDate: '7 daysAgo' }), "fromDate: '7 daysAgo' is not a date"],
  ['a negative relative day', 'main', mainInput({ toDate: '-1daysAgo' }), "toDate: '-1daysAgo' is not a date"],
  ['a fraction of days ago', 'main', mainInput({ fromDate: '1.5daysAgo' }), "fromDate: '1.5daysAgo' is not a date"],
  ['tomorrow', 'main', mainInput({ toDate: 'tomorrow' }), "toDate: 'tomorrow' is not a date"],
  ['days from now', 'main', mainInput({ toDate: '7daysFromNow' }), "toDate: '7daysFromNow' is not a date"],
  [
    'too many days ago',
    'main',
    mainInput({ fromDate: '36501daysAgo' }),
    "fromDate: '36501daysAgo' counts back more than 36,500 days (NdaysAgo takes N from 0 to 36500)",
  ],
  [
    'relative days in the wrong order',
    'main',
    mainInput({ fromDate: 'yesterday', toDate: '7daysAgo' }),
    "toDate: '7daysAgo' (2026-11-15) is before fromDate 'yesterday' (2026-11-21)",
  ],
  [
    'a relative day beyond the doc breakdown',
    'main',
    mainInput({ fromDate: '400daysAgo', toDate: 'yesterday', breakdowns: 'doc' }),
    "fromDate: '400daysAgo' (2025-10-18) is more than 12 months ago",
  ],
  ['invalid Date object', 'main', mainInput({ fromDate: new Date('nope') }), 'fromDate: an invalid date is not a valid date'],
  [
    'toDate before fromDate',
    'main',
    mainInput({ fromDate: '20261121', toDate: '20261101' }),
    "toDate: '20261101' is before fromDate '20261121'",
  ],
  [
    'toDate before fromDate, as date cells: the days they show, not instants',
    'main',
    mainInput({ fromDate: new Date('2026-11-20T23:00:00Z'), toDate: new Date('2026-11-19T23:00:00Z') }),
    "toDate: '2026-11-20' is before fromDate '2026-11-21'",
    'Europe/Berlin',
  ],
  [
    'doc older than 12 months, written yyyy-MM-dd',
    'main',
    mainInput({ breakdowns: 'doc', fromDate: '2025-11-21' }),
    "fromDate: '2025-11-21' is more than 12 months ago, and the 'doc' breakdown only covers the last 12 months (earliest 2025-11-22)",
  ],
  ['day and month', 'main', mainInput({ breakdowns: ['day', 'month'] }), "breakdowns: 'day' and 'month' cannot be combined"],
  [
    'referrer and country',
    'main',
    mainInput({ breakdowns: 'referrer,country' }),
    "breakdowns: 'referrer' and 'country' cannot be combined",
  ],
  ['referrer and doc', 'main', mainInput({ breakdowns: 'referrer,doc' }), "breakdowns: 'referrer' and 'doc' cannot be combined"],
  ['country and doc', 'main', mainInput({ breakdowns: 'doc,country' }), "breakdowns: 'country' and 'doc' cannot be combined"],
  [
    'five breakdowns',
    'main',
    mainInput({ breakdowns: 'day,platform,country,section,widget' }),
    "breakdowns: ['day', 'platform', 'country', 'section', 'widget'] has 5 breakdowns; the general report allows at most 4",
  ],
  ['unknown breakdown', 'main', mainInput({ breakdowns: 'weekday' }), "breakdowns: 'weekday' is not a breakdown of the general report"],
  ['duplicate breakdown', 'main', mainInput({ breakdowns: 'day,day' }), "breakdowns: 'day' is listed twice"],
  ['breakdowns of the wrong type', 'main', mainInput({ breakdowns: 5 as unknown as string }), 'breakdowns: 5 must be a list of names'],
  [
    'doc older than 12 months',
    'main',
    mainInput({ breakdowns: 'doc', fromDate: '20251121' }),
    "fromDate: '20251121' is more than 12 months ago, and the 'doc' breakdown only covers the last 12 months (earliest 2025-11-22)",
  ],
  [
    'limit above 10000',
    'main',
    mainInput({ limit: 10001 }),
    'limit: 10001 is above the maximum: it must be a whole number from 1 to 10000 for the general report',
  ],
  ['limit zero', 'main', mainInput({ limit: 0 }), 'limit: 0 is below the minimum'],
  ['limit not whole', 'main', mainInput({ limit: 2.5 }), 'limit: 2.5 must be a whole number'],
  ['limit as text', 'main', mainInput({ limit: 'many' }), "limit: 'many' must be a whole number"],
  ['negative offset', 'main', mainInput({ offset: -1 }), 'offset: -1 is below the minimum'],
  ['decDigits 7', 'main', mainInput({ decDigits: 7 }), 'decDigits: 7 is above the maximum: it must be a whole number from 0 to 6'],
  ['decDigits negative', 'main', mainInput({ decDigits: -1 }), 'decDigits: -1 is below the minimum'],
  ['currency not three letters', 'main', mainInput({ currencyCode: 'EURO' }), "currencyCode: 'EURO' must be a three-letter currency code"],
  [
    'unknown sort field',
    'main',
    mainInput({ sort: 'revnue' }),
    "sort: 'revnue' is not a metric or field of the general report (did you mean 'revenue'?)",
  ],
  [
    'sort metric unavailable with widget',
    'main',
    mainInput({ breakdowns: 'widget', sort: 'paidPvs' }),
    "sort: 'paidPvs' is not available with the 'widget' breakdown",
  ],
  ['order not asc or desc', 'main', mainInput({ order: 'down' }), "order: 'down' must be 'asc' or 'desc'"],
  ['malformed filter', 'main', mainInput({ filter: 'revenue:gt:ten' }), "filter: 'ten' is not a number (gt compares numbers)"],
  [
    'filter on unknown field',
    'main',
    mainInput({ filter: 'revenue:gt:1;clicks:gt:1' }),
    "filter: 'clicks' is not a metric or field of the general report",
  ],
  [
    'filter on entity not broken down',
    'main',
    mainInput({ filter: 'country.id:in:US' }),
    "filter: 'country.id' needs the 'country' breakdown",
  ],
  [
    'unknown parameter',
    'main',
    mainInput({ publisher: 'x' } as Partial<ReportInput>),
    'publisher: is not a parameter of the general report',
  ],
  ['bad time zone', 'main', mainInput(), "timeZone: 'Mars/Olympus' is not an IANA time zone", 'Mars/Olympus'],
  [
    'hourly range over 24 hours',
    'externalId',
    hourlyInput({ fromDate: '2026112000', toDate: '2026112101' }),
    "toDate: '2026112101' is 25 hours after fromDate '2026112000'; the external-ID report covers at most 24 hours",
  ],
  [
    'hourly dates alone spanning two days',
    'externalId',
    hourlyInput({ fromDate: '20261120', toDate: '20261121' }),
    "toDate: '20261121' is 48 hours after fromDate",
  ],
  [
    'hourly toDate equal to fromDate',
    'externalId',
    hourlyInput({ fromDate: '2026112105', toDate: '2026112105' }),
    "toDate: '2026112105' must be after fromDate '2026112105'",
  ],
  [
    'hour 24',
    'externalId',
    hourlyInput({ fromDate: '2026112124' }),
    "fromDate: '2026112124' is not a date or hour: write yyyyMMddHH in UTC",
  ],
  ['a misspelt relative day, hourly', 'externalId', hourlyInput({ fromDate: 'yesterdy' }), "fromDate: 'yesterdy' is not a date or hour"],
  [
    'two relative days, 48 hours',
    'externalId',
    hourlyInput({ fromDate: 'yesterday', toDate: 'today' }),
    "toDate: 'today' (2026-11-23 00:00 UTC) is 48 hours after fromDate 'yesterday' (2026-11-21 00:00 UTC)",
  ],
  [
    'a relative day before the realtime window',
    'realtime',
    hourlyInput({ fromDate: '2daysAgo', toDate: '2daysAgo' }),
    "fromDate: '2daysAgo' (2026-11-20 00:00 UTC) is older than the realtime window of the last 48 hours",
  ],
  [
    'external-ID limit above 5000',
    'externalId',
    hourlyInput({ limit: 5001 }),
    'limit: 5001 is above the maximum: it must be a whole number from 1 to 5000 for the external-ID report',
  ],
  [
    'decDigits on the external-ID report',
    'externalId',
    hourlyInput({ decDigits: 2 }),
    'decDigits: 2 is not accepted by the external-ID report',
  ],
  [
    'main breakdown on the external-ID report',
    'externalId',
    hourlyInput({ breakdowns: 'country' }),
    "breakdowns: 'country' is not a breakdown of the external-ID report (use externalId, widget, externalSecondaryId)",
  ],
  [
    'realtime metric on the external-ID report',
    'externalId',
    hourlyInput({ sort: 'totalPvs' }),
    "sort: 'totalPvs' is not a metric or field of the external-ID report",
  ],
  [
    'externalId filter value over 110 characters',
    'externalId',
    hourlyInput({ filter: `externalId:in:${'x'.repeat(111)}` }),
    `filter: '${'x'.repeat(40)}...' is 111 characters long; externalId values have at most 110`,
  ],
  [
    'realtime before the 48-hour window',
    'realtime',
    hourlyInput({ fromDate: '2026112010', toDate: '2026112020' }),
    "fromDate: '2026112010' is older than the realtime window of the last 48 hours (earliest 2026-11-20 12:00 UTC)",
  ],
  [
    'realtime in the future',
    'realtime',
    hourlyInput({ fromDate: '2026112214', toDate: '2026112216' }),
    "fromDate: '2026112214' is in the future",
  ],
  [
    'currency on the realtime report',
    'realtime',
    hourlyInput({ currencyCode: 'EUR' }),
    "currencyCode: 'EUR' is not accepted by the realtime external-ID report (its revenue is always USD)",
  ],
  ['realtime limit above 5000', 'realtime', hourlyInput({ limit: 6000 }), 'limit: 6000 is above the maximum'],
  [
    'realtime range over 24 hours',
    'realtime',
    hourlyInput({ fromDate: '2026112100', toDate: '2026112201' }),
    "toDate: '2026112201' is 25 hours after fromDate",
  ],
];
