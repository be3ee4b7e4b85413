/**
 * Browser tests of the report builder's metric picker in the playground (Debian's chromium, the real
 * dist/sidebar.html in the 300-pixel sidebar, the built bundle in the local host, the emulator): the
 * groups with the default set ticked, metrics the breakdowns lack disabled with the reason, and the
 * chosen metrics flowing into the formula preview, Run to sheet, Add chart, Insert formula (which
 * adds the columns a 26-column sheet lacks) and Save to schedule. Run `npm run build` first.
 */
import type { FrameLocator } from 'playwright-core';
import type { Playground } from '../../dev/playground/playground';
import { chooseBreakdowns, eventually, openPlayground, type BrowserPlayground, selectCell, signInAsDemo } from '../support/browser';

jest.setTimeout(90_000);

let env: BrowserPlayground;
let playground: Playground;
let sidebar: FrameLocator;

beforeAll(async () => {
  env = await openPlayground();
  ({ playground, sidebar } = env);
});
afterAll(async () => {
  await env?.close();
});

const checkedMetrics = async () =>
  sidebar.locator('input[name=metric]:checked').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value));
const metric = (name: string) => sidebar.locator(`input[name=metric][value=${name}]`);

const setBreakdowns = (names: string[]) => chooseBreakdowns(sidebar, names);

async function toggle(name: string, on: boolean): Promise<void> {
  await metric(name).setChecked(on);
  await eventually(async () => expect(await metric(name).isChecked()).toBe(on));
}

