/**
 * Deterministic synthetic report data. Each publisher has a sparse fact table per UTC day (one row
 * per platform x referrer x country x section x widget x doc x partnerApp draw, with base counts)
 * and per UTC hour for external IDs (article slug x secondary id x widget). Every value comes from a
 * seeded integer hash of (publisher, day or hour, row, field), never from Math.random, so the same
 * request always gets the same answer and every breakdown is an aggregation of the same facts, which
 * keeps totals consistent across breakdowns. Tables are generated on demand and kept in a small LRU
 * shared by all emulator instances (the data does not depend on instance state; the clock only
 * decides which facts are visible).
 */
import { COUNTRIES, PARTNER_APPS, PLATFORMS, REFERRERS, type EntityRecord, type SeedPublisher } from './seed';

export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;

/** A 32-bit integer hash of up to four integers (murmur3-style finaliser). */
export function hash32(a: number, b: number, c = 0, d = 0): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15) ^ d, 0x165667b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** A uniform number in [0, 1) from the hash of the inputs. */
export function unit(a: number, b: number, c = 0, d = 0): number {
  return hash32(a, b, c, d) / 4294967296;
}

/** A stable integer seed for a string (FNV-1a). */
export function stringSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Base counts of the daily fact table; derived metrics are computed from these (reports/metrics.ts). */
export const DAILY_FIELDS = [
  'paidPvs',
  'totalPvs',
  'organicPvs',
  'paidReqs',
  'totalReqs',
  'organicReqs',
  'revenue',
  'videoRevenue',
  'videoPlays',
  'paidClicks',
  'organicClicks',
  'totalClicks',
  'served',
  'exposed',
  'paidServed',
  'paidExposed',
  'organicServed',
  'organicExposed',
  'optInReqs',
  'optInPvs',
] as const;
export type DailyField = (typeof DAILY_FIELDS)[number];
export const DAILY_FIELD_COUNT = DAILY_FIELDS.length;
export const D = Object.fromEntries(DAILY_FIELDS.map((f, i) => [f, i])) as Record<DailyField, number>;

/** Base counts of the hourly external-ID fact table. */
export const HOURLY_FIELDS = [
  'totalReqs',
  'paidReqs',
  'organicReqs',
  'totalClicks',
  'paidClicks',
  'organicClicks',
  'revenue',
  'videoRevenue',
  'widgetViewableImpressions',
  'organicWidgetViewableImpressions',
  'paidWidgetViewableImpressions',
  'totalPvs',
] as const;
export type HourlyField = (typeof HOURLY_FIELDS)[number];
export const HOURLY_FIELD_COUNT = HOURLY_FIELDS.length;
export const H = Object.fromEntries(HOURLY_FIELDS.map((f, i) => [f, i])) as Record<HourlyField, number>;

/** The dimensions of the daily fact table, in the order of DayFacts.dims. */
export const DAILY_DIMENSIONS = ['platform', 'referrer', 'country', 'section', 'widget', 'doc', 'partnerApp'] as const;
export type DailyDimension = (typeof DAILY_DIMENSIONS)[number];

export interface DayFacts {
  dayNumber: number;
  rowCount: number;
  /** One index array per entry of DAILY_DIMENSIONS, into publisherDimensions(). */
  dims: Uint16Array[];
  /** rowCount x DAILY_FIELD_COUNT base counts; revenue figures in USD. */
  values: Float64Array;
}

export interface HourFacts {
  hourNumber: number;
  rowCount: number;
  article: Int32Array;
  secondaryVariant: Uint8Array;
  widget: Uint8Array;
  values: Float64Array;
}

interface PublisherDimensions {
  platform: EntityRecord[];
  referrer: EntityRecord[];
  country: EntityRecord[];
  section: EntityRecord[];
  widget: EntityRecord[];
  doc: EntityRecord[];
  partnerApp: EntityRecord[];
  countryWeight: number[];
}

const TITLE_WORDS = [
  'city',
  'council',
  'votes',
  'new',
  'budget',
  'storm',
  'hits',
  'coast',
  'team',
  'wins',
  'final',
  'market',
  'rally',
  'study',
  'finds',
  'coffee',
  'health',
  'benefits',
  'election',
  'results',
  'tech',
  'giant',
  'unveils',
  'phone',
  'summer',
  'travel',
  'guide',
  'best',
  'recipes',
  'for',
  'busy',
  'weeknights',
  'mayor',
  'announces',
  'plan',
  'bridge',
  'rescue',
  'dog',
  'heroic',
  'museum',
  'opens',
  'exhibit',
  'space',
  'mission',
  'launch',
  'delayed',
  'school',
  'year',
];
const AUTHORS = ['lois-lane', 'clark-kent', 'jimmy-olsen', 'perry-white', 'cat-grant', 'ron-troupe', 'steve-lombard'];

