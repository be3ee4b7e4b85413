/**
 * Chooses in-chat recommendation documents from a fixed ad catalogue, deterministically from the
 * request (keywords, IAB categories, widget and content URL): ads whose topics match rank first and
 * a seeded hash breaks ties, so the same request always gets the same documents in the same order.
 * A few documented keywords produce the cases a client must handle: a hostile document (markup in
 * the text, a formula as sponsor name), documents without tracking, and no documents at all.
 */
import { RECS_SPECIAL_KEYWORDS } from './seed';
import { hash32, stringSeed } from './synthetic-data';

export interface RecommendationInput {
  keywords: string[];
  iabCategories: string[];
  widgetJSId: string;
  contentUrl: string;
  /**
   * Where the thumbnails are: the emulator's own /thumbnails/ in the demo seed (served as SVG), else
   * the tests' made-up host, which never resolves (THUMBNAIL_HOST).
   */
  thumbnailBase?: string;
}

/** The thumbnails' host in the tests' seed: made up, never resolved (the tests route or fail it). */
export const THUMBNAIL_HOST = 'https://images.engage.example/thumbnails/';
/** The path under which the demo seed's emulator serves thumbnails itself. */
export const THUMBNAIL_PATH = '/thumbnails/';

/**
 * A thumbnail the demo seed's emulator serves: a 160 x 100 SVG of one colour drawn from the ad's id,
 * with a lighter band, so each ad's picture differs. Only ids of letters, digits and dashes.
 */
export function thumbnailSvg(adId: string): string | undefined {
  if (!/^[\w-]{1,64}$/.test(adId)) return undefined;
  const hue = hash32(stringSeed(adId), 3) % 360;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="100" viewBox="0 0 160 100">' +
    `<rect width="160" height="100" fill="hsl(${hue},55%,45%)"/>` +
    `<rect y="62" width="160" height="38" fill="hsl(${hue},55%,70%)"/>` +
    `<circle cx="120" cy="32" r="14" fill="hsl(${(hue + 40) % 360},80%,85%)"/></svg>`
  );
}

export interface AdDocument {
  url: string;
  thumbnail_url: string;
  content: string;
  source_display_name: string;
  target_domain: string;
  pos: number;
  cta?: string;
}

interface CatalogueAd {
  id: string;
  content: string;
  sponsor: string;
  domain: string;
  topics: string[];
  iab: string[];
  cta?: string;
}

