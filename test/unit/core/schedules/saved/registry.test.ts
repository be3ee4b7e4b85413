/**
 * The user's schedule registry and the two copies of their saved reports: the registry refuses a
 * report it has no room for before anything is written (400 KB of the user's 500 KB, every status and
 * entry counted at its most, a KB read as 1,000 bytes), reads the user's properties once per
 * execution, keeps a mirrored status within 1,200 bytes; mirrorDocument brings it up to date with the
 * document (the newer status winning either way, the document's copy catching up with a note) and
 * writes nothing when nothing changed; a scheduled run reaches the user's other spreadsheets by ID
 * (longest overdue first, within the deadline) and records the ones it cannot reach once, keeping
 * since when.
 */
import { SpreadsheetUnreachableError, ValidationError } from '../../../../../src/core/errors';
import type { ReportSheet, ScheduledSpreadsheet, SpreadsheetOpener, SpreadsheetRef } from '../../../../../src/core/ports';
import { mirrorDocument, MirroredReports, RegistryReports } from '../../../../../src/core/schedules/service/mirrored-reports';
import type { ReportSource } from '../../../../../src/core/schedules/refresh/refresh-source';
import { MIRRORED_STATUS_MAX_BYTES, REGISTRY_MAX_BYTES, ScheduleRegistry } from '../../../../../src/core/schedules/saved/registry';
import { SavedReportStore } from '../../../../../src/core/schedules/saved/saved-report-store';
import { checkSavedReport, type SavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { runScheduled } from '../../../../../src/core/schedules/service/scheduled-run';
import { FakeLock, FakeStore, ManualClock } from '../../../../support/fakes';
import { Destinations } from '../../../../../src/core/schedules/refresh/destination';
import { sheetDestination } from '../../../../../src/core/destinations/sheet/sheet-destination';

const ME = 'u-me';
const HOUR = 3_600_000;

class CountingStore extends FakeStore {
  reads = 0;
  override entries(): Record<string, string> {
    this.reads++;
    return super.entries();
  }
}

const definition = (name: string, extra: Record<string, unknown> = {}) =>
  checkSavedReport({
    name,
    kind: 'main',
    entityId: 'pub-1',
    period: { type: 'lastDays', days: 7 },
    breakdowns: ['day'],
    target: { sheetName: name, cell: 'A1' },
    schedule: { every: 'hour' },
    ...extra,
  });

const saved = (name: string, createdAtMs: number, extra: Record<string, unknown> = {}): SavedReport => ({
  ...definition(name, extra),
  id: `id-${name}`,
  ownerId: ME,
  createdAtMs,
  updatedAtMs: createdAtMs,
});

const ref = (id: string): SpreadsheetRef => ({
  id,
  name: `Name of ${id}`,
  url: `https://docs.google.com/spreadsheets/d/${id}/edit`,
  timeZone: 'UTC',
});

function noteSheet(): ReportSheet & { notes: string[]; writes: string[] } {
  const notes: string[] = [];
  const writes: string[] = [];
  return {
    notes,
    writes,
    write: (placement, block) => (writes.push(placement.sheetName), { ...placement, rows: block.values.length, columns: 1 }),
    read: () => null,
    note: (_placement, text) => void notes.push(text),
    sheetNames: () => [],
  };
}

describe('ScheduleRegistry', () => {
  it('refuses a report it has no room for with one sentence, before anything is written', () => {
    const store = new FakeStore();
    // 44 reports of some 8.9 KB elsewhere: the registry near its 400 KB.
    const big = 'x'.repeat(8_600);
    for (let i = 0; i < 44; i++) store.values.set(`engage.reg.d.other.r${i}`, JSON.stringify({ ...saved(`r${i}`, i), filter: big }));
    const registry = new ScheduleRegistry({ store });
    const sets = store.sets;
    let refusal: unknown;
    try {
      registry.checkRoom('doc-a', saved('one more', 1));
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(ValidationError);
    expect((refusal as Error).message).toMatch(
      /^savedReport: there is no room for it among your schedules: your saved reports in all your spreadsheets would take 4\d\d KB of the 400 KB your user properties keep for them \(a refresh's status counted at its most\): delete a saved report you no longer need, here or in another spreadsheet$/,
    );
    expect(store.sets).toBe(sets);
    expect(REGISTRY_MAX_BYTES).toBe(400_000);
  });

  it("refuses one that would take the user's whole store past 500 KB, counting what else is kept there", () => {
    const store = new FakeStore();
    for (let i = 0; i < 56; i++) store.values.set(`other.${i}`, 'y'.repeat(8_900));
    expect(() => new ScheduleRegistry({ store }).checkRoom('doc-a', saved('one', 1))).toThrow(
      /^savedReport: there is no room for it: your user properties would take 50\d KB of the 500 KB Apps Script keeps per user/,
    );
    store.values.delete('other.0');
    expect(() => new ScheduleRegistry({ store }).checkRoom('doc-a', saved('one', 1))).not.toThrow();
  });

  it("reads the user's properties once per execution, and keeps a mirrored status within its bytes", () => {
    const store = new CountingStore();
    const registry = new ScheduleRegistry({ store });
    registry.putDefinition('doc-a', saved('a', 1));
    registry.putStatus('doc-a', 'id-a', { lastAttemptAtMs: 5, lastError: { message: 'é'.repeat(2_000), atMs: 5 } });
    expect(registry.reports('doc-a').map((r) => r.name)).toEqual(['a']);
    expect(registry.status('doc-a', 'id-a').lastError!.message).toMatch(/é\.\.\.$/);
    const stored = [...store.values].find(([key]) => key.startsWith('engage.reg.t.'))!;
    expect(Buffer.byteLength(stored[1], 'utf8')).toBeLessThanOrEqual(MIRRORED_STATUS_MAX_BYTES);
    expect([store.reads, store.gets]).toEqual([1, 0]);
    // Another execution sees what this one wrote.
    expect(new ScheduleRegistry({ store }).reports('doc-a')).toHaveLength(1);
  });
});

describe('mirrorDocument and MirroredReports', () => {
  function setup() {
    const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
    const documentStore = new FakeStore();
    const document = new SavedReportStore({ store: documentStore, lock: new FakeLock(), clock });
    const userStore = new FakeStore();
    const registry = () => new ScheduleRegistry({ store: userStore });
    const mine = document.create(definition('Mine'), ME);
    const theirs = document.create(definition('Theirs'), 'u-other');
    const sheet = noteSheet();
    const mirror = (r = registry()) =>
      mirrorDocument({ document, reports: document.list(), registry: r, ref: ref('doc-a'), sheet, ownerId: ME, keepProblem: () => true });
    return { clock, document, documentStore, userStore, registry, mine, theirs, sheet, mirror };
  }

  it("mirrors only the user's own reports, and writes nothing when nothing changed", () => {
    const s = setup();
    const outcome = s.mirror();
    expect(outcome.entry).toMatchObject({ id: 'doc-a', name: 'Name of doc-a', reports: 1, active: 1 });
    expect(
      s
        .registry()
        .reports('doc-a')
        .map((r) => r.name),
    ).toEqual(['Mine']);
    const sets = s.userStore.sets;
    s.mirror();
    expect(s.userStore.sets).toBe(sets);
  });

  it('brings a newer status of a run by ID into the document, with its note, and a newer document status into the registry', () => {
    const s = setup();
    s.mirror();
    s.clock.advance(HOUR);
    const written = { sheetName: 'Mine', row: 1, column: 1, rows: 3, columns: 2 };
    new RegistryReports(s.registry(), 'doc-a', s.clock).setStatus(s.mine.id, { lastSuccessAtMs: s.clock.now(), rows: 2, written });
    s.mirror();
    expect(s.document.status(s.mine.id)).toMatchObject({ lastSuccessAtMs: s.clock.now(), rows: 2 });
    expect(s.sheet.notes[0]).toContain('Engage saved report "Mine"');
    s.clock.advance(HOUR);
    s.document.setStatus(s.mine.id, { lastAttemptAtMs: s.clock.now(), savedAtMs: s.clock.now(), failures: 1 });
    s.mirror();
    expect(s.registry().status('doc-a', s.mine.id)).toMatchObject({ failures: 1, lastAttemptAtMs: s.clock.now() });
  });

  it("keeps a run's claim in the document only, its outcome in both, and reads the newer", () => {
    const s = setup();
    const registry = s.registry();
    s.mirror(registry);
    const store = new MirroredReports(s.document, registry, 'doc-a', s.clock);
    store.setStatus(s.mine.id, { runningUntilMs: s.clock.now() + HOUR });
    expect(s.registry().status('doc-a', s.mine.id).runningUntilMs).toBeUndefined();
    expect(store.status(s.mine.id).runningUntilMs).toBe(s.clock.now() + HOUR);
    s.clock.advance(1000);
    store.setStatus(s.mine.id, { lastSuccessAtMs: s.clock.now() });
    expect(s.registry().status('doc-a', s.mine.id)).toEqual(s.document.status(s.mine.id));
  });

  it('forgets a report the document no longer has, and the spreadsheet with the last', () => {
    const s = setup();
    s.mirror();
    s.document.remove(s.mine.id);
    expect(s.mirror().entry).toBeUndefined();
    expect([...s.userStore.values.keys()].filter((k) => k.startsWith('engage.reg.'))).toEqual([]);
  });
});

describe('runScheduled', () => {
  function setup(access: 'all' | 'current' = 'all') {
    const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
    const userStore = new FakeStore();
    const seed = new ScheduleRegistry({ store: userStore });
    // B fell due an hour before C; D has nothing due yet.
    const put = (id: string, report: SavedReport, triggerUid?: string) => {
      seed.putEntry({ ...ref(id), reports: 1, active: 1, ...(triggerUid ? { triggerUid } : {}) });
      seed.putDefinition(id, report);
    };
    put('doc-c', saved('C', clock.now() - HOUR), 'uid-c');
    put('doc-b', saved('B', clock.now() - 2 * HOUR), 'uid-b');
    put('doc-d', saved('D', clock.now() - HOUR));
    seed.putStatus('doc-d', 'id-D', { nextRunAtMs: clock.now() + HOUR });
    const opened: string[] = [];
    const sheets = new Map<string, ReturnType<typeof noteSheet>>();
    const refreshedFormulas: string[] = [];
    let formulasBroughtToDay = true;
    const opener: SpreadsheetOpener = {
      open(id): ScheduledSpreadsheet {
        opened.push(id);
        if (id === 'doc-c') throw new SpreadsheetUnreachableError('deleted', 'Document doc-c is missing (perhaps it was deleted?)');
        const sheet = noteSheet();
        sheets.set(id, sheet);
        return {
          ref: { ...ref(id), name: `Renamed ${id}` },
          sheet,
          refreshFormulas: (wrote, _until, options) => {
            refreshedFormulas.push(`${wrote ? id : `${id}, if its day changed`}${options?.awaitLastWave ? ', waited for' : ''}`);
            return formulasBroughtToDay;
          },
        };
      },
    };
    const source: ReportSource = {
      checkSignedIn: () => undefined,
      buildQuery: (kind, input) => ({ kind, ...input }) as never,
      run: (query) => {
        clock.advance(1000);
        return {
          result: { query, items: [{ day: '20261119', revenue: 1 }], totalItems: 1, partial: false, pagesFetched: 1, pagesPlanned: 1 },
          requests: 1,
        } as never;
      },
      runTogether: () => ({ results: [], requests: 0 }),
      budgetFreeAtMs: () => 0,
      fetchRoomFor: () => true,
    };
    const run = (budgetMs = 270_000, triggerUid?: string) =>
      runScheduled(
        {
          registry: new ScheduleRegistry({ store: userStore }),
          source,
          destinations: new Destinations([sheetDestination()]),
          clock,
          ownerId: ME,
          access,
          current: null,
          opener,
          ...(triggerUid ? { triggerUid } : {}),
        },
        { startedAtMs: clock.now(), fetchBudgetMs: budgetMs },
      );
    return {
      clock,
      userStore,
      opened,
      sheets,
      refreshedFormulas,
      run,
      registry: () => new ScheduleRegistry({ store: userStore }),
      formulasLeftForLater: () => {
        formulasBroughtToDay = false;
      },
    };
  }

  it('opens each spreadsheet with reports due by ID, longest overdue first, and refreshes them from the registry', () => {
    const s = setup();
    const summary = s.run();
    // D has nothing due: it is opened once a day on its clock, for its formulas' relative days, after the others.
    expect(s.opened).toEqual(['doc-b', 'doc-c', 'doc-d']);
    expect(summary).toMatchObject({ refreshed: ['id-B'], failed: ['id-C'], openedById: 2 });
    expect(s.sheets.get('doc-b')!.writes).toEqual(['B']);
    expect(s.sheets.get('doc-d')!.writes).toEqual([]);
    // One spreadsheet's formulas waited for before the next's start.
    expect(s.refreshedFormulas).toEqual(['doc-b, waited for', 'doc-d, if its day changed']);
    expect(s.registry().entry('doc-d')!.formulasDayAtMs).toBe(s.clock.now());
    // Again the same day, D is not opened again; C, still due, is tried again.
    s.opened.length = 0;
    s.clock.advance(60_000);
    s.run();
    expect(s.opened).toEqual(['doc-c']);
    const registry = s.registry();
    expect(registry.status('doc-b', 'id-B')).toMatchObject({ rows: 1, failures: 0 });
    // The name the spreadsheet has now.
    expect(registry.entry('doc-b')!.name).toBe('Renamed doc-b');
  });

  it('records the day of a spreadsheet only once its formulas were all brought to it', () => {
    const s = setup();
    s.formulasLeftForLater();
    s.run();
    expect(s.registry().entry('doc-d')!.formulasDayAtMs).toBeUndefined();
    s.opened.length = 0;
    s.clock.advance(60_000);
    s.run();
    // Not brought to the day: opened again the same day.
    expect(s.opened).toContain('doc-d');
  });

  it("records an unreachable spreadsheet in its due reports' statuses once and in its entry, keeping since when", () => {
    const s = setup();
    s.run();
    const firstAt = s.registry().entry('doc-c')!.problem!.sinceMs;
    const status = s.registry().status('doc-c', 'id-C');
    expect(status.lastError!.message).toBe(
      "Not refreshed, and its data was left as it was: this spreadsheet is in the trash or was deleted; restore it from Google Drive's trash, or remove its schedules from the Schedules tab of any of your spreadsheets.",
    );
    expect(s.registry().entry('doc-c')!.problem).toEqual({
      reason: 'deleted',
      why: 'it is in the trash or was deleted',
      sinceMs: firstAt,
      lastAtMs: firstAt,
    });
    s.clock.advance(HOUR);
    s.run();
    // Not written again (its savedAtMs would have changed).
    expect(s.registry().status('doc-c', 'id-C')).toEqual(status);
    expect(s.registry().entry('doc-c')!.problem).toMatchObject({ sinceMs: firstAt });
    expect(s.registry().entry('doc-c')!.problem!.lastAtMs).toBeGreaterThanOrEqual(firstAt + HOUR);
  });

  it('opens nothing once the deadline has passed: what is due waits, first in line', () => {
    const s = setup();
    const summary = s.run(0);
    expect(s.opened).toEqual([]);
    expect(summary.deferred).toEqual(['id-B', 'id-C']);
  });

  it('with "current" and no document, says so in the reports of the spreadsheet whose trigger it is, and opens nothing', () => {
    const s = setup('current');
    const summary = s.run(270_000, 'uid-b');
    expect(s.opened).toEqual([]);
    expect(summary.unreachable).toEqual([{ spreadsheetId: 'doc-b', name: 'Name of doc-b', reason: 'no-document' }]);
    expect(s.registry().status('doc-b', 'id-B').lastError!.message).toMatch(
      /^Not refreshed, and its data was left as it was: Apps Script started the hourly run without this spreadsheet/,
    );
    expect(s.registry().status('doc-c', 'id-C')).toEqual({});
  });

  it('with "current", no document and a trigger the registry does not know, marks no spreadsheet whose trigger is known', () => {
    const s = setup('current');
    const summary = s.run(270_000, 'uid-unknown');
    // doc-d is the one spreadsheet of no known trigger, and nothing is due there: nothing is written.
    expect(summary.unreachable).toEqual([]);
    expect(s.registry().status('doc-b', 'id-B')).toEqual({});
    expect(s.registry().status('doc-c', 'id-C')).toEqual({});
  });
});
