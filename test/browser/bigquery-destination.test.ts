/**
 * Browser test of a saved report's BigQuery destination in the sidebar, 300 px wide: the saved-report
 * editor's table fields (sidebar/editor/destination-fields.ts) in its two mounts. The tests' own
 * build (no "bigquery") offers none: its Schedule section has no BigQuery element or text at all,
 * nor its page the code that would make them. The same deployment built with "bigquery": true, its calls sent to the emulator's BigQuery stand-in,
 * offers "This sheet" or "BigQuery table": choosing the table shows its project, dataset, name and
 * location and withdraws the write mode, closed months and alerts (a table replaces each day's
 * partition); a table name BigQuery refuses is refused under its field, naming it, with no request
 * to the stand-in; a good one saves the destination, Run now loads the period's days into the
 * stand-in's table, the Schedules tab's Edit form shows the table without write modes or alerts (and
 * a location the dataset is not in is refused under its field), and "Change the report" then saving
 * again keeps it. Nothing reaches past the sidebar's right edge.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { installScriptRun, launchChromium, serveSidebar, eventually } from '../support/browser';
import { bigQueryBundle, type Bundle } from '../support/bundles';
import { BIG_PUBLISHER_ID } from '../support/emulator';
import { distSidebar } from '../support/paths';

jest.setTimeout(120_000);

const PROJECT = 'engage-tests-1';
const DATASET = 'engage_reports';
const TABLE = { projectId: PROJECT, datasetId: DATASET, tableId: 'daily_revenue', location: 'EU' };

let h: AddonHarness;
let bq: BigQueryHandle;
let browser: Browser;
let bundle: Bundle;

beforeAll(async () => {
  browser = await launchChromium();
  h = await startAddon({}, async (emulator) => (bundle = await bigQueryBundle(bigQueryOf(emulator).rootUrl)));
  bq = bigQueryOf(h.emulator);
  await bq.createDataset(PROJECT, DATASET, 'EU');
  h.signIn();
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** A sidebar page 300 px wide, `html` served (the tests' build by default), its calls run in the host as the owner. */
async function openSidebar(html?: string): Promise<{ page: Page; close(): Promise<void> }> {
  const served = await serveSidebar(html);
  const page = await browser.newPage({ viewport: { width: 300, height: 900 } });
  await installScriptRun(page, h.host, OWNER);
  await page.goto(served.url);
  await eventually(async () => expect(await page.locator('#report-publisher').inputValue()).toBe(BIG_PUBLISHER_ID));
  return {
    page,
    async close() {
      await page.close();
      await served.close();
    },
  };
}

/** Elements reaching past the page's right edge, under `selector`. */
const overflowing = (page: Page, selector: string) =>
  page.locator(selector).evaluate((root) => {
    type Box = { tagName: string; id: string; className: string; getBoundingClientRect(): { width: number; right: number } };
    const width = root.ownerDocument.documentElement.clientWidth;
    return (Array.from(root.querySelectorAll('*')) as unknown as Box[])
      .filter((node) => node.getBoundingClientRect().width > 0 && node.getBoundingClientRect().right > width + 0.5)
      .map((node) => `${node.tagName.toLowerCase()}#${node.id}.${node.className}`);
  });

const listed = () =>
  h.host.call('listSchedules', [], { user: OWNER }) as { reports: Array<{ id: string; definition: Record<string, unknown> }> };

it('offers no BigQuery destination in a build without "bigquery": no element, option or text of it', async () => {
  const { page, close } = await openSidebar();
  try {
    await page.locator('#save-schedule').click();
    await eventually(async () => expect(await page.locator('#schedule-form').isVisible()).toBe(true));
    expect(await page.locator('#schedule-destination, #schedule-bigquery, [id*="-bq-"]').count()).toBe(0);
    // The whole page, its scripts and styles aside: markup, attributes, options and text.
    const shown = await page.locator('body').evaluate((body) => {
      type Node = { outerHTML: string; remove(): void; querySelectorAll(selector: string): ArrayLike<Node> };
      const copy = body.cloneNode(true) as unknown as Node;
      for (const node of Array.from(copy.querySelectorAll('script, style'))) node.remove();
      return copy.outerHTML;
    });
    expect(shown).toContain('Write mode');
    expect(shown).not.toMatch(/big ?query/i);
    // Nor its code: the build leaves it out (the BigQuery build's page has it).
    const rule =
      'BigQuery takes one publisher’s general report by day, or its external-ID report by hour, loaded a whole UTC day at a time.';
    expect(fs.readFileSync(distSidebar, 'utf8')).not.toContain(rule);
    expect(bundle.sidebar).toContain(rule);
  } finally {
    await close();
  }
});

