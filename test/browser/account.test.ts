/**
 * Browser test of the Account tab in the playground: the settings form shows the addresses the
 * deployment may call and shows the server's refusal of any other, and the Apps Script quota card
 * shows the URL fetches this add-on made in the current 24 hours against the daily quota.
 */
import { eventually, openPlayground, type BrowserPlayground } from '../support/browser';
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

  const allowed = DEPLOYMENT.urlFetchWhitelist.join(' or ');
  expect(await sidebar.locator('#settings-base-url-hint').innerText()).toBe(`Ends with /engage/v2. Must start with ${allowed}.`);
  await sidebar.locator('#settings-base-url').fill('https://elsewhere.example.org/engage/v2');
  await sidebar.locator('#settings-save').click();
  await eventually(async () =>
    expect(await sidebar.locator('#account-settings .notice-error').innerText()).toBe(
      `reportingBaseUrl ('https://elsewhere.example.org/engage/v2'): must start with ${DEPLOYMENT.urlFetchWhitelist.join(' or ')}, the addresses this add-on is allowed to call`,
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
