/**
 * The emulator's fixed world: demo users and their publisher permissions, publishers with their
 * widgets, native apps, sections, documents and traffic scale, the lookup tables (countries,
 * timezones), the currency table and the recommendations API keys. Everything here is exported so
 * tests, the README and `npm start` can name the same users and ids instead of copying strings.
 * The synthetic report data is derived from these records (synthetic-data.ts), never stored.
 */

export interface SeedUser {
  /** Stable key used by the admin API; also the initial login email. */
  username: string;
  email: string;
  password: string;
  publisherIds: string[];
}

export interface EntityRecord {
  id: string;
  name: string;
}

export interface SeedWidget extends EntityRecord {
  type: 'FEED' | 'BELOW_ARTICLE' | 'SIDEBAR' | 'IN_ARTICLE';
  status: 'ACTIVE' | 'PAUSED';
  createdDate: string;
}

export interface SeedNativeApp extends EntityRecord {
  platform: 'IOS' | 'ANDROID';
  bundleId: string;
  status: 'ACTIVE' | 'PAUSED';
}

export interface SeedPublisher {
  id: string;
  name: string;
  domain: string;
  currency: string;
  timezone: string;
  /** First day (yyyyMMdd, UTC) that has report data; earlier days are empty. */
  dataSince: string;
  /** Fact rows generated per day; drives how many report rows a breakdown yields. */
  dailyFactCount: number;
  /** External-ID fact rows generated per hour. */
  hourlyFactCount: number;
  /** New articles (external IDs) published per hour. */
  articlesPerHour: number;
  /** Scales every count and revenue figure. */
  trafficScale: number;
  widgets: SeedWidget[];
  nativeApps: SeedNativeApp[];
  sections: EntityRecord[];
  /** Country ids (from COUNTRIES) where this publisher has traffic. */
  countryIds: string[];
  /**
   * Markets opened or closed on a day: a country listed here has traffic only from its `from` day
   * and up to its `until` day (yyyyMMdd, UTC, both included), so a report of a period before or after
   * has no row for it. The fact rows of other countries are the same either way.
   */
  countryDays?: Readonly<Record<string, { from?: string; until?: string }>>;
  /** Number of distinct documents in the doc breakdown. */
  docCount: number;
  /** When given, article n's external ID is externalIds[n % length] followed by n, instead of a slug (hostile IDs). */
  externalIds?: readonly string[];
  /** The referrers of this publisher's traffic; left out, the shared REFERRERS. */
  referrers?: EntityRecord[];
}

export interface SeedApiKey {
  key: string;
  /** widgetJSId values accepted with this key. */
  widgetIds: string[];
}

