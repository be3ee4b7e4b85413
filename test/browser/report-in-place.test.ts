/**
 * Browser tests of reports in place, in the playground's 300 px sidebar: a run to the active cell asks
 * before it writes over cells that hold data, naming the range, and writes nothing unless told
 * (replace, or write below); the success line says where the rows went; running again under the same
 * new-sheet name replaces that sheet's earlier report, and another report there is asked about first;
 * a cell of a block leads back to its report, which the builder reopens and runs again in place; and
 * the progress line stays in sight while the form scrolls.
 */
import type { FrameLocator, Page } from 'playwright-core';
import type { Playground } from '../../dev/playground/playground';
import {
  chooseBreakdowns,
  eventually,
  openPlayground,
  selectCell as selectGridCell,
  type BrowserPlayground,
  signInAsDemo,
} from '../support/browser';

jest.setTimeout(180_000);

let b: BrowserPlayground;
let page: Page;
let sidebar: FrameLocator;
let playground: Playground;

beforeAll(async () => {
  b = await openPlayground();
  ({ page, sidebar, playground } = b);
  await signInAsDemo(sidebar);
});
afterAll(async () => {
  await b?.close();
});

const value = (sheet: string, a1: string) => playground.host.getCell(sheet, a1).value;
const success = () => sidebar.locator('#report-outcome .notice-success').first().innerText();

/** Selects a cell in the playground's grid, then comes back to the sidebar as a user would (a click in it). */
/** Selects the cell as a user clicks it, then gives the sidebar the focus back, as a click in it does. */
async function selectCell(sheet: string, a1: string): Promise<void> {
  await selectGridCell({ page, playground }, sheet, a1);
  await sidebar.locator('#report-kind-label').click();
}

async function runAndWait(): Promise<void> {
  await sidebar.locator('#run-report').click();
  await sidebar.locator('#report-outcome .notice, #write-question').first().waitFor({ timeout: 60_000 });
}

describe('Run to sheet at the active cell', () => {
  it('says where the rows went', async () => {
    await sidebar.locator('#report-preset').selectOption('last7');
    await sidebar.locator('#report-target').selectOption('newSheet');
    await sidebar.locator('#report-target-name').fill('Daily');
    await runAndWait();
    await eventually(async () => expect(await success()).toMatch(/^Wrote 7 rows to Daily!A1:H9 from 1 page in \d+\.\d s\.$/));
    expect(value('Daily', 'A1')).toBe('day');
    expect(value('Daily', 'A9')).toBe('Total');
  });

  it('asks before writing over another block and data, naming the range; Cancel writes nothing', async () => {
    // Data of the user's own below the report, and the cell C4 inside the report chosen as the target.
    await selectCell('Daily', 'D11');
    // Typed in the formula bar (again if a reload of the grid, which each sidebar call causes, took the text away).
    await eventually(async () => {
      await page.locator('#formula-input').fill('keep me');
      await page.locator('#formula-input').press('Enter');
      await eventually(() => expect(value('Daily', 'D11')).toBe('keep me'), 1_000);
    });
    const before = playground.host.getValues('Daily', 'A1:J12');
    await selectCell('Daily', 'C4');
    await sidebar.locator('#report-target').selectOption('activeCell');
    await eventually(async () => expect(await sidebar.locator('#panel-report').innerText()).toContain('Starting at Daily!C4.'));
    await runAndWait();

    const question = sidebar.locator('#write-question');
    await eventually(async () =>
      expect(await question.locator('#write-question-text').innerText()).toBe(
        'The report would cover Daily!C4:J12, where 37 cells already hold data (Daily!C4:H11, an earlier Engage report). Nothing was written yet.',
      ),
    );
    expect(await question.locator('button').allInnerTexts()).toEqual(['Replace them', 'Write below, from Daily!C13', 'Cancel']);
    // An in-page question, not a browser dialog; and the sheet is as it was.
    expect(b.dialogs).toEqual([]);
    expect(playground.host.getValues('Daily', 'A1:J12')).toEqual(before);

    await question.getByRole('button', { name: 'Cancel' }).click();
    await eventually(async () => expect(await sidebar.locator('#report-outcome').innerText()).toBe('Nothing was written.'));
    expect(playground.host.getValues('Daily', 'A1:J12')).toEqual(before);
  });

  it('writes below on that answer, and says where', async () => {
    await runAndWait();
    await sidebar.locator('#write-question button', { hasText: 'Write below, from Daily!C13' }).click();
    await eventually(async () => expect(await success()).toMatch(/^Wrote 7 rows to Daily!C13:J21 from 1 page/));
    expect(value('Daily', 'C13')).toBe('day');
    expect(value('Daily', 'C21')).toBe('Total');
    expect(value('Daily', 'D11')).toBe('keep me');
    expect(value('Daily', 'C4')).not.toBe('day');
  });

  it('replaces on that answer', async () => {
    await selectCell('Daily', 'D11');
    await runAndWait();
    const question = sidebar.locator('#write-question');
    await eventually(async () => expect(await question.locator('#write-question-text').innerText()).toContain('Daily!D11:K19'));
    await question.getByRole('button', { name: 'Replace them' }).click();
    await eventually(async () => expect(await success()).toMatch(/^Wrote 7 rows to Daily!D11:K19 from 1 page/));
    expect(value('Daily', 'D11')).toBe('day');
  });
});

