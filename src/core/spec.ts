/**
 * Every fact the add-on takes from the Engage API spec (../shared/spec/engage-api.md) and its field
 * notes, in one place: report paths, breakdown lists and forbidden pairs, metric order per report,
 * page and parameter limits, rate limits and token lifetime. Other core files read these constants
 * instead of repeating numbers, so a change in the spec is a change in this file.
 */
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE } from './util/dates';

export type ReportKind = 'main' | 'externalId' | 'realtime';

/** Header carrying the access token on every reporting and lookup request. */
export const TOKEN_HEADER = 'SVC-TOKEN-V1';
/** Response header identifying a request for support. */
export const TRACE_ID_HEADER = 'x-traceid';
/** Header of a 429 answer with the milliseconds to wait (field notes). */
export const RATE_LIMIT_WAIT_HEADER = 'rate-limit-msec-left';

export const TOKEN_LIFETIME_DAYS = 30;
export const TOKEN_LIFETIME_MS = TOKEN_LIFETIME_DAYS * MS_PER_DAY;

/** Limits table: 30 report requests per minute per publisher. */
export const REPORT_RATE_LIMIT_REQUESTS = 30;
export const REPORT_RATE_WINDOW_MS = MS_PER_MINUTE;
/** Limits table: 2 logins per hour per user (failed logins count too, per the field notes). */
export const LOGIN_RATE_LIMIT_REQUESTS = 2;
export const LOGIN_RATE_WINDOW_MS = MS_PER_HOUR;

/** Limits table: report data is 2 to 4 hours late (the current day partial): a UTC day is whole 4 hours after it ends. */
export const REPORT_DATA_DELAY_MAX_MS = 4 * MS_PER_HOUR;

/** externalId and externalSecondaryId values are at most 110 characters. */
export const EXTERNAL_ID_MAX_LENGTH = 110;
/** The external-ID and realtime reports cover at most 24 hours per request. */
export const HOURLY_REPORT_MAX_RANGE_HOURS = 24;
/** Realtime data covers only the last 48 hours (UTC, per the field notes). */
export const REALTIME_WINDOW_HOURS = 48;
/** The `doc` breakdown only has data for the last 12 months. */
export const DOC_BREAKDOWN_WINDOW_MONTHS = 12;
export const MAIN_MAX_BREAKDOWNS = 4;
export const DEC_DIGITS_MIN = 0;
export const DEC_DIGITS_MAX = 6;

export const MAIN_BREAKDOWNS = ['day', 'month', 'platform', 'referrer', 'country', 'section', 'widget', 'doc', 'partnerApp'] as const;
export const EXTERNAL_ID_BREAKDOWNS = ['externalId', 'widget', 'externalSecondaryId'] as const;
export type MainBreakdown = (typeof MAIN_BREAKDOWNS)[number];
export type ExternalIdBreakdown = (typeof EXTERNAL_ID_BREAKDOWNS)[number];

/** Breakdowns whose value is an entity object ({id, name, ...}) rather than a plain string. */
export const ENTITY_BREAKDOWNS: ReadonlySet<string> = new Set([
  'platform',
  'referrer',
  'country',
  'section',
  'widget',
  'doc',
  'partnerApp',
]);
/** Breakdowns that are calendar periods and become dates in a sheet. */
export const DATE_BREAKDOWNS: ReadonlySet<string> = new Set(['day', 'month']);

/** General report breakdown pairs the service refuses. */
export const MAIN_FORBIDDEN_BREAKDOWN_PAIRS: ReadonlyArray<readonly [MainBreakdown, MainBreakdown]> = [
  ['day', 'month'],
  ['referrer', 'country'],
  ['referrer', 'doc'],
  ['country', 'doc'],
];

/** General report metrics, in the spec's order (this is also the column order of a report table). */
export const MAIN_METRICS = [
  'paidPvs',
  'totalPvs',
  'organicPvs',
  'paidReqs',
  'totalReqs',
  'organicReqs',
  'revenue',
  'rpmByPvs',
  'reqsRpm',
  'paidClicks',
  'organicClicks',
  'totalClicks',
  'paidCtrByPvs',
  'totalCtrByPvs',
  'organicCtrByPvs',
  'reqsPaidCtr',
  'reqsTotalCtr',
  'reqsOrganicCtr',
  'videoRevenue',
  'videoPlays',
  'viewabilityRate',
  'paidViewabilityRate',
  'organicViewabilityRate',
  'viewableCtr',
  'viewableOrganicCtr',
  'viewablePaidCtr',
  'viewableRpm',
  'optInRateByReqs',
  'optInRateByPvs',
] as const;