export const COUNTRIES = [
  { id: 'US', name: 'United States', iso3: 'USA', region: 'Americas', weight: 30 },
  { id: 'GB', name: 'United Kingdom', iso3: 'GBR', region: 'Europe', weight: 8 },
  { id: 'DE', name: 'Germany', iso3: 'DEU', region: 'Europe', weight: 7 },
  { id: 'FR', name: 'France', iso3: 'FRA', region: 'Europe', weight: 6 },
  { id: 'CA', name: 'Canada', iso3: 'CAN', region: 'Americas', weight: 5 },
  { id: 'AU', name: 'Australia', iso3: 'AUS', region: 'Oceania', weight: 4 },
  { id: 'IN', name: 'India', iso3: 'IND', region: 'Asia', weight: 6 },
  { id: 'JP', name: 'Japan', iso3: 'JPN', region: 'Asia', weight: 4 },
  { id: 'BR', name: 'Brazil', iso3: 'BRA', region: 'Americas', weight: 4 },
  { id: 'MX', name: 'Mexico', iso3: 'MEX', region: 'Americas', weight: 3 },
  { id: 'ES', name: 'Spain', iso3: 'ESP', region: 'Europe', weight: 3 },
  { id: 'IT', name: 'Italy', iso3: 'ITA', region: 'Europe', weight: 3 },
  { id: 'NL', name: 'Netherlands', iso3: 'NLD', region: 'Europe', weight: 2 },
  { id: 'SE', name: 'Sweden', iso3: 'SWE', region: 'Europe', weight: 2 },
  { id: 'NO', name: 'Norway', iso3: 'NOR', region: 'Europe', weight: 1 },
  { id: 'DK', name: 'Denmark', iso3: 'DNK', region: 'Europe', weight: 1 },
  { id: 'FI', name: 'Finland', iso3: 'FIN', region: 'Europe', weight: 1 },
  { id: 'PL', name: 'Poland', iso3: 'POL', region: 'Europe', weight: 2 },
  { id: 'IE', name: 'Ireland', iso3: 'IRL', region: 'Europe', weight: 1 },
  { id: 'PT', name: 'Portugal', iso3: 'PRT', region: 'Europe', weight: 1 },
  { id: 'BE', name: 'Belgium', iso3: 'BEL', region: 'Europe', weight: 1 },
  { id: 'AT', name: 'Austria', iso3: 'AUT', region: 'Europe', weight: 1 },
  { id: 'CH', name: 'Switzerland', iso3: 'CHE', region: 'Europe', weight: 1 },
  { id: 'IL', name: 'Israel', iso3: 'ISR', region: 'Asia', weight: 2 },
  { id: 'TR', name: 'Türkiye', iso3: 'TUR', region: 'Asia', weight: 2 },
  { id: 'ZA', name: 'South Africa', iso3: 'ZAF', region: 'Africa', weight: 1 },
  { id: 'NG', name: 'Nigeria', iso3: 'NGA', region: 'Africa', weight: 1 },
  { id: 'EG', name: 'Egypt', iso3: 'EGY', region: 'Africa', weight: 1 },
  { id: 'AR', name: 'Argentina', iso3: 'ARG', region: 'Americas', weight: 1 },
  { id: 'CL', name: 'Chile', iso3: 'CHL', region: 'Americas', weight: 1 },
  { id: 'CO', name: 'Colombia', iso3: 'COL', region: 'Americas', weight: 1 },
  { id: 'KR', name: 'South Korea', iso3: 'KOR', region: 'Asia', weight: 2 },
  { id: 'SG', name: 'Singapore', iso3: 'SGP', region: 'Asia', weight: 1 },
  { id: 'PH', name: 'Philippines', iso3: 'PHL', region: 'Asia', weight: 1 },
  { id: 'ID', name: 'Indonesia', iso3: 'IDN', region: 'Asia', weight: 1 },
  { id: 'TH', name: 'Thailand', iso3: 'THA', region: 'Asia', weight: 1 },
  { id: 'VN', name: 'Vietnam', iso3: 'VNM', region: 'Asia', weight: 1 },
  { id: 'NZ', name: 'New Zealand', iso3: 'NZL', region: 'Oceania', weight: 1 },
  { id: 'AE', name: 'United Arab Emirates', iso3: 'ARE', region: 'Asia', weight: 1 },
  { id: 'SA', name: 'Saudi Arabia', iso3: 'SAU', region: 'Asia', weight: 1 },
] as const;

export const TIMEZONES = [
  { id: 'UTC', name: '(GMT+00:00) Coordinated Universal Time', utcOffsetMinutes: 0 },
  { id: 'Europe/London', name: '(GMT+00:00) London', utcOffsetMinutes: 0 },
  { id: 'Europe/Berlin', name: '(GMT+01:00) Berlin', utcOffsetMinutes: 60 },
  { id: 'Europe/Paris', name: '(GMT+01:00) Paris', utcOffsetMinutes: 60 },
  { id: 'Asia/Jerusalem', name: '(GMT+02:00) Jerusalem', utcOffsetMinutes: 120 },
  { id: 'Asia/Kolkata', name: '(GMT+05:30) Kolkata', utcOffsetMinutes: 330 },
  { id: 'Asia/Tokyo', name: '(GMT+09:00) Tokyo', utcOffsetMinutes: 540 },
  { id: 'Australia/Sydney', name: '(GMT+10:00) Sydney', utcOffsetMinutes: 600 },
  { id: 'America/Sao_Paulo', name: '(GMT-03:00) Sao Paulo', utcOffsetMinutes: -180 },
  { id: 'America/New_York', name: '(GMT-05:00) Eastern Time (US & Canada)', utcOffsetMinutes: -300 },
  { id: 'America/Chicago', name: '(GMT-06:00) Central Time (US & Canada)', utcOffsetMinutes: -360 },
  { id: 'America/Denver', name: '(GMT-07:00) Mountain Time (US & Canada)', utcOffsetMinutes: -420 },
  { id: 'America/Los_Angeles', name: '(GMT-08:00) Pacific Time (US & Canada)', utcOffsetMinutes: -480 },
] as const;

