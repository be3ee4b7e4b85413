/**
 * End to end, the scheduled refresh's budget: many saved reports of one publisher refreshed by the
 * hourly trigger of the built bundle in the local host, against the emulator whose clock moves with
 * the host's virtual clock (test/support/scheduled-host.ts). The emulator counts every request on
 * its own clock and answers 429 past 30 a minute, so zero 429s in its log proves the add-on kept
 * the limit; the virtual minutes a run took are the minutes it waited for the budget.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { HOUR_MS, MINUTE_MS, nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';

/** 30 days broken down by day, 10 rows a request: 3 requests per report. */
function dailyReport(n: number, entityId = BIG_PUBLISHER_ID) {
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

interface ScheduleListView {
  reports: { id: string; name: string; status: { lastSuccess?: string; rows?: number; lastError?: unknown } }[];
  triggerInstalled: boolean;
}

async function reportRequests(h: AddonHarness) {
  return (await h.emulator.requests()).filter((r) => r.path.endsWith('/reports/main'));
}

describe('scheduled refresh within the rate limit', () => {
  let h: AddonHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('refreshes 40 saved reports of one publisher (120 requests) in one run with zero 429s, within 110% of the 4 minutes the limit allows', async () => {
    h = await startScheduledAddon(START);
    h.signIn();
    for (let n = 1; n <= 40; n++) h.host.call('saveSchedule', [dailyReport(n)], { user: OWNER });
    expect(h.host.triggers).toHaveLength(1);
    await h.emulator.clearRequests();

    const run = nextTriggerRun(h);

    const requests = await reportRequests(h);
    const tooMany = requests.filter((r) => r.status === 429);
    const list = h.host.call('listSchedules', [], { user: OWNER }) as ScheduleListView;
    const lowerBoundMinutes = requests.length / 30;
    console.log(
      `40 saved reports: ${requests.length} report requests, ${tooMany.length} answered 429, ${run.minutes.toFixed(2)} minutes in ${run.runs} run (lower bound ${lowerBoundMinutes} minutes at 30 a minute; 110% = ${(lowerBoundMinutes * 1.1).toFixed(2)})`,
    );
    expect(run.runs).toBe(1);
    expect(requests).toHaveLength(120);
    expect(tooMany).toHaveLength(0);
    expect(run.minutes).toBeLessThanOrEqual(lowerBoundMinutes * 1.1);
    expect(list.reports.filter((r) => r.status.lastSuccess && r.status.rows === 30)).toHaveLength(40);
    expect(h.host.getValues('R40', 'A1:A2')[0]).toEqual(['day']);
    // The emulator's window was never overrun: no 60-second span of its clock holds more than 30 requests.
    const times = requests.map((r) => Date.parse(r.time)).sort((a, b) => a - b);
    for (let i = 30; i < times.length; i++) expect(times[i]! - times[i - 30]!).toBeGreaterThanOrEqual(MINUTE_MS);
  });

  it('leaves what does not fit in a run for the next hourly run, first in line, and refreshes no report twice', async () => {
    h = await startScheduledAddon(START);
    h.signIn();
    // 55 reports of the big publisher (165 requests) and 5 of another: more than one run can send.
    for (let n = 1; n <= 55; n++) h.host.call('saveSchedule', [dailyReport(n)], { user: OWNER });
    for (let n = 56; n <= 60; n++) h.host.call('saveSchedule', [dailyReport(n, MEDIUM_PUBLISHER_ID)], { user: OWNER });
    await h.emulator.clearRequests();

    const first = nextTriggerRun(h);
    const afterFirst = h.host.call('listSchedules', [], { user: OWNER }) as ScheduleListView;
    const refreshedFirst = afterFirst.reports.filter((r) => r.status.lastSuccess).map((r) => r.name);
    const second = nextTriggerRun(h);
    const afterSecond = h.host.call('listSchedules', [], { user: OWNER }) as ScheduleListView;

    const requests = await reportRequests(h);
    console.log(
      `60 saved reports: ${requests.length} report requests, ${requests.filter((r) => r.status === 429).length} answered 429; run 1 ${first.minutes.toFixed(2)} min refreshed ${refreshedFirst.length}, run 2 ${second.minutes.toFixed(2)} min`,
    );
    // The first run stopped well inside Apps Script's 6 minutes and left reports for the second.
    expect(first.minutes).toBeLessThan(6);
    expect(refreshedFirst.length).toBeGreaterThan(0);
    expect(refreshedFirst.length).toBeLessThan(60);
    // Publishers took turns: the other publisher's reports did not wait behind the big one's queue.
    expect(refreshedFirst.filter((name) => Number(name.split(' ')[1]) > 55)).toHaveLength(5);
    // Every report refreshed exactly once: 3 requests each, none sent twice, none refused.
    expect(afterSecond.reports.every((r) => r.status.lastSuccess && r.status.rows === 30)).toBe(true);
    expect(requests).toHaveLength(180);
    expect(requests.filter((r) => r.status === 429)).toHaveLength(0);
    const firstSuccess = new Map(afterFirst.reports.map((r) => [r.name, r.status.lastSuccess]));
    for (const r of afterSecond.reports) if (firstSuccess.get(r.name)) expect(r.status.lastSuccess).toBe(firstSuccess.get(r.name));
    // A third run an hour later finds nothing due: daily schedules wait for 06:00.
    await h.emulator.clearRequests();
    h.host.advanceTime(HOUR_MS);
    expect(await reportRequests(h)).toHaveLength(0);
  });
});
