/**
 * Browser test, in the playground's 300 px sidebar, of two saved reports made one after the other in
 * the Report tab's Schedule section: the first with alerts, notices after every refresh by email and a
 * webhook; the second opens with a new report's fields (none of the first's alerts, notices or
 * webhook, in the form or in what the server saved), and a default name that tells it from the first.
 * A name already used by another of the user's saved reports is refused by the Name field, and nothing
 * is saved.
 */
import { eventually, openPlayground, type BrowserPlayground, signInAsDemo } from '../support/browser';

jest.setTimeout(90_000);

let b: BrowserPlayground;

beforeAll(async () => {
  b = await openPlayground();
});
afterAll(async () => {
  await b?.close();
});

interface Saved {
  id: string;
  name: string;
  alerts?: unknown[];
  notices?: { when?: string; email?: boolean; webhook?: string };
  destination: { target: { sheetName: string } };
}
const definitions = () =>
  [...b.playground.host.properties('document').entries()]
    .filter(([key]) => key.startsWith('engage.sr.def.'))
    .map(([, value]) => JSON.parse(value) as Saved);
/** The user properties holding the webhook's key: the notice records of the reports given it. */
const keptSecrets = () =>
  [...b.playground.host.properties('user', b.playground.user).entries()]
    .filter(([, value]) => value.includes('SECRET-9'))
    .map(([key]) => key);
const DEFAULT_NAME = 'Daily Planet: General last 7 days by day, into Engage report';

async function openSection(): Promise<void> {
  await b.sidebar.locator('#save-schedule').click();
  await eventually(async () => expect(await b.sidebar.locator('#schedule-form').isVisible()).toBe(true));
}

async function save(name: string): Promise<void> {
  await b.sidebar.locator('#schedule-save').click();
  await eventually(async () =>
    expect(await b.sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain(`Saved “${name}”`),
  );
}

it('starts the second saved report with none of the first’s alerts, notices or webhook, in the form and in what is saved', async () => {
  const { sidebar } = b;
  expect(await sidebar.locator('html').evaluate((html) => html.clientWidth)).toBeLessThanOrEqual(300);
  await signInAsDemo(sidebar);
  await sidebar.locator('#report-preset').selectOption('last7');
  await openSection();
  expect(await sidebar.locator('#schedule-name').inputValue()).toBe(DEFAULT_NAME);

  // The first: told after every refresh, by email and a webhook, with an alert.
  await sidebar.locator('#schedule-notify-when').selectOption('always');
  await sidebar.locator('#schedule-notify-email').check();
  const webhook = `${b.playground.emulator.baseUrl.replace(/\/engage\/v2$/, '')}/webhooks/team?key=SECRET-9`;
  await sidebar.locator('#schedule-webhook').fill(webhook);
  await sidebar.locator('#schedule-alert-kind').selectOption('above');
  await sidebar.locator('#schedule-alert-metric').selectOption('revenue');
  await sidebar.locator('#schedule-alert-value').fill('1');
  await sidebar.locator('#schedule-alert-add').click();
  await eventually(async () => expect(await sidebar.locator('#schedule-alerts .alert-rule').count()).toBe(1));
  await save(DEFAULT_NAME);
  const [first] = definitions();
  expect(first).toMatchObject({ name: DEFAULT_NAME, alerts: [expect.anything()], notices: { when: 'always', email: true } });
  expect(first!.notices!.webhook).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…$/);
  expect(keptSecrets()).toEqual([expect.stringMatching(new RegExp(`\\.${first!.id}$`))]);

  // The second opens as a new report: the default notices, no webhook, no alert, and a name of its own.
  await openSection();
  await eventually(async () => expect(await sidebar.locator('#schedule-name').inputValue()).toBe(`${DEFAULT_NAME} (2)`));
  expect(await sidebar.locator('#schedule-notify-when').inputValue()).toBe('failure');
  expect(await sidebar.locator('#schedule-notify-email').isChecked()).toBe(true);
  expect(await sidebar.locator('#schedule-webhook').inputValue()).toBe('');
  expect(await sidebar.locator('#schedule-alerts .alert-rule').count()).toBe(0);
  expect(await sidebar.locator('#schedule-alerts').innerText()).toBe('No alerts.');
  // Its default name follows the sheet it goes to.
  await sidebar.locator('#schedule-sheet').fill('Second');
  expect(await sidebar.locator('#schedule-name').inputValue()).toBe('Daily Planet: General last 7 days by day, into Second');
  await save('Daily Planet: General last 7 days by day, into Second');

  const second = definitions().find((d) => d.id !== first!.id)!;
  expect(second).toMatchObject({
    name: 'Daily Planet: General last 7 days by day, into Second',
    destination: { target: { sheetName: 'Second' } },
  });
  expect(second.alerts).toBeUndefined();
  expect(second.notices?.webhook).toBeUndefined();
  expect(second.notices?.when ?? 'failure').toBe('failure');
  expect(keptSecrets()).toEqual([expect.stringMatching(new RegExp(`\\.${first!.id}$`))]);
  // The first is as it was saved.
  expect(definitions().find((d) => d.id === first!.id)).toEqual(first);
  expect(await sidebar.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth)).toBe(0);
});

it('refuses a name another of the user’s saved reports has, saying so by the Name field, and saves nothing', async () => {
  const { sidebar } = b;
  await openSection();
  await sidebar.locator('#schedule-name').fill(DEFAULT_NAME.toUpperCase());
  await sidebar.locator('#schedule-sheet').fill('Third');
  await sidebar.locator('#schedule-save').click();
  const refusal = sidebar.getByText(`Name: “${DEFAULT_NAME.toUpperCase()}” is already used by another saved report; choose another`);
  await eventually(async () => expect(await refusal.isVisible()).toBe(true));
  expect(definitions()).toHaveLength(2);
  expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true);
});
