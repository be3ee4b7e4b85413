/**
 * End to end, one user's daily trigger runtime (90 minutes on a consumer account) shared by two of
 * their spreadsheets: two documents of one deployment (dev/gas-host createDeployment: one clock, one
 * set of user properties, locks and quotas), each with its own hourly trigger, whose runs overlap.
 * One trigger per spreadsheet is spreadsheetAccess "current" (a build of it here; with "all" one
 * trigger serves both and its runs do not overlap), whose runs refresh only with their document: this
 * test is about the kind reading, where a trigger's run has it (strict switch triggerWithoutDocument
 * off; the strict reading of "current" is schedules-without-document.test.ts).
 * A run takes its share of what is left under the user lock when it starts (6 minutes at most: 4.5
 * of fetching and 1.5 to finish), and settles the time it really took when it ends, so a run that
 * starts while another is under way sees what that one may still spend. Without it both would plan
 * with the whole remainder.
 *
 * The overlap is made exact: document A's run is an execution in a worker; once its first report
 * request reached the emulator (its share long taken), document B's run goes on the main thread, and A
 * waits at its next service call until B is done, as if B had started a moment after A. The emulator
 * follows the host's virtual clock (rate windows by the send times the host gives it).
 */
import { createDeployment, createGasHost, type GasHost, type ScriptDeployment } from '../../dev/gas-host';
import { TRIGGER_RUNTIME_KEY } from '../../src/core/api/transport/daily-quota';
import { OWNER } from '../support/addon-host';
import { BIG_PUBLISHER_ID, DEMO_USER, MEDIUM_PUBLISHER_ID, newEmulator, type EmulatorHandle } from '../support/emulator';
import { currentAccessBundle } from '../support/bundles';
import { HOUR_MS, JITTERY_NETWORK, MINUTE_MS } from '../support/scheduled-host';

jest.setTimeout(120_000);

const START = '2026-11-20T12:00:00.000Z';
const START_MS = Date.parse(START);
const DAILY_RUNTIME_MS = 90 * MINUTE_MS;
/** Used by the user's runs elsewhere before these: 6 minutes are left, one run's full share. */
const USED_BEFORE_MS = 84 * MINUTE_MS;
const A_REPORTS = 40;
const B_REPORTS = 30;

/** 30 days by day, 10 rows a request: 3 requests per report; due at once, then daily at 06:00. */
function dailyReport(n: number, entityId: string) {
  return {
    name: `Daily ${n}`,
    kind: 'main',
    entityId,
    period: { type: 'lastDays', days: 30 },
    breakdowns: ['day'],
    pageSize: 10,
    target: { sheetName: `R${n}`, cell: 'A1' },
    schedule: { every: 'day', hour: 6 },
  };
}

interface List {
  reports: { name: string; status: { lastSuccess?: string; lastAttempt?: string } }[];
  triggerRuntime: { used: number; limit: number };
}

let deployment: ScriptDeployment;
let emulator: EmulatorHandle;
let a: GasHost;
let b: GasHost;

const list = (host: GasHost) => host.call('listSchedules', [], { user: OWNER }) as List;
const refreshed = (host: GasHost) => list(host).reports.filter((r) => r.status.lastSuccess).length;
/** What the add-on has counted of the user's trigger runtime in the open window (ms). */
const countedRuntime = () => (JSON.parse(a.properties('user', OWNER).get(TRIGGER_RUNTIME_KEY) ?? '{"n":0}') as { n: number }).n;
/** Apps Script's own count, as the host keeps it. */
const hostRuntime = () => a.state.quotas.dailyUse(OWNER, 'triggerRuntime').used;