const dimensionCache = new Map<string, PublisherDimensions>();

export function publisherDimensions(pub: SeedPublisher): PublisherDimensions {
  let dims = dimensionCache.get(pub.id);
  if (dims) return dims;
  const seed = stringSeed(pub.id);
  const countries = pub.countryIds.map((id) => COUNTRIES.find((c) => c.id === id)!);
  const doc: EntityRecord[] = [];
  for (let n = 0; n < pub.docCount; n++) {
    const docId = String(100000 + (hash32(seed, n, 7) % 900000));
    doc.push({ id: `${docId}${n}`, name: titleFor(seed, n) });
  }
  dims = {
    platform: PLATFORMS,
    referrer: pub.referrers ?? REFERRERS,
    country: countries.map((c) => ({ id: c.id, name: c.name })),
    section: pub.sections,
    widget: pub.widgets.map((w) => ({ id: w.id, name: w.name })),
    doc,
    partnerApp: PARTNER_APPS,
    countryWeight: countries.map((c) => c.weight),
  };
  dimensionCache.set(pub.id, dims);
  return dims;
}

function titleFor(seed: number, n: number): string {
  const words: string[] = [];
  const length = 4 + (hash32(seed, n, 11) % 5);
  for (let i = 0; i < length; i++) words.push(TITLE_WORDS[hash32(seed, n, 13, i) % TITLE_WORDS.length]!);
  const title = words.join(' ');
  return title.charAt(0).toUpperCase() + title.slice(1);
}

/** Small LRU so repeated and overlapping queries do not regenerate tables. */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly maxEntries: number) {}
  get(key: string, make: () => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = make();
    this.map.set(key, value);
    if (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string);
    return value;
  }
}

// About 400 days of the big publisher (~170 KB each) or many days of the small ones.
const DAY_CACHE_ENTRIES = 500;
// Four days of hours of the big publisher, enough for a 48-hour realtime session plus a few days.
const HOUR_CACHE_ENTRIES = 24 * 8;
const dayCache = new Lru<DayFacts>(DAY_CACHE_ENTRIES);
const hourCache = new Lru<HourFacts>(HOUR_CACHE_ENTRIES);

export function dayNumberOf(yyyymmdd: string): number {
  const ms = Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)));
  return Math.floor(ms / MS_PER_DAY);
}

/** The whole (not clock-limited) fact table of one publisher for one UTC day. */
export function dayFacts(pub: SeedPublisher, dayNumber: number): DayFacts {
  return dayCache.get(`${pub.id}:${dayNumber}`, () => generateDay(pub, dayNumber));
}