/** Availability column of the general report: metrics that exist only with or only without a breakdown. */
export const MAIN_METRICS_NOT_ON_WIDGET: ReadonlySet<string> = new Set(['paidPvs', 'totalPvs', 'organicPvs']);
export const MAIN_METRICS_ONLY_ON_WIDGET: ReadonlySet<string> = new Set(['paidReqs', 'totalReqs', 'organicReqs']);
export const MAIN_METRICS_NOT_ON_DOC: ReadonlySet<string> = new Set(['optInRateByReqs', 'optInRateByPvs']);

export const EXTERNAL_ID_METRICS = [
  'totalReqs',
  'paidReqs',
  'organicReqs',
  'totalClicks',
  'paidClicks',
  'organicClicks',
  'reqsTotalCtr',
  'reqsPaidCtr',
  'reqsOrganicCtr',
  'revenue',
  'reqsRpm',
  'videoRevenue',
  'widgetViewableImpressions',
  'organicWidgetViewableImpressions',
  'paidWidgetViewableImpressions',
] as const;

export const REALTIME_METRICS = ['paidReqs', 'paidClicks', 'reqsPaidCtr', 'revenue', 'reqsRpm', 'totalPvs'] as const;

/**
 * What the metrics of the three reports measure, from the spec's item tables: counts (views, requests,
 * clicks, plays, in-view impressions) and money amounts add up across rows and publishers; the RPMs
 * are money too, but per thousand, a rate; every other metric is a percentage.
 */
export const COUNT_METRICS: ReadonlySet<string> = new Set([
  'paidPvs',
  'totalPvs',
  'organicPvs',
  'paidReqs',
  'totalReqs',
  'organicReqs',
  'paidClicks',
  'organicClicks',
  'totalClicks',
  'videoPlays',
  'widgetViewableImpressions',
  'organicWidgetViewableImpressions',
  'paidWidgetViewableImpressions',
]);
const MONEY_AMOUNTS = ['revenue', 'videoRevenue'];
/** Money figures: the amounts and every revenue per thousand (RPM). */
export const MONEY_METRICS: ReadonlySet<string> = new Set([...MONEY_AMOUNTS, 'rpmByPvs', 'reqsRpm', 'viewableRpm']);
/** The metrics that add up: the counts and the money amounts. */
export const ADDITIVE_METRICS: ReadonlySet<string> = new Set([...COUNT_METRICS, ...MONEY_AMOUNTS]);

/** Everything that differs between the three reports. */
export interface ReportSpec {
  readonly kind: ReportKind;
  /** Human name used in messages. */
  readonly title: string;
  /** Path under the base URL. */
  readonly path: string;
  readonly breakdowns: readonly string[];
  readonly defaultBreakdowns: readonly string[];
  readonly metrics: readonly string[];
  readonly defaultPageLimit: number;
  /** The largest `limit` the service accepts: the page size the client pages with. */
  readonly pageMax: number;
  /** Hourly reports take yyyyMMddHH bounds with an exclusive toDate and a 24-hour range. */
  readonly hourly: boolean;
  readonly acceptsCurrency: boolean;
  readonly acceptsDecDigits: boolean;
}

export const REPORT_SPECS: Readonly<Record<ReportKind, ReportSpec>> = {
  main: {
    kind: 'main',
    title: 'general report',
    path: '/reports/main',
    breakdowns: MAIN_BREAKDOWNS,
    defaultBreakdowns: ['day'],
    metrics: MAIN_METRICS,
    defaultPageLimit: 500,
    pageMax: 10000,
    hourly: false,
    acceptsCurrency: true,
    acceptsDecDigits: true,
  },
  externalId: {
    kind: 'externalId',
    title: 'external-ID report',
    path: '/reports/externalId',
    breakdowns: EXTERNAL_ID_BREAKDOWNS,
    defaultBreakdowns: ['externalId'],
    metrics: EXTERNAL_ID_METRICS,
    defaultPageLimit: 500,
    pageMax: 5000,
    hourly: true,
    acceptsCurrency: true,
    acceptsDecDigits: false,
  },
  realtime: {
    kind: 'realtime',
    title: 'realtime external-ID report',
    path: '/reports/realtime/externalId',
    breakdowns: EXTERNAL_ID_BREAKDOWNS,
    defaultBreakdowns: ['externalId'],
    metrics: REALTIME_METRICS,
    defaultPageLimit: 1000,
    pageMax: 5000,
    hourly: true,
    acceptsCurrency: false,
    acceptsDecDigits: false,
  },
};

/** Lookup paths; `{id}` is the hashed publisher external ID. */
export const LOOKUPS = {
  publishers: { path: '/publishers', title: 'publishers' },
  widgets: { path: '/publishers/{id}/widgets', title: 'widgets' },
  nativeApps: { path: '/publishers/{id}/nativeapps', title: 'native apps' },
  countries: { path: '/countries', title: 'countries' },
  timezones: { path: '/timezones', title: 'timezones' },
} as const;
export type LookupKind = keyof typeof LOOKUPS;

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
