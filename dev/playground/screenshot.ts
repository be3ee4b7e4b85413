/**
 * Retakes docs/playground.png: starts the playground, signs in with the pre-filled demo user, runs
 * the last 14 days by day and country to a new sheet, and photographs page and sidebar with
 * Debian's chromium. `npm run build && npx tsx dev/playground/screenshot.ts`.
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startPlayground } from './playground';

async function main(): Promise<void> {
  const playground = await startPlayground({ port: 0 });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(playground.url);
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
  } finally {
    await browser.close();
    await playground.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
