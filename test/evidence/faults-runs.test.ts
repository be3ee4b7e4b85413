/**
 * Fault evidence for the two paths that write to the sheet: the sidebar's "Run to sheet"
 * (runReportToSheet) and scheduled refresh (saved reports, the hourly trigger and "Run now"). Each
 * case first writes a report, then refreshes it under a fault from the emulator, and compares every
 * cell of the sheet with what was there before: a failure never writes part of a report, and the
 * status says what happened (the sidebar's error message, or listSchedules' last error with its
 * trace ID). A token revoked in the middle of a scheduled run marks every schedule "sign in again",
 * sends no login and nothing after the 401. Clocks of host and emulator move together.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, DEMO_USER, MEDIUM_PUBLISHER_ID, type FaultRule } from '../support/emulator';
import { HOUR_MS, MINUTE_MS, useScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';
let h: AddonHarness;

interface View {
  id: string;
  name: string;
  status: {
    lastSuccess?: string;
    rows?: number;
    needsSignIn: boolean;
    failures: number;
    lastError?: { message: string; traceId?: string };
  };
}
interface List {
  reports: View[];
}
const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const byName = (list: List, name: string) => list.reports.find((r) => r.name === name)!;

useScheduledAddon(START, { sheets: ['Sheet1', 'Run'], maxRows: 20_000 }, (harness) => {
  h = harness;
});

describe('Run to sheet', () => {
  // 13,655 rows in 3 pages (5,000 a page): page 2 is offset 5000.
  const REQUEST = {
    kind: 'externalId',
    entityId: BIG_PUBLISHER_ID,
    fromDate: '2026-11-18 00:00',
    toDate: '2026-11-19 00:00',
    breakdowns: ['externalId', 'widget'],
  };
  const TARGET = { type: 'existingSheet', sheetName: 'Run' };
  const PAGE_2 = 'reports/externalId.*offset=5000';
  let before: unknown[][];

  beforeAll(() => {
    const summary = call<{ dataRows: number; pages: number }>('runReportToSheet', REQUEST, TARGET, 'run-clean');
    expect(summary).toMatchObject({ dataRows: 13_655, pages: 3 });
    before = h.host.getValues('Run', 'A1:T13660');
  });

  function runUnder(runId: string): string {
    try {
      call('runReportToSheet', REQUEST, TARGET, runId);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('the run did not fail');
  }

  it.each<[string, FaultRule, RegExp]>([
    [
      'a lasting 504 on page 2',
      { match: PAGE_2, status: 504, times: 100 },
      /^Engage took too long to answer \(Request timed out\): .* \[trace ID [^\]]+\]\.$/,
    ],
    [
      'malformed JSON on page 2',
      { match: PAGE_2, malformedJson: true },
      /^Engage answered GET \/reports\/externalId in an unexpected form \(the body is not JSON\).*\[trace ID [^\]]+\]\.$/,
    ],
    [
      'lasting dropped connections on page 2',
      { match: PAGE_2, dropConnection: true, times: 100 },
      /^Could not reach Engage \(.+\): check the connection and try again in a moment\.$/,
    ],
  ])('%s: a clear message, the run marked failed, and every cell as before', async (_name, fault, message) => {
    await h.emulator.setFaults([fault]);
    const runId = `run-${Math.random().toString(36).slice(2, 10)}`;
    const text = runUnder(runId);
    expect(text).toMatch(message);
    const failed = (await h.emulator.reportRequests()).filter((r) => r.fault && r.status !== null).pop();
    if (failed && /trace ID/.test(text)) expect(text).toContain(`[trace ID ${failed.traceId}]`);
    expect(call<{ state: string; message: string }>('getRunProgress', runId)).toMatchObject({ state: 'failed', message: text });
    expect(h.host.getValues('Run', 'A1:T13660')).toEqual(before);
  });

  it('leaves no new sheet behind when a run to a new sheet fails', async () => {
    await h.emulator.setFaults([{ match: PAGE_2, status: 504, times: 100 }]);
    const sheetsBefore = h.host.state.spreadsheet.sheets.map((sheet) => sheet.name);
    expect(() => call('runReportToSheet', REQUEST, { type: 'newSheet', sheetName: 'Fresh report' }, 'run-new-sheet')).toThrow(
      /took too long/,
    );
    expect(h.host.state.spreadsheet.sheets.map((sheet) => sheet.name)).toEqual(sheetsBefore);
    await h.emulator.clearFaults();
    expect(
      call<{ block: { sheetName: string } }>(
        'runReportToSheet',
        REQUEST,
        { type: 'newSheet', sheetName: 'Fresh report' },
        'run-new-sheet-2',
      ).block.sheetName,
    ).toBe('Fresh report');
    expect(h.host.getValues('Fresh report', 'A1:A1')).toEqual([['externalId']]);
  });
});

describe('scheduled refresh', () => {
  /** 7 daily rows, 3 a page: pages at offsets 0, 3 and 6. */
  const definition = (name: string) => ({
    name,
    kind: 'main',
    entityId: MEDIUM_PUBLISHER_ID,
    period: { type: 'lastDays', days: 7 },
    breakdowns: ['day'],
    pageSize: 3,
    target: { sheetName: name, cell: 'B2' },
    schedule: { every: 'hour' },
  });
  const PAGE_2 = 'reports/main.*offset=3';

  function saved(name: string): { id: string; cells: () => unknown[][] } {
    const id = byName(call<List>('saveSchedule', { ...definition(name), paused: true }), name).id;
    expect(byName(call<{ list: List }>('runScheduleNow', id).list, name).status.rows).toBe(7);
    return { id, cells: () => h.host.getValues(name) };
  }

  it.each<[string, FaultRule, number, string]>([
    ['a 504 on page 2', { match: PAGE_2, status: 504 }, 4, 'Recover 504'],
    ['a dropped connection on page 2', { match: PAGE_2, dropConnection: true }, 5, 'Recover drop'],
    ['a 429 storm on page 2 whose waits fit (2 x 20 s)', { match: PAGE_2, rateLimitMs: 20_000, times: 2 }, 5, 'Recover 429'],
  ])('recovers from %s: refreshed, with exactly the retries of the policy', async (_name, fault, requests, sheetName) => {
    const report = saved(sheetName);
    h.host.advanceTime(2 * MINUTE_MS);
    await h.emulator.clearRequests();
    await h.emulator.setFaults([fault]);
    const started = h.host.clock.now();
    const view = byName(call<{ list: List }>('runScheduleNow', report.id).list, sheetName);
    if (fault.rateLimitMs) expect(h.host.clock.now() - started).toBeGreaterThanOrEqual(2 * fault.rateLimitMs);
    expect(view.status).toMatchObject({ rows: 7, failures: 0 });
    expect(view.status.lastError).toBeUndefined();
    expect(await h.emulator.reportRequests()).toHaveLength(requests);
    call('deleteSchedule', report.id);
  });

  it.each<[string, FaultRule, RegExp]>([
    ['malformed JSON on page 2', { match: PAGE_2, malformedJson: true }, /unexpected form \(the body is not JSON\)/],
    ['lasting dropped connections', { match: PAGE_2, dropConnection: true, times: 100 }, /^Could not reach Engage/],
  ])('%s: previous data intact, the last error recorded', async (name, fault, message) => {
    const sheetName = `Fail ${name.slice(0, 14)}`;
    const report = saved(sheetName);
    const before = report.cells();
    const lastSuccess = byName(call<List>('listSchedules'), sheetName).status.lastSuccess;
    h.host.advanceTime(2 * MINUTE_MS);
    await h.emulator.clearRequests();
    await h.emulator.setFaults([fault]);
    const view = byName(call<{ list: List }>('runScheduleNow', report.id).list, sheetName);
    expect(report.cells()).toEqual(before);
    expect(view.status.failures).toBe(1);
    expect(view.status.lastSuccess).toBe(lastSuccess);
    expect(view.status.lastError!.message).toMatch(message);
    const faulted = (await h.emulator.reportRequests()).filter((r) => r.fault);
    if (view.status.lastError!.traceId) expect(faulted.map((r) => r.traceId)).toContain(view.status.lastError!.traceId);
    call('deleteSchedule', report.id);
  });

  it('a token revoked in the middle of a run: every schedule says "sign in again", no login, nothing sent after the 401, data intact', async () => {
    const names = ['Revoke A', 'Revoke B', 'Revoke C'];
    const ids = names.map((n) => byName(call<List>('saveSchedule', definition(n)), n).id);
    h.host.advanceTime(HOUR_MS);
    const first = call<List>('listSchedules');
    for (const n of names) expect(byName(first, n).status.rows).toBe(7);
    const before = names.map((n) => h.host.getValues(n));

    // The password changes while the run is on its second report.
    await h.emulator.clearRequests();
    await h.emulator.setFaults([{ match: 'reports/main', onNth: 4, revokeToken: true }]);
    h.host.advanceTime(HOUR_MS);

    const log = await h.emulator.requests();
    expect(log.map((r) => r.status)).toEqual([200, 200, 200, 401]);
    expect(log.some((r) => r.path.endsWith('/login'))).toBe(false);
    const after = call<List>('listSchedules');
    for (const n of names) {
      expect(byName(after, n).status.needsSignIn).toBe(true);
      expect(byName(after, n).status.lastError!.message).toMatch(/did not accept the sign-in/);
    }
    expect(names.filter((n) => byName(after, n).status.lastError!.traceId === log[3]!.traceId).length).toBeGreaterThanOrEqual(1);
    // The report refreshed before the 401 has its new data; the other two are untouched, cell for cell.
    const refreshed = names.filter((n) => byName(after, n).status.lastSuccess !== byName(first, n).status.lastSuccess);
    expect(refreshed).toHaveLength(1);
    names.forEach((n, i) => {
      if (!refreshed.includes(n)) expect(h.host.getValues(n)).toEqual(before[i]);
    });
    h.host.call('signIn', [DEMO_USER.username, DEMO_USER.password], { user: OWNER });
    for (const id of ids) call('deleteSchedule', id);
  });
});