const CATALOGUE: CatalogueAd[] = [
  {
    id: 'ad-1001',
    content: 'Ten running shoes podiatrists actually recommend',
    sponsor: 'StrideLab',
    domain: 'stridelab.example',
    topics: ['running', 'fitness', 'shoes', 'sports'],
    iab: ['IAB17', 'IAB7'],
    cta: 'Shop now',
  },
  {
    id: 'ad-1002',
    content: 'The protein plan pro cyclists swear by',
    sponsor: 'PelotonFuel',
    domain: 'pelotonfuel.example',
    topics: ['cycling', 'fitness', 'nutrition', 'sports'],
    iab: ['IAB17', 'IAB8'],
  },
  {
    id: 'ad-1003',
    content: 'Season tickets: the cheapest seats left this year',
    sponsor: 'SeatFinder',
    domain: 'seatfinder.example',
    topics: ['football', 'tickets', 'sports'],
    iab: ['IAB17'],
    cta: 'See seats',
  },
  {
    id: 'ad-1004',
    content: 'Why everyone is switching to this budgeting app',
    sponsor: 'PennyWise',
    domain: 'pennywise.example',
    topics: ['money', 'budget', 'finance', 'savings'],
    iab: ['IAB13'],
    cta: 'Try free',
  },
  {
    id: 'ad-1005',
    content: 'Mortgage rates just dropped: compare lenders in 2 minutes',
    sponsor: 'RateRadar',
    domain: 'rateradar.example',
    topics: ['mortgage', 'finance', 'home'],
    iab: ['IAB13', 'IAB21'],
  },
  {
    id: 'ad-1006',
    content: 'The index fund mistake most new investors make',
    sponsor: 'Ledgerly',
    domain: 'ledgerly.example',
    topics: ['investing', 'finance', 'stocks'],
    iab: ['IAB13'],
  },
  {
    id: 'ad-1007',
    content: 'Hidden beaches of Portugal locals keep to themselves',
    sponsor: 'Wanderly',
    domain: 'wanderly.example',
    topics: ['travel', 'beach', 'portugal', 'vacation'],
    iab: ['IAB20'],
    cta: 'Plan a trip',
  },
  {
    id: 'ad-1008',
    content: 'Flights to Tokyo are cheaper than you think this spring',
    sponsor: 'SkyDeals',
    domain: 'skydeals.example',
    topics: ['travel', 'flights', 'japan'],
    iab: ['IAB20'],
  },
  {
    id: 'ad-1009',
    content: 'A carry-on that fits 7 days of clothes',
    sponsor: 'PackLight',
    domain: 'packlight.example',
    topics: ['travel', 'luggage'],
    iab: ['IAB20', 'IAB22'],
    cta: 'Learn more',
  },
  {
    id: 'ad-1010',
    content: 'The 15-minute weeknight pasta chefs make at home',
    sponsor: 'HomeChef',
    domain: 'homechef.example',
    topics: ['recipes', 'food', 'cooking', 'pasta'],
    iab: ['IAB8'],
  },
  {
    id: 'ad-1011',
    content: 'This cast-iron pan outlives every non-stick',
    sponsor: 'ForgeWare',
    domain: 'forgeware.example',
    topics: ['cooking', 'kitchen', 'food'],
    iab: ['IAB8'],
    cta: 'Shop now',
  },
  {
    id: 'ad-1012',
    content: 'Coffee lovers are ditching pods for this grinder',
    sponsor: 'BeanBox',
    domain: 'beanbox.example',
    topics: ['coffee', 'food', 'kitchen'],
    iab: ['IAB8'],
  },
  {
    id: 'ad-1013',
    content: 'The laptop engineers pick for battery life',
    sponsor: 'ByteShop',
    domain: 'byteshop.example',
    topics: ['laptop', 'tech', 'computers'],
    iab: ['IAB19'],
    cta: 'Compare',
  },
  {
    id: 'ad-1014',
    content: 'Noise-cancelling headphones tested on a 12-hour flight',
    sponsor: 'SoundCheck',
    domain: 'soundcheck.example',
    topics: ['headphones', 'tech', 'audio', 'travel'],
    iab: ['IAB19', 'IAB20'],
  },
  {
    id: 'ad-1015',
    content: 'Is your Wi-Fi slow? This router fixes dead zones',
    sponsor: 'MeshNet',
    domain: 'meshnet.example',
    topics: ['wifi', 'tech', 'home'],
    iab: ['IAB19'],
  },
  {
    id: 'ad-1016',
    content: 'Sleep scientists explain the 10-3-2-1 rule',
    sponsor: 'RestWell',
    domain: 'restwell.example',
    topics: ['sleep', 'health', 'wellness'],
    iab: ['IAB7'],
  },
  {
    id: 'ad-1017',
    content: 'A dentist-designed toothbrush at half the price',
    sponsor: 'BrightBrush',
    domain: 'brightbrush.example',
    topics: ['dental', 'health'],
    iab: ['IAB7'],
    cta: 'Get offer',
  },
  {
    id: 'ad-1018',
    content: 'Electric SUVs with the longest real-world range',
    sponsor: 'AutoPulse',
    domain: 'autopulse.example',
    topics: ['cars', 'electric', 'suv', 'auto'],
    iab: ['IAB2'],
  },
  {
    id: 'ad-1019',
    content: 'How much is your car worth today? Instant estimate',
    sponsor: 'CarValue',
    domain: 'carvalue.example',
    topics: ['cars', 'auto', 'selling'],
    iab: ['IAB2'],
    cta: 'Get estimate',
  },
  {
    id: 'ad-1020',
    content: 'Learn a language in 10 minutes a day',
    sponsor: 'LinguaLeap',
    domain: 'lingualeap.example',
    topics: ['language', 'learning', 'education'],
    iab: ['IAB5'],
  },
  {
    id: 'ad-1021',
    content: 'The online course hiring managers actually value',
    sponsor: 'SkillForge',
    domain: 'skillforge.example',
    topics: ['career', 'learning', 'jobs', 'education'],
    iab: ['IAB4', 'IAB5'],
    cta: 'Enroll',
  },
  {
    id: 'ad-1022',
    content: 'Indoor plants that survive even the darkest flat',
    sponsor: 'Leafy',
    domain: 'leafy.example',
    topics: ['plants', 'garden', 'home'],
    iab: ['IAB10'],
  },
  {
    id: 'ad-1023',
    content: 'Binge-worthy thrillers you missed this year',
    sponsor: 'StreamBox',
    domain: 'streambox.example',
    topics: ['movies', 'tv', 'streaming', 'entertainment'],
    iab: ['IAB1'],
  },
  {
    id: 'ad-1024',
    content: 'Concert tickets for tonight, from $19',
    sponsor: 'GigPass',
    domain: 'gigpass.example',
    topics: ['music', 'concerts', 'tickets', 'entertainment'],
    iab: ['IAB1'],
    cta: 'Find gigs',
  },
];