describe('Run to sheet under the same new-sheet name', () => {
  it('replaces that sheet’s earlier report instead of adding “Weekly (2)”', async () => {
    await sidebar.locator('#report-target').selectOption('newSheet');
    await sidebar.locator('#report-target-name').fill('Weekly');
    await runAndWait();
    await eventually(async () => expect(await success()).toMatch(/^Wrote 7 rows to Weekly!A1:H9 from/));
    await sidebar.locator('#report-preset').selectOption('last14');
    await runAndWait();
    await eventually(async () =>
      expect(await success()).toMatch(/^Wrote 14 rows to Weekly!A1:H16, replacing the earlier report there, from/),
    );
    const names = playground.host.state.spreadsheet.sheets.map((s) => s.name);
    expect(names.filter((n) => n.startsWith('Weekly'))).toEqual(['Weekly']);
    expect(value('Weekly', 'A16')).toBe('Total');
  });

  it('asks first when another report holds that sheet, and can write to a new sheet instead', async () => {
    await chooseBreakdowns(sidebar, ['day', 'country']);
    const requestsBefore = playground.host.fetchLog.length;
    await runAndWait();
    const question = sidebar.locator('#write-question');
    await eventually(async () =>
      expect(await question.locator('#write-question-text').innerText()).toBe(
        'A sheet of that name already exists: 128 cells hold data in Weekly!A1:H16, an earlier Engage report. Nothing was written yet.',
      ),
    );
    // Asked before anything was fetched.
    expect(playground.host.fetchLog.length).toBe(requestsBefore);
    expect(await question.locator('button').allInnerTexts()).toEqual(['Write over it from Weekly!A1', 'New sheet “Weekly (2)”', 'Cancel']);
    await question.getByRole('button', { name: 'New sheet “Weekly (2)”' }).click();
    await eventually(async () => expect(await success()).toMatch(/^Wrote \d+ rows to 'Weekly \(2\)'!A1:J\d+ from/));
    expect(value('Weekly (2)', 'B1')).toBe('country.id');
    expect(value('Weekly', 'B1')).not.toBe('country.id');
  });
});

