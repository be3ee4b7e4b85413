/**
 * End to end, saved reports and their schedules in the built bundle: saving installs the one hourly
 * trigger and deleting the last removes it; a 504 in the middle of a report leaves its previous data
 * untouched and records the error with its trace ID; an expired or refused sign-in marks the
 * schedules "sign in again" and sends no login; an incremental refresh sends fewer requests than a
 * full one and gives the same sheet. Clocks of host and emulator move together (scheduled-host.ts).
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { DEMO_USER, MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { HOUR_MS, MINUTE_MS, useScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';
let h: AddonHarness;

interface View {
  id: string;
  name: string;
  paused: boolean;
  status: {
    lastSuccess?: string;
    lastAttempt?: string;
    rows?: number;
    nextRun?: string;
    needsSignIn: boolean;
    failures: number;
    lastError?: { message: string; traceId?: string };
  };
}
interface List {
  reports: View[];
  triggerInstalled: boolean;
}

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const byName = (list: List, name: string) => list.reports.find((r) => r.name === name)!;

function report(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    kind: 'main',
    entityId: MEDIUM_PUBLISHER_ID,
    period: { type: 'lastDays', days: 7 },
    breakdowns: ['day'],
    pageSize: 3,
    target: { sheetName: name, cell: 'B2' },
    schedule: { every: 'hour' },
    ...extra,
  };
}

async function api() {
  return (await h.emulator.requests()).map((r) => ({ path: r.path.replace('/engage/v2', ''), status: r.status, query: r.query }));
}

useScheduledAddon(START, {}, (harness) => {
  h = harness;
});

describe('saved reports and the trigger', () => {
  it('installs one hourly trigger with the first schedule and removes it with the last', () => {
    const first = call<List>('saveSchedule', report('Trigger A', { paused: true }));
    expect(first.triggerInstalled).toBe(false);
    const second = call<List>('saveSchedule', report('Trigger B'));
    call<List>('saveSchedule', report('Trigger C'));
    expect(second.triggerInstalled).toBe(true);
    expect(h.host.triggers.filter((t) => t.user === OWNER)).toHaveLength(1);
    expect(h.host.triggers[0]).toMatchObject({ handlerFunction: 'onScheduledRefresh', intervalMs: HOUR_MS });
    const ids = call<List>('listSchedules')
      .reports.filter((r) => r.name.startsWith('Trigger'))
      .map((r) => r.id);
    call<List>('deleteSchedule', ids[1]);
    expect(h.host.triggers).toHaveLength(1);
    const last = call<List>('deleteSchedule', ids[2]);
    // Only a paused one is left: no active schedule, no trigger.
    expect(last.triggerInstalled).toBe(false);
    expect(h.host.triggers).toHaveLength(0);
    expect(call<List>('pauseSchedule', ids[0], false).triggerInstalled).toBe(true);
    expect(call<List>('deleteSchedule', ids[0]).triggerInstalled).toBe(false);
    expect(h.host.triggers).toHaveLength(0);
    // Definitions live in document properties, with no secret in them.
    const documentProperties = [...h.host.properties('document').values()].join('\n');
    const token = JSON.parse(h.host.properties('user', OWNER).get('engage.token')!).token as string;
    expect(documentProperties).not.toContain(token);
    expect(documentProperties).not.toContain(DEMO_USER.password);
  });

  it('rejects a bad definition with a message naming the field, before anything is sent', async () => {
    expect(() => call('saveSchedule', report('Bad', { schedule: { every: 'day', hour: 25 } }))).toThrow(
      /schedule\.hour: must be a whole hour from 0 to 23/,
    );
    expect(() => call('saveSchedule', report('Bad', { breakdowns: ['day', 'month'] }))).toThrow(/'day' and 'month' cannot be combined/);
    expect(() =>
      call('saveSchedule', report('Bad', { incremental: true, period: { type: 'fixed', fromDate: '20261101', toDate: '20261107' } })),
    ).toThrow(/incremental: needs a period that moves/);
    expect(await api()).toEqual([]);
  });
});

describe('a refresh is all or nothing', () => {
  it('leaves the previous data untouched when a 504 comes in the middle, and records the error with its trace ID', async () => {
    const saved = call<List>('saveSchedule', report('Timeout'));
    const id = byName(saved, 'Timeout').id;
    const ok = call<{ list: List }>('runScheduleNow', id);
    expect(byName(ok.list, 'Timeout').status.rows).toBe(7);
    const before = h.host.getValues('Timeout');
    expect(before[1]![1]).toBe('day');

    h.host.advanceTime(2 * MINUTE_MS);
    await h.emulator.clearRequests();
    // The second page of the report times out on every attempt.
    await h.emulator.setFaults([{ match: 'offset=3', status: 504, times: 10 }]);
    const failed = byName(call<{ list: List }>('runScheduleNow', id).list, 'Timeout');

    expect(h.host.getValues('Timeout')).toEqual(before);
    expect(failed.status.failures).toBe(1);
    expect(failed.status.lastSuccess).toBe(byName(ok.list, 'Timeout').status.lastSuccess);
    expect(failed.status.lastError!.message).toMatch(/took too long/);
    const traced = (await h.emulator.requests()).filter((r) => r.status === 504).map((r) => r.traceId);
    expect(traced).toContain(failed.status.lastError!.traceId);
    expect(h.host.getCell('Timeout', 'B2').note).toMatch(/Last error .*took too long/);
    call('deleteSchedule', id);
  });
});

describe('sign-in', () => {
  it('marks the schedules "sign in again" when the token has expired, and sends nothing, not even a login', async () => {
    const id = byName(call<List>('saveSchedule', report('Expired')), 'Expired').id;
    const tokens = h.host.properties('user', OWNER);
    const stored = tokens.get('engage.token')!;
    tokens.set('engage.token', JSON.stringify({ ...JSON.parse(stored), expiresAtMs: h.host.clock.now() - 1 }));
    await h.emulator.clearRequests();

    h.host.advanceTime(HOUR_MS);

    expect(await api()).toEqual([]);
    const view = byName(call<List>('listSchedules'), 'Expired');
    expect(view.status.needsSignIn).toBe(true);
    expect(view.status.lastSuccess).toBeUndefined();
    expect(view.status.lastError!.message).toMatch(/sign in/i);
    tokens.set('engage.token', stored);
    call('deleteSchedule', id);
  });

  it('marks them after a 401 of a revoked token, without logging in again', async () => {
    const id = byName(call<List>('saveSchedule', report('Revoked')), 'Revoked').id;
    await h.emulator.revoke(DEMO_USER.username);
    await h.emulator.clearRequests();

    h.host.advanceTime(HOUR_MS);

    const requests = await api();
    expect(requests.map((r) => r.status)).toEqual([401]);
    expect(requests.some((r) => r.path === '/login')).toBe(false);
    const view = byName(call<List>('listSchedules'), 'Revoked');
    expect(view.status.needsSignIn).toBe(true);
    expect(view.status.lastError!.message).toMatch(/did not accept the sign-in/);
    // After signing in again the next run refreshes it.
    h.host.call('signIn', [DEMO_USER.username, DEMO_USER.password], { user: OWNER });
    expect(byName(call<List>('listSchedules'), 'Revoked').status.needsSignIn).toBe(false);
    h.host.advanceTime(HOUR_MS);
    expect(byName(call<List>('listSchedules'), 'Revoked').status.rows).toBe(7);
    call('deleteSchedule', id);
  });
});

describe('incremental refresh', () => {
  it('sends fewer requests than a full refresh and gives the same sheet', async () => {
    // 45 days of days, 5 rows a request; paused, so only "Run now" refreshes them.
    const definition = (name: string) =>
      report(name, {
        period: { type: 'since', fromDate: '20261006' },
        pageSize: 5,
        incremental: true,
        paused: true,
        target: { sheetName: name, cell: 'A1' },
      });
    const incremental = byName(call<List>('saveSchedule', definition('Incremental')), 'Incremental').id;
    call('runScheduleNow', incremental);

    // A day later: new data for today and late data for the last days.
    h.host.advanceTime(24 * HOUR_MS);
    await h.emulator.clearRequests();
    call('runScheduleNow', incremental);
    const incrementalRequests = (await api()).length;

    // The same report saved again has fetched nothing yet: its first refresh is a full one, at the same moment.
    const full = byName(call<List>('saveSchedule', definition('Full')), 'Full').id;
    await h.emulator.clearRequests();
    call('runScheduleNow', full);
    const fullRequests = (await api()).length;

    console.log(`incremental refresh: ${incrementalRequests} requests; full refresh of the same report: ${fullRequests}`);
    expect(incrementalRequests).toBeLessThan(fullRequests);
    const rows = byName(call<List>('listSchedules'), 'Full').status.rows!;
    expect(rows).toBe(47);
    expect(h.host.getValues('Incremental')).toEqual(h.host.getValues('Full'));
    call('deleteSchedule', incremental);
    call('deleteSchedule', full);
  });
});
