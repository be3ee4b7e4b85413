/**
 * Contract: the emulator's two seeds (dev/emulator/model/seed.ts). Its default, what `npm start` and
 * `npm run emulator` serve, is the clean demo: the demo user's third publisher is Smallville Ledger,
 * not Hostile Herald, and recommendation thumbnails are served by the emulator itself. The tests'
 * emulator (jest's global setup and every instance it starts) keeps the hostile fixtures and the
 * thumbnails on a host that never resolves.
 */
import { startEmulator, type RunningEmulator } from '../../dev/emulator/server';
import {
  BIG_PUBLISHER_ID,
  DEMO_API_KEY,
  DEMO_USER,
  HOSTILE_PUBLISHER_ID,
  MEDIUM_PUBLISHER_ID,
  SMALLVILLE_PUBLISHER_ID,
} from '../../dev/emulator/model/seed';
import { newEmulator, type EmulatorHandle } from '../support/emulator';

let demo: RunningEmulator;
let tests: EmulatorHandle;

beforeAll(async () => {
  demo = await startEmulator({ port: 0 });
  tests = await newEmulator();
});
afterAll(async () => {
  await demo?.close();
  await tests?.close();
});

async function publishers(baseUrl: string): Promise<Array<{ id: string; name: string }>> {
  const basic = Buffer.from(`${DEMO_USER.username}:${DEMO_USER.password}`).toString('base64');
  const login = (await (await fetch(`${baseUrl}/login`, { headers: { Authorization: `BASIC ${basic}` } })).json()) as Record<
    string,
    string
  >;
  const answer = await fetch(`${baseUrl}/publishers`, { headers: { 'SVC-TOKEN-V1': login['SVC-TOKEN-V1']! } });
  return ((await answer.json()) as { publishers: Array<{ id: string; name: string }> }).publishers;
}

async function thumbnails(recsUrl: string): Promise<string[]> {
  const query = new URLSearchParams({ key: DEMO_API_KEY.key, contentUrl: 'https://news.example/a', widgetJSId: 'APP_12', cors: 'true' });
  const answer = await fetch(`${recsUrl}?${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ keywords: ['running'] }),
  });
  return ((await answer.json()) as { documents: Array<{ thumbnail_url: string }> }).documents.map((d) => d.thumbnail_url);
}

it('serves the clean demo by default: no hostile publisher, and thumbnails it serves itself as images', async () => {
  const listed = await publishers(demo.baseUrl);
  expect(listed.map((p) => p.id).sort()).toEqual([BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, SMALLVILLE_PUBLISHER_ID].sort());
  expect(listed.map((p) => p.name).join()).not.toMatch(/[<>=]/);
  const urls = await thumbnails(demo.recsUrl);
  expect(urls.length).toBeGreaterThanOrEqual(3);
  const origin = new URL(demo.baseUrl).origin;
  for (const url of urls) {
    expect(url).toMatch(new RegExp(`^${origin}/thumbnails/[\\w-]+\\.svg$`));
    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    expect((await image.text()).startsWith('<svg')).toBe(true);
  }
  expect((await fetch(`${origin}/thumbnails/no%20such.svg`)).status).toBe(404);
});

it("keeps the tests' fixtures for the tests: the hostile publisher, and thumbnails on a host that never resolves", async () => {
  const listed = await publishers(tests.baseUrl);
  expect(listed.map((p) => p.id)).toContain(HOSTILE_PUBLISHER_ID);
  expect(listed.map((p) => p.id)).not.toContain(SMALLVILLE_PUBLISHER_ID);
  for (const url of await thumbnails(tests.recsUrl)) expect(url).toMatch(/^https:\/\/images\.engage\.example\/thumbnails\//);
  expect((await fetch(`${new URL(tests.baseUrl).origin}/thumbnails/x.svg`)).status).toBe(404);
});