describe('the report behind a block', () => {
  it('names the report of the selected cell, and reopens it in the builder with its settings', async () => {
    await chooseBreakdowns(sidebar, ['day', 'country']);
    await sidebar.locator('#report-preset').selectOption('last7');
    await sidebar.locator('#filter-add').click();
    await sidebar.locator('.filter-row .filter-field').selectOption('country.name');
    await sidebar.locator('.filter-row .filter-operator').selectOption('not_contains');
    await sidebar.locator('.filter-row .filter-value').fill('United');
    await sidebar.locator('#report-target').selectOption('newSheet');
    await sidebar.locator('#report-target-name').fill('By country');
    await runAndWait();
    await eventually(async () => expect(await success()).toMatch(/^Wrote [\d,]+ rows to 'By country'!A1:J\d+ from/));
    const range = /to ('By country'!A1:J\d+)/.exec(await success())![1]!;

    // The builder moves on to something else.
    await sidebar.locator('#filter-rows button[aria-label="Remove filter"]').click();
    await chooseBreakdowns(sidebar, ['day']);
    await sidebar.locator('#report-preset').selectOption('yesterday');

    // A cell of the block, selected in the sheet: back in the sidebar, its report is named.
    await selectCell('By country', 'C3');
    const found = sidebar.locator('#report-found');
    await eventually(async () =>
      expect(await found.innerText()).toMatch(
        new RegExp(
          `^The selected cell is in the report in ${range.replace(/[()]/g, '\\$&')}, written \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(Europe/Berlin\\)\\. Edit this report$`,
        ),
      ),
    );
    await found.getByRole('button', { name: 'Edit this report' }).click();

    // The builder holds that report again: period, breakdowns, filter, and its place as the target.
    await eventually(async () => expect(await sidebar.locator('#report-editing').innerText()).toContain(`Editing the report in ${range}`));
    expect(await sidebar.locator('#report-preset').inputValue()).toBe('last7');
    expect(
      await sidebar
        .locator('input[name=breakdown]:checked')
        .evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value)),
    ).toEqual(['day', 'country']);
    expect(await sidebar.locator('.filter-row .filter-field').inputValue()).toBe('country.name');
    expect(await sidebar.locator('.filter-row .filter-operator').inputValue()).toBe('not_contains');
    expect(await sidebar.locator('.filter-row .filter-value').inputValue()).toBe('United');
    expect(await sidebar.locator('#metrics-summary').innerText()).toBe('7, the default set');
    expect(await sidebar.locator('#report-target').inputValue()).toBe('existingSheet');
    expect(await sidebar.locator('#report-target-sheet').inputValue()).toBe('By country');
    expect(await sidebar.locator('#report-target-cell').inputValue()).toBe('A1');
    expect(await sidebar.locator('#report-found').count()).toBe(0);
  });

  it('runs it again in place: its block is replaced without a question', async () => {
    await sidebar.locator('#report-preset').selectOption('yesterday');
    await runAndWait();
    await eventually(async () =>
      expect(await success()).toMatch(/^Wrote [\d,]+ rows to 'By country'!A1:J\d+, replacing the earlier report there, from/),
    );
    expect(await sidebar.locator('#write-question').count()).toBe(0);
    const days = playground.host
      .getValues('By country', 'A2:A400')
      .map((row) => row[0])
      .filter((d) => d instanceof Date)
      .map((d) => (d as Date).getTime());
    expect(new Set(days).size).toBe(1);
    const countries = playground.host.getValues('By country', 'C2:C400').flat().map(String);
    expect(countries.some((name) => name.includes('United'))).toBe(false);
    expect(playground.host.state.spreadsheet.sheets.map((s) => s.name)).not.toContain('By country (2)');
  });
});

describe('the progress of a run', () => {
  it('stays in sight while the sidebar scrolls: "Fetched n of m pages" sticks to the bottom', async () => {
    // The page takes four seconds, so the run is slow enough to watch.
    await fetch(`${playground.emulator.adminUrl}/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ faults: [{ match: 'reports/main', latencyMs: 4000, times: 1 }] }),
    });
    if (await sidebar.locator('#report-stop-editing').count()) await sidebar.locator('#report-stop-editing').click();
    for (const remove of await sidebar.locator('#filter-rows button[aria-label="Remove filter"]').all()) await remove.click();
    await chooseBreakdowns(sidebar, ['day', 'country']);
    await sidebar.locator('#report-preset').selectOption('last30');
    await sidebar.locator('#report-target').selectOption('newSheet');
    await sidebar.locator('#report-target-name').fill('Paged');
    await sidebar.locator('#run-report').click();
    const progress = sidebar.locator('#run-progress');
    await eventually(async () => expect(await progress.locator('.progress-text').innerText()).toMatch(/^Fetched \d+ of \d+ pages?…$/));
    // The user scrolls back up to the top of the form meanwhile: the line is still on screen.
    await sidebar.locator('html').evaluate((html) => html.ownerDocument.defaultView!.scrollTo(0, 0));
    const place = await progress.evaluate((node) => {
      const rect = node.getBoundingClientRect();
      const view = node.ownerDocument.defaultView!;
      const button = node.ownerDocument.getElementById('run-report')!.getBoundingClientRect();
      return { top: rect.top, bottom: rect.bottom, height: view.innerHeight, scrolled: view.scrollY, button: button.top };
    });
    // Scrolled to the top, the Run button (which the line follows in the form) is below the window's edge...
    expect(place.scrolled).toBe(0);
    expect(place.button).toBeGreaterThan(place.height);
    // ...while the line itself is on screen, at its bottom.
    expect(place.top).toBeGreaterThanOrEqual(0);
    expect(place.bottom).toBeLessThanOrEqual(place.height);
    expect(await progress.locator('.progress-text').innerText()).toMatch(/^Fetched \d+ of \d+ pages?…$/);
    await sidebar.locator('#report-outcome .notice, #write-question').first().waitFor({ timeout: 60_000 });
    expect(await sidebar.locator('#report-outcome').innerText()).toMatch(/^Wrote [\d,]+ rows to Paged!A1:J\d+ from 1 page/);
    expect(await progress.isHidden()).toBe(true);
    await fetch(`${playground.emulator.adminUrl}/faults`, { method: 'DELETE' });
  });
});
