/**
 * Saved reports as they were stored before destinations were a concept (the flat shape: a target
 * cell, an optional `bigquery` table, writeMode, maxStoredRows, incremental, closedThrough beside
 * them), in the exact JSON the add-on wrote then to the document's properties and to the user's
 * registry (test/fixtures/saved-reports-before-destinations.json: a replace with totals and notices
 * always, an append with a webhook and an alert, a weekly upsert, an incremental report with a row
 * cap, closed months with a change alert, a paused BigQuery report). The built bundle with
 * `"bigquery": true` reads them as they are, lists them without loss, and refreshes each into its
 * destination: rows at the target cells in their modes, the table's days loaded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { OWNER, type AddonHarness } from '../support/addon-host';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { bigQueryBundle } from '../support/bundles';
import { repoRoot } from '../support/paths';
import { WAREHOUSE_USER } from '../support/emulator';
import { nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(300_000);

const START = '2026-11-20T05:30:00.000Z';
const FIXTURE = path.join(repoRoot, 'test/fixtures/saved-reports-before-destinations.json');
const stored = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as { document: Record<string, string>; user: Record<string, string> };

interface View {
  id: string;
  name: string;
  definition: Record<string, unknown>;
  target: string;
  status: { rows?: number; lastError?: { message: string }; progress?: string };
  notices: { when: string; email: boolean; webhook?: string; alerts: Array<{ text: string }> };
}
type List = { reports: View[] };

/** The definitions as stored, by name, without what the store adds. */
const definitions = new Map(
  Object.entries(stored.document)
    .filter(([key]) => key.startsWith('engage.sr.def.'))
    .map(([, text]) => {
      const { id: _id, ownerId: _owner, createdAtMs: _c, updatedAtMs: _u, ...definition } = JSON.parse(text) as Record<string, unknown>;
      return [definition.name as string, definition] as const;
    }),
);

let h: AddonHarness;
let bq: BigQueryHandle;
const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const listed = (name: string) => call<List>('listSchedules').reports.find((r) => r.name === name)!;

beforeAll(async () => {
  h = await startScheduledAddon(START, { documentId: 'doc-saved-before-destinations', sheets: ['Sheet1'] }, undefined, (emulator) =>
    bigQueryBundle(bigQueryOf(emulator).rootUrl),
  );
  bq = bigQueryOf(h.emulator);
  await bq.createDataset('engage-tests-1', 'engage_reports', 'EU');
  h.signIn();
  for (const [key, value] of Object.entries(stored.document)) h.host.properties('document').set(key, value);
  for (const [key, value] of Object.entries(stored.user)) h.host.properties('user', OWNER).set(key, value);
});
afterAll(async () => {
  await h?.close();
});

describe('saved reports stored before destinations', () => {
  it('are listed with their definitions whole, where their rows go said as before', () => {
    const reports = call<List>('listSchedules').reports;
    expect(reports.map((r) => r.name).sort()).toEqual([...definitions.keys()].sort());
    for (const report of reports) {
      // The webhook's address is kept in the user's registry, never in the definition: the list shows it redacted.
      const { notices, ...rest } = report.definition as { notices?: { webhook?: string } };
      const { notices: storedNotices, ...storedRest } = definitions.get(report.name) as { notices?: { webhook?: string } };
      expect(rest).toEqual(storedRest);
      expect(notices).toEqual(storedNotices);
    }
    expect(listed('Replace').target).toBe('Replace!B2');
    expect(listed('Warehouse').target).toBe("BigQuery engage-tests-1.engage_reports.ledger (status in 'BQ status'!A1)");
    expect(listed('Append').notices.webhook).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…$/);
    expect(listed('Append').notices.alerts.map((a) => a.text)).toEqual(['revenue (Total row) above 1']);
    expect(listed('Closed months').notices.alerts).toHaveLength(1);
  });

  it('refresh each into its destination, in its mode', async () => {
    const mailsBefore = h.host.mails.length;
    // The hourly trigger (installed again when the list was read) refreshes the five that are not paused.
    expect(h.host.triggers).toHaveLength(1);
    nextTriggerRun(h);
    for (const name of definitions.keys())
      if (name !== 'Warehouse') expect({ name, ...listed(name).status }).toMatchObject({ name, rows: expect.any(Number) });
    for (const name of definitions.keys()) expect(listed(name).status.lastError).toBeUndefined();
    // The paused BigQuery report, run now; its publisher is another Engage user's, whom its owner signs in as.
    h.host.call('signIn', [WAREHOUSE_USER.username, WAREHOUSE_USER.password], { user: OWNER });
    const { summary } = call<{ summary: { refreshed: string[]; failed: string[] } }>('runScheduleNow', listed('Warehouse').id);
    expect(summary).toMatchObject({ refreshed: [listed('Warehouse').id], failed: [] });
    // A replace at B2 with its Total row, an append after its snapshotAt column, an upsert and an incremental report by day.
    expect(h.host.getValues('Replace')[1]![1]).toBe('day');
    expect(h.host.getValues('Replace').flat()).toContain('Total');
    expect(h.host.getValues('Append')[0]![0]).toBe('snapshotAt');
    expect(h.host.getValues('Upsert')[0]!.slice(0, 2)).toEqual(['day', 'country.id']);
    expect(h.host.getValues('Incremental')[0]![0]).toBe('day');
    expect(h.host.getValues('Closed')[0]![0]).toBe('day');
    for (const name of ['Replace', 'Append', 'Upsert', 'Incremental', 'Closed months']) expect(listed(name).status.rows).toBeGreaterThan(0);
    // The paused BigQuery report: its three days in the table, its status block at its cell.
    expect(listed('Warehouse').status.progress).toMatch(/^BigQuery: 3 of 3 days loaded/);
    expect(Object.keys((await bq.table('engage-tests-1', 'engage_reports', 'ledger'))!.partitions)).toHaveLength(3);
    expect(h.host.getValues('BQ status')[0]![0]).toBe('BigQuery table');
    // Notices as configured: "always" told by email of the replace's refresh.
    const subjects = h.host.mails.slice(mailsBefore).map((m) => (m as { subject: string }).subject);
    expect(subjects.filter((s) => s.includes('"Replace"'))).toHaveLength(1);
  });
});