export const PLATFORMS: EntityRecord[] = [
  { id: 'DESKTOP', name: 'Desktop' },
  { id: 'SMARTPHONE', name: 'Smartphone' },
  { id: 'TABLET', name: 'Tablet' },
];

export const REFERRERS: EntityRecord[] = [
  { id: 'google.com', name: 'Google' },
  { id: 'facebook.com', name: 'Facebook' },
  { id: 'x.com', name: 'X' },
  { id: 'bing.com', name: 'Bing' },
  { id: 'news.google.com', name: 'Google News' },
  { id: 'reddit.com', name: 'Reddit' },
  { id: 'direct', name: 'Direct' },
  { id: 'newsletter', name: 'Newsletter' },
];

export const PARTNER_APPS: EntityRecord[] = [
  { id: 'none', name: 'No partner app' },
  { id: 'pa-flipboard', name: 'Flipboard' },
  { id: 'pa-smartnews', name: 'SmartNews' },
  { id: 'pa-newsbreak', name: 'NewsBreak' },
  { id: 'pa-msn', name: 'MSN Start' },
];

/** Fixed conversion rates from USD; revenue is stored in USD and multiplied by these. */
export const CURRENCY_RATES_FROM_USD: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  JPY: 151.5,
  ILS: 3.7,
  CAD: 1.36,
  AUD: 1.52,
  BRL: 5.05,
  INR: 83.2,
};

/** The section names a careless client would render as HTML or evaluate as a spreadsheet formula. */
export const HOSTILE_STRINGS = [
  '<img src=x onerror=alert(1)>',
  '=HYPERLINK("http://evil.example","click")',
  '+SUM(1)',
  '@cmd',
  '-2+3',
  '<script>alert("x")</script>',
] as const;

/**
 * Names Sheets reads as values when they are written as typed text (the Sheets API's USER_ENTERED, in
 * en_US): a date, a month, a time, money, a negative in parentheses, a percentage, a fraction, a
 * boolean and a formula. The typed-names publishers carry them as section, widget, referrer and
 * external-ID names, for the evidence that API text stays text in cells.
 */
export const TYPED_LOOKING_NAMES = ['1/2', 'March 2024', '12:30', '$5', '(7)', '50%', '1 1/2', 'TRUE', '=1+2'] as const;

function widgets(prefix: string, first: number, names: Array<[string, SeedWidget['type']]>): SeedWidget[] {
  return names.map(([name, type], i) => ({
    id: `${prefix}_${first + i}`,
    name,
    type,
    status: i === names.length - 1 ? 'PAUSED' : 'ACTIVE',
    createdDate: `2023-0${(i % 9) + 1}-15`,
  }));
}

function sections(names: string[]): EntityRecord[] {
  return names.map((name, i) => ({ id: `sec-${101 + i}`, name }));
}

const ALL_COUNTRY_IDS = COUNTRIES.map((c) => c.id);

