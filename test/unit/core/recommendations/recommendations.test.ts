/**
 * In-chat recommendations in the core: arguments checked before anything is sent, the request the
 * spec asks for, answers read leniently but refused when malformed, errors that never carry the API
 * key, rows for the sheet, the sidebar's preview and the impression pixel's address.
 */
import { EngageAddon } from '../../../../src/core/addon/formulas/engage-addon';
import { ResponseFormatError, ValidationError, TransportError } from '../../../../src/core/errors';
import { impressionPixelUrl, isHttpUrl } from '../../../../src/core/recommendations/impression-pixel';
import type { HttpRequest } from '../../../../src/core/ports';
import {
  RECOMMENDATION_COLUMNS,
  buildRecommendationsRequest,
  fetchRecommendations,
  parseRecommendations,
  recommendationsInput,
  recommendationsTable,
  type RecommendationsInput,
} from '../../../../src/core/recommendations/recommendations';
import { recommendationsPreview } from '../../../../src/core/recommendations/preview';
import { SETTINGS_STORE_KEY } from '../../../../src/core/addon/session/settings';
import {
  FakeCache,
  FakeCompressor,
  FakeLock,
  FakeStore,
  FakeTransport,
  ManualClock,
  ManualSleeper,
  errorResponse,
  jsonResponse,
  queryOf,
} from '../../../support/fakes';
import { readableCacheTexts } from '../../../support/cache-contents';

const KEY = 'secret-key-0451';
const RECS_URL = 'https://recs.example/recs/v1/recommendations';
const CONFIG = { recommendationsUrl: RECS_URL, apiKey: KEY };
const INPUT: RecommendationsInput = {
  keywords: ['running', 'shoes'],
  iabCategories: ['IAB17'],
  contentUrl: 'https://news.example/story',
  widgetJSId: 'APP_12',
  testMode: true,
};

function doc(pos: number, extra: Record<string, unknown> = {}) {
  return {
    url: `https://ads.example/${pos}`,
    thumbnail_url: `https://img.example/${pos}.jpg`,
    content: `Ad ${pos}`,
    source_display_name: `Sponsor ${pos}`,
    target_domain: 'ads.example',
    pos,
    ...extra,
  };
}

function answer(documents: unknown[], tracking: unknown = { reportServed: 'https://px.example/served?servedId=s1' }) {
  return jsonResponse(200, tracking === undefined ? { documents } : { documents, tracking }, { 'x-traceid': 'trace-ok' });
}

function deps(transport: FakeTransport) {
  const clock = new ManualClock();
  return { transport, clock, sleeper: new ManualSleeper(clock), random: () => 0.5 };
}

