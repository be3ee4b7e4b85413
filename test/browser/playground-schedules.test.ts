/**
 * The playground shows what the add-on does over time, as a user sees it in Google, with one browser
 * at 1440 x 900 and a playground whose build loads into BigQuery (its calls to the emulator's
 * stand-in, as `npm start` builds it). An hourly report with an email notice and an alert is saved in
 * the sidebar, its webhook the emulator's receiver that the notices panel names; the toolbar makes
 * Engage fail and advances an hour: the Schedules tab shows the failure, the "Engage log" sheet its row,
 * and the notices panel the email and the webhook's post; let recover and advanced again, the recovery
 * notice. Then a report into a BigQuery table: the hourly trigger run from the toolbar loads it (the
 * panel counts its rows), and Open in Sheets adds its connected sheet, which says what it is connected
 * to. A day restated from the toolbar reaches the emulator's revisions. The page never scrolls
 * itself, so the sheet tabs stay in sight, and "Check this installation" is in its menu, its trigger's
 * row settled by running the trigger and the rows the playground cannot settle saying so.
 */
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { bigQueryOf } from '../support/bigquery';
import { eventually, launchChromium, signInAsDemo } from '../support/browser';
import { bigQueryBundle } from '../support/bundles';
import { BIG_PUBLISHER_ID } from '../support/emulator';
import { PLAYGROUND_DATASET } from '../../dev/playground/controls';
import { startPlayground, type Playground } from '../../dev/playground/playground';

jest.setTimeout(120_000);

let browser: Browser;
let playground: Playground;
let page: Page;
let sidebar: FrameLocator;

beforeAll(async () => {
  browser = await launchChromium();
  playground = await startPlayground({
    port: 0,
    seed: 'tests',
    bundle: (emulator) => bigQueryBundle(bigQueryOf(emulator).rootUrl),
  });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(playground.url);
  sidebar = page.frameLocator('#sidebar');
  await signInAsDemo(sidebar);
});
afterAll(async () => {
  await browser?.close();
  await playground?.close();
});

const mails = () => playground.host.mails as Array<{ subject: string }>;
const scheduleStatus = () => sidebar.locator('article.schedule').first().locator('.schedule-status');
const noticesPanel = () => page.locator('#notices');

async function openNotices(): Promise<void> {
  if ((await page.locator('#notices-toggle').getAttribute('aria-expanded')) !== 'true') await page.locator('#notices-toggle').click();
  await eventually(async () => expect(await noticesPanel().isVisible()).toBe(true));
}

/**
 * Shows a sheet by its tab: clicked again while it is not the one selected, since the tabs are drawn
 * anew when the playground's state changes (a trigger's run), and a click may land on a tab replaced.
 */
async function showSheet(name: string): Promise<void> {
  const tab = page.locator('#sheet-tabs button', { hasText: name }).first();
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click({ timeout: 5_000 });
}

/** Advances the clock an hour from the toolbar and waits for its answer. */
async function advanceAnHour(): Promise<void> {
  const before = await page.locator('#clock-now').innerText();
  await page.locator('#clock-hour').click();
  await eventually(async () => expect(await page.locator('#controls-status').innerText()).toMatch(/trigger run|No trigger fell due/));
  expect(await page.locator('#clock-now').innerText()).not.toBe(before);
  await eventually(async () => expect(await page.locator('#clock-hour').isEnabled()).toBe(true));
}

/** The Schedule section of the Report tab, open, for a new saved report of the builder's report. */
async function openScheduleForm(name: string, preset: string): Promise<void> {
  await sidebar.locator('#tab-report').click();
  await sidebar.locator('#report-preset').selectOption(preset);
  await sidebar.locator('#save-schedule').click();
  await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
  await sidebar.locator('#schedule-name').fill(name);
  await sidebar.locator('#schedule-every').selectOption('hour');
}

async function save(name: string): Promise<void> {
  await sidebar.locator('#schedule-save').click();
  await eventually(async () => expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain(`Saved “${name}”`));
}