/** The big publisher: its 31-day day x country x platform x widget report exceeds 10,000 rows. */
export const BIG_PUBLISHER_ID = '653e5ee6b140b03fae04134988786fe5';
export const MEDIUM_PUBLISHER_ID = '089ff7bee9730601caec5cca961a3cbe';
/** Its name holds markup; its section names and external IDs are HOSTILE_STRINGS, for security tests of rendering and sheet writing. */
export const HOSTILE_PUBLISHER_ID = '2ba037b39b6ecba96d2599432a78d4bc';
/** The demo seed's third publisher of the demo user, in the hostile one's place: plain names only. */
export const SMALLVILLE_PUBLISHER_ID = '5c1e2d3f4a5b6c7d8e9f0a1b2c3d4e5f';
/** Only the analyst may see this one; the demo user gets 403 for it. */
export const ANALYST_PUBLISHER_ID = '1895158029abad15457dfad00fc41973';
/** The typed-names user's two publishers, named `1/2` and `(7)`; their sections, widgets, referrers and external IDs are TYPED_LOOKING_NAMES. */
export const TYPED_NAMES_PUBLISHER_ID = '7d1f0c3a5b9e4d2f8a6c0b1e3d5f7a9c';
export const TYPED_NAMES_SECOND_PUBLISHER_ID = 'a3c5e7f90b1d2e4f6a8c0e2d4b6f8a1c';

/**
 * The warehouse user's one publisher: a large site whose year broken down by day, doc, platform and
 * widget passes 1,000,000 rows, for the BigQuery backfill's test. Its own user sees it, so no other
 * user's publishers or rows change, and its days are generated only when asked for.
 */
export const WAREHOUSE_PUBLISHER_ID = 'c0ffee5eed1a2b3c4d5e6f708192a3b4';

/** A small publisher whose entity names are all TYPED_LOOKING_NAMES. */
function typedNamesPublisher(id: string, name: string, domain: string, firstWidget: number): SeedPublisher {
  const types: SeedWidget['type'][] = ['FEED', 'BELOW_ARTICLE', 'SIDEBAR', 'IN_ARTICLE'];
  return {
    id,
    name,
    domain,
    currency: 'USD',
    timezone: 'UTC',
    dataSince: '20240101',
    dailyFactCount: 90,
    hourlyFactCount: 30,
    articlesPerHour: 1,
    trafficScale: 3,
    widgets: widgets(
      'APP',
      firstWidget,
      TYPED_LOOKING_NAMES.map((n, i) => [n, types[i % types.length]!]),
    ),
    nativeApps: [],
    sections: sections([...TYPED_LOOKING_NAMES]),
    referrers: TYPED_LOOKING_NAMES.map((n, i) => ({ id: `ref-${i + 1}`, name: n })),
    countryIds: ['US', 'DE'],
    docCount: 20,
    externalIds: TYPED_LOOKING_NAMES,
  };
}

