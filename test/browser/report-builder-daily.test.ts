/**
 * Browser tests of the report builder as an analyst uses it every day, in the playground's 300 px
 * sidebar: a rolling preset inserted as a formula stays rolling (relative days, no TODAY(), the
 * refresh cell last) and gives the rows Run to sheet wrote; Add chart says in words why it is off (before a run, after a failed run, for a report not
 * by day alone, for no rows); the row limit reaches Run to sheet, the formula and the schedule; the
 * formula's Copy button copies, or selects the text and says to press Ctrl+C where the clipboard is
 * refused; a period in the future is flagged before anything is sent; and the cosmetics hold
 * (thousands separators, one "revenue", buttons on one line, the period's line clear of the next label).
 */
import type { Frame } from 'playwright-core';
import { BIG_PUBLISHER_ID } from '../../dev/emulator/model/seed';
import { SUPPORTED_CURRENCY_CODES } from '../../src/core/util/currencies';
import { chooseBreakdowns, eventually, openPlayground, type BrowserPlayground, selectCell, signInAsDemo } from '../support/browser';

jest.setTimeout(120_000);

let b: BrowserPlayground;
let frame: Frame;

beforeAll(async () => {
  b = await openPlayground();
  await signInAsDemo(b.sidebar);
  frame = b.page.frame({ url: /\/sidebar/ })!;
});
afterAll(async () => {
  await b?.close();
});

const reportRequests = () => b.playground.host.fetchLog.filter((r) => r.url.includes('/reports/'));
const comparable = (values: unknown[][]) => values.map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : String(v))));

