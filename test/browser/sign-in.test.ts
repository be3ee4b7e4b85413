/**
 * Browser test of signing in, in the playground's 300 px sidebar: a pasted token is checked with
 * Engage before it is kept (a refused one is not, and says so, and a reload blames no password); a
 * wrong password says plainly that the user name or password is wrong; before each attempt the form
 * says how many of the 2 sign-ins an hour are left (failed ones count, at Engage as here), suggests a
 * pasted token at the last one, and offers only a token when none is left.
 */
import { ANALYST_USER, DEMO_USER } from '../../dev/emulator/model/seed';
import { eventually, openPlayground, type BrowserPlayground } from '../support/browser';

jest.setTimeout(120_000);

let b: BrowserPlayground;

beforeAll(async () => {
  b = await openPlayground();
});
afterAll(async () => {
  await b?.close();
});

const userProperties = () => b.playground.host.properties('user', b.playground.user);
const loginRequests = () => b.playground.host.fetchLog.filter((r) => r.url.endsWith('/login')).length;

it('says how many sign-ins are left this hour before the first attempt', async () => {
  const { sidebar } = b;
  await eventually(async () => expect(await sidebar.locator('#sign-in-username').inputValue()).toBe(DEMO_USER.username));
  await eventually(async () =>
    expect(await sidebar.locator('#sign-in-allowance').innerText()).toBe(`2 of 2 sign-ins left this hour for ${DEMO_USER.username}.`),
  );
  expect(await sidebar.locator('html').evaluate((html) => html.clientWidth)).toBeLessThanOrEqual(300);
});

it('checks a pasted token with Engage, keeps no token it refuses, and says the token was not accepted', async () => {
  const { sidebar } = b;
  await sidebar.locator('#token-details summary').click();
  await sidebar.locator('#sign-in-token').fill('garbage-token');
  await sidebar.locator('#token-submit').click();
  await eventually(async () =>
    expect(await sidebar.locator('#token-form .notice-error').innerText()).toMatch(
      /^Engage did not accept this token, so it was not saved: copy the whole token from Engage’s web interface, or create a new one there \[trace ID [^\]]+\]\.$/,
    ),
  );
  // One request checked it (the publisher list), which spends no sign-in; nothing was kept, and the Account tab stays.
  const checks = b.playground.host.fetchLog.filter((r) => r.url.endsWith('/publishers'));
  expect(checks).toHaveLength(1);
  expect(loginRequests()).toBe(0);
  expect(userProperties().has('engage.token')).toBe(false);
  expect(await sidebar.locator('#tab-account').getAttribute('aria-selected')).toBe('true');
  expect(await sidebar.locator('#sign-in-allowance').innerText()).toBe(`2 of 2 sign-ins left this hour for ${DEMO_USER.username}.`);
});

it('after a reload, blames no changed password', async () => {
  const { sidebar, page } = b;
  await page.locator('#menu-reload').click();
  await eventually(async () => expect(await sidebar.locator('#sign-in-form').isVisible()).toBe(true));
  await eventually(async () => expect(await sidebar.locator('#sign-in-allowance').innerText()).toContain('2 of 2'));
  expect(await sidebar.locator('#panel-account').innerText()).not.toMatch(/password may have changed|no longer accepts/i);
  expect(await sidebar.locator('#session-banner').innerText()).toBe('');
  expect(await sidebar.locator('#sign-in-form .notice-warning').count()).toBe(0);
});

it('says plainly that a wrong password is wrong, and at the last sign-in of the hour suggests a token', async () => {
  const { sidebar } = b;
  await sidebar.locator('#sign-in-password').fill('not-the-password');
  await sidebar.locator('#sign-in-submit').click();
  await eventually(async () =>
    expect(await sidebar.locator('#sign-in-form .notice-error').innerText()).toMatch(
      /^The user name or password is wrong: Engage did not accept them; check both and try again \[trace ID [^\]]+\]\.$/,
    ),
  );
  expect(await sidebar.locator('#sign-in-form .notice-error').innerText()).not.toMatch(/30 days|token/);
  expect(loginRequests()).toBe(1);
  const last = sidebar.locator('#sign-in-allowance');
  await eventually(async () =>
    expect(await last.innerText()).toBe(
      `1 of 2 sign-ins left this hour for ${DEMO_USER.username}: this is the last one until the hour is over. If you are not sure of the password, paste an API token instead.`,
    ),
  );
  await last.getByRole('button', { name: 'paste an API token instead' }).click();
  expect(await sidebar.locator('#token-details').getAttribute('open')).toBe('');
  await eventually(async () =>
    expect(await sidebar.locator('#sign-in-token').evaluate((node) => node === node.ownerDocument.activeElement)).toBe(true),
  );
});

it('lets the right password in with the last sign-in, then offers only a token until the hour is over', async () => {
  const { sidebar } = b;
  await sidebar.locator('#sign-in-password').fill(DEMO_USER.password);
  await sidebar.locator('#sign-in-submit').click();
  await eventually(async () => expect(await sidebar.locator('#report-publisher option').count()).toBe(3 + 2)); // and All, Several
  await sidebar.locator('#tab-account').click();
  await sidebar.locator('#sign-out').click();
  await sidebar.locator('#sign-in-form').waitFor();
  await sidebar.locator('#sign-in-username').fill(DEMO_USER.username);
  await sidebar.locator('#sign-in-password').focus();
  const none = sidebar.locator('#sign-in-allowance');
  await eventually(async () =>
    expect(await none.innerText()).toMatch(
      new RegExp(
        `^No sign-ins left this hour for ${DEMO_USER.username.replace('.', '\\.')}: Engage allows 2 an hour, failed ones included\\. ` +
          'The next is possible at \\d\\d:\\d\\d \\(Europe/Berlin\\)\\. Paste an API token instead$',
      ),
    ),
  );
  expect(await sidebar.locator('#sign-in-submit').isDisabled()).toBe(true);
  expect(loginRequests()).toBe(2);

  // A token from Engage's web interface (here: the analyst's) is checked and kept.
  const answer = await fetch(`${b.playground.emulator.baseUrl}/login`, {
    headers: { Authorization: `Basic ${Buffer.from(`${ANALYST_USER.username}:${ANALYST_USER.password}`).toString('base64')}` },
  });
  const token = ((await answer.json()) as Record<string, string>)['SVC-TOKEN-V1']!;
  await none.getByRole('button', { name: 'Paste an API token instead' }).click();
  await sidebar.locator('#sign-in-token').fill(token);
  await sidebar.locator('#token-submit').click();
  await eventually(async () => expect(await sidebar.locator('#report-publisher option').count()).toBe(1));
  expect(JSON.parse(userProperties().get('engage.token')!)).toMatchObject({ source: 'pasted' });
});
