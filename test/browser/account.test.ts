/**
 * Browser test of the Account tab in the playground: the settings form shows the addresses the
 * deployment may call and shows the server's refusal of any other, and the Apps Script quota card
 * shows the URL fetches this add-on made in the current 24 hours against the daily quota. In its
 * 300 px, "Formulas in this spreadsheet" says whose sign-in formulas use, warns the owner of the other
 * editors, lets the owner choose the publishers formulas may use, and shows an editor the choice
 * read-only with who can change it.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { eventually, installScriptRun, openPlayground, serveSidebar, type BrowserPlayground } from '../support/browser';
import { BIG_PUBLISHER_ID, DEMO_USER } from '../support/emulator';
import { builtDeployment } from '../support/paths';

jest.setTimeout(90_000);

const DEPLOYMENT = builtDeployment();
let b: BrowserPlayground;

beforeAll(async () => {
  b = await openPlayground();
});
afterAll(async () => {
  await b?.close();
});

it('refuses an address outside the whitelist with the allowed prefixes, and counts the fetches made', async () => {
  const { sidebar } = b;
  await eventually(async () => expect(await sidebar.locator('#sign-in-username').inputValue()).toBe('demo@engage.example'));
  await sidebar.locator('#sign-in-submit').click();
  await eventually(async () => expect(await sidebar.locator('#report-publisher').count()).toBe(1));
  await sidebar.locator('#tab-account').click();

  // Each field names its own prefix alone, and why the emulator's http://127.0.0.1 address is taken here.
  const [reporting, recommendations] = DEPLOYMENT.urlFetchWhitelist;
  const local = 'http://127.0.0.1 or localhost, where the emulator runs: this build is for local servers (the playground and the tests)';
  expect(await sidebar.locator('#settings-base-url').inputValue()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/engage\/v2$/);
  expect(await sidebar.locator('#settings-base-url-hint').innerText()).toBe(
    `Ends with /engage/v2. Must start with ${reporting}, or with ${local}.`,
  );
  expect(await sidebar.locator('#settings-recommendations-url-hint').innerText()).toBe(
    `Must start with ${recommendations}, or with ${local}.`,
  );
  await sidebar.locator('#settings-base-url').fill('https://elsewhere.example.org/engage/v2');
  await sidebar.locator('#settings-save').click();
  await eventually(async () =>
    expect(await sidebar.locator('#account-settings .notice-error').innerText()).toBe(
      `reportingBaseUrl ('https://elsewhere.example.org/engage/v2'): must start with ${reporting}, the address this add-on is allowed to call`,
    ),
  );
  // Nothing was saved: the playground's emulator address is still the setting.
  const saved = JSON.parse(b.playground.host.properties('user', b.playground.user).get('engage.settings')!) as { reportingBaseUrl: string };
  expect(saved.reportingBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/engage\/v2$/);

  // The sign-in and the publisher list were fetches; the card counts them against 20,000 a day.
  const used = b.playground.host.fetchLog.length;
  expect(used).toBeGreaterThanOrEqual(2);
  await sidebar.locator('#tab-report').click();
  await sidebar.locator('#tab-account').click();
  await eventually(async () =>
    expect(await sidebar.locator('#quota-urlfetch .quota-text').innerText()).toMatch(
      new RegExp(
        `^${used} of 20,000 used, ${(20_000 - used).toLocaleString('en-US')} left\\. ` +
          'The count restarts \\w{3} \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(Europe/Berlin\\)\\.$',
      ),
    ),
  );
  expect(await sidebar.locator('#quota-urlfetch meter').getAttribute('value')).toBe(String(used));
});

/** Whether everything in the frame stays inside its width: no sideways scrolling, no element past the right edge. */
async function fitsWidth(frame: FrameLocator | Page, selector: string): Promise<{ overflow: number; widest: number; width: number }> {
  return frame.locator(selector).evaluate((box) => {
    const doc = box.ownerDocument;
    const width = doc.documentElement.clientWidth;
    const all = Array.from(box.querySelectorAll('*')) as unknown as Array<{ getBoundingClientRect(): { right: number } }>;
    const rights = all.map((e) => Math.ceil(e.getBoundingClientRect().right));
    return { overflow: doc.documentElement.scrollWidth - width, widest: Math.max(...rights), width };
  });
}

