/**
 * Browser test of where the saved-report editor's messages go, in the playground's 300 px sidebar: a
 * refusal that names a field is under that field, worded with its label, the field outlined and read
 * with it, and in view without scrolling; a refused write-mode change shows the sheet and cell to
 * point it elsewhere, and saves once pointed (an append's snapshotAt shown to the second); no message
 * outlives its tab or its report; and no tab is wider than the sidebar, nor the page than the window.
 */
import type { FrameLocator, Locator } from 'playwright-core';
import { eventually, openPlayground, type BrowserPlayground, selectCell, signInAsDemo } from '../support/browser';

jest.setTimeout(120_000);

let b: BrowserPlayground;

beforeAll(async () => {
  b = await openPlayground();
  await signInAsDemo(b.sidebar);
});
afterAll(async () => {
  await b?.close();
});

type Listed = { reports: Array<{ id: string; name: string; definition: { destination: Record<string, unknown> } }> };
const listed = () => b.playground.host.call('listSchedules', [], { user: b.playground.user }) as Listed;

/** Whether the element's box lies whole within the sidebar's frame, as it is scrolled now. */
async function inView(element: Locator): Promise<boolean> {
  const frame = (await b.page.locator('#sidebar').boundingBox())!;
  const box = (await element.boundingBox())!;
  return box.y >= frame.y && box.y + box.height <= frame.y + frame.height && box.x >= frame.x && box.x + box.width <= frame.x + frame.width;
}

/** The refused field: outlined, its message right under it by label and read with it, both in view. */
async function refusedUnder(sidebar: FrameLocator, id: string, message: RegExp): Promise<void> {
  const control = sidebar.locator(`#${id}`);
  const problem = sidebar.locator(`#${id}-problem`);
  await eventually(async () => expect(await problem.innerText()).toMatch(message));
  expect(await control.getAttribute('aria-invalid')).toBe('true');
  expect(await control.evaluate((node) => node.classList.contains('invalid'))).toBe(true);
  expect((await control.getAttribute('aria-describedby'))?.split(' ')).toContain(`${id}-problem`);
  const [controlBox, problemBox] = [(await control.boundingBox())!, (await problem.boundingBox())!];
  expect(problemBox.y).toBeGreaterThanOrEqual(controlBox.y + controlBox.height);
  // Under it: nothing but the field's own hint between the two.
  expect(problemBox.y - (controlBox.y + controlBox.height)).toBeLessThan(80);
  expect(await inView(control)).toBe(true);
  expect(await inView(problem)).toBe(true);
}

async function openTab(sidebar: FrameLocator, id: string): Promise<void> {
  await sidebar.locator(`#tab-${id}`).click();
  await eventually(async () => expect(await sidebar.locator(`#panel-${id}`).isVisible()).toBe(true));
}

async function saveFromReportTab(sidebar: FrameLocator, name: string, sheet: string, mode: 'replace' | 'append'): Promise<void> {
  await openTab(sidebar, 'report');
  if (!(await sidebar.locator('#schedule-form').isVisible())) await sidebar.locator('#save-schedule').click();
  await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
  await sidebar.locator('#schedule-name').fill(name);
  await sidebar.locator('#schedule-sheet').fill(sheet);
  await sidebar.locator('#schedule-cell').fill('A1');
  await sidebar.locator('#schedule-write-mode').selectOption(mode);
  await sidebar.locator('#schedule-webhook').fill('');
  await sidebar.locator('#schedule-save').click();
  await eventually(async () => expect(await sidebar.locator('#schedule-outcome .notice-success').innerText()).toContain(`Saved “${name}”`));
}

it('puts a refused webhook under its field, by its label, outlined and in view; it goes with a change, another tab or another report', async () => {
  const { sidebar } = b;
  await openTab(sidebar, 'report');
  await sidebar.locator('#save-schedule').click();
  await eventually(async () => expect(await sidebar.locator('#schedule-form').isVisible()).toBe(true));
  await sidebar.locator('#schedule-name').fill('Hooked');
  await sidebar.locator('#schedule-sheet').fill('Hooked');
  await sidebar.locator('#schedule-webhook').fill('http://hooks.slack.com/services/T0/B0/key');
  await sidebar.locator('#schedule-save').click();
  await refusedUnder(sidebar, 'schedule-webhook', /^Webhook: must be an https address/);
  // Not the server's argument name, and not again beside the button.
  expect(await sidebar.locator('#schedule-form').innerText()).not.toContain('notices.webhook');
  expect(await sidebar.locator('#schedule-outcome').innerText()).toBe('');
  expect(listed().reports).toEqual([]);

  // A change to the field: the message goes, and the outline.
  await sidebar.locator('#schedule-webhook').fill('http://hooks.slack.com/services/T0/B0/key2');
  expect(await sidebar.locator('#schedule-webhook-problem').count()).toBe(0);
  expect(await sidebar.locator('#schedule-webhook').getAttribute('aria-invalid')).toBeNull();

  // Refused again, then another tab: it goes.
  await sidebar.locator('#schedule-save').click();
  await refusedUnder(sidebar, 'schedule-webhook', /^Webhook: must be an https address/);
  await openTab(sidebar, 'schedules');
  await openTab(sidebar, 'report');
  expect(await sidebar.locator('.field-problem').count()).toBe(0);
  expect(await sidebar.locator('#schedule-webhook').getAttribute('aria-invalid')).toBeNull();

  // Refused again, then saved fixed: the saved report opened again in the builder shows no message of the refusal.
  await sidebar.locator('#schedule-save').click();
  await refusedUnder(sidebar, 'schedule-webhook', /^Webhook: must be an https address/);
  await saveFromReportTab(sidebar, 'Hooked', 'Hooked', 'replace');
  expect(await sidebar.locator('.field-problem').count()).toBe(0);
});