async function admin(path: string, method: string, body?: unknown): Promise<void> {
  await fetch(`${b.playground.emulator.adminUrl}${path}`, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

/** Runs the report to a new sheet and waits for the outcome; returns the outcome's first line. */
async function runToNewSheet(sheetName: string): Promise<string> {
  const { sidebar } = b;
  await sidebar.locator('#report-target').selectOption('newSheet');
  await sidebar.locator('#report-target-name').fill(sheetName);
  await sidebar.locator('#run-report').click();
  const first = sidebar.locator('#report-outcome .notice').first();
  await first.waitFor({ timeout: 60_000 });
  await eventually(async () => expect(await sidebar.locator('#run-report').isEnabled()).toBe(true));
  return first.innerText();
}

/** Add chart's state: whether it is enabled and the reason shown on the page (visible text, or null when hidden). */
async function chartState(): Promise<{ enabled: boolean; reason: string | null }> {
  const reason = b.sidebar.locator('#chart-why');
  return {
    enabled: await b.sidebar.locator('#add-chart').isEnabled(),
    reason: (await reason.isVisible()) ? await reason.innerText() : null,
  };
}

describe('the report builder at 300 px', () => {
  it('lays the form out for a 300 px sidebar: one "revenue" to sort by, buttons on one line, the period clear of the next label', async () => {
    const { sidebar } = b;
    expect(await b.page.locator('#sidebar').evaluate((iframe) => iframe.getBoundingClientRect().width)).toBe(300);
    const sortOptions = await sidebar.locator('#report-sort option').allTextContents();
    expect(sortOptions.filter((o) => /revenue/.test(o) && !/^(video|viewable)/i.test(o))).toEqual(['revenue (default)']);
    expect(await sidebar.locator('#report-currency option').allTextContents()).toEqual([...SUPPORTED_CURRENCY_CODES]);

    // Each action button shows its label on one line, at its own height.
    for (const id of ['run-report', 'insert-formula', 'add-chart', 'save-schedule']) {
      const box = await sidebar.locator(`#${id}`).evaluate((button) => ({
        height: button.getBoundingClientRect().height,
        fits: button.scrollWidth <= button.clientWidth,
      }));
      expect([id, box]).toEqual([id, { height: 29, fits: true }]);
    }
    // The period's line ends before the Breakdowns label begins, with a gap.
    const gap = await frame.evaluate(`(() => {
      const period = document.getElementById('report-period').getBoundingClientRect();
      const label = document.querySelector('#report-breakdowns').parentElement.querySelector('.label').getBoundingClientRect();
      return label.top - period.bottom;
    })()`);
    expect(gap as number).toBeGreaterThanOrEqual(6);
  });

  it('says in words why Add chart is off before any run', async () => {
    expect(await chartState()).toEqual({
      enabled: false,
      reason: 'Add chart needs a report run to the sheet first, broken down by day alone.',
    });
  });

  it('inserts "Last 14 days" as "14daysAgo" and "yesterday", no TODAY(), with the refresh cell, and the formula gives the rows Run to sheet wrote', async () => {
    const { sidebar, playground } = b;
    await sidebar.locator('#report-preset').selectOption('last14');
    await chooseBreakdowns(sidebar, ['day']);
    await sidebar.locator('#formula-details summary').click();
    await eventually(async () => expect(await sidebar.locator('#formula-preview').innerText()).toContain('"14daysAgo","yesterday",'));
    expect(await sidebar.locator('#formula-preview').innerText()).not.toMatch(/TODAY\(/i);

    expect(await runToNewSheet('Fourteen days')).toMatch(
      /^Wrote 14 rows to 'Fourteen days'!A1:H16 from 1 page in (\d+\.\d s|under 0\.1 s)\.$/,
    );
    const run = playground.host.getValues('Fourteen days', 'A1:H16');
    expect(run.at(-1)![0]).toBe('Total');
    // A report by day alone with revenue and RPM can be charted: the button is on and no reason shows.
    expect(await chartState()).toEqual({ enabled: true, reason: null });

    await selectCell(b, 'Sheet1', 'A1');
    await sidebar.locator('#insert-formula').click();
    await eventually(async () => expect(await sidebar.locator('#inserted-formula').innerText()).toContain('=ENGAGE_REPORT('));
    const cell = playground.host.getCell('Sheet1', 'A1');
    expect(cell.formula).toBe(`=ENGAGE_REPORT("${BIG_PUBLISHER_ID}","14daysAgo","yesterday","day","","","","","USD",2,EngageRefresh)`);
    expect(await sidebar.locator('#inserted-formula').innerText()).not.toMatch(/TODAY\(/i);
    expect(playground.host.state.spreadsheet.namedRanges.has('EngageRefresh')).toBe(true);
    await eventually(() => expect(playground.host.getCell('Sheet1', 'A1').value).toBe('day'));
    expect(playground.host.getCell('Sheet1', 'A1').error).toBeUndefined();
    expect(comparable(playground.host.getValues('Sheet1', 'A1:H16'))).toEqual(comparable(run));
  });

  it('turns Add chart off with the reason after a failed run, for a report not by day alone, and for no rows', async () => {
    const { sidebar, playground } = b;
    await admin('/faults', 'POST', { faults: [{ match: 'reports/main', status: 500, times: 1 }] });
    await runToNewSheet('Will fail');
    await admin('/faults', 'DELETE');
    expect(await chartState()).toEqual({
      enabled: false,
      reason: 'The last run failed, so there is nothing new to chart: run the report again.',
    });

    await chooseBreakdowns(sidebar, ['day', 'country']);
    await runToNewSheet('By country');
    expect(await chartState()).toEqual({
      enabled: false,
      reason: 'The chart draws one line per day: run a general report broken down by day alone (this one is also by country).',
    });
    // The form changed since: the reason is the form's as it is now, not the last run's breakdowns.
    await chooseBreakdowns(sidebar, ['day']);
    await eventually(async () =>
      expect(await chartState()).toEqual({
        enabled: false,
        reason: 'The form changed since the last run: run this report to the sheet, then Add chart draws it.',
      }),
    );
    await chooseBreakdowns(sidebar, ['day', 'platform']);
    await eventually(async () =>
      expect(await chartState()).toEqual({
        enabled: false,
        reason: 'The chart draws one line per day: run a general report broken down by day alone (this one is also by platform).',
      }),
    );

    // No rows: the sheet gets the header alone, no Total row of zeros, and the chart has nothing to draw.
    await chooseBreakdowns(sidebar, ['day']);
    await sidebar.locator('#filter-add').click();
    await sidebar.locator('.filter-row .filter-field').selectOption('revenue');
    await sidebar.locator('.filter-row .filter-operator').selectOption('gt');
    await sidebar.locator('.filter-row .filter-value').fill('999999999');
    expect(await runToNewSheet('Nothing')).toMatch(/^Wrote 0 rows to Nothing!A1:H1 from /);
    expect(await sidebar.locator('#report-outcome').innerText()).toContain('The report has no rows for this period and these filters.');
    expect(playground.host.getValues('Nothing', 'A1:A3').map((r) => r[0])).toEqual(['day', '', '']);
    expect(await chartState()).toEqual({ enabled: false, reason: 'The report has no rows to draw.' });
    await sidebar.locator('#filter-rows button[aria-label="Remove filter"]').click();
  });

  it('keeps the row limit in Run to sheet, the equivalent formula and Save to schedule, and refuses one that is not a count', async () => {
    const { sidebar, playground } = b;
    await chooseBreakdowns(sidebar, ['day', 'country']);
    await sidebar.locator('#report-max-rows').fill('0');
    await sidebar.locator('#run-report').click();
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome .notice-error').innerText()).toBe(
        'Row limit: write a whole number from 1 to 100,000, or leave it empty for all rows.',
      ),
    );

    await sidebar.locator('#report-max-rows').fill('5');
    await eventually(async () =>
      expect(await sidebar.locator('#formula-preview').innerText()).toMatch(/"day,country","","","",5,"USD",2\)$/),
    );
    const before = reportRequests().length;
    expect(await runToNewSheet('Top five')).toMatch(/^Wrote 5 rows to 'Top five'!A1:\w+ from /);
    expect(await sidebar.locator('#report-outcome .notice-warning').innerText()).toMatch(
      /^The row limit kept the first 5 of \d{1,3}(,\d{3})* rows\.$/,
    );
    expect(
      reportRequests()
        .slice(before)
        .map((r) => new URL(r.url).searchParams.get('limit')),
    ).toEqual(['5']);

    await sidebar.locator('#save-schedule').click();
    await sidebar.locator('#schedule-name').fill('Top five countries');
    await sidebar.locator('#schedule-save').click();
    await eventually(async () => expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved'));
    const saved = [...playground.host.properties('document').entries()]
      .filter(([key]) => key.startsWith('engage.sr.def.'))
      .map(([, value]) => JSON.parse(value) as Record<string, unknown>);
    expect(saved).toEqual([expect.objectContaining({ name: 'Top five countries', maxRows: 5 })]);
    await sidebar.locator('#report-max-rows').fill('');
  });

  it('writes counts with thousands separators and no "in 0.0 s"', async () => {
    const { sidebar } = b;
    await sidebar.locator('#report-preset').selectOption('last30');
    await chooseBreakdowns(sidebar, ['day', 'country', 'platform', 'section']);
    const line = await runToNewSheet('Thousands');
    expect(line).toMatch(/^Wrote \d{1,3}(,\d{3})+ rows to Thousands!A1:N\d+ from \d+ pages? in (\d+\.\d s|under 0\.1 s)\.$/);
    expect(line).not.toContain('in 0.0 s');
    expect(await sidebar.locator('#report-outcome .hint').first().innerText()).toMatch(/^First 50 of \d{1,3}(,\d{3})+ rows:$/);
  });

  it('copies the equivalent formula, or selects it and says to press Ctrl+C where the clipboard is refused', async () => {
    const { sidebar, page, playground } = b;
    await sidebar.locator('#formula-details').evaluate((details) => details.setAttribute('open', ''));
    const copyBox = sidebar.locator('#formula-details .copy-box');
    const formula = await sidebar.locator('#formula-preview').innerText();
    const expected = await sidebar.locator('#formula-preview').evaluate((node) => node.textContent);
    expect(expected).toMatch(/^=ENGAGE_REPORT\("/);

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(playground.url).origin });
    await copyBox.locator('button').click();
    await eventually(async () => expect(await copyBox.locator('.copy-status').innerText()).toBe('Copied.'));
    expect(await frame.evaluate('navigator.clipboard.readText()')).toBe(expected);
    expect(formula.replace(/\s/g, '')).toBe(expected);

    // Each tagging snippet has its own Copy button.
    await sidebar.locator('#tagging-helper summary').click();
    await sidebar.locator('#tag-external-id').fill('article-1234');
    for (const id of ['tag-globals', 'tag-container', 'tag-amp']) {
      const box = sidebar.locator(`.snippet-head:has(+ #${id}) .copy-box`);
      await box.locator('button').click();
      await eventually(async () => expect(await box.locator('.copy-status').innerText()).toBe('Copied.'));
      const text = await sidebar.locator(`#${id}`).evaluate((node) => node.textContent);
      expect(text).toContain('article-1234');
      expect(await frame.evaluate('navigator.clipboard.readText()')).toBe(text);
    }

    // A sandboxed frame without clipboard access: both ways of copying refused.
    await frame.evaluate(`
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
      document.execCommand = () => false;
    `);
    await copyBox.locator('button').click();
    await eventually(async () =>
      expect(await copyBox.locator('.copy-status').innerText()).toBe('Selected: press Ctrl+C (⌘C on a Mac) to copy.'),
    );
    expect(await frame.evaluate('String(getSelection())')).toBe(expected);
  });

  it('flags a period in the future before anything is sent', async () => {
    const { sidebar } = b;
    await sidebar.locator('#report-preset').selectOption('custom');
    await sidebar.locator('#report-from').fill('2099-01-01');
    await sidebar.locator('#report-to').fill('2099-01-07');
    await eventually(async () =>
      expect(await sidebar.locator('#report-period').innerText()).toMatch(
        /^The period starts after today \(\d{4}-\d\d-\d\d\), so it has no data yet: choose an earlier first day\.$/,
      ),
    );
    const before = reportRequests().length;
    await sidebar.locator('#run-report').click();
    await eventually(async () =>
      expect(await sidebar.locator('#report-outcome .notice-error').innerText()).toContain('The period starts after today'),
    );
    expect(reportRequests().length).toBe(before);
    await sidebar.locator('#report-preset').selectOption('last7');
  });
});
