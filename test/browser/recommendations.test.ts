/**
 * Browser: the built sidebar (dist/sidebar.html) in headless Chromium, its google.script.run answered
 * by the real built bundle in the local Apps Script host, which talks to a fresh emulator. The
 * Recommendations tab is used as a person would; the test watches the page's network requests and
 * the emulator's impression log. Hostile ad text must stay inert text, the pixel must be called once
 * with the displayed positions in display order, and never without a tracking address.
 * Run `npm run build` first. Chromium missing is a failure with a clear message, never a silent skip.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { installScriptRun, launchChromium, serveSidebar } from '../support/browser';
import { DEMO_API_KEY } from '../support/emulator';

const PIXEL_PATH = '/recs/v1/served';

jest.setTimeout(120_000);

let h: AddonHarness;
let browser: Browser;
let sidebar: { url: string; close(): Promise<void> };

beforeAll(async () => {
  browser = await launchChromium();
  h = await startAddon();
  h.configure();
  h.host.call('saveSettings', [{ apiKey: DEMO_API_KEY.key, widgetId: DEMO_API_KEY.widgetIds[0] }], { user: OWNER });
  sidebar = await serveSidebar();
});
afterAll(async () => {
  await browser?.close();
  await sidebar?.close();
  await h?.close();
});

interface OpenSidebar {
  page: Page;
  pixelRequests: string[];
  alerts: string[];
}

/** Opens the sidebar with a google.script.run that calls the bundle's server functions as the owner. */
async function openSidebar(): Promise<OpenSidebar> {
  const page = await browser.newPage();
  const pixelRequests: string[] = [];
  const alerts: string[] = [];
  page.on('request', (request: Request) => {
    if (request.url().includes(PIXEL_PATH)) pixelRequests.push(request.url());
  });
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
  // The emulator's thumbnails live on a made-up host: answer without a DNS lookup.
  await page.route('https://images.engage.example/**', (route) => route.abort());
  await installScriptRun(page, h.host, OWNER);
  await page.goto(sidebar.url);
  await page.click('#tab-recommendations');
  await page.waitForSelector('#recs-form');
  return { page, pixelRequests, alerts };
}

async function preview(page: Page, fields: { keywords: string; contentUrl?: string; testMode?: boolean }): Promise<void> {
  await page.fill('#recs-keywords', fields.keywords);
  await page.fill('#recs-content-url', fields.contentUrl ?? 'https://news.example/story');
  if (fields.testMode === false) await page.uncheck('#recs-test-mode');
  await page.click('#recs-submit');
  await page.waitForSelector('#recs-pixel-status:not(:empty), #recs-status .notice-error');
}

/** Waits (up to 5 s) until the emulator has recorded `count` pixel calls. */
async function impressionCountReaches(count: number): Promise<void> {
  for (const stopAt = Date.now() + 5000; Date.now() < stopAt; await new Promise((r) => setTimeout(r, 50))) {
    if ((await h.emulator.impressions()).length >= count) return;
  }
}

/** Positions of the ads on the page, top to bottom. */
function displayedPositions(page: Page): Promise<number[]> {
  return page.$$eval('#recs-results .recs-doc', (docs) =>
    docs.map((d) => Number((d as unknown as { dataset: { pos?: string } }).dataset.pos)),
  );
}

it('shows test mode on by default, before anything is asked', async () => {
  const { page } = await openSidebar();
  expect(await page.isChecked('#recs-test-mode')).toBe(true);
  expect(await page.textContent('#recs-mode-label')).toBe('Test mode: on');
  await page.close();
});

