/**
 * Browser test of Insert formula in the playground's 300 px sidebar, over a filled cell: after Run to
 * sheet, the report's first cell holds its header, and Insert formula there asks first, as Run to
 * sheet does, saying where the formula's result fills and which cells already hold data. Cancel
 * leaves every cell as it was; "Replace them" clears them and writes the formula, whose result then
 * fills them without #REF!. Into an empty cell, it asks nothing.
 */
import { eventually, openPlayground, type BrowserPlayground, selectCell, signInAsDemo } from '../support/browser';

jest.setTimeout(90_000);

let b: BrowserPlayground;

beforeAll(async () => {
  b = await openPlayground();
});
afterAll(async () => {
  await b?.close();
});

const SHEET = 'Filled';
const cells = (range: string) =>
  b.playground.host.getValues(SHEET, range).map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : v)));

it('asks before Insert formula writes over a filled cell: Cancel leaves it, Replace them writes the formula', async () => {
  const { sidebar, playground } = b;
  expect(await sidebar.locator('html').evaluate((html) => html.clientWidth)).toBeLessThanOrEqual(300);
  await signInAsDemo(sidebar);
  await sidebar.locator('#report-preset').selectOption('last7');
  await sidebar.locator('#report-target').selectOption('newSheet');
  await sidebar.locator('#report-target-name').fill(SHEET);
  await sidebar.locator('#run-report').click();
  await eventually(async () =>
    expect(await sidebar.locator('#report-outcome .notice-success').first().innerText()).toContain('Wrote 7 rows'),
  );
  const written = cells('A1:Z9');
  expect(written[0]![0]).toBe('day');

  // Over the report's header: a question, in the page, that says where the result fills; nothing written yet.
  await selectCell(b, SHEET, 'A1');
  await sidebar.locator('#insert-formula').click();
  const question = sidebar.locator('#write-question');
  await eventually(async () =>
    expect(await question.locator('#write-question-text').innerText()).toMatch(
      /^The formula's result fills Filled!A1:[A-Z], as many rows down as the report has, where \d+ cells already hold data \(Filled!A1:[A-Z]9, an earlier Engage report\): the formula would write over them, or stop at #REF!\. Nothing was written yet\.$/,
    ),
  );
  expect(await question.locator('button').allInnerTexts()).toEqual(['Replace them with the formula', 'Cancel']);
  expect(b.dialogs).toEqual([]);
  expect(playground.host.getCell(SHEET, 'A1').formula).toBe('');

  // Cancel: every cell as it was.
  await question.locator('[data-choice=cancel]').click();
  await eventually(async () => expect(await sidebar.locator('#report-outcome').innerText()).toBe('Nothing was written.'));
  expect(cells('A1:Z9')).toEqual(written);
  expect(playground.host.getCell(SHEET, 'A1').formula).toBe('');

  // Asked again and answered: the formula replaces the cells, and its result fills them.
  await sidebar.locator('#insert-formula').click();
  await eventually(async () => expect(await question.isVisible()).toBe(true));
  await question.locator('[data-choice=replace]').click();
  await eventually(async () => expect(await sidebar.locator('#inserted-formula').innerText()).toMatch(/^=ENGAGE_REPORT\(/));
  const formula = playground.host.getCell(SHEET, 'A1');
  expect(formula.formula).toMatch(/^=ENGAGE_REPORT\(/);
  expect(formula.error).toBeUndefined();
  expect(cells('A1:Z9')[0]![0]).toBe('day');
  expect(await sidebar.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth)).toBe(0);
});

it('inserts into an empty cell without asking', async () => {
  const { sidebar, playground } = b;
  await selectCell(b, SHEET, 'A20');
  await sidebar.locator('#insert-formula').click();
  await eventually(async () => expect(await sidebar.locator('#inserted-formula').innerText()).toMatch(/^=ENGAGE_REPORT\(/));
  expect(await sidebar.locator('#write-question').count()).toBe(0);
  expect(playground.host.getCell(SHEET, 'A20').formula).toMatch(/^=ENGAGE_REPORT\(/);
});