export const PUBLISHERS: SeedPublisher[] = [
  {
    id: BIG_PUBLISHER_ID,
    name: 'Daily Planet',
    domain: 'dailyplanet.example',
    currency: 'USD',
    timezone: 'America/New_York',
    dataSince: '20230101',
    dailyFactCount: 1300,
    hourlyFactCount: 1000,
    articlesPerHour: 20,
    trafficScale: 40,
    widgets: widgets('APP', 10, [
      ['Below Article Feed', 'FEED'],
      ['Below Article Thumbnails', 'BELOW_ARTICLE'],
      ['Right Rail', 'SIDEBAR'],
      ['In-Article Mid', 'IN_ARTICLE'],
      ['Homepage Feed', 'FEED'],
      ['Mobile Feed', 'FEED'],
      ['Gallery Thumbnails', 'BELOW_ARTICLE'],
      ['AMP Feed', 'FEED'],
      ['Video Companion', 'SIDEBAR'],
      ['Legacy Sidebar', 'SIDEBAR'],
    ]),
    nativeApps: [
      { id: 'na-dp-ios', name: 'Daily Planet for iPhone', platform: 'IOS', bundleId: 'example.dailyplanet.ios', status: 'ACTIVE' },
      {
        id: 'na-dp-android',
        name: 'Daily Planet for Android',
        platform: 'ANDROID',
        bundleId: 'example.dailyplanet.android',
        status: 'ACTIVE',
      },
    ],
    sections: sections([
      'News',
      'World',
      'Politics',
      'Business',
      'Technology',
      'Science',
      'Health',
      'Sports',
      'Entertainment',
      'Travel',
      'Food',
      'Opinion',
      'Weather',
      'Local',
      'Lifestyle',
    ]),
    countryIds: ALL_COUNTRY_IDS,
    docCount: 400,
  },
  {
    id: MEDIUM_PUBLISHER_ID,
    name: 'Gotham Gazette',
    domain: 'gothamgazette.example',
    currency: 'USD',
    timezone: 'America/New_York',
    dataSince: '20240101',
    dailyFactCount: 160,
    hourlyFactCount: 120,
    articlesPerHour: 3,
    trafficScale: 8,
    widgets: widgets('APP', 30, [
      ['Below Article', 'BELOW_ARTICLE'],
      ['Homepage Feed', 'FEED'],
      ['Sidebar', 'SIDEBAR'],
    ]),
    nativeApps: [{ id: 'na-gg-ios', name: 'Gotham Gazette', platform: 'IOS', bundleId: 'example.gothamgazette', status: 'ACTIVE' }],
    sections: sections(['City', 'Crime', 'Arts', 'Sports', 'Opinion']),
    countryIds: ['US', 'CA', 'GB', 'DE', 'FR', 'MX', 'AU', 'IN'],
    // Mexico opened on 1 November 2026 and Australia closed after 31 October 2026: a week of November
    // compared with the week before has a country present in each period only.
    countryDays: { MX: { from: '20261101' }, AU: { until: '20261031' } },
    docCount: 80,
  },
  {
    id: HOSTILE_PUBLISHER_ID,
    // Markup in the name: the sidebar's publisher picker and ENGAGE_PUBLISHERS must show it as text.
    name: 'Hostile Herald <img src=x onerror=alert("publisher")>',
    domain: 'hostileherald.example',
    currency: 'USD',
    timezone: 'UTC',
    dataSince: '20240101',
    dailyFactCount: 60,
    hourlyFactCount: 40,
    articlesPerHour: 1,
    trafficScale: 2,
    widgets: widgets('APP', 40, [
      ['<b>Bold</b> Feed', 'FEED'],
      ['=1+1', 'BELOW_ARTICLE'],
    ]),
    nativeApps: [],
    sections: sections([...HOSTILE_STRINGS]),
    countryIds: ['US', 'GB', 'IL'],
    docCount: 20,
    externalIds: HOSTILE_STRINGS,
  },
  {
    id: ANALYST_PUBLISHER_ID,
    name: 'Central City Citizen',
    domain: 'centralcitizen.example',
    currency: 'EUR',
    timezone: 'Europe/Berlin',
    dataSince: '20240101',
    dailyFactCount: 100,
    hourlyFactCount: 60,
    articlesPerHour: 2,
    trafficScale: 5,
    widgets: widgets('APP', 50, [
      ['Feed', 'FEED'],
      ['Below Article', 'BELOW_ARTICLE'],
    ]),
    nativeApps: [{ id: 'na-cc-android', name: 'Citizen', platform: 'ANDROID', bundleId: 'example.citizen', status: 'PAUSED' }],
    sections: sections(['Stadt', 'Wirtschaft', 'Sport', 'Kultur']),
    countryIds: ['DE', 'AT', 'CH', 'NL', 'US'],
    docCount: 50,
  },
  {
    id: SMALLVILLE_PUBLISHER_ID,
    name: 'Smallville Ledger',
    domain: 'smallvilleledger.example',
    currency: 'USD',
    timezone: 'America/Chicago',
    dataSince: '20240101',
    dailyFactCount: 60,
    hourlyFactCount: 40,
    articlesPerHour: 1,
    trafficScale: 2,
    widgets: widgets('APP', 80, [
      ['Below Article', 'BELOW_ARTICLE'],
      ['Homepage Feed', 'FEED'],
    ]),
    nativeApps: [],
    sections: sections(['Town', 'Farm', 'Schools', 'Sports']),
    countryIds: ['US', 'CA', 'GB'],
    docCount: 20,
  },
  typedNamesPublisher(TYPED_NAMES_PUBLISHER_ID, '1/2', 'typednames.example', 60),
  typedNamesPublisher(TYPED_NAMES_SECOND_PUBLISHER_ID, '(7)', 'typednames2.example', 70),
  {
    id: WAREHOUSE_PUBLISHER_ID,
    name: 'Metropolis Ledger',
    domain: 'metropolisledger.example',
    currency: 'USD',
    timezone: 'UTC',
    dataSince: '20240101',
    dailyFactCount: 3150,
    hourlyFactCount: 30,
    articlesPerHour: 1,
    trafficScale: 20,
    widgets: widgets('APP', 80, [
      ['Ledger Feed', 'FEED'],
      ['Ledger Below Article', 'BELOW_ARTICLE'],
      ['Ledger Rail', 'SIDEBAR'],
      ['Ledger In Article', 'IN_ARTICLE'],
      ['Ledger Mobile Feed', 'FEED'],
      ['Ledger Archive', 'BELOW_ARTICLE'],
    ]),
    nativeApps: [],
    sections: sections(['Business', 'Markets', 'City', 'Tech']),
    countryIds: ALL_COUNTRY_IDS,
    docCount: 3000,
  },
];