function message(work: () => unknown): string {
  try {
    work();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a failure');
}

describe('recommendationsInput', () => {
  it('refuses control characters in keywords and in contentUrl', () => {
    const base = { contentUrl: 'news.example', widgetJSId: 'APP_12' };
    expect(() => recommendationsInput({ ...base, keywords: 'run\u0000ning' })).toThrow(
      /^keywords: 'run\\u0000ning' contains a control character \(U\+0000\)/,
    );
    expect(() => recommendationsInput({ ...base, contentUrl: 'https://news.example/a\u0007' })).toThrow(
      /^contentUrl: 'https:\/\/news.example\/a\\u0007' contains a control character \(U\+0007\)/,
    );
  });

  it('reads keywords and categories from comma-separated text and from ranges', () => {
    const input = recommendationsInput({
      keywords: [['running'], ['shoes, trail']],
      iabCategories: 'iab17, IAB7-3',
      contentUrl: 'news.example',
      widgetJSId: 'APP_12',
    });
    expect(input).toEqual({
      keywords: ['running', 'shoes', 'trail'],
      iabCategories: ['IAB17', 'IAB7-3'],
      contentUrl: 'news.example',
      widgetJSId: 'APP_12',
      testMode: true,
    });
  });

  it('keeps test mode on unless the argument says FALSE', () => {
    const base = { contentUrl: 'news.example', widgetJSId: 'APP_12' };
    expect(recommendationsInput({ ...base }).testMode).toBe(true);
    expect(recommendationsInput({ ...base, testMode: '' }).testMode).toBe(true);
    expect(recommendationsInput({ ...base, testMode: false }).testMode).toBe(false);
    expect(recommendationsInput({ ...base, testMode: 'FALSE' }).testMode).toBe(false);
  });

  it('takes the widget from the settings when the argument is empty', () => {
    expect(recommendationsInput({ contentUrl: 'news.example', widgetJSId: '' }, 'APP_13').widgetJSId).toBe('APP_13');
    expect(recommendationsInput({ contentUrl: 'news.example', widgetJSId: 'APP_14' }, 'APP_13').widgetJSId).toBe('APP_14');
  });

  it.each([
    [{ contentUrl: 'news.example' }, /^widgetJSId: is required .*Settings/],
    [{ widgetJSId: 'APP_12' }, /^contentUrl: is required/],
    [{ contentUrl: 'javascript:alert(1)', widgetJSId: 'APP_12' }, /^contentUrl: .* must be an http\(s\) address or a domain/],
    [{ contentUrl: 'news.example', widgetJSId: 'APP 12' }, /^widgetJSId: 'APP 12' must be a widget ID/],
    [{ contentUrl: 'news.example', widgetJSId: 'APP_12', iabCategories: 'sports' }, /^iabCategories: 'SPORTS' is not an IAB category code/],
    [{ contentUrl: 'news.example', widgetJSId: 'APP_12', keywords: [[true]] }, /^keywords: must be text/],
    [
      { contentUrl: 'news.example', widgetJSId: 'APP_12', keywords: Array.from({ length: 101 }, (_, i) => `k${i}`).join(',') },
      /^keywords: 101 keywords are more than the 100 allowed/,
    ],
    [{ contentUrl: 'news.example', widgetJSId: 'APP_12', testMode: 'maybe' }, /^testMode: .* must be TRUE or FALSE/],
  ])('refuses %p with a message naming the argument and the rule', (raw, expected) => {
    expect(message(() => recommendationsInput(raw))).toMatch(expected);
  });

  it('names every bad argument in one message', () => {
    const error = (() => {
      try {
        recommendationsInput({ iabCategories: 'x' });
      } catch (e) {
        return e as ValidationError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.problems.map((p) => p.argument)).toEqual(['iabCategories', 'contentUrl', 'widgetJSId']);
  });
});

describe('buildRecommendationsRequest', () => {
  it('POSTs JSON to the recommendations URL with key, contentUrl, widgetJSId, cors=true and testMode=true', () => {
    const request = buildRecommendationsRequest(CONFIG, INPUT);
    expect(request.method).toBe('post');
    expect(request.contentType).toBe('application/json');
    expect(request.url.startsWith(`${RECS_URL}?`)).toBe(true);
    expect(queryOf(request)).toEqual({
      key: KEY,
      contentUrl: 'https://news.example/story',
      widgetJSId: 'APP_12',
      cors: 'true',
      testMode: 'true',
    });
    expect(JSON.parse(request.payload!)).toEqual({ keywords: ['running', 'shoes'], iabCategories: ['IAB17'] });
  });

  it('leaves testMode out when test mode is off', () => {
    expect(queryOf(buildRecommendationsRequest(CONFIG, { ...INPUT, testMode: false }))).not.toHaveProperty('testMode');
  });

  it('refuses a content address that would make the request longer than Apps Script can send', () => {
    expect(
      message(() => buildRecommendationsRequest(CONFIG, { ...INPUT, contentUrl: `https://news.example/${'a'.repeat(1990)}` })),
    ).toMatch(/^contentUrl: makes the request address longer than the 2000 characters/);
  });
});

describe('parseRecommendations', () => {
  it('reads documents and tracking and ignores unknown fields', () => {
    const result = parseRecommendations(
      JSON.stringify({
        documents: [doc(1, { extra: { a: 1 } }), doc(2, { cta: 'Shop now' })],
        tracking: { reportServed: 'https://px.example/s?x=1', other: 1 },
        more: true,
      }),
      't1',
    );
    expect(result.documents.map((d) => [d.pos, d.content, d.cta])).toEqual([
      [1, 'Ad 1', undefined],
      [2, 'Ad 2', 'Shop now'],
    ]);
    expect(result.reportServed).toBe('https://px.example/s?x=1');
    expect(result.traceId).toBe('t1');
  });

  it('accepts a missing tracking object, a null cta and a position given as text', () => {
    const result = parseRecommendations(JSON.stringify({ documents: [doc(1, { cta: null, pos: '3' })] }));
    expect(result.reportServed).toBeUndefined();
    expect(result.documents[0]!.pos).toBe(3);
    expect(result.documents[0]).not.toHaveProperty('cta');
  });

  it.each([
    ['{"documents": [', /not JSON/],
    ['{}', /documents/],
    [JSON.stringify({ documents: [doc(1, { content: 5 })] }), /documents\.0\.content/],
    [JSON.stringify({ documents: [doc(1, { pos: 'first' })] }), /documents\.0\.pos/],
  ])('refuses the malformed body %s with a clear error', (body, expected) => {
    let error: unknown;
    try {
      parseRecommendations(body, 'trace-bad');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect((error as Error).message).toMatch(expected);
    expect((error as Error).message).toMatch(/recommendations request in an unexpected form.*\[trace ID trace-bad\]/);
  });
});

describe('fetchRecommendations', () => {
  it('sends one request and returns the documents', () => {
    const transport = new FakeTransport(() => answer([doc(1), doc(2)]));
    const result = fetchRecommendations(deps(transport), CONFIG, INPUT, { deadlineAtMs: Date.now() + 60_000 });
    expect(result.documents).toHaveLength(2);
    expect(transport.requestCount).toBe(1);
  });

  it('tries again after a 504 and gives up after three attempts', () => {
    const transport = new FakeTransport(() => errorResponse(504, 'Request timed out'));
    const d = deps(transport);
    transport.enqueue(errorResponse(504, 'Request timed out'));
    transport.setHandler(() => answer([doc(1)]));
    expect(fetchRecommendations(d, CONFIG, INPUT, { deadlineAtMs: d.clock.now() + 25_000 }).documents).toHaveLength(1);
    expect(transport.requestCount).toBe(2);
    const failing = new FakeTransport(() => errorResponse(504, 'Request timed out'));
    const d2 = deps(failing);
    expect(message(() => fetchRecommendations(d2, CONFIG, INPUT, { deadlineAtMs: d2.clock.now() + 25_000 }))).toMatch(
      /recommendations endpoint answered with an error \(HTTP 504/,
    );
    expect(failing.requestCount).toBe(3);
  });

  it('says the API key was refused on a 401, without echoing the key the service quoted', () => {
    const transport = new FakeTransport(() => errorResponse(401, `unknown key ${KEY}`, 'trace-401'));
    const text = message(() => fetchRecommendations(deps(transport), CONFIG, INPUT, { deadlineAtMs: Date.now() + 60_000 }));
    expect(text).toMatch(
      /did not accept the API key \(HTTP 401: unknown key \[API key\]\): check the API key in the Engage sidebar under Settings \[trace ID trace-401\]/,
    );
    expect(text).not.toContain(KEY);
    expect(transport.requestCount).toBe(1);
  });

  it('explains a 400 and a 500 and keeps the trace ID', () => {
    const bad = new FakeTransport(() => errorResponse(400, 'widgetJSId APP_99 does not belong to the key', 'trace-400'));
    expect(message(() => fetchRecommendations(deps(bad), CONFIG, INPUT, { deadlineAtMs: Date.now() + 60_000 }))).toMatch(
      /rejected the request \(HTTP 400: widgetJSId APP_99 does not belong to the key\): check contentUrl, widgetJSId.*\[trace ID trace-400\]/,
    );
    const broken = new FakeTransport(() => errorResponse(500, 'boom', 'trace-500'));
    expect(message(() => fetchRecommendations(deps(broken), CONFIG, INPUT, { deadlineAtMs: Date.now() + 60_000 }))).toMatch(
      /HTTP 500: boom.*\[trace ID trace-500\]/,
    );
  });

  it('never shows the request address with its key when the connection fails', () => {
    const transport = new FakeTransport((request: HttpRequest) => new TransportError(`Timeout: ${request.url}`));
    const text = message(() => fetchRecommendations(deps(transport), CONFIG, INPUT, { deadlineAtMs: Date.now() + 60_000 }));
    expect(text).toMatch(/Could not reach Engage \(Timeout: https:\/\/recs\.example\/recs\/v1\/recommendations\)/);
    expect(text).not.toContain(KEY);
  });
});

describe('recommendationsTable', () => {
  const hostile = {
    documents: [doc(1, { content: '=HYPERLINK("http://evil.example","x")', source_display_name: '+SUM(1)', cta: '@cmd' })],
  };

  it('gives a header and one row per document in the column order of a chat client', () => {
    const values = recommendationsTable({ documents: [doc(1, { cta: 'Go' }), doc(2)] });
    expect(values[0]).toEqual([...RECOMMENDATION_COLUMNS]);
    expect(values.slice(1)).toEqual([
      [1, 'Ad 1', 'Sponsor 1', 'ads.example', 'https://ads.example/1', 'https://img.example/1.jpg', 'Go'],
      [2, 'Ad 2', 'Sponsor 2', 'ads.example', 'https://ads.example/2', 'https://img.example/2.jpg', ''],
    ]);
  });

  it('keeps formula-like text as the values a custom function returns (Sheets never evaluates them)', () => {
    expect(recommendationsTable(hostile)[1]!.slice(1, 3)).toEqual(['=HYPERLINK("http://evil.example","x")', '+SUM(1)']);
    expect(recommendationsTable(hostile)[1]![6]).toBe('@cmd');
  });

  it('says so when no documents came back', () => {
    expect(recommendationsTable({ documents: [] })).toEqual([['No recommendations returned']]);
  });
});

describe('recommendationsPreview', () => {
  it('keeps only documents with http(s) links and only http(s) thumbnails, in the order given', () => {
    const preview = recommendationsPreview(
      {
        documents: [doc(3), doc(1, { url: 'javascript:alert(1)' }), doc(2, { thumbnail_url: 'data:image/png;base64,AAAA' })],
        reportServed: 'https://px.example/served?servedId=s1',
      },
      INPUT,
    );
    expect(preview.documents.map((d) => d.pos)).toEqual([3, 2]);
    expect(preview.documents[1]).not.toHaveProperty('thumbnail_url');
    expect(preview.omitted).toBe(1);
    expect(preview.reportServed).toBe('https://px.example/served?servedId=s1');
    expect(preview.testMode).toBe(true);
  });

  it('drops a pixel address that is not http(s)', () => {
    expect(recommendationsPreview({ documents: [doc(1)], reportServed: 'javascript:alert(1)//' }, INPUT)).not.toHaveProperty(
      'reportServed',
    );
  });

  it('keeps thumbnails and the pixel only over https, which a sidebar may load; plain http to this machine only in a local build', () => {
    const answer = {
      documents: [doc(1, { thumbnail_url: 'http://img.example/1.jpg' }), doc(2, { thumbnail_url: 'http://127.0.0.1:9/2.jpg' }), doc(3)],
      reportServed: 'http://px.example/served?servedId=s1',
    };
    const forGoogle = recommendationsPreview(answer, INPUT);
    // The links stay (they open in a new tab); the http images and pixel go.
    expect(forGoogle.documents.map((d) => [d.pos, d.thumbnail_url])).toEqual([
      [1, undefined],
      [2, undefined],
      [3, doc(3).thumbnail_url],
    ]);
    expect(forGoogle).not.toHaveProperty('reportServed');
    const local = recommendationsPreview({ ...answer, reportServed: 'http://127.0.0.1:9/served?servedId=s1' }, INPUT, {
      localServers: true,
    });
    expect(local.documents.map((d) => d.thumbnail_url)).toEqual([undefined, 'http://127.0.0.1:9/2.jpg', doc(3).thumbnail_url]);
    expect(local.reportServed).toBe('http://127.0.0.1:9/served?servedId=s1');
  });
});

describe('impressionPixelUrl', () => {
  it('appends the displayed positions in display order, joined by "-"', () => {
    expect(impressionPixelUrl('https://px.example/served?servedId=s1', [3, 1, 2])).toBe('https://px.example/served?servedId=s1&pos=3-1-2');
    expect(impressionPixelUrl('https://px.example/served?servedId=s1', [2])).toBe('https://px.example/served?servedId=s1&pos=2');
  });

  it('gives no address without reportServed, with nothing displayed, or for one a sidebar may not load', () => {
    expect(impressionPixelUrl('http://px.example/served?servedId=s1', [1])).toBeUndefined();
    expect(impressionPixelUrl('http://127.0.0.1:8787/served?servedId=s1', [1])).toBeUndefined();
    expect(impressionPixelUrl('http://127.0.0.1:8787/served?servedId=s1', [1], { localServers: true })).toBe(
      'http://127.0.0.1:8787/served?servedId=s1&pos=1',
    );
    expect(impressionPixelUrl(undefined, [1, 2])).toBeUndefined();
    expect(impressionPixelUrl('https://px.example/served?servedId=s1', [])).toBeUndefined();
    expect(impressionPixelUrl('javascript:alert(1)//?', [1])).toBeUndefined();
  });

  it('accepts only absolute http(s) addresses', () => {
    expect([
      isHttpUrl('https://a.example/x'),
      isHttpUrl('http://a.example'),
      isHttpUrl('//a.example'),
      isHttpUrl('data:x'),
      isHttpUrl(' https://a.example'),
    ]).toEqual([true, true, false, false, false]);
  });
});

describe('EngageAddon recommendations', () => {
  function addon(settings: Record<string, string>, transport: FakeTransport) {
    const clock = new ManualClock();
    const userStore = new FakeStore();
    userStore.values.set(SETTINGS_STORE_KEY, JSON.stringify(settings));
    const documentCache = new FakeCache(clock);
    const engage = new EngageAddon({
      transport,
      userStore,
      documentCache,
      compressor: new FakeCompressor(),
      userLock: new FakeLock(),
      documentLock: new FakeLock(),
      clock,
      sleeper: new ManualSleeper(clock),
      random: () => 0.5,
      timeZone: 'Europe/Berlin',
      inCustomFunction: true,
    });
    return { engage, documentCache, clock };
  }
  const RAW = { keywords: 'running', iabCategories: '', contentUrl: 'news.example', widgetJSId: '' };

  it('names the missing API key or address before any request', () => {
    const transport = new FakeTransport(() => answer([doc(1)]));
    const noKey = addon({ recommendationsUrl: RECS_URL, widgetId: 'APP_12' }, transport);
    expect(message(() => noKey.engage.formulaRecommendations(RAW, { deadlineAtMs: noKey.clock.now() + 25_000 }))).toMatch(
      /^apiKey: the recommendations API key is not set: set it in the Engage sidebar under Settings/,
    );
    const noUrl = addon({ apiKey: KEY, widgetId: 'APP_12' }, transport);
    expect(message(() => noUrl.engage.formulaRecommendations(RAW, { deadlineAtMs: noUrl.clock.now() + 25_000 }))).toMatch(
      /^recommendationsUrl: the recommendations address is not set/,
    );
    const noWidget = addon({ apiKey: KEY, recommendationsUrl: RECS_URL }, transport);
    expect(message(() => noWidget.engage.formulaRecommendations(RAW, { deadlineAtMs: noWidget.clock.now() + 25_000 }))).toMatch(
      /^widgetJSId: is required/,
    );
    expect(transport.requestCount).toBe(0);
  });

  it('answers a repeated formula from the cache, which never holds the key', () => {
    const transport = new FakeTransport(() => answer([doc(1), doc(2)]));
    const { engage, documentCache, clock } = addon({ apiKey: KEY, recommendationsUrl: RECS_URL, widgetId: 'APP_12' }, transport);
    const first = engage.formulaRecommendations(RAW, { deadlineAtMs: clock.now() + 25_000 });
    const again = engage.formulaRecommendations(RAW, { deadlineAtMs: clock.now() + 25_000 });
    expect(again).toEqual(first);
    expect(first).toHaveLength(3);
    expect(transport.requestCount).toBe(1);
    expect(queryOf(transport.requests[0]!).widgetJSId).toBe('APP_12');
    // Compressed results are read back decompressed for the check: the cached ads are there, the key is not.
    const held = readableCacheTexts(documentCache.writes).join('\n');
    expect(held).toContain('Ad 1');
    expect(held).not.toContain(KEY);
  });

  it('asks again for every preview, since each answer has its own pixel address', () => {
    const transport = new FakeTransport(() => answer([doc(1)]));
    const { engage, clock } = addon({ apiKey: KEY, recommendationsUrl: RECS_URL, widgetId: 'APP_12' }, transport);
    engage.previewRecommendations(RAW, { deadlineAtMs: clock.now() + 25_000 });
    const preview = engage.previewRecommendations(RAW, { deadlineAtMs: clock.now() + 25_000 });
    expect(transport.requestCount).toBe(2);
    expect(preview).toEqual(
      expect.objectContaining({ testMode: true, widgetJSId: 'APP_12', reportServed: 'https://px.example/served?servedId=s1' }),
    );
  });
});
