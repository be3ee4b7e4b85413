/**
 * End to end: in-chat recommendations from the built bundle in the local host against a fresh
 * emulator. ENGAGE_RECOMMENDATIONS is typed into cells as a user would; the sidebar's server function
 * previewRecommendations is called as google.script.run would, and the pixel is then called the way
 * the sidebar does (impressionPixelUrl over the displayed positions), so the emulator's impression log
 * shows the exact address. The API key is saved in the owner's settings and must appear nowhere else:
 * not in messages, logs, cells, caches, or document and script properties.
 */
import { impressionPixelUrl } from '../../src/core/recommendations/impression-pixel';
import type { RecommendationsPreview } from '../../src/core/recommendations/preview';
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { DEMO_API_KEY } from '../support/emulator';

const KEY = DEMO_API_KEY.key;
const WIDGET = DEMO_API_KEY.widgetIds[0]!;
const SHEETS = Array.from({ length: 40 }, (_, i) => `S${i}`);
const RECS_PATH = '/recs/v1/recommendations';
let h: AddonHarness;
let nextSheet = 0;

function saveSettings(change: Record<string, string>) {
  h.host.call('saveSettings', [change], { user: OWNER });
}

beforeAll(async () => {
  h = await startAddon({ sheets: SHEETS, maxRows: 400 });
  h.configure();
  saveSettings({ apiKey: KEY, widgetId: WIDGET });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.emulator.clearFaults();
  await h.emulator.clearRequests();
});

function formula(text: string) {
  return h.host.evaluateFormula(SHEETS[nextSheet++]!, 'A1', text, { user: OWNER });
}

async function recsRequests() {
  return (await h.emulator.requests()).filter((r) => r.path === RECS_PATH);
}

function preview(request: Record<string, unknown>): RecommendationsPreview {
  return h.host.call('previewRecommendations', [request], { user: OWNER }) as RecommendationsPreview;
}

