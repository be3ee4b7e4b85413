/**
 * End to end, the Must show of "Refresh all within 30 executions": with 60 ENGAGE_* formulas (8
 * distinct reports, each typed seven or eight times), Refresh all and the hourly run leave no cell in error
 * under Apps Script's rule of 30 executions at once per user (the quotas page's "Simultaneous
 * executions per user: 30", the host's strict `executionsPerUserLimit`), and every cell shows the
 * data the emulator gives now; a second Refresh all while one runs changes nothing. The same file shows
 * that changing one refresh cell that all 60 reference would leave cells in error under that rule, so
 * these tests can fail. Each runs under both readings, named here (so `npm run test:strict` leaves
 * this file out). The host recalculates as Sheets does (autoRecalculate): Refresh all and the trigger run
 * in a worker, so their waves' formulas compute while they wait. Each test has an emulator of its own,
 * so that its requests stay within Engage's 30 a minute per publisher.
 */
import type { CellValue } from '../../dev/gas-host/protocol/protocol';
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';
import {
  blocksOf,
  computeInBatches,
  FIRST_CLOCK,
  FORMULA_SHEET,
  freshReports,
  placeFormulas,
  SCRATCH_SHEET,
  typeFormulas,
} from '../support/sixty-formulas';

const TOO_MANY = 'There are too many scripts running simultaneously for this Google user account.';
const HOUR_MS = 3_600_000;
const formulas = placeFormulas(60);
const groupOf = (text: string) => /(EngageRefresh\d*)\)$/.exec(text)?.[1];
/**
 * In the strict reading a trigger's run has no document: it opens the spreadsheet by ID and cannot read
 * the document cache where formulas count their ends, so it waits each wave's whole 35 s, two waits for
 * three waves.
 */
const hourlyRunTimeoutMs = (strict: boolean) => (strict ? 150_000 : 30_000);