it('offers a new sheet and cell for a refused write-mode change, which then saves; the refusal leaves with its tab', async () => {
  const { sidebar } = b;
  await saveFromReportTab(sidebar, 'Kept snapshots', 'Kept', 'append');
  await sidebar.locator('#schedule-open-list').click();
  const item = sidebar.locator('article.schedule', { hasText: 'Kept snapshots' });
  await item.getByRole('button', { name: 'Run now' }).click();
  await eventually(
    async () => expect(await item.locator('.schedule-status').innerText()).toMatch(/Last success\s+\S.*, [\d,]+ rows in/),
    60_000,
  );
  const id = listed().reports.find((r) => r.name === 'Kept snapshots')!.id;
  // Its snapshotAt shows the run's second, so two runs in one minute differ.
  await selectCell(b, 'Kept', 'A2');
  await eventually(async () =>
    expect(await b.page.locator('#grid td[data-a1="A2"]').innerText()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
  );

  const refuse = async () => {
    await item.getByRole('button', { name: 'Edit' }).click();
    const edit = item.locator('form.schedule-edit');
    // The sheet and cell are the saved report's, and hidden until a refusal asks for them.
    expect(await edit.locator(`#edit-${id}-sheet`).isVisible()).toBe(false);
    await edit.locator(`#edit-${id}-write-mode`).selectOption('upsert');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await refusedUnder(
      sidebar,
      `edit-${id}-write-mode`,
      /^Write mode: cannot turn 'append' into 'upsert' at Kept!A1: .*Point it at another sheet or cell first/,
    );
    expect(await sidebar.locator('#schedules-message').innerText()).toBe('');
    expect(await edit.locator(`#edit-${id}-sheet`).isVisible()).toBe(true);
    expect(await edit.locator(`#edit-${id}-sheet`).inputValue()).toBe('Kept');
    expect(await edit.locator(`#edit-${id}-cell`).inputValue()).toBe('A1');
    return edit;
  };
  await refuse();
  // Another tab, a schedule saved there, and back: nothing of the refusal is left.
  await saveFromReportTab(sidebar, 'Another', 'Another', 'replace');
  await openTab(sidebar, 'schedules');
  await eventually(async () => expect(await sidebar.locator('article.schedule').count()).toBe(listed().reports.length));
  expect(await sidebar.locator('.field-problem').count()).toBe(0);
  expect(await sidebar.locator('#schedules-message').innerText()).not.toContain('cannot turn');

  // Refused again, then pointed at another cell: it saves, upserting there.
  const edit = await refuse();
  await edit.locator(`#edit-${id}-cell`).fill('H1');
  expect(await sidebar.locator(`#edit-${id}-write-mode-problem`).count()).toBe(1);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await eventually(async () =>
    expect(await sidebar.locator('#schedules-message').innerText()).toContain('Saved the changes to “Kept snapshots”'),
  );
  expect(listed().reports.find((r) => r.id === id)!.definition.destination).toMatchObject({
    writeMode: 'upsert',
    target: { sheetName: 'Kept', cell: 'H1' },
  });
  expect(await sidebar.locator('.field-problem').count()).toBe(0);
});

it('keeps every tab within the 300 px sidebar, and the playground’s page beside it: neither scrolls sideways', async () => {
  const { sidebar, page } = b;
  // The page: its sidebar 300 px wide beside its 1 px border, no wider than the window.
  expect((await page.locator('#sidebar').boundingBox())!.width).toBe(300);
  expect(await page.locator('html').evaluate((html) => html.ownerDocument.scrollingElement!.scrollWidth - html.clientWidth)).toBe(0);
  for (const id of ['report', 'schedules', 'recommendations', 'account']) {
    await openTab(sidebar, id);
    if (id === 'report' && !(await sidebar.locator('#schedule-form').isVisible())) await sidebar.locator('#save-schedule').click();
    const widths = await sidebar.locator('html').evaluate((html) => ({
      scroll: html.ownerDocument.scrollingElement!.scrollWidth,
      client: html.ownerDocument.scrollingElement!.clientWidth,
    }));
    expect([id, widths.scroll]).toEqual([id, widths.client]);
    expect(widths.client).toBeLessThanOrEqual(300);
  }
});