export const DEMO_USER: SeedUser = {
  username: 'demo@engage.example',
  email: 'demo@engage.example',
  password: 'demo-password',
  publisherIds: [BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, HOSTILE_PUBLISHER_ID],
};

export const ANALYST_USER: SeedUser = {
  username: 'analyst@engage.example',
  email: 'analyst@engage.example',
  password: 'analyst-password',
  publisherIds: [ANALYST_PUBLISHER_ID],
};

/** Sees only the two typed-names publishers, so the demo and analyst users' publishers and rows stay as they are. */
export const TYPED_NAMES_USER: SeedUser = {
  username: 'names@engage.example',
  email: 'names@engage.example',
  password: 'names-password',
  publisherIds: [TYPED_NAMES_PUBLISHER_ID, TYPED_NAMES_SECOND_PUBLISHER_ID],
};

/** Sees only the warehouse publisher (the BigQuery backfill's test). */
export const WAREHOUSE_USER: SeedUser = {
  username: 'warehouse@engage.example',
  email: 'warehouse@engage.example',
  password: 'warehouse-password',
  publisherIds: [WAREHOUSE_PUBLISHER_ID],
};

export const USERS: SeedUser[] = [DEMO_USER, ANALYST_USER, TYPED_NAMES_USER, WAREHOUSE_USER];

/**
 * Which fixtures an emulator serves. 'tests' (jest's global setup, and the playground the browser
 * tests open): the demo user sees Hostile Herald, whose names carry markup and formulas, and
 * recommendation thumbnails point at a host that never resolves, as the tests expect. 'demo' (the
 * default: `npm start`, `npm run emulator`): a clean demo, where Smallville Ledger stands in for
 * Hostile Herald and the emulator serves the thumbnails itself (/thumbnails/), so the sidebar's
 * preview shows them. The hostile fixtures stay in the catalogue; only the tests' users see them.
 */
export type SeedName = 'demo' | 'tests';
export const SEED_NAMES: readonly SeedName[] = ['demo', 'tests'];

/** The users of a seed. */
export function usersOf(seed: SeedName): SeedUser[] {
  if (seed === 'tests') return USERS;
  const clean = DEMO_USER.publisherIds.map((id) => (id === HOSTILE_PUBLISHER_ID ? SMALLVILLE_PUBLISHER_ID : id));
  return [{ ...DEMO_USER, publisherIds: clean }, ANALYST_USER, TYPED_NAMES_USER];
}

export const DEMO_API_KEY: SeedApiKey = {
  key: 'demo-api-key',
  widgetIds: ['APP_12', 'APP_13', 'APP_14', 'APP_30'],
};

export const API_KEYS: SeedApiKey[] = [DEMO_API_KEY];

/** Recommendation keywords with documented special effects (see recommendations.ts). */
export const RECS_SPECIAL_KEYWORDS = {
  /** Yields the hostile document (script in content, formula in source_display_name). */
  hostile: 'hostile',
  /** Yields documents but no `tracking` object, so no pixel may be fired. */
  noTracking: 'no-tracking',
  /** Yields an empty documents list. */
  empty: 'nothing',
} as const;

export function findPublisher(id: string): SeedPublisher | undefined {
  return PUBLISHERS.find((p) => p.id === id);
}