it('says whose sign-in formulas use, warns the owner of the other editors, and lets only the owner choose, in 300 px', async () => {
  const { sidebar } = b;
  const host = b.playground.host;
  const owner = DEMO_USER.email;
  if ((await sidebar.locator('#sign-out').count()) === 0) {
    await eventually(async () => expect(await sidebar.locator('#sign-in-username').inputValue()).toBe(DEMO_USER.username));
    await sidebar.locator('#sign-in-submit').click();
    await eventually(async () => expect(await sidebar.locator('#report-publisher').count()).toBe(1));
  }
  await sidebar.locator('#tab-account').click();
  const sentence = `Formulas in this spreadsheet use ${owner}'s Engage sign-in, also when an editor types them.`;
  await eventually(async () => expect(await sidebar.locator('#formulas-sentence').innerText()).toBe(sentence));
  expect(await sidebar.locator('#formulas-editors-warning').count()).toBe(0);
  expect(await sidebar.locator('#formulas-mode-all').isChecked()).toBe(true);

  // Someone shares the spreadsheet: the owner is warned the next time the tab shows.
  host.state.sharing.editors.add('editor@example.com');
  await sidebar.locator('#tab-report').click();
  await sidebar.locator('#tab-account').click();
  await eventually(async () =>
    expect(await sidebar.locator('#formulas-editors-warning').innerText()).toBe(
      'One other person can edit this spreadsheet (editor@example.com), and so can anyone its sharing settings let edit (by link or domain, which Engage cannot see): the formulas they type use your Engage sign-in, for what you allow below.',
    ),
  );

  // The owner allows formulas only for Daily Planet.
  await sidebar.locator('#formulas-mode-chosen').check();
  await eventually(async () => expect(await sidebar.locator('#formulas-publishers input[type="checkbox"]').count()).toBe(3));
  await sidebar.locator(`#formulas-publishers input[value="${BIG_PUBLISHER_ID}"]`).check();
  const fit = await fitsWidth(sidebar, '#account-formulas');
  expect(fit.width).toBeLessThanOrEqual(300);
  expect(fit.overflow).toBe(0);
  expect(fit.widest).toBeLessThanOrEqual(fit.width);
  await sidebar.locator('#formulas-save').click();
  await eventually(async () =>
    expect(await sidebar.locator('#account-formulas .notice-success').innerText()).toBe('Saved. Formulas may use only Daily Planet.'),
  );
  const stored = JSON.parse(host.properties('user', owner).get('engage.formulas.gas-host-spreadsheet')!) as { mode: string; ids: string[] };
  expect(stored).toMatchObject({ mode: 'chosen', ids: [BIG_PUBLISHER_ID] });

  // The editor's sidebar shows the choice read-only, with who can change it, in the same 300 px.
  const served = await serveSidebar();
  const page = await b.browser.newPage({ viewport: { width: 300, height: 900 } });
  try {
    await installScriptRun(page, host, 'editor@example.com');
    await page.goto(served.url);
    await page.click('#tab-account');
    await page.waitForSelector('#formulas-setting');
    expect(await page.locator('#formulas-sentence').innerText()).toBe(sentence);
    expect(await page.locator('#formulas-setting').innerText()).toMatch(
      /^Formulas may use only Daily Planet\. Set by demo@engage\.example /,
    );
    expect(await page.locator('#formulas-who').innerText()).toBe(
      `Only the owner, ${owner}, can change this, in the Engage sidebar, under Account > Formulas in this spreadsheet.`,
    );
    expect(await page.locator('#formulas-form').count()).toBe(0);
    expect(await page.locator('#formulas-editors-warning').count()).toBe(0);
    expect((await fitsWidth(page, '#account-formulas')).overflow).toBe(0);
  } finally {
    await page.close();
    await served.close();
    host.state.sharing.editors.delete('editor@example.com');
  }
});