/** Seeded for security tests: markup in the ad text and a spreadsheet formula as sponsor. */
export const HOSTILE_AD: CatalogueAd = {
  id: 'ad-6666',
  content: '<img src=x onerror=alert(1)>',
  sponsor: '=HYPERLINK("http://evil.example","x")',
  domain: 'evil.example',
  topics: [],
  iab: [],
  cta: '<script>alert(2)</script>',
};

export const MIN_DOCUMENTS = 3;
export const MAX_DOCUMENTS = 5;

export interface RecommendationChoice {
  documents: AdDocument[];
  /** False when the request asked for documents without tracking. */
  tracked: boolean;
}

export function chooseDocuments(input: RecommendationInput): RecommendationChoice {
  const keywords = input.keywords.map((k) => k.trim().toLowerCase());
  const iab = input.iabCategories.map((c) => c.trim().toUpperCase());
  if (keywords.includes(RECS_SPECIAL_KEYWORDS.empty)) return { documents: [], tracked: false };
  const seed = stringSeed(`${[...keywords].sort().join('|')}#${[...iab].sort().join('|')}#${input.widgetJSId}#${input.contentUrl}`);
  const count = MIN_DOCUMENTS + (hash32(seed, 1) % (MAX_DOCUMENTS - MIN_DOCUMENTS + 1));
  const ranked = CATALOGUE.map((ad, index) => {
    const topicHits = ad.topics.filter((t) => keywords.some((k) => k === t || k.includes(t) || t.includes(k))).length;
    const iabHits = ad.iab.filter((c) => iab.some((wanted) => wanted === c || wanted.startsWith(`${c}-`))).length;
    return { ad, score: topicHits * 3 + iabHits * 2, tiebreak: hash32(seed, 2, index) };
  }).sort((a, b) => b.score - a.score || a.tiebreak - b.tiebreak);
  const chosen = ranked.slice(0, count).map((r) => r.ad);
  if (keywords.includes(RECS_SPECIAL_KEYWORDS.hostile)) chosen.unshift(HOSTILE_AD);
  const thumbnails = input.thumbnailBase ? { base: input.thumbnailBase, ext: 'svg' } : { base: THUMBNAIL_HOST, ext: 'jpg' };
  const documents = chosen.slice(0, Math.max(count, 1)).map((ad, i) => toDocument(ad, i + 1, input.widgetJSId, thumbnails));
  return { documents, tracked: !keywords.includes(RECS_SPECIAL_KEYWORDS.noTracking) };
}

function toDocument(ad: CatalogueAd, pos: number, widgetJSId: string, thumbnails: { base: string; ext: string }): AdDocument {
  const doc: AdDocument = {
    url: `https://${ad.domain}/landing?utm_source=engage&utm_medium=chat&utm_content=${ad.id}&w=${encodeURIComponent(widgetJSId)}`,
    thumbnail_url: `${thumbnails.base}${ad.id}.${thumbnails.ext}`,
    content: ad.content,
    source_display_name: ad.sponsor,
    target_domain: ad.domain,
    pos,
  };
  if (ad.cta) doc.cta = ad.cta;
  return doc;
}