function generateDay(pub: SeedPublisher, dayNumber: number): DayFacts {
  const dims = publisherDimensions(pub);
  const seed = stringSeed(pub.id);
  if (dayNumber < dayNumberOf(pub.dataSince)) {
    return { dayNumber, rowCount: 0, dims: DAILY_DIMENSIONS.map(() => new Uint16Array(0)), values: new Float64Array(0) };
  }
  // Weekends are quieter, and traffic drifts slowly over the year.
  const weekday = (dayNumber + 4) % 7; // 1970-01-01 was a Thursday
  const dayFactor = (weekday === 0 || weekday === 6 ? 0.75 : 1) * (0.85 + 0.3 * unit(seed, dayNumber, 1));
  const rowCount = Math.round(pub.dailyFactCount * (0.95 + 0.1 * unit(seed, dayNumber, 2)));
  const dimArrays = DAILY_DIMENSIONS.map(() => new Uint16Array(rowCount));
  const values = new Float64Array(rowCount * DAILY_FIELD_COUNT);
  const meanCountryWeight = dims.countryWeight.reduce((a, b) => a + b, 0) / dims.countryWeight.length;
  const sizes = [
    dims.platform.length,
    dims.referrer.length,
    dims.country.length,
    dims.section.length,
    dims.widget.length,
    dims.doc.length,
    dims.partnerApp.length,
  ];
  const countryOpen = dims.country.map((c) => countryHasTraffic(pub, c.id, dayNumber));
  // Rows are drawn by their index r and kept at w: a row of a closed market is dropped without
  // changing any other row's figures.
  let w = 0;
  for (let r = 0; r < rowCount; r++) {
    const u = (field: number) => unit(seed, dayNumber, r, field);
    for (let k = 0; k < sizes.length; k++) {
      // Documents and partner apps are skewed (a few popular ones); the others are spread evenly.
      const draw = k === 5 || k === 6 ? u(100 + k) ** 2 : u(100 + k);
      dimArrays[k]![w] = Math.floor(draw * sizes[k]!);
    }
    if (!countryOpen[dimArrays[2]![w]!]) continue;
    const countryWeight = dims.countryWeight[dimArrays[2]![w]!]! / meanCountryWeight;
    const magnitude = pub.trafficScale * dayFactor * Math.sqrt(countryWeight) * (0.2 + 2.5 * u(1) ** 2);
    const totalReqs = Math.max(1, Math.round(magnitude * (20 + 60 * u(2))));
    const paidReqs = Math.round(totalReqs * (0.6 + 0.3 * u(3)));
    const organicReqs = Math.round(totalReqs * (0.5 + 0.3 * u(4)));
    const totalPvs = Math.max(1, Math.round(totalReqs * (0.7 + 0.25 * u(5))));
    const paidPvs = Math.round(totalPvs * (0.6 + 0.3 * u(6)));
    const organicPvs = Math.round(totalPvs * (0.5 + 0.3 * u(7)));
    const paidClicks = Math.round(paidReqs * (0.001 + 0.008 * u(8)));
    const organicClicks = Math.round(organicReqs * (0.002 + 0.01 * u(9)));
    const cpcUsd = (0.05 + 0.5 * u(10)) * Math.min(1.5, countryWeight);
    const revenue = Math.round((paidClicks * cpcUsd + paidReqs * 0.0002 * u(11)) * 1e6) / 1e6;
    const videoPlays = Math.round(totalPvs * 0.02 * u(12));
    const videoRevenue = Math.round(videoPlays * (0.002 + 0.008 * u(13)) * 1e6) / 1e6;
    const exposed = Math.round(totalReqs * (0.4 + 0.4 * u(14)));
    const paidExposed = Math.round(paidReqs * (0.4 + 0.4 * u(15)));
    const organicExposed = Math.round(organicReqs * (0.4 + 0.4 * u(16)));
    const optInShare = 0.05 + 0.25 * u(17);
    const row = [
      paidPvs,
      totalPvs,
      organicPvs,
      paidReqs,
      totalReqs,
      organicReqs,
      revenue,
      videoRevenue,
      videoPlays,
      paidClicks,
      organicClicks,
      paidClicks + organicClicks,
      totalReqs,
      exposed,
      paidReqs,
      paidExposed,
      organicReqs,
      organicExposed,
      Math.round(totalReqs * optInShare),
      Math.round(totalPvs * optInShare),
    ];
    values.set(row, w * DAILY_FIELD_COUNT);
    w++;
  }
  return { dayNumber, rowCount: w, dims: dimArrays.map((a) => a.subarray(0, w)), values: values.subarray(0, w * DAILY_FIELD_COUNT) };
}

/** Whether the publisher has traffic in the country on the day: always, unless its market opened later or closed earlier. */
export function countryHasTraffic(pub: SeedPublisher, countryId: string, dayNumber: number): boolean {
  const days = pub.countryDays?.[countryId];
  if (!days) return true;
  return (
    (days.from === undefined || dayNumber >= dayNumberOf(days.from)) && (days.until === undefined || dayNumber <= dayNumberOf(days.until))
  );
}

/** Article numbers grow with time; article n is first published at hour floor(n / articlesPerHour). */
export function articlePublishHour(pub: SeedPublisher, article: number): number {
  return Math.floor(article / pub.articlesPerHour);
}

const ARTICLE_MAX_AGE_HOURS = 24 * 7;
const slugCache = new Map<string, string>();
const SLUG_CACHE_MAX = 200_000;

