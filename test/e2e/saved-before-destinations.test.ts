/**
 * Saved reports as they were stored before destinations were a concept (the flat shape: a target
 * cell, an optional `bigquery` table, writeMode, maxStoredRows, incremental, closedThrough beside
 * them), in the exact JSON the add-on wrote then to the document's properties and to the user's
 * registry (test/fixtures/saved-reports-before-destinations.json: a replace with totals and notices
 * always, an append with a webhook and an alert, a weekly upsert, an incremental report with a row
 * cap, closed months with a change alert, a paused BigQuery report). The built bundle with
 * `"bigquery": true` reads them as they are, lists them without loss in today's shape (one `destination`
 * holding the target and the sheet's fields, or the table), and refreshes each into its destination:
 * rows at the target cells in their modes, the table's days loaded; an edit saves the new shape.
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

/** The fields a saved report held at its top level before `destination`, all of them its destination's now. */
const FLAT_FIELDS = ['target', 'writeMode', 'maxStoredRows', 'incremental', 'closedThrough', 'bigquery'];

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
  it('are listed with their definitions whole, each in one destination, where their rows go said as before', () => {
    const reports = call<List>('listSchedules').reports;
    expect(reports.map((r) => r.name).sort()).toEqual([...definitions.keys()].sort());
    for (const report of reports) {
      // The webhook's address is kept in the user's registry, never in the definition: the list shows it redacted.
      const { notices, destination, ...rest } = report.definition as { notices?: unknown; destination: Record<string, unknown> };
      const { notices: storedNotices, ...storedRest } = definitions.get(report.name) as { notices?: unknown } & Record<string, unknown>;
      expect(notices).toEqual(storedNotices);
      // Every field the flat shape held beside the target is now the destination's, under the same name (the table as
      // `table`), with its value whole; the report's own fields stay as they were, and nothing else is added or lost.
      const moved = FLAT_FIELDS.filter((field) => storedRest[field] !== undefined);
      expect(moved).toContain('target');
      const expected: Record<string, unknown> = { kind: storedRest.bigquery === undefined ? 'sheet' : 'bigquery' };
      for (const field of moved) expected[field === 'bigquery' ? 'table' : field] = storedRest[field];
      expect(destination).toEqual(expected);
      for (const field of moved) delete storedRest[field];
      expect(rest).toEqual(storedRest);
    }
    // The fixture holds every field that moved, so each is seen converted above.
    const storedFields = new Set([...definitions.values()].flatMap((definition) => Object.keys(definition)));
    expect(FLAT_FIELDS.filter((field) => !storedFields.has(field))).toEqual([]);
    expect(listed('Warehouse').definition.destination).toMatchObject({ kind: 'bigquery', table: { tableId: 'ledger' } });
    expect(listed('Incremental').definition.destination).toMatchObject({ kind: 'sheet', incremental: true });
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

  it("are saved again in the new shape when edited, in the document and in the owner's registry alike", () => {
    const append = listed('Append');
    const storedKey = `engage.sr.def.${append.id}`;
    // An edit as the sidebar sends it today: the listed definition, renamed.
    call('updateSchedule', append.id, { ...append.definition, name: 'Append, renamed' });
    const documentCopy = JSON.parse(h.host.properties('document').get(storedKey)!) as Record<string, unknown>;
    expect(documentCopy).toMatchObject({
      name: 'Append, renamed',
      destination: { kind: 'sheet', writeMode: 'append', target: { sheetName: 'Append', cell: 'A1' } },
    });
    for (const field of FLAT_FIELDS) expect(documentCopy).not.toHaveProperty(field);
    const registryCopies = [...h.host.properties('user', OWNER).entries()]
      .filter(([key, value]) => key.includes(append.id) && value.includes('"Append, renamed"'))
      .map(([, value]) => JSON.parse(value) as Record<string, unknown>);
    expect(registryCopies).toHaveLength(1);
    expect(registryCopies[0]).toMatchObject({ destination: documentCopy.destination });
    // An edit in the flat shape (a sidebar loaded before the change) is stored in the new shape too.
    const upsert = listed('Upsert');
    const { destination, ...report } = upsert.definition as { destination: { target: unknown; writeMode: unknown } };
    call('updateSchedule', upsert.id, { ...report, target: destination.target, writeMode: destination.writeMode });
    const upsertCopy = JSON.parse(h.host.properties('document').get(`engage.sr.def.${upsert.id}`)!) as Record<string, unknown>;
    expect(upsertCopy.destination).toEqual(destination);
    for (const field of FLAT_FIELDS) expect(upsertCopy).not.toHaveProperty(field);
  });
});
