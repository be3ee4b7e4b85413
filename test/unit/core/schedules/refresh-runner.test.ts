/**
 * The scheduled run's use of the rate budget, with a fake report source: a report that turns out not
 * to fit the budget left before the deadline is deferred with what it needs recorded, and the run
 * spends no further request on reports of that publisher whose size it does not know.
 */
import { RefreshRunner, type ReportSource } from '../../../../src/core/schedules/refresh-runner';
import { buildReportQuery } from '../../../../src/core/api/report-request';
import { checkSavedReport } from '../../../../src/core/schedules/saved-reports';
import { FakeLock, FakeStore, ManualClock } from '../../../support/fakes';
import type { ReportSheet } from '../../../../src/core/ports';
import { SavedReportStore } from '../../../../src/core/schedules/saved-report-store';

const OWNER = 'u-owner';

function savedReport(name: string, entityId: string) {
  return checkSavedReport({
    name,
    kind: 'main',
    entityId,
    period: { type: 'lastDays', days: 30 },
    breakdowns: ['day'],
    pageSize: 10,
    target: { sheetName: name, cell: 'A1' },
    schedule: { every: 'day', hour: 6 },
  });
}

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
  let draws = 0;
  const store = new SavedReportStore({ store: new FakeStore(), lock: new FakeLock(), clock, random: () => (++draws % 100) / 100 });
  const sent: string[] = [];
  const sheet: ReportSheet = {
    write: (placement, block) => ({ ...placement, rows: block.values.length, columns: block.values[0]?.length ?? 0 }),
    read: () => null,
    note: () => undefined,
    sheetNames: () => [],
  };
  const source: ReportSource = {
    checkSignedIn: () => undefined,
    buildQuery: (kind, input) => buildReportQuery(kind, input, { nowMs: clock.now(), timeZone: 'UTC' }),
    run(query) {
      sent.push(query.entityId);
      // Publisher "p" has budget for one first page only; "q" for everything.
      const fits = query.entityId === 'q';
      return {
        result: {
          query,
          items: [{ day: '20261101', revenue: 1 }],
          totalItems: fits ? 1 : 80,
          partial: !fits,
          pagesFetched: 1,
          pagesPlanned: fits ? 1 : 8,
          ...(fits ? {} : { stoppedBecause: 'rateLimit' as const, retryAtMs: clock.now() + 60_000 }),
        },
        requests: 1,
      };
    },
    runTogether: () => {
      throw new Error('no comparison is saved here');
    },
    budgetFreeAtMs: () => clock.now(),
    fetchRoomFor: () => true,
  };
  const runner = new RefreshRunner({ store, source, sheet, clock, timeZone: 'UTC', ownerId: OWNER });
  return { store, runner, sent };
}

describe('RefreshRunner within the rate budget', () => {
  it("defers a report whose pages cannot all come before the deadline, remembering how many it needs, and sends nothing more for that publisher's reports of unknown size", () => {
    const { store, runner, sent } = setup();
    const first = store.create(savedReport('P1', 'p'), OWNER);
    const second = store.create(savedReport('P2', 'p'), OWNER);
    const other = store.create(savedReport('Q1', 'q'), OWNER);

    const summary = runner.run();

    expect(summary.deferred.sort()).toEqual([first.id, second.id].sort());
    expect(summary.refreshed).toEqual([other.id]);
    // One first page of "p" found out the size; the second report of "p" was not even started.
    expect(sent.sort()).toEqual(['p', 'q']);
    expect(store.status(first.id).requests).toBe(8);
    expect(store.status(first.id).lastAttemptAtMs).toBeUndefined();
    expect(store.status(second.id).requests).toBeUndefined();
  });
});