/** The external ID of an article: an article slug (or the publisher's seeded hostile ID) of at most 110 characters. */
export function articleSlug(pub: SeedPublisher, article: number): string {
  const key = `${pub.id}:${article}`;
  let slug = slugCache.get(key);
  if (slug) return slug;
  if (pub.externalIds && pub.externalIds.length > 0) {
    slug = `${pub.externalIds[article % pub.externalIds.length]}${article}`.slice(0, 110);
    slugCache.set(key, slug);
    return slug;
  }
  const seed = stringSeed(pub.id);
  const words: string[] = [];
  const length = 3 + (hash32(seed, article, 21) % 8);
  for (let i = 0; i < length; i++) words.push(TITLE_WORDS[hash32(seed, article, 23, i) % TITLE_WORDS.length]!);
  const section = pub.sections[hash32(seed, article, 25) % pub.sections.length]!;
  const sectionSlug =
    section.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || section.id;
  slug = `${sectionSlug}-${words.join('-')}-${article}`.slice(0, 110);
  if (slugCache.size >= SLUG_CACHE_MAX) slugCache.clear();
  slugCache.set(key, slug);
  return slug;
}

/** The secondary external ID of an article variant: the byline, or the byline of the AMP page. */
export function secondarySlug(pub: SeedPublisher, article: number, variant: number): string {
  const author = AUTHORS[hash32(stringSeed(pub.id), article, 27) % AUTHORS.length]!;
  return variant === 0 ? `byline-${author}` : `byline-${author}-amp`;
}

/** The external-ID fact table of one publisher for one UTC hour (hours since the epoch). */
export function hourFacts(pub: SeedPublisher, hourNumber: number): HourFacts {
  return hourCache.get(`${pub.id}:${hourNumber}`, () => generateHour(pub, hourNumber));
}

function generateHour(pub: SeedPublisher, hourNumber: number): HourFacts {
  const seed = stringSeed(pub.id) ^ 0x5bd1e995;
  const empty = hourNumber * MS_PER_HOUR < dayNumberOf(pub.dataSince) * MS_PER_DAY;
  const hourOfDay = ((hourNumber % 24) + 24) % 24;
  // A diurnal curve: most readers arrive in the (UTC) afternoon.
  const diurnal = 0.45 + 0.55 * Math.sin((Math.PI * (hourOfDay + 2)) / 24) ** 2;
  const rowCount = empty ? 0 : Math.round(pub.hourlyFactCount * (0.9 + 0.1 * unit(seed, hourNumber, 1)));
  const article = new Int32Array(rowCount);
  const secondaryVariant = new Uint8Array(rowCount);
  const widget = new Uint8Array(rowCount);
  const values = new Float64Array(rowCount * HOURLY_FIELD_COUNT);
  const newestArticle = (hourNumber + 1) * pub.articlesPerHour - 1;
  for (let r = 0; r < rowCount; r++) {
    const u = (field: number) => unit(seed, hourNumber, r, field);
    // Fresh articles get most of the traffic; articles older than a week get none.
    const ageInArticles = Math.floor(u(2) ** 2.5 * ARTICLE_MAX_AGE_HOURS * pub.articlesPerHour);
    article[r] = Math.max(0, newestArticle - ageInArticles);
    secondaryVariant[r] = u(3) < 0.8 ? 0 : 1;
    widget[r] = Math.floor(u(4) * pub.widgets.length);
    const magnitude = pub.trafficScale * diurnal * (0.2 + 2 * u(5) ** 2);
    const totalReqs = Math.max(1, Math.round(magnitude * (4 + 12 * u(6))));
    const paidReqs = Math.round(totalReqs * (0.6 + 0.3 * u(7)));
    const organicReqs = Math.round(totalReqs * (0.5 + 0.3 * u(8)));
    const paidClicks = Math.round(paidReqs * (0.002 + 0.01 * u(9)));
    const organicClicks = Math.round(organicReqs * (0.002 + 0.01 * u(10)));
    const revenue = Math.round((paidClicks * (0.05 + 0.5 * u(11)) + paidReqs * 0.0002 * u(12)) * 1e6) / 1e6;
    const videoRevenue = Math.round(revenue * 0.1 * u(13) * 1e6) / 1e6;
    const row = [
      totalReqs,
      paidReqs,
      organicReqs,
      paidClicks + organicClicks,
      paidClicks,
      organicClicks,
      revenue,
      videoRevenue,
      Math.round(totalReqs * (0.4 + 0.4 * u(14))),
      Math.round(organicReqs * (0.4 + 0.4 * u(15))),
      Math.round(paidReqs * (0.4 + 0.4 * u(16))),
      Math.max(1, Math.round(totalReqs * (0.6 + 0.3 * u(17)))),
    ];
    values.set(row, r * HOURLY_FIELD_COUNT);
  }
  return { hourNumber, rowCount, article, secondaryVariant, widget, values };
}