it('never scrolls the page itself at 1440 x 900, so the sheet tabs stay in sight, above no scrollbar', async () => {
  await page.locator('#sheet-tabs button').first().waitFor();
  const page_ = await page.locator('html').evaluate((html) => {
    const root = html as unknown as { scrollWidth: number; clientWidth: number; scrollHeight: number; clientHeight: number };
    return {
      scrollWidth: root.scrollWidth,
      clientWidth: root.clientWidth,
      scrollHeight: root.scrollHeight,
      clientHeight: root.clientHeight,
    };
  });
  expect(page_.scrollWidth).toBe(page_.clientWidth);
  expect(page_.scrollHeight).toBe(page_.clientHeight);
  // The tabs are drawn again when the playground's state changes: the box is read, and checked, as they stand.
  await eventually(async () => {
    const tab = await page.locator('#sheet-tabs button').first().boundingBox();
    expect(tab).not.toBeNull();
    expect(tab!.y + tab!.height).toBeLessThanOrEqual(900);
    // The topmost element at the tab's middle is the tab itself.
    type Hit = { closest(selector: string): { textContent: string | null } | null } | null;
    const hit = await page
      .locator('html')
      .evaluate(
        (html, { x, y }) =>
          (html.ownerDocument as unknown as { elementFromPoint(x: number, y: number): Hit })
            .elementFromPoint(x, y)
            ?.closest('#sheet-tabs button')?.textContent ?? null,
        { x: tab!.x + tab!.width / 2, y: tab!.y + tab!.height / 2 },
      );
    expect(hit).toBe('Sheet1');
  });
});

it('has "Check this installation" in its menu, and the row its trigger settles is settled by running the trigger from the toolbar', async () => {
  await page.locator('#menu-check-installation').click();
  const tab = page.locator('#sheet-tabs button', { hasText: 'Engage installation check' });
  await eventually(async () => expect(await tab.getAttribute('aria-selected')).toBe('true'), 60_000);
  const statusOf = async (check: string) => {
    const rows = await page
      .locator('#grid tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(
            (tr as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }).querySelectorAll(
              'td:not(.rowhead)',
            ),
          ).map((td) => td.textContent ?? ''),
        ),
      );
    return rows.find((cells) => cells[0] === check)?.[1];
  };
  await eventually(async () => expect(await statusOf('A scheduled run has its spreadsheet')).toBe('Pending'));
  expect(await page.locator('#controls-status').innerText()).toMatch(/press Run the hourly trigger to run it now/);
  await page.locator('#clock-trigger').click();
  await eventually(async () =>
    expect(await page.locator('#controls-status').innerText()).toMatch(/^1 trigger run \(onInstallationCheckTrigger at /),
  );
  await eventually(async () => expect(await statusOf('A scheduled run has its spreadsheet')).toBe('OK'));
});

