/**
 * Browser test of a saved report's notices and alerts in the playground's 300 px sidebar: the Report
 * tab's Schedule section sets when to be told, by email and a webhook, and adds alert rules from the
 * report's own metrics (a rule that could never fire is refused as it is added, and one can be
 * removed); an address outside the deployment's webhook prefixes is refused when saved, naming the
 * field, and nothing is saved; saved, the Schedules tab lists the notices and each alert with when it
 * last fired after a refresh, and its edit form keeps the webhook without ever showing its key.
 * Everything fits the sidebar's width.
 */
import type { FrameLocator } from 'playwright-core';
import { eventually, openPlayground, type BrowserPlayground, signInAsDemo } from '../support/browser';

jest.setTimeout(90_000);

let b: BrowserPlayground;

beforeAll(async () => {
  b = await openPlayground();
});
afterAll(async () => {
  await b?.close();
});

/** Elements of the sidebar wider than its 300 px page, or reaching past its right edge. */
const overflowing = (sidebar: FrameLocator, selector: string) =>
  sidebar.locator(selector).evaluate((root) => {
    type Box = { tagName: string; id: string; className: string; getBoundingClientRect(): { width: number; right: number } };
    const width = root.ownerDocument.documentElement.clientWidth;
    return (Array.from(root.querySelectorAll('*')) as unknown as Box[])
      .filter((node) => {
        const rect = node.getBoundingClientRect();
        return rect.width > 0 && rect.right > width + 0.5;
      })
      .map((node) => `${node.tagName.toLowerCase()}#${node.id}.${node.className}`);
  });
const definitions = () =>
  [...b.playground.host.properties('document').entries()].filter(([key]) => key.startsWith('engage.sr.def.')).map(([, value]) => value);

it('sets notices and alerts in the Schedule section at 300 px, refuses a webhook outside the whitelist, and lists them with when they last fired', async () => {
  const { sidebar } = b;
  expect(await sidebar.locator('html').evaluate((html) => html.clientWidth)).toBeLessThanOrEqual(300);
  await signInAsDemo(sidebar);
  await sidebar.locator('#report-preset').selectOption('last14');
  await sidebar.locator('#save-schedule').click();
  await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));

  // Notices: on failure by default, by email; the alert choices are the report's own metrics.
  expect(await sidebar.locator('#schedule-notify-when').inputValue()).toBe('failure');
  expect(await sidebar.locator('#schedule-notify-email').isChecked()).toBe(true);
  const metrics = await sidebar
    .locator('#schedule-alert-metric option')
    .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
  expect(metrics).toContain('revenue');
  expect(metrics).not.toContain('paidReqs');

  // A threshold that can never be reached is refused as it is added.
  await sidebar.locator('#schedule-alert-metric').selectOption('revenue');
  await sidebar.locator('#schedule-alert-kind').selectOption('below');
  await sidebar.locator('#schedule-alert-value').fill('0');
  await sidebar.locator('#schedule-alert-add').click();
  await eventually(async () =>
    expect(await sidebar.locator('#schedule-alert-problem').innerText()).toBe('0 can never be reached: Revenue is never below 0'),
  );
  await sidebar.locator('#schedule-alert-kind').selectOption('above');
  await sidebar.locator('#schedule-alert-value').fill('1');
  await sidebar.locator('#schedule-alert-add').click();
  await sidebar.locator('#schedule-alert-kind').selectOption('change');
  await sidebar.locator('#schedule-alert-metric').selectOption('revenue');
  await sidebar.locator('#schedule-alert-percent').fill('40');
  await sidebar.locator('#schedule-alert-against').selectOption('sameWeekday');
  await sidebar.locator('#schedule-alert-add').click();
  await sidebar.locator('#schedule-alert-kind').selectOption('below');
  await sidebar.locator('#schedule-alert-value').fill('5');
  await sidebar.locator('#schedule-alert-add').click();
  await eventually(async () => expect(await sidebar.locator('#schedule-alerts .alert-rule').count()).toBe(3));
  await sidebar.locator('#schedule-alerts .alert-rule').nth(2).locator('.alert-remove').click();
  expect(await sidebar.locator('#schedule-alerts .alert-text').allInnerTexts()).toEqual([
    'revenue (Total row) above 1',
    'revenue of the latest settled day drops by 40% or more against the same weekday a week earlier',
  ]);
  expect(await overflowing(sidebar, '#schedule-form')).toEqual([]);

  // An address outside the deployment's webhook prefixes: refused when saved, with the field and the reason.
  await sidebar.locator('#schedule-name').fill('Watched revenue');
  await sidebar.locator('#schedule-webhook').fill('https://hooks.example.org/notify?key=SECRET-1');
  await sidebar.locator('#schedule-save').click();
  await eventually(async () =>
    expect(await sidebar.locator('#schedule-webhook-problem').innerText()).toMatch(
      /^Webhook: must start with https:\/\/chat\.googleapis\.com\/v1\/spaces\/ or https:\/\/hooks\.slack\.com\/services\//,
    ),
  );
  expect(definitions()).toEqual([]);

  // The tests' emulator's receiver, which a build for local servers accepts.
  const webhook = `${b.playground.emulator.baseUrl.replace(/\/engage\/v2$/, '')}/webhooks/team?key=SECRET-2`;
  await sidebar.locator('#schedule-notify-when').selectOption('always');
  await sidebar.locator('#schedule-webhook').fill(webhook);
  await sidebar.locator('#schedule-save').click();
  await eventually(async () =>
    expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved “Watched revenue”'),
  );
  expect(definitions()).toHaveLength(1);
  expect(definitions()[0]).not.toContain('SECRET-2');

  // The Schedules tab: notices and alerts listed; after a refresh, when the alert fired.
  await sidebar.locator('#schedule-open-list').click();
  const article = sidebar.locator('article.schedule').first();
  await eventually(async () =>
    expect(await article.locator('.schedule-notices-status').innerText()).toMatch(
      /after every refresh, by email and webhook \(http:\/\/127\.0\.0\.1:\d+\/…\)/,
    ),
  );
  await article.getByRole('button', { name: 'Run now' }).click();
  await eventually(async () =>
    expect(await article.locator('.schedule-notices-status').innerText()).toMatch(
      /revenue \(Total row\) above 1: last fired \d{4}-\d\d-\d\d \d\d:\d\d \(Europe\/Berlin\), still holds/,
    ),
  );
  expect(await article.locator('.schedule-notices-status').innerText()).toMatch(
    /Last notice\t?\n?.*Alert on "Watched revenue".*\(email sent; webhook sent\)/,
  );
  expect(b.playground.host.mails).toHaveLength(1);

  // The edit form keeps the webhook, shown by its host only, and the alerts with when they fired.
  await article.getByRole('button', { name: 'Edit' }).click();
  const edit = article.locator('form.schedule-edit');
  const webhookField = edit.locator('input[type=url]');
  expect(await webhookField.inputValue()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…$/);
  expect(await edit.locator('.alert-fired').first().innerText()).toMatch(/^last fired .*, still holds$/);
  await edit.locator('select[id$=notify-when]').selectOption('failure');
  await edit.locator('.edit-save').click();
  await eventually(async () =>
    expect(await article.locator('.schedule-notices-status').innerText()).toMatch(/on failure and recovery, by email and webhook/),
  );
  expect(await sidebar.locator('html').evaluate((html) => html.innerHTML.includes('SECRET-2'))).toBe(false);
  expect(await overflowing(sidebar, '.schedule-list')).toEqual([]);
});