describe('the metric picker', () => {
  it('groups the metrics as the API does, with the default set ticked, inside the 300-pixel sidebar', async () => {
    await signInAsDemo(sidebar);
    await sidebar.locator('#report-preset').selectOption('last7');
    expect(await sidebar.locator('#metrics-summary').innerText()).toBe('7, the default set');
    await sidebar.locator('#metrics-picker summary').click();
    expect(await sidebar.locator('#report-metrics legend').allInnerTexts()).toEqual([
      'Traffic',
      'Revenue',
      'Clicks and CTR',
      'Viewability',
      'Video',
      'Opt-in',
    ]);
    expect(await checkedMetrics()).toEqual(['paidPvs', 'totalPvs', 'revenue', 'rpmByPvs', 'paidClicks', 'paidCtrByPvs', 'viewabilityRate']);
    expect(await sidebar.locator('#metric-group-revenue label').allInnerTexts()).toEqual(['Revenue', 'RPM (page views)', 'RPM (requests)']);
    expect(await sidebar.locator('label:has(input[value=rpmByPvs])').getAttribute('title')).toBe(
      'rpmByPvs: RPM (page views): (revenue / paidPvs) * 1000',
    );
    expect(await sidebar.locator('#metrics-width').innerText()).toBe('Up to 8 columns from the first cell.');

    // Readable at 300 pixels: nothing scrolls sideways and every chip lies inside the sidebar.
    const width = await sidebar.locator('body').evaluate((body) => {
      const { documentElement: root, defaultView: view } = body.ownerDocument;
      return { client: root.clientWidth, scroll: root.scrollWidth, inner: view!.innerWidth };
    });
    expect(width.inner).toBe(300);
    expect(width.scroll).toBeLessThanOrEqual(width.client);
    const rights = await sidebar
      .locator('#report-metrics label.chip')
      .evaluateAll((chips) => chips.map((c) => c.getBoundingClientRect().right));
    expect(rights.length).toBe(29);
    expect(Math.max(...rights)).toBeLessThanOrEqual(width.client);
  });

  it('disables the metrics the breakdowns lack, says why, and swaps the default for the request metrics by widget', async () => {
    await setBreakdowns(['day', 'widget']);
    expect(await metric('paidPvs').isDisabled()).toBe(true);
    expect(await metric('paidReqs').isDisabled()).toBe(false);
    expect(await sidebar.locator('#metrics-why').innerText()).toBe(
      "Unavailable. Paid page views, Page views, Organic page views: not available with the 'widget' breakdown.",
    );
    expect(await checkedMetrics()).toEqual(['paidReqs', 'totalReqs', 'revenue', 'reqsRpm', 'paidClicks', 'reqsPaidCtr', 'viewabilityRate']);
    await setBreakdowns(['day', 'doc']);
    expect(await metric('optInRateByPvs').isDisabled()).toBe(true);
    expect(await sidebar.locator('#metrics-why').innerText()).toBe(
      "Unavailable. Paid requests, Requests, Organic requests: only available with the 'widget' breakdown. Opt-in rate (requests), Opt-in rate (page views): not available with the 'doc' breakdown.",
    );
    await setBreakdowns(['day']);
  });

  it('sends the chosen metrics to the formula, Run to sheet and Add chart', async () => {
    for (const name of ['paidPvs', 'totalPvs', 'paidCtrByPvs', 'viewabilityRate']) await toggle(name, false);
    await toggle('videoPlays', true);
    expect(await sidebar.locator('#metrics-summary').innerText()).toBe('4: Revenue, RPM (page views), Paid clicks, Video plays');
    await eventually(async () =>
      expect(await sidebar.locator('#formula-preview').textContent()).toContain('"day","revenue,rpmByPvs,paidClicks,videoPlays"'),
    );

    await sidebar.locator('#report-target').selectOption('newSheet');
    await sidebar.locator('#report-target-name').fill('Chosen metrics');
    await sidebar.locator('#run-report').click();
    await eventually(
      async () => expect(await sidebar.locator('#report-outcome .notice-success').first().innerText()).toContain("to 'Chosen metrics'"),
      60_000,
    );
    expect(playground.host.getValues('Chosen metrics', 'A1:F1')[0]).toEqual(['day', 'revenue', 'rpmByPvs', 'paidClicks', 'videoPlays', '']);
    expect(playground.host.getCell('Chosen metrics', 'E1').note).toBe('Video plays: number of video plays');
    expect(await sidebar.locator('#run-preview-table th').allInnerTexts()).toEqual([
      'day',
      'revenue',
      'rpmByPvs',
      'paidClicks',
      'videoPlays',
    ]);
    await eventually(async () => expect(await sidebar.locator('#add-chart').isDisabled()).toBe(false));
    await sidebar.locator('#add-chart').click();
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome').innerText()).toContain('Added the chart “Revenue and RPM by day”'),
    );

    // Without RPM the chart has nothing to draw: the button says so instead of failing.
    await toggle('rpmByPvs', false);
    await sidebar.locator('#report-target-name').fill('No RPM');
    await sidebar.locator('#run-report').click();
    await eventually(
      async () => expect(await sidebar.locator('#report-outcome .notice-success').first().innerText()).toContain("to 'No RPM'"),
      60_000,
    );
    expect(await sidebar.locator('#add-chart').isDisabled()).toBe(true);
    expect(await sidebar.locator('#chart-why').innerText()).toBe(
      'The chart draws revenue and RPM: choose both metrics and run the report again.',
    );
  });

  it('inserts "all" as the argument and adds the columns the result needs to a 26-column sheet', async () => {
    await sidebar.locator('#metrics-all').click();
    expect(await sidebar.locator('#metrics-summary').innerText()).toBe('all 26');
    expect(await sidebar.locator('#metrics-width').innerText()).toBe(
      'Up to 27 columns, more than the 26 of a new sheet: Insert formula adds the columns it needs first.',
    );
    await selectCell(env, 'Sheet1', 'A1');
    expect(playground.host.state.spreadsheet.sheetByName('Sheet1')!.maxColumns).toBe(26);
    await sidebar.locator('#insert-formula').click();
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome').innerText()).toContain('Added 1 column so that its result fits.'),
    );
    expect(await sidebar.locator('#inserted-formula').innerText()).toContain('"day","all"');
    expect(playground.host.state.spreadsheet.sheetByName('Sheet1')!.maxColumns).toBe(27);
    await eventually(() => expect(playground.host.getCell('Sheet1', 'A1').value).toBe('day'));
    expect(playground.host.getValues('Sheet1', 'AA1:AA1')[0]![0]).toBe('optInRateByPvs');
  });

  it('saves the chosen metrics with the schedule, and a new report type starts from its default set', async () => {
    await sidebar.locator('#metrics-default').click();
    await toggle('videoRevenue', true);
    await sidebar.locator('#save-schedule').click();
    await sidebar.locator('#schedule-name').fill('Video too');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved “Video too”'),
    );
    const saved = [...playground.host.properties('document').entries()]
      .filter(([key]) => key.startsWith('engage.sr.def.'))
      .map(([, value]) => JSON.parse(value) as Record<string, unknown>);
    expect(saved).toEqual([
      expect.objectContaining({
        name: 'Video too',
        metrics: ['paidPvs', 'totalPvs', 'revenue', 'rpmByPvs', 'paidClicks', 'paidCtrByPvs', 'videoRevenue', 'viewabilityRate'],
      }),
    ]);

    await sidebar.locator('label[for=report-kind-realtime]').click();
    await eventually(async () => expect(await sidebar.locator('#metrics-summary').innerText()).toBe('6, the default set'));
    expect(await sidebar.locator('#report-metrics legend').allInnerTexts()).toEqual(['Traffic', 'Revenue', 'Clicks and CTR']);
    expect(await checkedMetrics()).toEqual(['paidReqs', 'totalPvs', 'revenue', 'reqsRpm', 'paidClicks', 'reqsPaidCtr']);
    expect(env.dialogs).toEqual([]);
  });
});
