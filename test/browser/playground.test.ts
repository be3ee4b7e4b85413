/**
 * The playground page as a user sees it (`npm start`'s clean demo seed): an icon and no failed request
 * on opening, the add-on's toasts shown (Refresh all, signed out, says so and changes nothing), many
 * sheet tabs on one line that scrolls sideways, a formula typed in the formula bar computed as Sheets
 * computes it (an unquoted date is a subtraction: `=2026-11-01` is 2014), and, signed in, no test
 * fixture on the first screen and recommendation previews whose thumbnails load.
 */
import { launchChromium, eventually } from '../support/browser';
import { startPlayground, type Playground } from '../../dev/playground/playground';
import type { Browser, Page } from 'playwright-core';
import { distDir } from '../support/paths';

jest.setTimeout(90_000);

const SHEETS = ['Sheet1', ...Array.from({ length: 39 }, (_, i) => `Report ${i + 2} by day and country`)];
let browser: Browser;
let playground: Playground;
let page: Page;
const failures: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  playground = await startPlayground({ port: 0, sheets: SHEETS, distDir });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(message.text());
  });
  await page.goto(playground.url);
  await page.locator('#grid td[data-a1="A1"]').waitFor();
  await page.frameLocator('#sidebar').locator('#sign-in-username').waitFor();
});
afterAll(async () => {
  await browser?.close();
  await playground?.close();
});

it('has an icon, and nothing the page or the sidebar asked for failed', async () => {
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  const answer = await page.request.get(new URL(icon!, playground.url).toString());
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('image/svg+xml');
  expect((await answer.text()).startsWith('<svg')).toBe(true);
  expect(failures).toEqual([]);
});

it('shows the toast of Refresh all, which signed out says so first and changes nothing, and it goes after a while', async () => {
  await page.locator('#menu-refresh-all').click();
  const toast = page.locator('#toasts .toast');
  await eventually(async () =>
    expect(await toast.innerText()).toBe(
      'Engage for Sheets\nNobody is signed in to Engage, so Refresh all changed nothing: open the sidebar (Extensions › Engage for Sheets › Open sidebar), sign in, then Refresh all again.',
    ),
  );
  // Not even the hidden refresh cell was made.
  expect(playground.host.state.spreadsheet.sheets.map((s) => s.name)).toEqual(SHEETS);
  // Apps Script's default: 5 seconds.
  await eventually(async () => expect(await toast.count()).toBe(0), 10_000);
});

it('keeps 40 sheet tabs on one line that scrolls sideways, and the last tab opens its sheet', async () => {
  const tabs = page.locator('#sheet-tabs button');
  expect(await tabs.count()).toBe(SHEETS.length);
  const tops = await tabs.evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().top));
  expect(new Set(tops).size).toBe(1);
  const bar = await page
    .locator('#sheet-tabs')
    .evaluate((nav) => ({ scroll: nav.scrollWidth, client: nav.clientWidth, height: nav.getBoundingClientRect().height }));
  expect(bar.scroll).toBeGreaterThan(bar.client);
  expect(bar.height).toBeLessThan(60);
  const last = SHEETS.at(-1)!;
  await tabs.last().click();
  await eventually(async () => expect(await page.locator('#sheet-tabs button[aria-selected="true"]').innerText()).toBe(last));
  expect(await page.locator('#sheet-tabs button[aria-selected="true"]').isVisible()).toBe(true);
  // Clicking a tab activates the sheet, as in Sheets.
  await eventually(() =>
    expect(playground.host.state.spreadsheet.sheetById(playground.host.state.spreadsheet.activeSheetId).name).toBe(last),
  );
});

it('computes an unquoted date typed in the formula bar as Sheets does: =2026-11-01 is 2014', async () => {
  await page.locator('#sheet-tabs button', { hasText: 'Sheet1' }).click();
  await eventually(async () => expect(await page.locator('#sheet-tabs button[aria-selected="true"]').innerText()).toBe('Sheet1'));
  await page.locator('#grid td[data-a1="B3"]').click();
  await page.locator('#formula-input').fill('=2026-11-01');
  await page.locator('#formula-input').press('Enter');
  await eventually(async () => expect(await page.locator('#grid td[data-a1="B3"]').innerText()).toBe('2014'));
  expect(playground.host.getCell('Sheet1', 'B3')).toMatchObject({ value: 2014, formula: '=2026-11-01', error: undefined });
  await page.locator('#grid td[data-a1="A1"]').click();
  await page.locator('#grid td[data-a1="B3"]').click();
  expect(await page.locator('#formula-input').inputValue()).toBe('=2026-11-01');
  expect(failures).toEqual([]);
});

describe('the clean demo', () => {
  const sidebar = () => page.frameLocator('#sidebar');

  it('shows no test fixture on the first screen: three publishers of plain names, no markup', async () => {
    await sidebar().locator('#sign-in-submit').click();
    await eventually(async () => expect(await sidebar().locator('#report-publisher option').count()).toBeGreaterThan(3));
    const publishers = await sidebar().locator('#report-publisher option').allTextContents();
    expect(publishers).toEqual(expect.arrayContaining(['Daily Planet', 'Gotham Gazette', 'Smallville Ledger']));
    const screen = `${await page.locator('body').innerText()}\n${await sidebar().locator('body').innerText()}`;
    for (const fixture of ['Hostile', '<img', 'onerror', '<script', '=HYPERLINK']) expect(screen).not.toContain(fixture);
  });

  it('previews recommendations with their thumbnails, served by the emulator and loaded', async () => {
    await sidebar().locator('#tab-recommendations').click();
    await sidebar().locator('#recs-keywords').fill('running');
    await sidebar().locator('#recs-content-url').fill('https://news.example/story');
    await sidebar().locator('#recs-submit').click();
    const images = sidebar().locator('#recs-results img.recs-thumb');
    await eventually(async () => expect(await images.count()).toBeGreaterThanOrEqual(3));
    await eventually(async () =>
      expect(
        await images.evaluateAll((imgs) =>
          imgs.map(
            (img) =>
              (img as unknown as { complete: boolean; naturalWidth: number }).complete &&
              (img as unknown as { naturalWidth: number }).naturalWidth > 0,
          ),
        ),
      ).not.toContain(false),
    );
    expect(await sidebar().locator('#recs-results .recs-thumb-empty').count()).toBe(0);
    const sources = await images.evaluateAll((imgs) => imgs.map((img) => (img as unknown as { src: string }).src));
    for (const src of sources) expect(src.startsWith(`${new URL(playground.emulator.baseUrl).origin}/thumbnails/`)).toBe(true);
    expect(failures).toEqual([]);
  });
});
