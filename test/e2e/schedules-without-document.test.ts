/**
 * End to end, the scheduled refresh with or without a document (issue 21's first item), through the
 * built bundle in the local host against the emulator, clocks in step (scheduled-host.ts):
 *   - the strict reading (triggerWithoutDocument): a time-driven trigger's run has no active
 *     spreadsheet, no document properties, cache or lock. With spreadsheetAccess "all" (the tests'
 *     deployment) the run opens the user's spreadsheets by ID from their registry and writes all 40
 *     saved reports, within the rate limit; with "current" (a build of it) it refreshes nothing and
 *     says why in each report's status and the Schedules tab, leaving the sheet as it was;
 *   - the registry refuses a save it has no room for in the user's properties, writing nothing;
 *   - several spreadsheets of one user (documents of one deployment): one trigger serves them all,
 *     past the 20 triggers a user may have; a spreadsheet deleted or no longer shared is reported in
 *     the Schedules tab of the others, with since when, and can be removed from the user's schedules;
 *     and when the spreadsheet the trigger lives in goes, the next Schedules tab installs it again.
 * All but the first two hold in both readings.
 */
import { createGasHost, type GasHost } from '../../dev/gas-host';
import { utf8Length } from '../../src/core/util/utf8';
import { OWNER, type AddonHarness } from '../support/addon-host';
import { currentAccessBundle, distBundle } from '../support/bundles';
import { BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { HOUR_MS, MINUTE_MS, mostInAnyMinute, nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(120_000);

const START = '2026-11-20T12:00:00.000Z';

/** 30 days by day, 10 rows a request: 3 requests per report. */
function dailyReport(n: number, extra: Record<string, unknown> = {}) {
  return {
    name: `Daily ${n}`,
    kind: 'main',
    entityId: BIG_PUBLISHER_ID,
    period: { type: 'lastDays', days: 30 },
    breakdowns: ['day'],
    pageSize: 10,
    target: { sheetName: `R${n}`, cell: 'A1' },
    schedule: { every: 'day', hour: 6 },
    ...extra,
  };
}

interface View {
  id: string;
  name: string;
  status: { lastSuccess?: string; lastAttempt?: string; rows?: number; lastError?: { message: string } };
}
interface Unreachable {
  spreadsheetId: string;
  name: string;
  url?: string;
  reason: string;
  why: string;
  since: string;
  lastTried: string;
  reports: number;
  current: boolean;
}
interface List {
  reports: View[];
  triggerInstalled: boolean;
  spreadsheetAccess: string;
  unreachable: Unreachable[];
}

let h: AddonHarness;
const others: GasHost[] = [];
afterEach(async () => {
  await Promise.all(others.splice(0).map((o) => o.close()));
  await h?.close();
});

const list = (host: GasHost) => host.call('listSchedules', [], { user: OWNER }) as List;
const save = (host: GasHost, report: unknown) => host.call('saveSchedule', [report], { user: OWNER });
const reportRequests = async () => (await h.emulator.requests()).filter((r) => r.path.endsWith('/reports/main'));
/** Every trigger of the user, in every spreadsheet. */
const userTriggers = () => h.host.deployment.triggers.filter((t) => t.user === OWNER);

/** The user's registry in their properties, and its size in bytes of UTF-8 (keys and values). */
function registry(): { keys: string[]; bytes: number } {
  const entries = [...h.host.properties('user', OWNER)].filter(([key]) => key.startsWith('engage.reg.'));
  return { keys: entries.map(([key]) => key), bytes: entries.reduce((sum, [k, v]) => sum + utf8Length(k) + utf8Length(v), 0) };
}

/**
 * Another spreadsheet of the user on the harness's deployment (one add-on, one clock, one user's
 * properties): theirs, or `owner`'s shared with them.
 */
function spreadsheet(documentId: string, spreadsheetName: string, owner = OWNER, bundle = distBundle()): GasHost {
  const host = createGasHost({
    deployment: h.host.deployment,
    documentId,
    spreadsheetName,
    owner,
    editors: owner === OWNER ? [] : [OWNER],
    timeZone: 'Europe/Berlin',
    maxColumns: 40,
    concurrency: 1,
    htmlFiles: { sidebar: bundle.sidebar },
    manifest: bundle.manifest,
    strict: h.host.strict,
  });
  host.load(bundle.code);
  others.push(host);
  return host;
}

/** Moves to the user's next trigger run, wherever the trigger lives, and lets it run. */
function nextRun(hosts: GasHost[]): { ok: boolean; minutes: number } {
  const trigger = userTriggers()[0]!;
  const home = hosts.find((host) => host.documentId === trigger.documentId)!;
  home.advanceTime(trigger.nextRunAt! - home.clock.now() - 1);
  const startedAt = home.clock.now() + 1;
  const runs = home.advanceTime(1);
  expect(runs).toHaveLength(1);
  return { ok: runs[0]!.ok, minutes: (home.clock.now() - startedAt) / MINUTE_MS };
}

describe('a trigger run without a document (strict reading), spreadsheetAccess "all"', () => {
  it('writes all 40 saved reports, opened by ID from the registry, with zero 429s and within the rate limit', async () => {
    h = await startScheduledAddon(START, { strict: { triggerWithoutDocument: true }, spreadsheetName: 'Sales' });
    h.signIn();
    for (let n = 1; n <= 40; n++) save(h.host, dailyReport(n));
    expect(userTriggers()).toHaveLength(1);
    const before = registry();
    await h.emulator.clearRequests();
    h.host.resetCounters();

    const run = nextTriggerRun(h);

    const requests = await reportRequests();
    const tooMany = requests.filter((r) => r.status === 429);
    const c = h.host.counters;
    const userOps = (c['Properties.user.reads'] ?? 0) + (c['Properties.user.writes'] ?? 0);
    const after = registry();
    // The run had no document: it neither read nor wrote the document's properties, and opened this spreadsheet by ID.
    expect(c['Properties.document.reads'] ?? 0).toBe(0);
    expect(c['Properties.document.writes'] ?? 0).toBe(0);
    expect(c['SpreadsheetApp.openById']).toBe(1);
    // Each report's block: its header, 30 days, and the Total row.
    const written = Array.from({ length: 40 }, (_, i) => h.host.getValues(`R${i + 1}`, 'A1:A32')).filter(
      (column) => column[0]![0] === 'day' && column.slice(1, 31).every(([day]) => day instanceof Date) && column[31]![0] === 'Total',
    );
    console.log(
      `without a document, spreadsheetAccess "all": ${written.length} of 40 saved reports written, ${requests.length} report requests, ` +
        `${tooMany.length} answered 429, ${run.minutes.toFixed(2)} minutes; ${userOps} reads and writes of the user's properties ` +
        `(${c['Properties.user.reads'] ?? 0} reads, ${c['Properties.user.writes'] ?? 0} writes); the registry ${before.keys.length} keys, ` +
        `${before.bytes} bytes before the run and ${after.bytes} after (of the ${400_000} it may take)`,
    );
    expect(written).toHaveLength(40);
    expect(requests).toHaveLength(120);
    expect(tooMany).toHaveLength(0);
    // 120 requests at 30 a minute: within 110% of the 4 minutes the limit allows (schedules-rate.test.ts).
    expect(run.minutes).toBeLessThanOrEqual((120 / 30) * 1.1);
    expect(mostInAnyMinute(requests.map((r) => r.time))).toBeLessThanOrEqual(30);
    expect(h.host.logText()).toMatch(
      /Engage scheduled refresh: 40 refreshed, 0 failed, 0 left for the next run, 120 requests, 1 spreadsheets opened by ID\./,
    );
    // The statuses the run wrote in the registry reach the document when its Schedules tab opens.
    const shown = list(h.host);
    expect(shown.reports.filter((r) => r.status.lastSuccess && r.status.rows === 30)).toHaveLength(40);
    expect(shown.unreachable).toEqual([]);
    // Its formulas fetch again: the run changed the spreadsheet's refresh cell.
    expect(h.host.getCell('Engage refresh', 'A1').value).toBeInstanceOf(Date);
    expect(after.bytes).toBeLessThan(100_000);
  });
});

describe('a trigger run without a document (strict reading), spreadsheetAccess "current"', () => {
  it("refreshes nothing, says why in each saved report's status and the Schedules tab, and leaves the sheet's data as it was", async () => {
    const hourly = (n: number) => dailyReport(n, { entityId: MEDIUM_PUBLISHER_ID, schedule: { every: 'hour' } });
    h = await startScheduledAddon(
      START,
      { strict: { triggerWithoutDocument: true }, spreadsheetName: 'Sales' },
      undefined,
      await currentAccessBundle(),
    );
    h.signIn();
    for (let n = 1; n <= 3; n++) save(h.host, hourly(n));
    // Earlier data: the first report run from the sidebar, as a user would.
    const first = list(h.host).reports[0]!;
    h.host.call('runScheduleNow', [first.id], { user: OWNER });
    const earlier = h.host.getValues('R1', 'A1:E12');
    expect(earlier[0]![0]).toBe('day');
    const ranNow = list(h.host);
    expect(ranNow.spreadsheetAccess).toBe('current');
    const earlierSuccess = ranNow.reports[0]!.status.lastSuccess;
    expect(earlierSuccess).toEqual(expect.any(String));
    await h.emulator.clearRequests();

    const run = nextTriggerRun(h);

    expect(run.runs).toBe(1);
    expect(await reportRequests()).toEqual([]);
    expect(h.host.getValues('R1', 'A1:E12')).toEqual(earlier);
    expect(h.host.logText()).toMatch(/0 refreshed, 3 failed, 0 left for the next run, 0 requests; could not reach "Sales" \(no-document\)/);
    const shown = list(h.host);
    const why =
      'Not refreshed, and its data was left as it was: Apps Script started the hourly run without this spreadsheet, and this installation of Engage may open only the spreadsheet a run starts in (spreadsheetAccess "current"); ' +
      'use Run now here, or ask whoever deployed Engage for spreadsheetAccess "all", which reaches a spreadsheet without its document.';
    expect(shown.reports.map((r) => r.status.lastError?.message)).toEqual([why, why, why]);
    expect(shown.reports[0]!.status.lastSuccess).toBe(earlierSuccess);
    expect(shown.unreachable).toEqual([expect.objectContaining({ name: 'Sales', reason: 'no-document', current: true, reports: 3 })]);
    expect(Date.parse(shown.unreachable[0]!.since)).toBeGreaterThan(Date.parse(START) + 59 * MINUTE_MS);
    // The note on the report's data says it too, where the data is.
    expect(h.host.getCell('R1', 'A1').note).toContain('Last error');
    expect(h.host.getCell('R1', 'A1').note).toContain('Apps Script started the hourly run without this spreadsheet');
    // The next hour says the same without writing it again; the problem keeps its start.
    nextTriggerRun(h);
    expect(list(h.host).unreachable[0]!.since).toBe(shown.unreachable[0]!.since);
  });
});

describe("the registry in the user's properties (both readings)", () => {
  it('refuses a save it has no room for with one sentence, and writes nothing anywhere', async () => {
    h = await startScheduledAddon(START, { spreadsheetName: 'Sales' });
    h.signIn();
    // The user's properties nearly full (500 KB per store, read as 500,000 bytes): some 498,000 bytes taken.
    const user = h.host.properties('user', OWNER);
    const taken = () => [...user].reduce((sum, [k, v]) => sum + utf8Length(k) + utf8Length(v), 0);
    for (let i = 0; taken() < 497_000; i++) user.set(`other.add-on.${i}`, 'x'.repeat(Math.min(8_900, 498_000 - taken() - 20)));
    const userBefore = [...user];
    const documentBefore = [...h.host.properties('document')];
    expect(() => save(h.host, dailyReport(1))).toThrow(
      /^savedReport: there is no room for it: your user properties would take 50\d KB of the 500 KB Apps Script keeps per user: delete a saved report you no longer need, here or in another spreadsheet$/,
    );
    expect([...user]).toEqual(userBefore);
    expect([...h.host.properties('document')]).toEqual(documentBefore);
    expect(userTriggers()).toEqual([]);
  });
});

describe('several spreadsheets of one user (both readings), spreadsheetAccess "all"', () => {
  it('take one trigger for 21 spreadsheets, past the 20 a user may have, and one run refreshes them all', async () => {
    h = await startScheduledAddon(START, { spreadsheetName: 'Sheet 1' });
    h.signIn();
    const hosts = [h.host];
    for (let i = 2; i <= 21; i++) hosts.push(spreadsheet(`spreadsheet-${i}`, `Sheet ${i}`));
    for (const [i, host] of hosts.entries()) save(host, dailyReport(i + 1));
    expect(userTriggers()).toHaveLength(1);
    expect(hosts.every((host) => list(host).triggerInstalled)).toBe(true);
    await h.emulator.clearRequests();

    const run = nextRun(hosts);

    expect(run.ok).toBe(true);
    const requests = await reportRequests();
    expect(requests).toHaveLength(63);
    expect(requests.filter((r) => r.status === 429)).toHaveLength(0);
    hosts.forEach((host, i) => {
      expect(host.getValues(`R${i + 1}`, 'A1:A2')[0]).toEqual(['day']);
      expect(list(host).reports[0]!.status).toMatchObject({ rows: 30, lastSuccess: expect.any(String) });
      expect(host.getCell('Engage refresh', 'A1').value).toBeInstanceOf(Date);
    });
    expect(h.host.logText()).toMatch(/21 refreshed, 0 failed, 0 left for the next run, 63 requests, (20|21) spreadsheets opened by ID/);
  });

  it('report a deleted spreadsheet and one no longer shared in the Schedules tab of the others, and let the user remove them', async () => {
    h = await startScheduledAddon(START, { spreadsheetName: 'Sales' });
    h.signIn();
    const costs = spreadsheet('spreadsheet-costs', 'Costs');
    const shared = spreadsheet('spreadsheet-shared', 'Shared budget', 'bob@example.com');
    save(h.host, dailyReport(1));
    save(costs, dailyReport(2));
    save(shared, dailyReport(3));
    const costsData = costs.getValues('Sheet1', 'A1:B2');
    costs.deleteDocument();
    shared.removeAccess(OWNER);
    await h.emulator.clearRequests();

    expect(nextRun([h.host, costs, shared]).ok).toBe(true);

    // Only the spreadsheet still reachable was refreshed: 3 requests, nothing for the others.
    expect(await reportRequests()).toHaveLength(3);
    expect(h.host.getValues('R1', 'A1:A2')[0]).toEqual(['day']);
    expect(costs.getValues('Sheet1', 'A1:B2')).toEqual(costsData);
    expect(shared.state.spreadsheet.sheetByName('R3')).toBeUndefined();
    const runAt = h.host.clock.now();
    const notice = list(h.host).unreachable;
    expect(notice).toEqual([
      {
        spreadsheetId: 'spreadsheet-costs',
        name: 'Costs',
        url: 'https://docs.google.com/spreadsheets/d/spreadsheet-costs/edit',
        reason: 'deleted',
        why: 'it is in the trash or was deleted',
        since: expect.any(String),
        lastTried: expect.any(String),
        reports: 1,
        current: false,
      },
      expect.objectContaining({
        spreadsheetId: 'spreadsheet-shared',
        name: 'Shared budget',
        reason: 'no-access',
        why: 'your Google account can no longer open it (it was unshared, or your access was removed)',
      }),
    ]);
    expect(Date.parse(notice[0]!.since)).toBeLessThanOrEqual(runAt);
    expect(h.host.logText()).toMatch(/could not reach "Costs" \(deleted\), "Shared budget" \(no-access\)/);

    // Removed from the user's schedules: the next run no longer tries it; the other stays listed.
    expect(() => h.host.call('removeSpreadsheetSchedules', ['no-such-spreadsheet'], { user: OWNER })).toThrow(
      'spreadsheetId: must name one of your spreadsheets with schedules (it may have been removed already)',
    );
    expect(() => h.host.call('removeSpreadsheetSchedules', [h.host.documentId], { user: OWNER })).toThrow(/names this spreadsheet/);
    const after = h.host.call('removeSpreadsheetSchedules', ['spreadsheet-costs'], { user: OWNER }) as List;
    expect(after.unreachable.map((u) => u.name)).toEqual(['Shared budget']);
    expect(registry().keys.filter((key) => key.includes('.s.'))).toHaveLength(2);
    // A day of hourly runs: each says the shared one is still out of reach (one openById, one write of
    // its entry), none tries the removed one.
    const logsBefore = h.host.logs.length;
    h.host.advanceTime(24 * HOUR_MS);
    const runLines = h.host.logs.slice(logsBefore).map((l) => l.text);
    expect(runLines).toHaveLength(24);
    expect(runLines.every((line) => line.includes('could not reach "Shared budget" (no-access)') && !line.includes('Costs'))).toBe(true);
    expect(list(h.host).unreachable.map((u) => [u.name, u.since])).toEqual([['Shared budget', notice[1]!.since]]);
  });

  it('install the trigger again from the next Schedules tab when the spreadsheet it lived in is deleted', async () => {
    h = await startScheduledAddon(START, { spreadsheetName: 'Sales' });
    h.signIn();
    const costs = spreadsheet('spreadsheet-costs', 'Costs');
    save(h.host, dailyReport(1));
    save(costs, dailyReport(2));
    expect(userTriggers().map((t) => t.documentId)).toEqual([h.host.documentId]);
    h.host.deleteDocument();
    expect(userTriggers()).toEqual([]);

    expect(list(costs).triggerInstalled).toBe(true);
    expect(userTriggers().map((t) => t.documentId)).toEqual(['spreadsheet-costs']);
    await h.emulator.clearRequests();
    expect(nextRun([h.host, costs]).ok).toBe(true);
    expect(costs.getValues('R2', 'A1:A2')[0]).toEqual(['day']);
    expect(list(costs).unreachable).toEqual([expect.objectContaining({ name: 'Sales', reason: 'deleted' })]);
  });
});