it('saves, runs and edits a report into a BigQuery table from a build with "bigquery": true, at 300 px', async () => {
  const { page, close } = await openSidebar(bundle.sidebar);
  try {
    await page.locator('#report-preset').selectOption('last7');
    await page.locator('#save-schedule').click();
    await eventually(async () => expect(await page.locator('#schedule-form').isVisible()).toBe(true));
    expect(await page.locator('#schedule-destination-sheet').isChecked()).toBe(true);
    expect(await page.locator('#schedule-bigquery').isVisible()).toBe(false);
    expect(await page.locator('#schedule-write-mode').isVisible()).toBe(true);

    // The table's four fields, each with its hint; the sheet-only choices withdrawn, the notices kept.
    await page.locator('label[for="schedule-destination-bigquery"]').click();
    for (const id of ['project', 'dataset', 'table', 'location']) expect(await page.locator(`#schedule-bq-${id}`).isVisible()).toBe(true);
    expect(await page.locator('#schedule-bq-table-hint').innerText()).toBe(
      'Made when missing, one partition a day: each refreshed day replaces its own.',
    );
    expect(await page.locator('#schedule-status-hint').innerText()).toBe(
      'The status of the loads (days loaded, what is left) is written here.',
    );
    for (const hidden of ['#schedule-write-mode', '#schedule-closed', '#schedule-alert-add', '#schedule-alerts'])
      expect(await page.locator(hidden).isVisible()).toBe(false);
    expect(await page.locator('#schedule-notify-when').isVisible()).toBe(true);
    expect(await overflowing(page, '#schedule-form')).toEqual([]);

    // A table name BigQuery refuses: refused under its field, naming it, before any request to BigQuery.
    await page.locator('#schedule-name').fill('Revenue into BigQuery');
    await page.locator('#schedule-bq-project').fill(TABLE.projectId);
    await page.locator('#schedule-bq-dataset').fill(TABLE.datasetId);
    await page.locator('#schedule-bq-table').fill('daily$revenue');
    await page.locator('#schedule-bq-location').fill(TABLE.location);
    const requestsBefore = (await bq.requests()).length;
    await page.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await page.locator('#schedule-bq-table-problem').innerText()).toBe(
        "Table: 'daily$revenue' is not a table name: it may hold letters, marks, digits, underscores, dashes and spaces, not '$' (it marks a partition, such as table$20250101)",
      ),
    );
    expect(await page.locator('#schedule-outcome').innerText()).toBe('');
    expect(await page.locator('#schedule-bq-table').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#schedule-bq-dataset-problem').count()).toBe(0);
    expect((await bq.requests()).length).toBe(requestsBefore);
    expect(listed().reports).toEqual([]);
    expect(await overflowing(page, '#schedule-form')).toEqual([]);

    // The builder's row limit is for a sheet: refused in the builder's words, before anything is sent.
    await page.locator('#schedule-bq-table').fill(TABLE.tableId);
    await page.locator('#report-max-rows').fill('10');
    await page.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await page.locator('#schedule-outcome .notice-error').innerText()).toBe(
        'Row limit: a BigQuery table takes every row of the period; empty the Row limit above, or choose This sheet.',
      ),
    );
    expect((await bq.requests()).length).toBe(requestsBefore);
    expect(listed().reports).toEqual([]);
    await page.locator('#report-max-rows').fill('');

    // The hourly external-ID report goes to BigQuery too, by whole UTC days: days to load in place of the builder's hours.
    expect(await page.locator('#schedule-bq-days').isVisible()).toBe(false);
    await page.locator('label[for="report-kind-externalId"]').click();
    await eventually(async () => expect(await page.locator('#schedule-bq-days').isVisible()).toBe(true));
    expect(await page.locator('#schedule-period').innerText()).toBe('the 7 days before today (UTC days), each hour a row.');
    await page.locator('#schedule-bq-days').fill('0');
    await page.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await page.locator('#schedule-outcome .notice-error').innerText()).toBe(
        'Days to load: write a whole number of days from 1 to 366 (a BigQuery table is loaded a whole UTC day at a time).',
      ),
    );
    expect((await bq.requests()).length).toBe(requestsBefore);
    await page.locator('#schedule-bq-days').fill('3');
    await page.locator('#schedule-bq-table').fill('ids_hourly');
    await page.locator('#schedule-save').click();
    await eventually(async () => expect(await page.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved'));
    const hourly = listed().reports;
    expect(hourly).toHaveLength(1);
    expect(hourly[0]!.definition).toMatchObject({
      kind: 'externalId',
      period: { type: 'lastDays', days: 3, endingYesterday: true },
      destination: { kind: 'bigquery', table: { ...TABLE, tableId: 'ids_hourly' } },
    });
    h.host.call('deleteSchedule', [hourly[0]!.id], { user: OWNER });
    await page.locator('label[for="report-kind-main"]').click();
    await page.locator('#report-preset').selectOption('last7');
    await page.locator('#save-schedule').click();
    await eventually(async () => expect(await page.locator('#schedule-form').isVisible()).toBe(true));
    await page.locator('#schedule-name').fill('Revenue into BigQuery');
    await page.locator('#schedule-bq-table').fill(TABLE.tableId);
    expect(await page.locator('#schedule-bq-days').isVisible()).toBe(false);

    // A good one saves; the server has the destination, and nothing of a sheet's write modes or alerts.
    await page.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await page.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved “Revenue into BigQuery”'),
    );
    expect(await page.locator('#schedule-bq-table-problem').count()).toBe(0);
    const saved = listed().reports;
    expect(saved).toHaveLength(1);
    expect(saved[0]!.definition).toMatchObject({ kind: 'main', breakdowns: ['day'], destination: { kind: 'bigquery', table: TABLE } });
    const { destination } = saved[0]!.definition as { destination: Record<string, unknown> };
    for (const field of ['writeMode', 'maxStoredRows', 'incremental', 'closedThrough']) expect(destination).not.toHaveProperty(field);
    expect(saved[0]!.definition).not.toHaveProperty('alerts');

    // Run now loads the period's 7 days into the table, one partition each.
    await page.locator('#schedule-open-list').click();
    const article = page.locator('article.schedule').first();
    await article.getByRole('button', { name: 'Run now' }).click();
    await eventually(async () => expect(await page.locator('#schedules-message .notice-success').innerText()).toMatch(/^Refreshed/));
    const stored = await bq.table(PROJECT, DATASET, TABLE.tableId);
    const days = Object.keys(stored!.partitions).sort();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    expect(days).toHaveLength(7);
    expect(days.at(-1)).toBe(yesterday);
    expect(stored!.rows).toHaveLength(7);
    expect(stored!.rows.every((row) => Number(row.revenue) > 0)).toBe(true);

    // The Schedules tab's Edit form: the table, no write mode or alerts; a location the dataset is not in is refused under its field.
    await article.getByRole('button', { name: 'Edit' }).click();
    const edit = article.locator('form.schedule-edit');
    const prefix = `#edit-${saved[0]!.id}`;
    expect(await edit.locator(`${prefix}-bq-table`).inputValue()).toBe(TABLE.tableId);
    expect(await edit.locator(`${prefix}-write-mode`).count()).toBe(0);
    expect(await edit.locator(`${prefix}-alert-add`).isVisible()).toBe(false);
    await edit.locator(`${prefix}-bq-location`).fill('US');
    await edit.locator('.edit-save').click();
    await eventually(async () => expect(await edit.locator(`${prefix}-bq-location-problem`).innerText()).toMatch(/EU/));
    expect(listed().reports[0]!.definition.destination).toMatchObject({ kind: 'bigquery', table: TABLE });
    expect(await overflowing(page, '.schedule-list')).toEqual([]);

    // "Change the report", then saving again, keeps the destination.
    await edit.getByRole('button', { name: /^Change the report/ }).click();
    await eventually(async () => expect(await page.locator('#tab-report').getAttribute('aria-selected')).toBe('true'));
    await page.locator('#save-schedule').click();
    await eventually(async () => expect(await page.locator('#schedule-form').isVisible()).toBe(true));
    expect(await page.locator('#schedule-destination-bigquery').isChecked()).toBe(true);
    expect(await page.locator('#schedule-bq-dataset').inputValue()).toBe(DATASET);
    expect(await page.locator('#schedule-write-mode').isVisible()).toBe(false);
    await page.locator('#schedule-save').click();
    await eventually(async () =>
      expect(await page.locator('#schedule-outcome .notice-success').innerText()).toContain('Saved “Revenue into BigQuery”'),
    );
    expect(listed().reports).toHaveLength(1);
    expect(listed().reports[0]!.definition.destination).toMatchObject({ kind: 'bigquery', table: TABLE });
  } finally {
    await close();
  }
});
