/**
 * Browser test of a permission the user has not granted (granular consent, since August 2025): the
 * sidebar's sign-in, refused before any request because the user withheld `script.external_request`,
 * says in one sentence which permission to allow and shows Google's authorization page as a link
 * opening in a new tab; the message's text stays text.
 */
import type { Browser } from 'playwright-core';
import { eventually, installScriptRun, launchChromium, serveSidebar } from '../support/browser';
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { distBundle } from '../support/bundles';
import { DEMO_USER } from '../support/emulator';

jest.setTimeout(90_000);

let browser: Browser;
let h: AddonHarness;

beforeAll(async () => {
  const scopes = (distBundle().manifest.oauthScopes as string[]).filter((s) => !s.endsWith('/script.external_request'));
  h = await startAddon({ strict: { partialConsent: true }, grantedScopes: { [OWNER]: scopes } });
  h.configure();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

it("says which permission to allow, with Google's authorization page as a link", async () => {
  const served = await serveSidebar();
  const page = await browser.newPage({ viewport: { width: 300, height: 900 } });
  try {
    await installScriptRun(page, h.host, OWNER);
    await page.goto(served.url);
    await page.fill('#sign-in-username', DEMO_USER.username);
    await page.fill('#sign-in-password', DEMO_USER.password);
    await page.click('#sign-in-submit');
    const error = page.locator('.notice-error').first();
    await eventually(async () =>
      expect(await error.innerText()).toBe(
        "To sign in, allow Engage for Sheets to connect to an external service in Google's authorization page",
      ),
    );
    const link = error.locator('a.authorization-link');
    expect(await link.innerText()).toBe("Google's authorization page");
    expect(await link.getAttribute('href')).toMatch(
      /^https:\/\/script\.google\.com\/macros\/d\/[^/]+\/authorize\?scopes=.*script\.external_request/,
    );
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await h.apiRequests()).toEqual([]);
  } finally {
    await page.close();
    await served.close();
  }
});