it('renders hostile ad text inert and fires the pixel once with the displayed positions in display order', async () => {
  const { page, pixelRequests, alerts } = await openSidebar();
  const before = (await h.emulator.impressions()).length;
  await preview(page, { keywords: 'hostile' });

  const first = page.locator('#recs-results .recs-doc').first();
  expect(await first.locator('.recs-content').textContent()).toBe('<img src=x onerror=alert(1)>');
  expect(await first.locator('.recs-source').textContent()).toBe('=HYPERLINK("http://evil.example","x")');
  expect(await first.locator('.recs-cta').textContent()).toBe('<script>alert(2)</script>');
  expect(await page.locator('#recs-results img[src="x"], #recs-results script, #recs-results [onerror]').count()).toBe(0);
  expect(await first.locator('.recs-content').getAttribute('href')).toMatch(/^https:\/\/evil\.example\//);
  expect(await page.textContent('#recs-result-mode')).toBe('Test mode');

  const positions = await displayedPositions(page);
  expect(positions.length).toBeGreaterThanOrEqual(3);
  await impressionCountReaches(before + 1);
  await page.waitForTimeout(300); // a second call would have been sent by now
  expect(pixelRequests).toHaveLength(1);
  expect(pixelRequests[0]).toMatch(new RegExp(`&pos=${positions.join('-')}$`));
  const impressions = await h.emulator.impressions();
  expect(impressions).toHaveLength(before + 1);
  expect(impressions[impressions.length - 1]).toEqual(
    expect.objectContaining({ known: true, testMode: true, pos: positions.join('-'), positions }),
  );
  expect(alerts).toEqual([]);
  await page.close();
});

it('shows a placeholder where a thumbnail does not load, and the thumbnail where it does', async () => {
  const { page } = await openSidebar();
  await page.setViewportSize({ width: 300, height: 1600 });
  // The first thumbnail asked for loads (a 1 x 1 PNG); every other one fails, as openSidebar's route makes them.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  let served = 0;
  await page.route('https://images.engage.example/**', (route) =>
    served++ === 0 ? route.fulfill({ contentType: 'image/png', body: png }) : route.abort(),
  );
  await preview(page, { keywords: 'coffee' });
  const docs = await page.locator('#recs-results .recs-doc').count();
  expect(docs).toBeGreaterThan(1);
  await page.waitForFunction(
    `document.querySelectorAll('#recs-results .recs-thumb-empty, #recs-results img.recs-thumb').length === ${docs} &&
      [...document.querySelectorAll('#recs-results img.recs-thumb')].every((img) => img.complete)`,
  );
  // No broken image is left on the page: the one that loaded is an image, the others show the placeholder.
  const images = await page.$$eval('#recs-results img.recs-thumb', (imgs) =>
    imgs.map((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
  );
  expect(images).toEqual([1]);
  expect(await page.locator('#recs-results .recs-thumb-empty').allTextContents()).toEqual(Array(docs - 1).fill('No image'));
  await page.close();
});

it('calls no pixel when the answer has no tracking address', async () => {
  const { page, pixelRequests } = await openSidebar();
  const before = (await h.emulator.impressions()).length;
  await preview(page, { keywords: 'no-tracking' });
  expect((await displayedPositions(page)).length).toBeGreaterThan(0);
  expect(await page.textContent('#recs-pixel-status')).toMatch(/No impression reported: the answer had no tracking address/);
  await page.waitForTimeout(300);
  expect(pixelRequests).toEqual([]);
  expect(await h.emulator.impressions()).toHaveLength(before);
  await page.close();
});

it('asks for live ads when test mode is switched off, and says so', async () => {
  const { page } = await openSidebar();
  const before = (await h.emulator.impressions()).length;
  await preview(page, { keywords: 'travel', testMode: false });
  expect(await page.textContent('#recs-mode-label')).toMatch(/Test mode: off/);
  expect(await page.textContent('#recs-result-mode')).toBe('Live');
  await impressionCountReaches(before + 1);
  const impressions = await h.emulator.impressions();
  expect(impressions[impressions.length - 1]).toEqual(
    expect.objectContaining({ testMode: false, positions: await displayedPositions(page) }),
  );
  await page.close();
});

it("shows the server's sentence when the request fails", async () => {
  const { page } = await openSidebar();
  await h.emulator.setFaults([{ match: 'recommendations', malformedJson: true }]);
  try {
    await preview(page, { keywords: 'coffee' });
    expect(await page.textContent('#recs-status .notice-error')).toMatch(/recommendations request in an unexpected form/);
    expect(await page.locator('#recs-results .recs-doc').count()).toBe(0);
  } finally {
    await h.emulator.clearFaults();
  }
  await page.close();
});