async function reportRequests(entityId: string) {
  return (await emulator.requests()).filter((r) => r.path.endsWith('/reports/main') && r.query.entityId === entityId);
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const giveUpAt = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`waited 30 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  emulator = await newEmulator();
  await emulator.setClock(START, { followClient: true });
  await emulator.setLatency(JITTERY_NETWORK);
  deployment = createDeployment({ clock: 'virtual', startTime: START_MS });
  const bundle = await currentAccessBundle();
  const document = (documentId: string) => {
    const host = createGasHost({
      deployment,
      documentId,
      owner: OWNER,
      timeZone: 'Europe/Berlin',
      maxColumns: 40,
      concurrency: 1,
      htmlFiles: { sidebar: bundle.sidebar },
      manifest: bundle.manifest,
      strict: { triggerWithoutDocument: false },
    });
    host.load(bundle.code);
    return host;
  };
  a = document('spreadsheet-a');
  b = document('spreadsheet-b');
  // One sign-in serves both: user properties are per user per script, the same in every document.
  a.call('saveSettings', [{ reportingBaseUrl: emulator.baseUrl, recommendationsUrl: emulator.recsUrl }], { user: OWNER });
  a.call('signIn', [DEMO_USER.username, DEMO_USER.password], { user: OWNER });
  for (let n = 1; n <= A_REPORTS; n++) a.call('saveSchedule', [dailyReport(n, BIG_PUBLISHER_ID)], { user: OWNER });
  for (let n = 1; n <= B_REPORTS; n++) b.call('saveSchedule', [dailyReport(n, MEDIUM_PUBLISHER_ID)], { user: OWNER });
  expect([a.triggers.length, b.triggers.length]).toEqual([1, 1]);
  // Earlier runs in the user's other spreadsheets used 84 of the 90 minutes of the window that opened at START.
  a.properties('user', OWNER).set(TRIGGER_RUNTIME_KEY, JSON.stringify({ s: START_MS, n: USED_BEFORE_MS }));
  a.state.quotas.spendDaily(OWNER, 'triggerRuntime', USED_BEFORE_MS);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await emulator?.close();
});

describe("two spreadsheets of one user whose hourly runs overlap, with 6 of the day's 90 minutes left", () => {
  it('take 6 and 0 minutes of it, stay within the 90 together, and the second leaves its reports first in line', async () => {
    await emulator.clearRequests();
    const due = Math.max(...[...a.triggers, ...b.triggers].map((t) => t.nextRunAt!));
    deployment.clock.advance(due - deployment.clock.now());

    const runningA = a.runDueTriggersConcurrently();
    await until(async () => (await reportRequests(BIG_PUBLISHER_ID)).length > 0, "document A's first report request");
    const [runB] = b.runDueTriggers();
    const [runA] = await runningA;

    expect([runA?.ok, runB?.ok]).toEqual([true, true]);
    // A took the 6 minutes left and refreshed its 40 reports (120 requests, about 3 minutes of rate windows);
    // B, starting while A ran, found nothing left to plan with and sent nothing.
    expect(refreshed(a)).toBe(A_REPORTS);
    expect(refreshed(b)).toBe(0);
    expect(await reportRequests(MEDIUM_PUBLISHER_ID)).toEqual([]);
    expect(b.logText()).toMatch(/0 refreshed, 0 failed, 30 left for the next run \(the daily trigger runtime is nearly spent\)/);
    expect(list(b).reports.map((r) => r.status.lastAttempt)).toEqual(Array(B_REPORTS).fill(undefined));
    // Together within the day's 90 minutes, by the add-on's count and by Apps Script's (the host's).
    expect(countedRuntime()).toBeGreaterThan(USED_BEFORE_MS + 2 * MINUTE_MS);
    expect(countedRuntime()).toBeLessThanOrEqual(DAILY_RUNTIME_MS);
    expect(hostRuntime()).toBeLessThanOrEqual(DAILY_RUNTIME_MS);
    expect(list(b).triggerRuntime).toEqual({ used: countedRuntime(), limit: DAILY_RUNTIME_MS, resetAt: '2026-11-21T12:00:00.000Z' });
  });

  it("refreshes B's waiting reports first with what is left, and the rest once the window reopens, never past the 90 minutes", async () => {
    await emulator.clearRequests();
    const leftMs = DAILY_RUNTIME_MS - countedRuntime();
    // B's next hourly run: what is left, less the 1.5 minutes a run needs to finish, is fetching time.
    const [next] = b.advanceTime(HOUR_MS);
    expect(next?.ok).toBe(true);
    const waited = refreshed(b);
    expect(leftMs - 1.5 * MINUTE_MS).toBeGreaterThan(MINUTE_MS); // A's run took about 3 of its 6 minutes
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThan(B_REPORTS);
    expect(countedRuntime()).toBeLessThanOrEqual(DAILY_RUNTIME_MS);
    expect(hostRuntime()).toBeLessThanOrEqual(DAILY_RUNTIME_MS);

    // Hour by hour until the window that opened at START closes: nothing more fits in it.
    while (deployment.clock.now() + HOUR_MS < START_MS + 24 * HOUR_MS) b.advanceTime(HOUR_MS);
    expect(hostRuntime()).toBeLessThanOrEqual(DAILY_RUNTIME_MS);
    expect(countedRuntime()).toBeLessThanOrEqual(DAILY_RUNTIME_MS);
    // The first run after it reopens refreshes every report still waiting.
    b.advanceTime(HOUR_MS);
    expect(refreshed(b)).toBe(B_REPORTS);
    expect(countedRuntime()).toBeLessThanOrEqual(4.5 * MINUTE_MS);
  });
});
