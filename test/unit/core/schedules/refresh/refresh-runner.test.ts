/**
 * The scheduled run's use of the rate budget, with a fake report source: a report that turns out not
 * to fit the budget left before the deadline is deferred with what it needs recorded, and the run
 * spends no further request on reports of that publisher whose size it does not know; a report of
 * several publishers ("all", a list) is never checked against one budget named after its entityId.
 */
import { RefreshRunner } from '../../../../../src/core/schedules/refresh/refresh-runner';
import type { ReportSource } from '../../../../../src/core/schedules/refresh/refresh-source';
import { buildReportQuery } from '../../../../../src/core/api/requests/report-request';
import { checkSavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { FakeLock, FakeStore, ManualClock } from '../../../../support/fakes';
import { NotSignedInError, RateLimitError } from '../../../../../src/core/errors';
import type { ReportSheet } from '../../../../../src/core/ports';
import { SavedReportStore } from '../../../../../src/core/schedules/saved/saved-report-store';
import { Destinations } from '../../../../../src/core/schedules/refresh/destination';
import { sheetDestination } from '../../../../../src/core/destinations/sheet/sheet-destination';

/** The destinations of an installation without BigQuery: the sheet. */
const SHEET_ONLY = new Destinations([sheetDestination()]);

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
  const runner = new RefreshRunner({ store, source, destinations: SHEET_ONLY, sheet, clock, timeZone: 'UTC', ownerId: OWNER });
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

describe('RefreshRunner and reports of several publishers', () => {
  /** A source whose budget is the real rule's arithmetic over empty windows: 30 a minute per scope. */
  function severalSetup(fitsAll: boolean) {
    const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
    const store = new SavedReportStore({ store: new FakeStore(), lock: new FakeLock(), clock });
    const asked: string[] = [];
    const sent: string[] = [];
    const sheet: ReportSheet = {
      write: (placement, block) => ({ ...placement, rows: block.values.length, columns: block.values[0]?.length ?? 0 }),
      read: () => null,
      note: () => undefined,
      sheetNames: () => [],
    };
    const source: ReportSource = {
      checkSignedIn: () => undefined,
      buildQuery: (kind, input) => ({
        ...buildReportQuery(kind, { ...input, entityId: 'p' }, { nowMs: clock.now(), timeZone: 'UTC' }),
        entityId: String(input.entityId),
      }),
      run(query) {
        sent.push(query.entityId);
        // The paging's own check: a publisher whose pages do not fit its budget fails the report locally.
        if (!fitsAll) throw new RateLimitError({ status: 429, local: true, retryAtMs: clock.now() + 60_000, limitDescription: 'p1 short' });
        return {
          result: { query, items: [{ day: '20261101', revenue: 1 }], totalItems: 1, partial: false, pagesFetched: 1, pagesPlanned: 1 },
          requests: 181,
        };
      },
      runTogether: () => {
        throw new Error('no comparison is saved here');
      },
      budgetFreeAtMs(scope, requests) {
        asked.push(scope);
        return clock.now() + (Math.ceil(requests / 30) - 1) * 60_000;
      },
      fetchRoomFor: () => true,
    };
    const runner = new RefreshRunner({ store, source, destinations: SHEET_ONLY, sheet, clock, timeZone: 'UTC', ownerId: OWNER });
    return { store, runner, asked, sent };
  }

  it('refreshes a report of "all" or of a list that took 181 requests last time, asking no budget of the scope "all" or "p1,p2"', () => {
    const { store, runner, asked, sent } = severalSetup(true);
    const all = store.create(savedReport('All', 'all'), OWNER);
    const list = store.create(savedReport('List', 'p1,p2'), OWNER);
    const one = store.create(savedReport('One', 'p3'), OWNER);
    for (const r of [all, list, one]) store.setStatus(r.id, { requests: 181 });

    const summary = runner.run();

    // 181 requests in one scope would be free only in 360 s, past the 270 s of fetch time: one publisher's report waits.
    expect(summary.refreshed.sort()).toEqual([all.id, list.id].sort());
    expect(summary.deferred).toEqual([one.id]);
    expect(sent.sort()).toEqual(['all', 'p1,p2']);
    expect(asked).toEqual(['p3']);
    expect(store.status(all.id).requests).toBe(181);
  });

  it("defers a report of several publishers when the paging finds a publisher's pages do not fit, keeping its place", () => {
    const { store, runner, sent } = severalSetup(false);
    const all = store.create(savedReport('All', 'all'), OWNER);
    store.setStatus(all.id, { requests: 181 });

    const summary = runner.run();

    expect(summary.deferred).toEqual([all.id]);
    expect(sent).toEqual(['all']);
    expect(store.status(all.id).lastAttemptAtMs).toBeUndefined();
    expect(store.status(all.id).requests).toBe(181);
  });
});

describe('RefreshRunner and those who watch its reports', () => {
  it('tells each observer of every report refreshed or failed (not of one left for later), and an observer that throws changes nothing', () => {
    const { store, sent } = setup();
    const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
    const heard: string[] = [];
    const failing: ReportSource = {
      checkSignedIn: () => undefined,
      buildQuery: (kind, input) => buildReportQuery(kind, input, { nowMs: clock.now(), timeZone: 'UTC' }),
      run(query) {
        if (query.entityId === 'bad') throw new Error('Engage answered 504 (trace ID t-1)');
        return {
          result: { query, items: [{ day: '20261101', revenue: 1 }], totalItems: 1, partial: false, pagesFetched: 1, pagesPlanned: 1 },
          requests: 1,
        };
      },
      runTogether: () => {
        throw new Error('no comparison is saved here');
      },
      budgetFreeAtMs: (entityId) => (entityId === 'later' ? clock.now() + 3_600_000 : clock.now()),
      fetchRoomFor: () => true,
    };
    const sheet: ReportSheet = {
      write: (placement, block) => ({ ...placement, rows: block.values.length, columns: block.values[0]?.length ?? 0 }),
      read: () => null,
      note: () => undefined,
      sheetNames: () => [],
    };
    const good = store.create(savedReport('Good', 'good'), OWNER);
    const bad = store.create(savedReport('Bad', 'bad'), OWNER);
    store.create(savedReport('Later', 'later'), OWNER);
    const runner = new RefreshRunner({
      store,
      destinations: SHEET_ONLY,
      source: failing,
      sheet,
      clock,
      timeZone: 'UTC',
      ownerId: OWNER,
      spreadsheet: { id: 'sheet-1', name: 'Revenue', url: 'https://docs.example/1', timeZone: 'UTC' },
      observers: [
        {
          afterReport: () => {
            throw new Error('a watcher broke');
          },
        },
        {
          afterReport: (e) =>
            void heard.push(
              `${e.report.name} ${e.outcome} by ${e.by} in ${e.spreadsheet.name}: ${e.requests} requests, ${e.block?.dataRows ?? '-'} rows, ${e.status.lastError?.message ?? 'no error'}`,
            ),
        },
      ],
    });
    const summary = runner.run();
    expect(summary.refreshed).toEqual([good.id]);
    expect(summary.failed).toEqual([bad.id]);
    expect(heard).toEqual([
      'Good refreshed by schedule in Revenue: 1 requests, 1 rows, no error',
      'Bad failed by schedule in Revenue: 0 requests, - rows, Engage answered 504 (trace ID t-1)',
    ]);
    expect(store.status(good.id).rows).toBe(1);
    expect(sent).toEqual([]);
  });
});

describe('RefreshRunner without a sign-in', () => {
  it('tells the observers of each report due that it failed for it, though no request was sent, and of no other report', () => {
    const { store } = setup();
    const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
    const due = store.create(savedReport('Due', 'p'), OWNER);
    const later = store.create(savedReport('Later', 'q'), OWNER);
    store.setStatus(later.id, { nextRunAtMs: clock.now() + 3_600_000 });
    const heard: string[] = [];
    const runner = new RefreshRunner({
      store,
      destinations: SHEET_ONLY,
      source: {
        checkSignedIn: () => {
          throw new NotSignedInError();
        },
        buildQuery: () => {
          throw new Error('nothing is built');
        },
        run: () => {
          throw new Error('nothing is sent');
        },
        runTogether: () => {
          throw new Error('nothing is sent');
        },
        budgetFreeAtMs: () => clock.now(),
        fetchRoomFor: () => true,
      },
      sheet: {
        write: () => ({ sheetName: 'x', row: 1, column: 1, rows: 1, columns: 1 }),
        read: () => null,
        note: () => undefined,
        sheetNames: () => [],
      },
      clock,
      timeZone: 'UTC',
      ownerId: OWNER,
      spreadsheet: { id: 'sheet-1', name: 'Revenue', url: 'https://docs.example/1', timeZone: 'UTC' },
      observers: [
        {
          afterReport: (e) =>
            void heard.push(`${e.report.name} ${e.outcome} by ${e.by}: ${e.requests} requests, ${e.status.needsSignIn ? 'sign in' : '-'}`),
        },
      ],
    });
    expect(runner.run().needsSignIn).toBe(true);
    expect(heard).toEqual(['Due failed by schedule: 0 requests, sign in']);
    expect(store.status(due.id).lastError?.message).toMatch(/sign in/i);
  });
});