describe.each([
  ['strict', true],
  ['kind', false],
])('60 formulas under the %s reading of 30 executions at once', (_reading, limited) => {
  let h: AddonHarness;
  let emulatorHours = 0;
  /** Each report's result when the formulas were first computed: the size of its block. */
  let shapes: Map<number, CellValue[][]>;

  beforeEach(async () => {
    h = await startAddon({
      sheets: [FORMULA_SHEET, SCRATCH_SHEET, 'Saved'],
      maxRows: 1000,
      maxColumns: 30,
      autoRecalculate: true,
      // Every rule of the reading, not only the 30 executions: the hourly run is also one without its document.
      strict: limited,
    });
    emulatorHours = 0;
    await h.emulator.setClock(FIRST_CLOCK);
    h.signIn();
  });
  afterEach(async () => {
    await h.close();
  });

  /** The 60 formulas typed on one refresh cell (as a copy down makes them) and computed, 20 at a time. */
  async function sixtyFormulasOn(refresh: string): Promise<void> {
    typeFormulas(h.host, formulas, refresh);
    shapes = await computeInBatches(h.host, formulas, OWNER);
  }

  /** Moves the emulator's clock on: 20 November shows more of its data than the cells do. */
  async function laterData(): Promise<void> {
    emulatorHours += 2;
    // Frozen: today's partial figures would otherwise grow while the waves wait (a run without its document waits 35 s a wave).
    await h.emulator.setClock(new Date(Date.parse(FIRST_CLOCK) + emulatorHours * HOUR_MS).toISOString(), { frozen: true });
  }

  /** Runs `work` (Refresh all, a trigger run) with later data, and every formula it set off; what happened meanwhile. */
  async function refreshing(work: () => Promise<unknown>) {
    const before = h.host.formulaRuns.length;
    const blocksBefore = blocksOf(h.host, formulas, shapes);
    await laterData();
    await h.emulator.clearRequests();
    h.host.resetExecutionsAtOnce();
    const startedAtMs = Date.now();
    await work();
    await h.host.whenRecalculated();
    const runs = h.host.formulaRuns.slice(before);
    const reportRequests = (await h.apiRequests()).filter((r) => r.path.endsWith('/reports/main')).length;
    return { runs, startedAtMs, blocksBefore, reportRequests, atOnce: h.host.executionsAtOnce(OWNER) };
  }

  /** Every formula cell: no error, the data the emulator gives now, and not what it showed before. */
  function expectFreshData(blocksBefore: Map<string, CellValue[][]>): void {
    const inError = formulas.filter((f) => h.host.getCell(f.sheet, f.a1).error !== undefined).map((f) => f.a1);
    expect(inError).toEqual([]);
    const fresh = freshReports(h.host, formulas, OWNER);
    const blocks = blocksOf(h.host, formulas, fresh);
    for (const f of formulas) {
      expect({ cell: f.a1, block: blocks.get(f.a1) }).toEqual({ cell: f.a1, block: fresh.get(f.report) });
      expect({ cell: f.a1, changed: JSON.stringify(blocks.get(f.a1)) !== JSON.stringify(blocksBefore.get(f.a1)) }).toEqual({
        cell: f.a1,
        changed: true,
      });
    }
  }

  /** Every formula computed again after `startedAtMs`, none refused, and at most a wave of 25 and the driver at once. */
  function expectWaves(refreshed: Awaited<ReturnType<typeof refreshing>>): void {
    const { runs, startedAtMs, atOnce } = refreshed;
    expect(new Set(runs.filter((r) => r.admittedAtMs >= startedAtMs && !r.refused).map((r) => r.a1))).toEqual(
      new Set(formulas.map((f) => f.a1)),
    );
    expect(runs.filter((r) => r.refused)).toEqual([]);
    expect(atOnce.refused).toBe(0);
    expect(atOnce.peak).toBeLessThanOrEqual(26);
  }

  const groupsOfFormulas = () => {
    const groups = formulas.map((f) => groupOf(h.host.getCell(f.sheet, f.a1).formula));
    return ['EngageRefresh', 'EngageRefresh2', 'EngageRefresh3'].map((g) => groups.filter((x) => x === g).length);
  };

  const refreshAllInWorker = () =>
    h.host.callConcurrently([{ functionName: 'refreshAll', options: { user: OWNER } }]).then(([outcome]) => {
      expect(outcome!.error).toBeUndefined();
    });

  it('Refresh all: 60 formulas typed on one refresh cell end with fresh data, 25 at a time, none refused; then again', async () => {
    // Refresh all makes the first refresh cell; the user then types 60 formulas on it.
    h.host.call('refreshAll', [], { user: OWNER });
    await sixtyFormulasOn('EngageRefresh');
    const toastsBefore = h.host.state.ui.toasts.length;

    const first = await refreshing(refreshAllInWorker);
    expectFreshData(first.blocksBefore);
    expectWaves(first);
    // 35 moved to two new refresh cells (each serving at most 25), a wave at a time, before EngageRefresh changed.
    expect(groupsOfFormulas()).toEqual([25, 25, 10]);
    // One stamp for every wave: identical formulas in different waves fetched their report once.
    expect(first.reportRequests).toBe(8);
    expect(h.host.state.ui.toasts.slice(toastsBefore).map((t) => t.message)).toEqual([
      'Refreshing 60 Engage formulas in 3 waves of at most 25, one after another: Apps Script runs at most 30 scripts of a user at once.',
      'Refreshed 60 Engage formulas in 3 waves; the last wave is computing now.',
    ]);

    // The groups now serve 25, 25 and 10: the next Refresh all changes their cells, a wave each.
    const again = await refreshing(refreshAllInWorker);
    expectFreshData(again.blocksBefore);
    expectWaves(again);
    expect(groupsOfFormulas()).toEqual([25, 25, 10]);
    expect(again.reportRequests).toBe(8);
  });

  it('a second Refresh all while one runs says so and changes nothing: one driver runs waves in a spreadsheet', async () => {
    h.host.call('refreshAll', [], { user: OWNER });
    await sixtyFormulasOn('EngageRefresh');
    const toastsBefore = h.host.state.ui.toasts.length;
    const twice = await refreshing(() =>
      h.host.callConcurrently([
        { functionName: 'refreshAll', options: { user: OWNER } },
        { functionName: 'refreshAll', options: { user: OWNER } },
      ]),
    );
    expectFreshData(twice.blocksBefore);
    expect(twice.runs.filter((r) => r.refused)).toEqual([]);
    // A wave of 25 and the two Refresh all.
    expect(twice.atOnce.peak).toBeLessThanOrEqual(27);
    expect(groupsOfFormulas()).toEqual([25, 25, 10]);
    expect(
      h.host.state.ui.toasts
        .slice(toastsBefore)
        .map((t) => t.message)
        .sort(),
    ).toEqual([
      'Refresh all is already running in this spreadsheet: its formulas show fresh data as it goes.',
      'Refreshed 60 Engage formulas in 3 waves; the last wave is computing now.',
      'Refreshing 60 Engage formulas in 3 waves of at most 25, one after another: Apps Script runs at most 30 scripts of a user at once.',
    ]);
  });

  it(
    'the hourly run: after its saved reports, the same 60 formulas end with fresh data, 25 at a time',
    async () => {
      await sixtyFormulasOn('EngageRefresh');
      h.host.call(
        'saveSchedule',
        [
          {
            name: 'Weekly',
            kind: 'main',
            entityId: MEDIUM_PUBLISHER_ID,
            period: { type: 'fixed', fromDate: '20261101', toDate: '20261107' },
            breakdowns: ['day'],
            target: { sheetName: 'Saved', cell: 'A1' },
            schedule: { every: 'hour' },
          },
        ],
        { user: OWNER },
      );
      const trigger = h.host.triggers.find((t) => t.user === OWNER)!;
      const hourly = await refreshing(async () => {
        trigger.nextRunAt = Date.now();
        const [run] = await h.host.runDueTriggersConcurrently();
        expect(run).toMatchObject({ ok: true, handlerFunction: 'onScheduledRefresh' });
      });

      expect(h.host.getValues('Saved', 'A1')[0]![0]).toBe('day');
      expectFreshData(hourly.blocksBefore);
      expectWaves(hourly);
      expect(groupsOfFormulas()).toEqual([25, 25, 10]);
      expect(h.host.logText()).toContain('Engage formulas: Refreshed 60 Engage formulas in 3 waves; the last wave is computing now.');
    },
    hourlyRunTimeoutMs(limited),
  );

  it('would leave 30 cells in error under the strict reading (none under the kind one) if one refresh cell served all 60, as before the waves', async () => {
    // One cell all 60 reference (a named range of the user's), changed at once: Sheets starts all 60 together.
    const model = h.host.state.spreadsheet;
    h.host.setCell(FORMULA_SHEET, 'AC1', 1);
    model.namedRanges.set('OneRefreshCell', model.resolveRange(`${FORMULA_SHEET}!AC1`, model.sheetByName(FORMULA_SHEET)!.id));
    await sixtyFormulasOn('OneRefreshCell');
    h.host.resetExecutionsAtOnce();
    h.host.setCell(FORMULA_SHEET, 'AC1', 2);
    const results = await h.host.recalculate(undefined, { user: OWNER });
    expect(results).toHaveLength(60);
    const refused = results.filter((r) => r.error === TOO_MANY);
    expect(refused).toHaveLength(limited ? 30 : 0);
    expect(results.filter((r) => r.error !== undefined && r.error !== TOO_MANY)).toEqual([]);
    expect(h.host.executionsAtOnce(OWNER).peak).toBe(limited ? 30 : 60);
  });
});
