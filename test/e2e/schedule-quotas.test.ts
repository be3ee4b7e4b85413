/**
 * End to end, Apps Script's quotas around scheduled refresh, through the built bundle in the local
 * host (which enforces them too, dev/gas-host/README.md) against the emulator, clocks in step:
 *   - triggers: 20 per user per script (quotas page), and a published add-on is one script, so with
 *     spreadsheetAccess "current" (a build of it here) each spreadsheet with a schedule takes one of the
 *     user's 20. A save that needs a 21st is refused with one sentence and nothing is saved; a save that
 *     fails after installing the trigger removes it. (With "all", the default, one trigger serves every
 *     spreadsheet: schedules-without-document.test.ts);
 *   - trigger runtime: 90 minutes a day on a consumer account. A run gets only what is left of the
 *     user's 24-hour window, less the 1.5 minutes a run needs after its last request; what it cannot
 *     reach waits, first in line, until the window reopens;
 *   - URL fetches: scheduled runs stop at 80% of the daily quota and leave the rest to formulas.
 * The arranged earlier use (minutes of trigger runtime, calls) is written where the add-on keeps its
 * counts, the user's properties, and into the host's own count, as runs of the user's other
 * spreadsheets would have left them.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { currentAccessBundle } from '../support/bundles';
import { BIG_PUBLISHER_ID } from '../support/emulator';
import { HOUR_MS, MINUTE_MS, startScheduledAddon } from '../support/scheduled-host';
import { FETCH_COUNT_KEY, TRIGGER_RUNTIME_KEY } from '../../src/core/api/transport/daily-quota';
import { SAVED_REPORTS_INDEX_KEY } from '../../src/core/schedules/saved/saved-report-store';

const START = '2026-11-20T12:00:00.000Z';
const START_MS = Date.parse(START);

/** 30 days by day, 10 rows a request: 3 requests per report; due at once, then daily at 06:00. */
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

interface QuotaView {
  used: number;
  limit: number;
  resetAt?: string;
}
interface List {
  reports: { id: string; name: string; status: { lastSuccess?: string; lastAttempt?: string } }[];
  triggerInstalled: boolean;
  triggerRuntime: QuotaView;
}

let h: AddonHarness;
const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const refreshed = (list: List) => list.reports.filter((r) => r.status.lastSuccess).map((r) => r.name);

async function reportRequests() {
  return (await h.emulator.requests()).filter((r) => r.path.endsWith('/reports/main'));
}

/** The user's trigger runtime already used in the window that opened at START, as earlier runs would have left it. */
function arrangeTriggerRuntimeUsed(minutes: number): void {
  h.host.properties('user', OWNER).set(TRIGGER_RUNTIME_KEY, JSON.stringify({ s: START_MS, n: minutes * MINUTE_MS }));
  h.host.state.quotas.spendDaily(OWNER, 'triggerRuntime', minutes * MINUTE_MS);
}

/** Moves to the next hourly trigger run and lets it run; returns the host's record of it. */
function nextTriggerRun() {
  const due = Math.min(...h.host.triggers.filter((t) => t.user === OWNER).map((t) => t.nextRunAt ?? Infinity));
  h.host.advanceTime(due - h.host.clock.now() - 1);
  return h.host.advanceTime(1);
}

afterEach(async () => {
  await h?.close();
});