describe('ENGAGE_RECOMMENDATIONS', () => {
  it('returns one row per document under the header, from one POST with test mode on', async () => {
    const result = formula(`=ENGAGE_RECOMMENDATIONS("running,shoes", "IAB17", "https://news.example/story", "${WIDGET}")`);
    expect(result.error).toBeUndefined();
    const values = result.values!;
    expect(values[0]).toEqual(['pos', 'content', 'source_display_name', 'target_domain', 'url', 'thumbnail_url', 'cta']);
    expect(values.length - 1).toBeGreaterThanOrEqual(3);
    expect(values.slice(1).map((r) => r[0])).toEqual(values.slice(1).map((_, i) => i + 1));
    expect(values[1]![3]).toBe('stridelab.example');
    const sent = await recsRequests();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.query).toEqual({
      key: KEY,
      contentUrl: 'https://news.example/story',
      widgetJSId: WIDGET,
      cors: 'true',
      testMode: 'true',
    });
    expect(String(sent[0]!.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('takes keywords from a range, the widget from the settings, and asks for live ads when testMode is FALSE', async () => {
    const sheet = SHEETS[nextSheet++]!;
    h.host.setCell(sheet, 'K1', 'travel');
    h.host.setCell(sheet, 'K2', 'beach');
    const result = h.host.evaluateFormula(sheet, 'A1', '=ENGAGE_RECOMMENDATIONS(K1:K2, "IAB20", "news.example", , FALSE)', { user: OWNER });
    expect(result.error).toBeUndefined();
    expect(result.values![1]![3]).toBe('wanderly.example');
    const sent = await recsRequests();
    expect(sent[0]!.query).toEqual({ key: KEY, contentUrl: 'news.example', widgetJSId: WIDGET, cors: 'true' });
  });

  it('never fires an impression, and a recalculation is answered from the cache', async () => {
    const before = (await h.emulator.impressions()).length;
    const text = '=ENGAGE_RECOMMENDATIONS("coffee", , "news.example", "APP_13")';
    const first = formula(text);
    const again = formula(text);
    expect(again.values).toEqual(first.values);
    expect(await recsRequests()).toHaveLength(1);
    expect(await h.emulator.impressions()).toHaveLength(before);
  });

  it('says so when no ads come back', () => {
    expect(formula('=ENGAGE_RECOMMENDATIONS("nothing", , "news.example", "APP_12")').values).toEqual([['No recommendations returned']]);
  });

  it('returns hostile ad text as plain values: a formula-like sponsor stays text in the cell', () => {
    const result = formula('=ENGAGE_RECOMMENDATIONS("hostile", , "news.example", "APP_12")');
    expect(result.values![1]!.slice(1, 3)).toEqual(['<img src=x onerror=alert(1)>', '=HYPERLINK("http://evil.example","x")']);
  });

  it('works for a QA sheet of keyword sets recalculating at once: one request per set, then none', async () => {
    const sets = ['running', 'cycling', 'budget', 'mortgage', 'travel', 'flights', 'pasta', 'coffee', 'laptop', 'wifi', 'sleep', 'cars'];
    // One keyword set per block of 8 rows: a result (header and up to 5 ads) spills into the rows below.
    const cells = sets.map((_k, i) => ({ sheet: 'S39', a1: `B${1 + i * 8}` }));
    sets.forEach((k, i) => {
      h.host.setCell('S39', `A${1 + i * 8}`, k);
      h.host.setCell('S39', cells[i]!.a1, `=ENGAGE_RECOMMENDATIONS(A${1 + i * 8}, , "news.example", "APP_12")`);
    });
    const started = Date.now();
    const results = await h.host.recalculate(cells);
    const elapsedMs = Date.now() - started;
    expect(results.filter((r) => r.error)).toEqual([]);
    expect(results.every((r) => r.values![0]![0] === 'pos')).toBe(true);
    expect(await recsRequests()).toHaveLength(sets.length);
    expect(elapsedMs).toBeLessThan(20_000);
    await h.emulator.clearRequests();
    await h.host.recalculate(cells);
    expect(await recsRequests()).toHaveLength(0);
  });
});

describe('the impression pixel', () => {
  it('records exactly the displayed positions, in display order, once', async () => {
    const before = (await h.emulator.impressions()).length;
    const shown = preview({
      keywords: 'coffee,kitchen',
      iabCategories: 'IAB8',
      contentUrl: 'https://food.example/a',
      widgetJSId: 'APP_14',
    });
    expect(shown.testMode).toBe(true);
    expect(shown.documents.length).toBeGreaterThanOrEqual(3);
    expect(await h.emulator.impressions()).toHaveLength(before);
    // A chat that shows the third document and then the first.
    const displayed = [shown.documents[2]!.pos, shown.documents[0]!.pos];
    // The tests' build is for local servers: the emulator's pixel address is plain http on this machine.
    const url = impressionPixelUrl(shown.reportServed, displayed, { localServers: true })!;
    expect(url).toBe(`${shown.reportServed}&pos=3-1`);
    const response = await fetch(url);
    expect(response.status).toBe(204);
    const impressions = await h.emulator.impressions();
    expect(impressions).toHaveLength(before + 1);
    expect(impressions[impressions.length - 1]).toEqual(
      expect.objectContaining({ known: true, widgetJSId: 'APP_14', testMode: true, pos: '3-1', positions: [3, 1] }),
    );
  });

  it('has no address to call when the answer carries no reportServed', async () => {
    const before = (await h.emulator.impressions()).length;
    const shown = preview({ keywords: 'no-tracking', contentUrl: 'news.example' });
    expect(shown.documents.length).toBeGreaterThan(0);
    expect(shown.reportServed).toBeUndefined();
    expect(
      impressionPixelUrl(
        shown.reportServed,
        shown.documents.map((d) => d.pos),
      ),
    ).toBeUndefined();
    expect(await h.emulator.impressions()).toHaveLength(before);
  });
});

describe('errors', () => {
  const messages: string[] = [];
  function failing(text: string): string {
    const result = formula(text);
    expect(result.value).toBe('#ERROR!');
    messages.push(result.error!);
    return result.error!;
  }

  it('names a missing API key and a missing widget ID before any request', async () => {
    saveSettings({ apiKey: '' });
    expect(failing('=ENGAGE_RECOMMENDATIONS("a", , "news.example", "APP_12")')).toMatch(
      /^apiKey: the recommendations API key is not set: set it in the Engage sidebar under Settings/,
    );
    saveSettings({ apiKey: KEY, widgetId: '' });
    expect(failing('=ENGAGE_RECOMMENDATIONS("a", , "news.example", "")')).toMatch(/^widgetJSId: is required/);
    saveSettings({ widgetId: WIDGET });
    expect(failing('=ENGAGE_RECOMMENDATIONS("a", "sports", "javascript:alert(1)", "APP_12")')).toMatch(/^iabCategories: .*; contentUrl: /);
    expect(await recsRequests()).toHaveLength(0);
  });

  it('explains a refused key without showing it', async () => {
    saveSettings({ apiKey: 'not-the-key' });
    try {
      const text = failing('=ENGAGE_RECOMMENDATIONS("refused", , "news.example", "APP_12")');
      expect(text).toMatch(
        /did not accept the API key \(HTTP 401.*\): check the API key in the Engage sidebar under Settings \[trace ID [\w-]+\]/,
      );
      expect(text).not.toContain('not-the-key');
    } finally {
      saveSettings({ apiKey: KEY });
    }
  });

  it('explains a non-success status and a widget the key does not own', () => {
    expect(failing('=ENGAGE_RECOMMENDATIONS("widget", , "news.example", "APP_99")')).toMatch(
      /rejected the request \(HTTP 400.*APP_99.*\): check contentUrl, widgetJSId/,
    );
  });

  it('reports a server error with its trace ID', async () => {
    await h.emulator.setFaults([{ match: 'recommendations', status: 503 }]);
    const text = failing('=ENGAGE_RECOMMENDATIONS("unavailable", , "news.example", "APP_12")');
    const sent = await recsRequests();
    expect(text).toMatch(/answered with an error \(HTTP 503/);
    expect(text).toContain(`trace ID ${sent[sent.length - 1]!.traceId}`);
  });

  it('refuses a malformed body with a clear message', async () => {
    await h.emulator.setFaults([{ match: 'recommendations', malformedJson: true }]);
    expect(failing('=ENGAGE_RECOMMENDATIONS("malformed", , "news.example", "APP_12")')).toMatch(
      /recommendations request in an unexpected form \(the body is not JSON\)/,
    );
  });

  it('gives the sidebar the same sentences', async () => {
    await h.emulator.setFaults([{ match: 'recommendations', malformedJson: true }]);
    expect(() => preview({ keywords: 'x', contentUrl: 'news.example' })).toThrow(/unexpected form/);
  });

  it('keeps the key out of every message, the logs, the cells, the caches and shared properties', () => {
    expect(messages.length).toBeGreaterThanOrEqual(5);
    for (const text of messages) expect(text).not.toContain(KEY);
    expect(h.host.logText()).not.toContain(KEY);
    for (const sheet of SHEETS) expect(JSON.stringify(h.host.getValues(sheet, 'A1:Z400'))).not.toContain(KEY);
    // Every entry of every cache (user, document and script), expired ones included.
    const cached = h.host.state.caches.allEntries();
    expect(cached.length).toBeGreaterThan(0);
    for (const entry of cached) expect(`${entry.key} ${entry.value}`).not.toContain(KEY);
    expect(JSON.stringify([...h.host.properties('document')])).not.toContain(KEY);
    expect(JSON.stringify([...h.host.properties('script')])).not.toContain(KEY);
    // Where it belongs: the owner's own user properties.
    expect(JSON.stringify([...h.host.properties('user', OWNER)])).toContain(KEY);
  });
});
