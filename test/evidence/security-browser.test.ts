/**
 * Security evidence (issue 8), in the browser: the built sidebar (dist/sidebar.html) in headless
 * Chromium, its google.script.run answered by the built bundle in the local Apps Script host. Every
 * place the sidebar shows text from the API gets hostile text: the publisher picker (a publisher
 * name with markup), the report preview (section names, widget names, external IDs), the
 * recommendations preview (ad text), and error messages that quote the API (a stand-in service whose
 * every answer is an error with markup in moreInfo and errorMessage) in the Report, Account,
 * Recommendations and Schedules tabs. The text must show as text: no element injected, no dialog, no
 * script run. The hostile ads and the pixel are covered in test/browser/recommendations.test.ts too.
 * Run `npm run build` first. Chromium missing is a failure with a clear message, never a silent skip.
 */
import { Worker } from 'node:worker_threads';
import type { Browser, Page } from 'playwright-core';
import { EDITOR, OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { eventually, installScriptRun, launchChromium, serveSidebar } from '../support/browser';
import { DEMO_API_KEY, HOSTILE_PUBLISHER_ID } from '../support/emulator';
import { HOSTILE_STRINGS } from '../../dev/emulator/model/seed';

/** What the stand-in service puts in every error: markup that would run if parsed as HTML. */
const HOSTILE_ERROR_MESSAGE = '<img src=x onerror=alert("errorMessage")><script>alert("script")</script>';
const HOSTILE_MORE_INFO = '<iframe src="javascript:alert(`moreInfo`)"></iframe>';
const HOSTILE_TRACE_ID = '<b>trace</b>-7';

jest.setTimeout(90_000);

let h: AddonHarness;
let browser: Browser;
let sidebar: { url: string; close(): Promise<void> };
/**
 * Answers every request with a 400 whose body and trace ID carry markup, except the one request that
 * checks a pasted token (GET /publishers) after `acceptPastedToken()`: a token is kept only once checked.
 */
let hostileService: Worker;
let hostileBaseUrl: string;

/**
 * The stand-in runs in a worker thread: the host's UrlFetchApp blocks this thread while it waits,
 * so a server on this thread could never answer.
 */
async function startHostileService(): Promise<string> {
  const source = `
    const http = require('node:http');
    const { parentPort, workerData } = require('node:worker_threads');
    let acceptToken = false;
    parentPort.on('message', (message) => {
      if (message === 'accept-token') acceptToken = true;
      parentPort.postMessage('accepting');
    });
    const server = http.createServer((req, res) => {
      req.resume();
      if (acceptToken && req.url.endsWith('/publishers')) {
        acceptToken = false;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"publishers":[]}');
      }
      res.writeHead(400, { 'content-type': 'application/json', 'x-traceid': workerData.traceId, 'access-control-allow-origin': '*' });
      res.end(JSON.stringify({ moreInfo: workerData.moreInfo, errorMessage: workerData.errorMessage }));
    });
    server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
  `;
  hostileService = new Worker(source, {
    eval: true,
    workerData: { traceId: HOSTILE_TRACE_ID, moreInfo: HOSTILE_MORE_INFO, errorMessage: HOSTILE_ERROR_MESSAGE },
  });
  const port = await new Promise<number>((resolve, reject) => {
    hostileService.once('message', resolve);
    hostileService.once('error', reject);
  });
  return `http://127.0.0.1:${port}`;
}

/** The stand-in answers the next check of a pasted token, so the editor's token is kept. */
async function acceptPastedToken(): Promise<void> {
  const accepting = new Promise((resolve) => hostileService.once('message', resolve));
  hostileService.postMessage('accept-token');
  await accepting;
}

beforeAll(async () => {
  browser = await launchChromium();
  h = await startAddon();
  // The owner talks to the emulator; the editor to the hostile stand-in.
  h.signIn(OWNER);
  h.host.call('saveSettings', [{ apiKey: DEMO_API_KEY.key, widgetId: DEMO_API_KEY.widgetIds[0] }], { user: OWNER });
  const hostileOrigin = await startHostileService();
  hostileBaseUrl = `${hostileOrigin}/engage/v2`;
  h.host.call(
    'saveSettings',
    [{ reportingBaseUrl: hostileBaseUrl, recommendationsUrl: `${hostileOrigin}/recs`, apiKey: 'editor-key', widgetId: 'APP_12' }],
    { user: EDITOR },
  );
  await acceptPastedToken();
  h.host.call('signInWithToken', ['editor-pasted-token'], { user: EDITOR });
  sidebar = await serveSidebar();
});
afterAll(async () => {
  await browser?.close();
  await sidebar?.close();
  await hostileService?.terminate();
  await h?.close();
});

interface OpenSidebar {
  page: Page;
  dialogs: string[];
  /** Page errors and console errors: a script that ran and failed would show here. */
  pageErrors: string[];
}

/** Opens the sidebar as `user`, with a google.script.run that calls the bundle's server functions. */
async function openSidebar(user: string): Promise<OpenSidebar> {
  const page = await browser.newPage({ viewport: { width: 420, height: 1200 } });
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // Thumbnails and the pixel are not what this test is about: answer them without a network.
  await page.route(/images\.engage\.example|\/recs\/v1\/served/, (route) => route.abort());
  await installScriptRun(page, h.host, user);
  await page.goto(sidebar.url);
  return { page, dialogs, pageErrors };
}

/**
 * Nothing from the API became markup: no script beyond the page's own, no element carrying an
 * inline handler (the sidebar uses addEventListener only), no image or frame outside http(s), no
 * <b> or <iframe> element (the sidebar makes none), no dialog, no page error.
 */
interface InjectionScan {
  scripts: number;
  inlineHandlers: string[];
  badSources: string[];
  injectedTags: number;
}

async function expectNothingInjected(open: OpenSidebar, scriptsAtLoad: number): Promise<void> {
  // Runs in the page; a string because the tests are type-checked without the DOM library.
  const found = await open.page.evaluate<InjectionScan>(`(() => {
    const all = Array.from(document.querySelectorAll('*'));
    return {
      scripts: document.querySelectorAll('script').length,
      inlineHandlers: all.filter((e) => Array.from(e.attributes).some((a) => a.name.toLowerCase().startsWith('on'))).map((e) => e.outerHTML.slice(0, 80)),
      badSources: Array.from(document.querySelectorAll('img, iframe, a')).map((e) => e.getAttribute('src') ?? e.getAttribute('href')).filter((u) => u !== null && !/^https?:\\/\\//.test(u)),
      injectedTags: document.querySelectorAll('b, iframe, object, embed').length,
    };
  })()`);
  expect(found).toEqual({ scripts: scriptsAtLoad, inlineHandlers: [], badSources: [], injectedTags: 0 });
  expect(open.dialogs).toEqual([]);
  expect(open.pageErrors).toEqual([]);
}

const scriptCount = (page: Page) => page.evaluate<number>("document.querySelectorAll('script').length");

async function chooseBreakdowns(page: Page, names: string[]): Promise<void> {
  for (;;) {
    const checked = page.locator('input[name=breakdown]:checked:not([disabled])');
    if ((await checked.count()) === 0) break;
    await page.locator(`input[name=breakdown][value=${await checked.first().getAttribute('value')}]`).click();
  }
  for (const name of names) await page.locator(`input[name=breakdown][value=${name}]`).click();
}

async function runToNewSheet(page: Page, sheetName: string): Promise<void> {
  await page.locator('#report-target').selectOption('newSheet');
  await page.locator('#report-target-name').fill(sheetName);
  await page.locator('#run-report').click();
  await page.locator('#report-outcome .notice').first().waitFor({ timeout: 60_000 });
}

describe('hostile text from the API is shown as text', () => {
  it('in the publisher picker, and in the report preview: section names, widget names, external IDs', async () => {
    const open = await openSidebar(OWNER);
    const { page } = open;
    const scripts = await scriptCount(page);
    await eventually(async () => expect(await page.locator('#report-publisher option').count()).toBe(3 + 2)); // and All, Several
    const hostileName = await page.locator(`#report-publisher option[value="${HOSTILE_PUBLISHER_ID}"]`).textContent();
    expect(hostileName).toContain('Hostile Herald <img src=x onerror=alert("publisher")>');
    await page.locator('#report-publisher').selectOption(HOSTILE_PUBLISHER_ID);

    await page.locator('#report-preset').selectOption('last30');
    await chooseBreakdowns(page, ['section']);
    await runToNewSheet(page, 'Sections');
    const sections = await page.locator('#run-preview-table').innerText();
    for (const hostile of HOSTILE_STRINGS) expect(sections).toContain(hostile);

    await chooseBreakdowns(page, ['widget']);
    await runToNewSheet(page, 'Widgets');
    await eventually(async () => expect(await page.locator('#run-preview-table').innerText()).toContain('<b>Bold</b> Feed'));
    expect(await page.locator('#run-preview-table').innerText()).toContain('=1+1');

    await page.locator('label[for=report-kind-externalId]').click();
    await page.locator('#report-preset').selectOption('previous24h');
    await runToNewSheet(page, 'External IDs');
    await eventually(async () => {
      const ids = await page.locator('#run-preview-table').innerText();
      for (const hostile of HOSTILE_STRINGS) expect(ids).toContain(hostile);
    });
    // The grid got the same text, as values.
    expect(
      h.host
        .getValues('External IDs', 'A1:A60')
        .flat()
        .some((v) => typeof v === 'string' && v.startsWith('=HYPERLINK(')),
    ).toBe(true);
    await expectNothingInjected(open, scripts);
    await page.close();
  });

  it('in the recommendations preview: ad text with markup and a formula', async () => {
    const open = await openSidebar(OWNER);
    const { page } = open;
    const scripts = await scriptCount(page);
    await page.click('#tab-recommendations');
    await page.fill('#recs-keywords', 'hostile');
    await page.fill('#recs-content-url', 'https://news.example/story');
    await page.click('#recs-submit');
    await page.waitForSelector('#recs-results .recs-doc');
    const first = page.locator('#recs-results .recs-doc').first();
    expect(await first.locator('.recs-content').textContent()).toBe('<img src=x onerror=alert(1)>');
    expect(await first.locator('.recs-cta').textContent()).toBe('<script>alert(2)</script>');
    await expectNothingInjected(open, scripts);
    await page.close();
  });
});

describe('error messages that quote the API are shown as text', () => {
  it('in the Report, Recommendations and Account tabs', async () => {
    const open = await openSidebar(EDITOR);
    const { page } = open;
    const scripts = await scriptCount(page);
    // Report tab: the publisher list fails with the service's message.
    await eventually(async () => expect(await page.locator('#report-publisher-status').innerText()).toContain(HOSTILE_ERROR_MESSAGE));
    expect(await page.locator('#report-publisher-status').innerText()).toContain(HOSTILE_TRACE_ID);

    await page.click('#tab-recommendations');
    await page.fill('#recs-keywords', 'coffee');
    await page.fill('#recs-content-url', 'https://news.example/story');
    await page.click('#recs-submit');
    await eventually(async () => expect(await page.locator('#recs-status .notice-error').innerText()).toContain(HOSTILE_ERROR_MESSAGE));

    // Account tab: signing out, then a sign-in the stand-in refuses with its message.
    await page.click('#tab-account');
    await page.click('#sign-out');
    await page.locator('#sign-in-form').waitFor();
    await page.fill('#sign-in-username', 'editor@engage.example');
    await page.fill('#sign-in-password', 'editor-password');
    await page.click('#sign-in-submit');
    await eventually(async () => expect(await page.locator('#sign-in-form .notice-error').innerText()).toContain(HOSTILE_ERROR_MESSAGE));
    await expectNothingInjected(open, scripts);
    await page.close();
  });

  it("in the Schedules tab, as a saved report's last error", async () => {
    await acceptPastedToken();
    h.host.call('signInWithToken', ['editor-pasted-token'], { user: EDITOR });
    const saved = h.host.call(
      'saveSchedule',
      [
        {
          name: '<img src=x onerror=alert("name")>',
          kind: 'main',
          entityId: HOSTILE_PUBLISHER_ID,
          period: { type: 'lastDays', days: 7 },
          breakdowns: ['section'],
          target: { sheetName: 'Scheduled', cell: 'A1' },
          schedule: { every: 'day', hour: 6 },
          paused: true,
        },
      ],
      { user: EDITOR },
    ) as { reports: Array<{ id: string }> };
    h.host.call('runScheduleNow', [saved.reports[0]!.id], { user: EDITOR });
    const open = await openSidebar(EDITOR);
    const { page } = open;
    const scripts = await scriptCount(page);
    await page.click('#tab-schedules');
    await eventually(async () => expect(await page.locator('.schedule-status').first().innerText()).toContain(HOSTILE_ERROR_MESSAGE));
    // The heading shows the name (then a "paused" badge) as text.
    expect(await page.locator('.schedule h3').first().textContent()).toMatch(/^<img src=x onerror=alert\("name"\)>/);
    await expectNothingInjected(open, scripts);
    await page.close();
  });
});