it('tells of a failing hourly report and of its recovery, as the hours pass from the toolbar', async () => {
  await openScheduleForm('Hourly revenue', 'last7');
  expect(await sidebar.locator('#schedule-notify-email').isChecked()).toBe(true);
  await sidebar.locator('#schedule-alert-metric').selectOption('revenue');
  await sidebar.locator('#schedule-alert-kind').selectOption('above');
  await sidebar.locator('#schedule-alert-value').fill('1');
  await sidebar.locator('#schedule-alert-add').click();
  await eventually(async () => expect(await sidebar.locator('#schedule-alerts .alert-rule').count()).toBe(1));
  // The emulator's webhook receiver, whose address the notices panel gives.
  await openNotices();
  await sidebar.locator('#schedule-webhook').fill(await page.locator('#notices-webhook-url').innerText());
  await save('Hourly revenue');
  await eventually(async () => expect(await page.locator('#clock-now').innerText()).toMatch(/next trigger \d\d:\d\d/));

  // Engage fails; an hour passes.
  await page.locator('#engage-fail').click();
  await eventually(async () => expect(await page.locator('#engage-fail').getAttribute('aria-pressed')).toBe('true'));
  await sidebar.locator('#schedule-open-list').click();
  await advanceAnHour();
  expect(await page.locator('#controls-status').innerText()).toMatch(/^1 trigger run \(\w+ at \d\d:\d\d\)\.$/);
  await eventually(async () =>
    expect(await scheduleStatus().innerText()).toMatch(/Last error\s+Engage answered with an error \(HTTP 503: Service unavailable/),
  );

  // The log row, in the sheet "Engage log".
  await eventually(async () => {
    await showSheet('Engage log');
    expect(await page.locator('#grid td[data-a1="C2"]').innerText()).toBe('failed');
  });
  expect(await page.locator('#grid td[data-a1="B2"]').innerText()).toBe('Hourly revenue');
  expect(await page.locator('#grid td[data-a1="D2"]').innerText()).toBe('scheduled');

  // The email, in the notices panel.
  await openNotices();
  await eventually(async () =>
    expect(await page.locator('#notices-mails li strong').first().innerText()).toMatch(
      /^Engage: "Hourly revenue" could not be refreshed in /,
    ),
  );
  expect(mails()).toHaveLength(1);
  expect(await page.locator('#notices-webhooks li strong').first().innerText()).toBe('/webhooks/playground (answered 200)');
  expect(await page.locator('#notices-webhooks li pre').first().innerText()).toMatch(/"Hourly revenue" could not be refreshed/);
  expect(await page.locator('#notices-toggle').innerText()).toBe('Notices (2)');

  // Engage recovers; another hour: the recovery notice, and the alert that now holds.
  await page.locator('#engage-fail').click();
  await eventually(async () => expect(await page.locator('#engage-fail').getAttribute('aria-pressed')).toBe('false'));
  await advanceAnHour();
  await eventually(async () =>
    expect(await page.locator('#notices-mails li strong').allInnerTexts()).toContainEqual(
      expect.stringMatching(/^Engage: "Hourly revenue" is refreshing again in /),
    ),
  );
  await eventually(async () => {
    await showSheet('Engage log');
    expect(await page.locator('#grid td[data-a1="C3"]').innerText()).toBe('refreshed');
  });
  await sidebar.locator('#tab-schedules').click();
  await eventually(async () =>
    expect(await scheduleStatus().innerText()).toMatch(/^Last success\s+\d{4}-\d\d-\d\d \d\d:\d\d \(Europe\/Berlin\), \d+ rows/),
  );
});

it('loads a report into a BigQuery table when the hourly trigger runs from the toolbar, and opens it in Sheets', async () => {
  // One day: one partition to load.
  await openScheduleForm('Revenue into BigQuery', 'yesterday');
  await sidebar.locator('label[for="schedule-destination-bigquery"]').click();
  await sidebar.locator('#schedule-bq-project').fill(PLAYGROUND_DATASET.projectId);
  await sidebar.locator('#schedule-bq-dataset').fill(PLAYGROUND_DATASET.datasetId);
  await sidebar.locator('#schedule-bq-table').fill('daily_revenue');
  await sidebar.locator('#schedule-bq-location').fill(PLAYGROUND_DATASET.location);
  // Saving checks the dataset with BigQuery (the stand-in): no false word about the manifest.
  await save('Revenue into BigQuery');

  await page.locator('#clock-trigger').click();
  await eventually(async () => expect(await page.locator('#controls-status').innerText()).toMatch(/trigger run/));
  const address = `${PLAYGROUND_DATASET.projectId}.${PLAYGROUND_DATASET.datasetId}.daily_revenue`;
  await eventually(async () =>
    expect(await page.locator('#notices-bigquery li').allInnerTexts()).toContainEqual(
      expect.stringMatching(new RegExp(`^${address.replace(/\./g, '\\.')}: [1-9]\\d* rows?$`)),
    ),
  );
  const table = await bigQueryOf(playground.emulator).table(PLAYGROUND_DATASET.projectId, PLAYGROUND_DATASET.datasetId, 'daily_revenue');
  expect(table!.rows.length).toBeGreaterThan(0);

  await sidebar.locator('#tab-schedules').click();
  const item = sidebar.locator('article.schedule', { hasText: 'Revenue into BigQuery' });
  await eventually(async () => expect(await item.locator('.bigquery-address').innerText()).toBe(address));
  await item.locator('button.bigquery-open').click();
  await eventually(async () =>
    expect(await item.locator('.bigquery-outcome .notice-success').innerText()).toMatch(
      /^Added the sheet '.+', connected to the BigQuery table /,
    ),
  );
  const connected = playground.host.state.spreadsheet.sheets.find((s) => s.dataSource);
  expect(connected).toBeDefined();
  const connectedTab = page.locator('#sheet-tabs button', { hasText: connected!.name });
  await eventually(async () => expect(await connectedTab.count()).toBe(1));
  await connectedTab.click();
  await eventually(async () =>
    expect(await page.locator('#connected-note').innerText()).toMatch(
      new RegExp(`^Connected to the BigQuery table ${address.replace(/\./g, '\\.')} \\(Connected Sheets\\)`),
    ),
  );
});

it('restates a day from the toolbar: Engage revises that day of Daily Planet', async () => {
  await page.locator('#restate-day').fill('2026-11-30');
  await page.locator('#restate').click();
  await eventually(async () =>
    expect(await page.locator('#controls-status').innerText()).toBe(
      "Engage restated 2026-11-30: Daily Planet's revenue of that day is now 10% higher. Runs that read it again show it.",
    ),
  );
  const answer = await fetch(`${playground.emulator.adminUrl}/revisions`);
  expect(((await answer.json()) as { revisions: unknown[] }).revisions).toEqual([
    { publisherId: BIG_PUBLISHER_ID, day: '20261130', revenueFactor: 1.1 },
  ]);
});
