/**
 * Retakes the documentation's pictures with Debian's chromium: docs/playground.png (signs in with the
 * pre-filled demo user, runs the last 14 days by day and country to a new sheet) and
 * docs/dashboard.png (signs in, clicks the sidebar's Create dashboard for the first publisher, and
 * photographs the dashboard once its formulas and chart are drawn).
 * `npx tsx dev/playground/screenshot.ts [playground|dashboard]` (both when none is named): it builds the
 * playground's add-on first, as `npm start` does.
 */
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium';
import { startPlayground } from './playground';

async function main(): Promise<void> {
  const playground = await startPlayground({ port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const wanted = process.argv[2];
  try {
    if (wanted === undefined || wanted === 'playground') await playgroundPicture(browser, playground.url);
    if (wanted === undefined || wanted === 'dashboard') await dashboardPicture(browser, playground.url);
  } finally {
    await browser.close();
    await playground.close();
  }
}

async function playgroundPicture(browser: Browser, url: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
  const sidebar = page.frameLocator('#sidebar');
  await sidebar.locator('#sign-in-submit').click();
  await sidebar.locator('#report-publisher option').first().waitFor({ state: 'attached', timeout: 20_000 });
  await sidebar.locator('#report-preset').selectOption('last14');
  await sidebar.locator('input[name=breakdown][value=country]').click();
  await sidebar.locator('#report-target-name').fill('Daily Planet by country');
  await sidebar.locator('#run-report').click();
  await sidebar.locator('#run-preview-table').waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1000);
  await sidebar.locator('#run-report').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.resolve(__dirname, '../../docs/playground.png') });
  await page.close();
}

async function dashboardPicture(browser: Browser, url: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(url);
  const sidebar = page.frameLocator('#sidebar');
  // Signed in already when the playground picture was taken first; else sign in once the form is filled in.
  const publishers = sidebar.locator('#report-publisher option');
  const username = sidebar.locator('#sign-in-username');
  for (let tries = 0; (await publishers.count()) === 0; tries++) {
    if (tries > 100) throw new Error('the sidebar listed no publishers');
    if ((await username.isVisible()) && (await username.inputValue()) !== '') await sidebar.locator('#sign-in-submit').click();
    await page.waitForTimeout(200);
  }
  await sidebar.locator('#create-dashboard').click();
  await sidebar.locator('#dashboard-outcome .notice-success').waitFor({ timeout: 60_000 });
  await page.locator('#grid-wrap .chart polyline').first().waitFor({ timeout: 20_000 });
  await page.waitForTimeout(1000);
  await page.screenshot({ path: path.resolve(__dirname, '../../docs/dashboard.png') });
  await page.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