describe('the trigger quota: 20 per user per script, one per spreadsheet with spreadsheetAccess "current"', () => {
  beforeEach(async () => {
    h = await startScheduledAddon(START, {}, undefined, await currentAccessBundle());
    h.signIn();
  });

  /** The user's hourly triggers in 20 other spreadsheets of the same add-on. */
  function fillTriggerQuota(): void {
    for (let i = 1; i <= 20; i++) {
      h.host.state.triggers.records.push({
        id: `elsewhere-${i}`,
        handlerFunction: 'onScheduledRefresh',
        eventType: 'CLOCK',
        user: OWNER,
        documentId: `spreadsheet-${i}`,
        intervalMs: HOUR_MS,
        nextRunAt: START_MS + 100 * HOUR_MS,
      });
    }
  }

  it('refuses a schedule that needs a 21st trigger with one sentence naming the limit and what to do, and saves nothing', async () => {
    fillTriggerQuota();
    const documentBefore = [...h.host.properties('document').entries()];
    expect(() => call('saveSchedule', dailyReport(1))).toThrow(
      'You already have 20 Engage triggers, the most Apps Script allows one Google account (one for each spreadsheet with an active Engage schedule): pause or delete your schedules in a spreadsheet you no longer need, then save this schedule again.',
    );
    expect([...h.host.properties('document').entries()]).toEqual(documentBefore);
    expect(call<List>('listSchedules').reports).toEqual([]);
    expect(h.host.triggers.filter((t) => t.documentId === 'gas-host-spreadsheet')).toEqual([]);
    expect(await reportRequests()).toEqual([]);

    // A paused schedule needs no trigger; resuming it does, and is refused the same way, leaving it paused.
    const paused = call<List>('saveSchedule', dailyReport(2, { paused: true })).reports[0]!;
    expect(() => call('pauseSchedule', paused.id, false)).toThrow(/^You already have 20 Engage triggers/);
    expect(call<{ reports: { paused: boolean }[] }>('listSchedules').reports[0]!.paused).toBe(true);

    // Once the user frees a trigger in another spreadsheet, the same save works.
    h.host.state.triggers.records.splice(
      h.host.state.triggers.records.findIndex((t) => t.id === 'elsewhere-20'),
      1,
    );
    expect(call<List>('saveSchedule', dailyReport(1)).triggerInstalled).toBe(true);
  });

  it('removes the trigger it installed when the save itself then fails', () => {
    // This spreadsheet already holds the most saved reports it can (100), none of this user's active.
    h.host.properties('document').set(SAVED_REPORTS_INDEX_KEY, JSON.stringify(Array.from({ length: 100 }, (_, i) => `gone${i}`)));
    expect(() => call('saveSchedule', dailyReport(1))).toThrow(/already has 100 saved reports/);
    expect(h.host.triggers).toEqual([]);
  });
});

describe('the daily trigger runtime: 90 minutes', () => {
  beforeEach(async () => {
    h = await startScheduledAddon(START, { maxColumns: 40 });
    h.signIn();
    for (let n = 1; n <= 40; n++) call('saveSchedule', dailyReport(n));
    await h.emulator.clearRequests();
  });

  it('cuts a run short to what is left, and the host never has to stop it', async () => {
    arrangeTriggerRuntimeUsed(87);
    const [run] = nextTriggerRun();
    const list = call<List>('listSchedules');
    // 3 minutes left, less 1.5 for the run's end: requests start until 13:01:30, two minutes of the
    // rate limit (30 requests each), so 20 of the 40 reports; the other 20 wait.
    expect(run).toMatchObject({ ok: true });
    expect(refreshed(list)).toHaveLength(20);
    expect(await reportRequests()).toHaveLength(60);
    expect(h.host.logText()).toMatch(/20 refreshed, 0 failed, 20 left for the next run \(the daily trigger runtime is nearly spent\)/);
    expect(list.triggerRuntime).toEqual({ used: 88 * MINUTE_MS, limit: 90 * MINUTE_MS, resetAt: '2026-11-21T12:00:00.000Z' });
    expect(h.host.state.quotas.dailyUse(OWNER, 'triggerRuntime').used).toBeLessThanOrEqual(90 * MINUTE_MS);
  });

  it("sends nothing once less than a run's end is left, and refreshes the waiting reports first when the window reopens", async () => {
    arrangeTriggerRuntimeUsed(89);
    const waitingRuns = [];
    while (h.host.clock.now() < START_MS + 23 * HOUR_MS) waitingRuns.push(...nextTriggerRun());
    expect(waitingRuns.length).toBe(23);
    expect(waitingRuns.every((r) => r.ok)).toBe(true);
    expect(await reportRequests()).toEqual([]);
    const waiting = call<List>('listSchedules');
    expect(refreshed(waiting)).toEqual([]);
    expect(waiting.triggerRuntime).toMatchObject({ used: 89 * MINUTE_MS, limit: 90 * MINUTE_MS });

    // 12:00 the next day, 24 hours after the window opened, the quota is back: the first run
    // refreshes the 40 reports that waited (due since yesterday), 120 requests in about 4 minutes.
    const [reopened] = nextTriggerRun();
    expect(reopened).toMatchObject({ ok: true });
    expect(reopened!.triggerId).toBe(waitingRuns[0]!.triggerId);
    expect(refreshed(call<List>('listSchedules'))).toHaveLength(40);
    expect((await reportRequests()).filter((r) => r.status === 200)).toHaveLength(120);
    expect(call<List>('listSchedules').triggerRuntime.used).toBeLessThanOrEqual(4.5 * MINUTE_MS);
  });
});

