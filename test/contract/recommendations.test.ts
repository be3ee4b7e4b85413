/**
 * Contract: in-chat recommendations and the impression pixel (spec "In-chat recommendations",
 * "Impression pixel", AdDocument; field notes: pos starts at 1, optional bf, widget ids like
 * APP_12). The pixel is called the way a client would: reportServed + '&pos=1-2'.
 */
import { errorMessageOf, request, withQuery, type QueryValues } from './contract-client';
import { DEMO_API_KEY, newEmulator, type EmulatorHandle } from '../support/emulator';

let emulator: EmulatorHandle;
const WIDGET = DEMO_API_KEY.widgetIds[0]!;

function recommend(body: unknown, query: QueryValues = {}, contentType = 'application/json') {
  const url = withQuery(emulator.recsUrl, {
    key: DEMO_API_KEY.key,
    contentUrl: 'https://news.example/story',
    widgetJSId: WIDGET,
    cors: 'true',
    ...query,
  });
  return request(url, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  emulator = await newEmulator();
});
afterAll(async () => {
  await emulator.close();
});

describe('POST {recs_url}', () => {
  it('returns documents with every required field, positions from 1, and a tracking address', async () => {
    const result = await recommend({ keywords: ['running', 'shoes'], iabCategories: ['IAB17'] });
    expect(result.status).toBe(200);
    const documents = result.body.documents as Array<Record<string, unknown>>;
    expect(documents.length).toBeGreaterThanOrEqual(3);
    documents.forEach((doc, i) => {
      expect(doc).toEqual(
        expect.objectContaining({
          url: expect.stringMatching(/^https:\/\//),
          thumbnail_url: expect.stringMatching(/^https:\/\//),
          content: expect.any(String),
          source_display_name: expect.any(String),
          target_domain: expect.any(String),
          pos: i + 1,
        }),
      );
    });
    expect(documents.some((d) => d.cta !== undefined)).toBe(true);
    expect(documents[0]!.target_domain).toBe('stridelab.example');
    expect(result.body.tracking.reportServed).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*\?.+/);
  });

  it('can be called from a browser page: CORS preflight and allow-origin', async () => {
    const preflight = await request(emulator.recsUrl, {
      method: 'OPTIONS',
      headers: { Origin: 'https://chat.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Content-Type/i);
    expect((await recommend({})).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('chooses the same documents for the same inputs', async () => {
    const body = { keywords: ['travel'], iabCategories: ['IAB20'] };
    expect((await recommend(body)).body.documents).toEqual((await recommend(body)).body.documents);
    expect((await recommend({ keywords: ['coffee'] })).body.documents).not.toEqual((await recommend(body)).body.documents);
  });

  it('accepts an empty body object, the optional bf and testMode', async () => {
    expect((await recommend({}, { bf: '0.25', testMode: 'true' })).status).toBe(200);
  });

  it('answers 401 for a missing or unknown key', async () => {
    const missing = await recommend({}, { key: undefined });
    expect(missing.status).toBe(401);
    errorMessageOf(missing);
    expect((await recommend({}, { key: 'stolen-key' })).status).toBe(401);
  });

  it('answers 400 naming a missing contentUrl, widgetJSId or cors', async () => {
    for (const name of ['contentUrl', 'widgetJSId', 'cors']) {
      const result = await recommend({}, { [name]: undefined });
      expect(result.status).toBe(400);
      expect(errorMessageOf(result)).toContain(name);
    }
    expect((await recommend({}, { cors: 'false' })).status).toBe(400);
    expect((await recommend({}, { widgetJSId: 'APP_999' })).status).toBe(400);
    expect((await recommend({}, { bf: 'cheap' })).status).toBe(400);
  });

  it('answers 400 for a wrong content type or a malformed body', async () => {
    const wrongType = await recommend('{"keywords":["a"]}', {}, 'text/plain');
    expect(wrongType.status).toBe(400);
    expect(errorMessageOf(wrongType)).toMatch(/Content-Type/);
    expect((await recommend('{"keywords": [', {})).status).toBe(400);
    expect((await recommend({ keywords: 'running' })).status).toBe(400);
    expect((await recommend([1, 2])).status).toBe(400);
  });

  it('can return documents without tracking (keyword "no-tracking") or no documents (keyword "nothing")', async () => {
    const untracked = await recommend({ keywords: ['no-tracking'] });
    expect(untracked.body.documents.length).toBeGreaterThan(0);
    expect(untracked.body.tracking).toBeUndefined();
    expect((await recommend({ keywords: ['nothing'] })).body.documents).toEqual([]);
  });

  it('serves a hostile document for the keyword "hostile", for security tests', async () => {
    const first = (await recommend({ keywords: ['hostile'] })).body.documents[0];
    expect(first.content).toBe('<img src=x onerror=alert(1)>');
    expect(first.source_display_name).toBe('=HYPERLINK("http://evil.example","x")');
    expect(first.pos).toBe(1);
  });
});

describe('the impression pixel', () => {
  it('records the displayed positions, the test mode and the time of each call', async () => {
    const served = await recommend({ keywords: ['coffee'] }, { testMode: 'true' });
    const pixel = await request(`${served.body.tracking.reportServed}&pos=1-3`);
    expect([200, 204]).toContain(pixel.status);
    expect(pixel.headers.get('x-traceid')).toBeTruthy();
    const impressions = await emulator.impressions();
    const last = impressions[impressions.length - 1]!;
    expect(last).toEqual(expect.objectContaining({ known: true, widgetJSId: WIDGET, testMode: true, pos: '1-3', positions: [1, 3] }));
    expect(Date.parse(last.time)).not.toBeNaN();
  });

  it('records a call without test mode as such, once per call', async () => {
    const before = (await emulator.impressions()).length;
    const served = await recommend({ keywords: ['travel'] });
    await request(`${served.body.tracking.reportServed}&pos=2`);
    const impressions = await emulator.impressions();
    expect(impressions).toHaveLength(before + 1);
    expect(impressions[impressions.length - 1]).toEqual(expect.objectContaining({ testMode: false, positions: [2] }));
  });
});
