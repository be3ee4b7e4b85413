/**
 * The 30-a-minute window at its edge, by the SERVICE's clock. The emulator models a network where a
 * request takes 0 to 200 ms to arrive and its answer 0 to 200 ms to come back (seeded draws), counts
 * each request when it arrives, and follows the host's virtual clock; the host's clock moves with
 * each answer. A client that times its window by send times sends request 31 exactly a minute after
 * request 1, and whenever request 31 travels faster than request 1 did, it arrives inside the
 * service's window and is refused. The add-on times its window by when answers come back, which is
 * never before the arrival, so it never gets a 429, from formulas or from scheduled runs.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { JITTERY_NETWORK, MINUTE_MS, mostInAnyMinute, nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';

let h: AddonHarness;
afterEach(async () => {
  await h?.close();
});

async function reportRequests() {
  return (await h.emulator.requests()).filter((r) => r.path.includes('/reports/'));
}

it('sends 60 formulas over two windows, each of the second 30 at the edge of its counterpart, with zero 429s', async () => {
  h = await startScheduledAddon(START, { maxRows: 1000 }, JITTERY_NETWORK);
  h.signIn();
  await h.emulator.clearRequests();
  const formula = (n: number) => `=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}", "2026-11-01", "2026-11-07", "day", , , , , , , "edge ${n}")`;
  const evaluate = (n: number) => h.host.evaluateFormula('Sheet1', `A${1 + 12 * n}`, formula(n), { user: OWNER });
  const first = [];
  for (let n = 0; n < 30; n++) first.push(evaluate(n));
  // A minute after the first request was sent: a window timed by send times would let number 31 go now.
  const firstSentAt = Math.min(...h.host.fetchLog.filter((f) => f.url.includes('/reports/')).map((f) => f.startedAt));
  h.host.advanceTime(firstSentAt + MINUTE_MS - h.host.clock.now());
  const second = [];
  for (let n = 30; n < 60; n++) second.push(evaluate(n));

  const requests = await reportRequests();
  const refused = requests.filter((r) => r.status === 429);
  console.log(
    `60 formulas at the window's edge: ${requests.length} report requests, ${refused.length} answered 429, at most ${mostInAnyMinute(requests.filter((r) => r.status !== 429).map((r) => r.time))} in any minute of arrivals`,
  );
  expect([...first, ...second].filter((r) => r.error)).toEqual([]);
  expect(refused).toHaveLength(0);
  expect(requests).toHaveLength(60);
  expect(mostInAnyMinute(requests.map((r) => r.time))).toBe(30);
});

it('refreshes 40 saved reports by the trigger with zero 429s, never 31 arrivals in a minute, within 110% of the 3 minutes the window forces', async () => {
  h = await startScheduledAddon(START, {}, JITTERY_NETWORK);
  h.signIn();
  for (let n = 1; n <= 40; n++) {
    h.host.call(
      'saveSchedule',
      [
        {
          name: `Daily ${n}`,
          kind: 'main',
          entityId: BIG_PUBLISHER_ID,
          period: { type: 'lastDays', days: 30 },
          breakdowns: ['day'],
          pageSize: 10,
          target: { sheetName: `R${n}`, cell: 'A1' },
          schedule: { every: 'day', hour: 6 },
        },
      ],
      { user: OWNER },
    );
  }
  await h.emulator.clearRequests();

  const run = nextTriggerRun(h);

  const requests = await reportRequests();
  const refused = requests.filter((r) => r.status === 429);
  // Requests 91 to 120 cannot arrive before 3 minutes after the first: the bound, without round trips.
  const boundMinutes = Math.ceil(requests.length / 30) - 1;
  console.log(
    `40 saved reports with 0-200 ms each way: ${requests.length} report requests, ${refused.length} answered 429, at most ${mostInAnyMinute(requests.map((r) => r.time))} in any minute of arrivals, ${run.minutes.toFixed(3)} virtual minutes (bound ${boundMinutes})`,
  );
  expect(run.runs).toBe(1);
  expect(requests).toHaveLength(120);
  expect(refused).toHaveLength(0);
  expect(mostInAnyMinute(requests.map((r) => r.time))).toBeLessThanOrEqual(30);
  expect(run.minutes).toBeLessThanOrEqual(boundMinutes * 1.1);
  const list = h.host.call('listSchedules', [], { user: OWNER }) as { reports: { status: { rows?: number } }[] };
  expect(list.reports.filter((r) => r.status.rows === 30)).toHaveLength(40);
});