describe('the daily URL Fetch quota', () => {
  beforeEach(async () => {
    h = await startScheduledAddon(START, { maxColumns: 40 });
    h.signIn();
  });

  /** The add-on's count in the user's properties, and Apps Script's own (the host's). */
  const counts = () => [
    (JSON.parse(h.host.properties('user', OWNER).get(FETCH_COUNT_KEY) ?? '{"n":0}') as { n: number }).n,
    h.host.state.quotas.dailyUse(OWNER, 'urlFetch').used,
  ];

  it("counts a scheduled run's 120 requests exactly, with 30 reads and writes of the user's properties at most besides the schedule registry's", async () => {
    for (let n = 1; n <= 40; n++) call('saveSchedule', dailyReport(n));
    h.host.resetCounters();
    const [run] = nextTriggerRun();
    expect(run).toMatchObject({ ok: true });
    const c = h.host.counters;
    const fetchCalls = (c['UrlFetchApp.fetch'] ?? 0) + (c['UrlFetchApp.fetchAll'] ?? 0);
    expect([c['http.requests'], fetchCalls]).toEqual([120, 80]);
    // Everything the run did with the user's properties (sign-in, settings, trigger runtime, the count):
    // 24 here, where reading the settings for every report and writing the count at every fetch took 249;
    // and the schedule registry: one read of it all, and each refreshed report's status mirrored there
    // (one write; a run that opened the spreadsheet by ID writes its claim there too, two).
    const userOps = (c['Properties.user.reads'] ?? 0) + (c['Properties.user.writes'] ?? 0);
    const registryWrites = (h.host.strict.triggerWithoutDocument ? 2 : 1) * 40;
    console.log(
      `a scheduled run of 40 saved reports: ${userOps} reads and writes of the user's properties (${registryWrites} of them the registry's statuses)`,
    );
    expect(userOps).toBeLessThanOrEqual(30 + 1 + registryWrites);
    const [counted, appsScript] = counts();
    expect(counted).toBe(appsScript);
    expect(counted).toBe(121); // the sign-in and the run
  });

  it('counts formulas recalculating at once exactly: no execution loses what another wrote', async () => {
    const lookups = ['ENGAGE_PUBLISHERS', 'ENGAGE_COUNTRIES', 'ENGAGE_TIMEZONES'];
    lookups.forEach((f, i) => {
      for (let n = 0; n < 4; n++) h.host.setCell('Sheet1', `${String.fromCharCode(65 + i * 8)}${1 + n * 50}`, `=${f}("x${n}")`);
    });
    const results = await h.host.recalculate();
    expect(results.filter((r) => r.error !== undefined)).toEqual([]);
    const [counted, appsScript] = counts();
    expect(counted).toBe(appsScript);
    expect(counted).toBe(1 + 12);
  });

  it('defers scheduled runs at 80% of it, leaving the reports untouched, while formulas still fetch', async () => {
    for (let n = 1; n <= 3; n++) call('saveSchedule', dailyReport(n));
    h.host.properties('user', OWNER).set(FETCH_COUNT_KEY, JSON.stringify({ s: START_MS, n: 16_000 }));
    await h.emulator.clearRequests();
    const [run] = nextTriggerRun();
    expect(run).toMatchObject({ ok: true });
    expect(await reportRequests()).toEqual([]);
    expect(h.host.logText()).toMatch(/0 refreshed, 0 failed, 3 left for the next run \(near the daily URL Fetch quota\)/);
    expect(call<List>('listSchedules').reports.map((r) => r.status.lastAttempt)).toEqual([undefined, undefined, undefined]);
    // The fifth kept for formulas: a formula still fetches.
    expect(h.host.evaluateFormula('Sheet1', 'A1', '=ENGAGE_PUBLISHERS("reserve")').error).toBeUndefined();
    // 24 hours after the window opened, the reports run first.
    h.host.advanceTime(START_MS + 24 * HOUR_MS - h.host.clock.now());
    nextTriggerRun();
    expect(refreshed(call<List>('listSchedules'))).toHaveLength(3);
  });
});
