/**
 * End to end, rolling dates without TODAY(): a formula from "7daysAgo" to "yesterday" asks Engage for
 * the same days, and shows the same rows, as one with those days written out; Insert formula writes
 * such a formula with the refresh cell, which it creates; and after midnight on the spreadsheet's clock
 * (Europe/Berlin, an hour ahead of UTC) the formula shows the new days at the first open of the day, at
 * the next Refresh all, and after the first hourly run of the day, each moving the refresh cell once.
 * In the strict reading (volatileToday) an old formula with TODAY() in its arguments shows
 * "Loading..." for good while the relative one shows its rows. Clocks of host and emulator move
 * together (scheduled-host.ts).
 */
import type { GasHostOptions } from '../../dev/gas-host';
import { presetRange } from '../../src/core/builder/date-presets';
import { OWNER, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { HOUR_MS, MINUTE_MS, nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

jest.setTimeout(120_000);

const P = MEDIUM_PUBLISHER_ID;
const ZONE = 'Europe/Berlin';
/** 23:20 on 20 November in Berlin: "7daysAgo" to "yesterday" are 13 to 19 November, and 14 to 20 after midnight. */
const START = '2026-11-20T22:20:00.000Z';
const BEFORE_MIDNIGHT = ['20261113', '20261119'];
const AFTER_MIDNIGHT = ['20261114', '20261120'];

type Cell = string | number | boolean | Date;
const harnesses: AddonHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

async function start(options: GasHostOptions = {}): Promise<AddonHarness> {
  const h = await startScheduledAddon(START, { timeZone: ZONE, sheets: ['Data', 'Fixed'], maxRows: 400, ...options });
  harnesses.push(h);
  h.signIn();
  return h;
}

/** The general report's days each request asked for, as the emulator saw them. */
async function daysAsked(h: AddonHarness, report = 'main'): Promise<string[][]> {
  return (await h.emulator.requests())
    .filter((r) => r.path.endsWith(`/reports/${report}`))
    .map((r) => [String(r.query.fromDate), String(r.query.toDate)]);
}

/** The first and last day a block by day shows (its day column, the header and the Total row left out), whatever its order. */
function shownDays(h: AddonHarness, sheet: string): string[] {
  const values = h.host.getValues(sheet) as Cell[][];
  const days = values
    .slice(1)
    .map((row) => row[0])
    .filter((v): v is Date => v instanceof Date)
    .map((d) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(d).replace(/-/g, ''))
    .sort();
  return [days[0]!, days[days.length - 1]!];
}

/** The captions of the menu the last open built. */
const captions = (h: AddonHarness) => h.host.menus.at(-1)!.items.map((i) => ('caption' in i ? i.caption : ''));

const comparable = (values: unknown[][]) => values.map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : String(v))));

/** Insert formula of "Last 7 days" by day at Data!A1, then Sheets runs it. */
async function insertLast7(h: AddonHarness): Promise<string> {
  const request = {
    kind: 'main',
    entityId: P,
    ...presetRange('main', 'last7', h.host.clock.now(), ZONE),
    breakdowns: ['day'],
    preset: 'last7',
  };
  h.host.setActiveRange('Data', 'A1');
  const { formula } = h.host.call('insertFormula', [request], { user: OWNER }) as { formula: string };
  const results = await h.host.recalculate(undefined, { user: OWNER });
  expect(results.map((r) => [r.a1, r.error, r.loading])).toEqual([['A1', undefined, undefined]]);
  return formula;
}

/** The time the refresh cell holds (the last time it was changed). */
const refreshCell = (h: AddonHarness) => (h.host.getValues('Engage refresh', 'A1')[0]![0] as Date).toISOString();

describe('a formula from "7daysAgo" to "yesterday"', () => {
  it('asks for the same days as the days written out, and gives the same rows: report, comparison and hourly report', async () => {
    const h = await start();
    await h.emulator.clearRequests();
    const pairs: Array<[string, string, string, string[][]]> = [
      [
        'main',
        `=ENGAGE_REPORT("${P}","7daysAgo","yesterday","day,country")`,
        `=ENGAGE_REPORT("${P}","2026-11-13","2026-11-19","day,country")`,
        [BEFORE_MIDNIGHT],
      ],
      [
        'main',
        `=ENGAGE_COMPARE("${P}","7daysAgo","yesterday","previous","day")`,
        `=ENGAGE_COMPARE("${P}","2026-11-13","2026-11-19","previous","day")`,
        [BEFORE_MIDNIGHT, ['20261106', '20261112']],
      ],
      [
        'externalId',
        `=ENGAGE_EXTERNALID_REPORT("${P}","yesterday","yesterday","externalId,widget",,,,20)`,
        `=ENGAGE_EXTERNALID_REPORT("${P}","20261119","20261119","externalId,widget",,,,20)`,
        [['2026111900', '2026112000']],
      ],
    ];
    for (const [report, relative, fixed, days] of pairs) {
      await h.emulator.clearRequests();
      const rolling = h.host.evaluateFormula('Data', 'A1', relative, { user: OWNER });
      expect(rolling.error).toBeUndefined();
      expect(rolling.values!.length).toBeGreaterThan(2);
      expect(await daysAsked(h, report)).toEqual(days);
      // The fixed formula is the same request, so it is served from the relative one's cached result: nothing more is sent.
      expect(h.host.evaluateFormula('Fixed', 'A1', fixed, { user: OWNER }).error).toBeUndefined();
      expect(await daysAsked(h, report)).toEqual(days);
      expect(comparable(h.host.getValues('Data'))).toEqual(comparable(h.host.getValues('Fixed')));
      // Asked again without that cache, the fixed days give the same rows.
      h.host.evictCache('document');
      expect(comparable(h.host.evaluateFormula('Fixed', 'A1', undefined, { user: OWNER }).values!)).toEqual(comparable(rolling.values!));
      expect(await daysAsked(h, report)).toEqual([...days, ...days]);
      h.host.setCell('Data', 'A1', '');
      h.host.setCell('Fixed', 'A1', '');
    }
  });
});

describe('Insert formula', () => {
  it('writes "7daysAgo" and "yesterday", no TODAY(), with the refresh cell it creates, where the user clicked', async () => {
    const h = await start();
    expect(h.host.state.spreadsheet.namedRanges.has('EngageRefresh')).toBe(false);
    h.host.setActiveRange('Data', 'C5');
    const request = {
      kind: 'main',
      entityId: P,
      ...presetRange('main', 'last7', h.host.clock.now(), ZONE),
      breakdowns: ['day'],
      preset: 'last7',
    };
    const inserted = h.host.call('insertFormula', [request], { user: OWNER }) as { formula: string; cell: string };
    expect(inserted).toMatchObject({
      formula: `=ENGAGE_REPORT("${P}","7daysAgo","yesterday","day","","","","","","",EngageRefresh)`,
      cell: 'Data!C5',
    });
    expect(inserted.formula).not.toMatch(/TODAY\(/i);
    expect(h.host.getCell('Data', 'C5').formula).toBe(inserted.formula);
    // The refresh cell now exists, hidden, and the user's cell is selected again.
    expect(h.host.state.spreadsheet.namedRanges.has('EngageRefresh')).toBe(true);
    expect(h.host.state.spreadsheet.sheetByName('Engage refresh')!.hidden).toBe(true);
    expect(h.host.call('getSheetContext', [], { user: OWNER })).toMatchObject({ activeCell: 'Data!C5' });
    // A second formula takes the same cell and leaves it as it is.
    const created = refreshCell(h);
    h.host.advanceTime(MINUTE_MS);
    h.host.setActiveRange('Fixed', 'A1');
    h.host.call('insertFormula', [{ ...request, preset: 'last30', ...presetRange('main', 'last30', h.host.clock.now(), ZONE) }], {
      user: OWNER,
    });
    expect(h.host.getCell('Fixed', 'A1').formula).toBe(
      `=ENGAGE_REPORT("${P}","30daysAgo","yesterday","day","","","","","","",EngageRefresh)`,
    );
    expect(refreshCell(h)).toBe(created);
  });
});

describe('after midnight on the spreadsheet clock', () => {
  it('shows the new days at the first open of the day (LIMITED or FULL), and no open changes anything else', async () => {
    const h = await start();
    await h.emulator.clearRequests();
    await insertLast7(h);
    expect(await daysAsked(h)).toEqual([BEFORE_MIDNIGHT]);
    expect(shownDays(h, 'Data')).toEqual(BEFORE_MIDNIGHT);
    const inserted = refreshCell(h);

    // An open before midnight in Berlin changes nothing: it reads the refresh cell and writes nothing.
    h.host.advanceTime(20 * MINUTE_MS); // 23:40 in Berlin
    await h.emulator.clearRequests();
    h.host.resetCounters();
    expect(h.host.open({ authMode: 'LIMITED' }).ok).toBe(true);
    expect([h.host.counters['Range.getValue'], h.host.counters['Range.setValue'] ?? 0]).toEqual([1, 0]);
    expect(refreshCell(h)).toBe(inserted);
    expect(await h.host.recalculate(undefined, { user: OWNER })).toEqual([]);

    // 00:10 on 21 November in Berlin (still the 20th in UTC). An open in NONE builds the menu only.
    h.host.advanceTime(30 * MINUTE_MS);
    expect(h.host.open({ authMode: 'NONE' }).ok).toBe(true);
    expect(captions(h)).toContain('Refresh all');
    expect(refreshCell(h)).toBe(inserted);
    expect(await h.host.recalculate(undefined, { user: OWNER })).toEqual([]);

    // The first open with the document changes the refresh cell (one write), after the menu, and Sheets runs the formula again.
    h.host.resetCounters();
    const opened = h.host.open({ authMode: 'LIMITED' });
    expect(opened.ok).toBe(true);
    expect(h.host.counters['Range.setValue']).toBe(1);
    console.log(`first open of a new day: ${JSON.stringify(h.host.counters)}`);
    expect(captions(h)).toContain('Refresh all');
    expect(refreshCell(h)).toBe(h.host.now().toISOString());
    const recalculated = await h.host.recalculate(undefined, { user: OWNER });
    expect(recalculated.map((r) => [r.a1, r.error])).toEqual([['A1', undefined]]);
    expect(await daysAsked(h)).toEqual([AFTER_MIDNIGHT]);
    expect(shownDays(h, 'Data')).toEqual(AFTER_MIDNIGHT);

    // Later opens that day, in any mode, leave it.
    const moved = refreshCell(h);
    h.host.advanceTime(2 * HOUR_MS);
    await h.emulator.clearRequests();
    expect(h.host.open({ authMode: 'FULL' }).ok).toBe(true);
    expect(h.host.open({ authMode: 'LIMITED' }).ok).toBe(true);
    expect(refreshCell(h)).toBe(moved);
    expect(await h.host.recalculate(undefined, { user: OWNER })).toEqual([]);
    expect(await daysAsked(h)).toEqual([]);
  });

  it('shows the new days at the next Refresh all', async () => {
    const h = await start();
    await insertLast7(h);
    h.host.advanceTime(HOUR_MS); // 00:20 on 21 November in Berlin
    await h.emulator.clearRequests();
    h.host.call('refreshAll', [], { user: OWNER });
    const recalculated = await h.host.recalculate(undefined, { user: OWNER });
    expect(recalculated.map((r) => [r.a1, r.error])).toEqual([['A1', undefined]]);
    expect(await daysAsked(h)).toEqual([AFTER_MIDNIGHT]);
    expect(shownDays(h, 'Data')).toEqual(AFTER_MIDNIGHT);
  });

  it('shows the new days after the first hourly run of the day, also when that run refreshes no saved report', async () => {
    const h = await start();
    // A saved report refreshed daily at 06:00, refreshed now: the runs tonight have nothing to refresh.
    const saved = h.host.call(
      'saveSchedule',
      [
        {
          name: 'Daily',
          kind: 'main',
          entityId: P,
          period: { type: 'lastDays', days: 3 },
          breakdowns: ['day'],
          target: { sheetName: 'Fixed', cell: 'A1' },
          schedule: { every: 'day', hour: 6 },
        },
      ],
      { user: OWNER },
    ) as { reports: Array<{ id: string }> };
    const id = saved.reports[0]!.id;
    h.host.call('runScheduleNow', [id], { user: OWNER });
    await insertLast7(h);
    const before = refreshCell(h);
    const lastSuccess = () =>
      (h.host.call('listSchedules', [], { user: OWNER }) as { reports: Array<{ status: { lastSuccess?: string } }> }).reports[0]!.status
        .lastSuccess;
    const refreshedAt = lastSuccess();

    await h.emulator.clearRequests();
    const run = nextTriggerRun(h); // an hour later: 00:20 on 21 November in Berlin
    expect(run.runs).toBe(1);
    expect(lastSuccess()).toBe(refreshedAt);
    expect(refreshCell(h)).not.toBe(before);
    const recalculated = await h.host.recalculate(undefined, { user: OWNER });
    expect(recalculated.map((r) => [r.a1, r.error])).toEqual([['A1', undefined]]);
    expect(await daysAsked(h)).toEqual([AFTER_MIDNIGHT]);
    expect(shownDays(h, 'Data')).toEqual(AFTER_MIDNIGHT);

    // The next hourly run, the same day, refreshes nothing and leaves the refresh cell.
    const moved = refreshCell(h);
    await h.emulator.clearRequests();
    expect(nextTriggerRun(h).runs).toBe(1);
    expect(refreshCell(h)).toBe(moved);
    expect(await h.host.recalculate(undefined, { user: OWNER })).toEqual([]);
  });
});

describe('TODAY() as an argument', () => {
  const old = `=ENGAGE_REPORT("${P}",TODAY()-7,TODAY()-1,"day",,,,,,,EngageRefresh)`;
  const relative = `=ENGAGE_REPORT("${P}","7daysAgo","yesterday","day",,,,,,,EngageRefresh)`;

  it('strict reading (volatileToday): an old TODAY() formula shows Loading... and sends nothing; the relative one shows its rows', async () => {
    const h = await start({ strict: { volatileToday: true } });
    h.host.call('refreshAll', [], { user: OWNER });
    await h.emulator.clearRequests();
    const stuck = h.host.evaluateFormula('Fixed', 'A1', old, { user: OWNER });
    expect(stuck).toMatchObject({ value: 'Loading...', loading: true, error: undefined });
    expect(await daysAsked(h)).toEqual([]);
    const rolling = h.host.evaluateFormula('Data', 'A1', relative, { user: OWNER });
    expect(rolling.error).toBeUndefined();
    expect(shownDays(h, 'Data')).toEqual(BEFORE_MIDNIGHT);
    // Refresh all after midnight: the relative one moves, the old one still never runs.
    h.host.advanceTime(HOUR_MS);
    await h.emulator.clearRequests();
    h.host.call('refreshAll', [], { user: OWNER });
    const recalculated = await h.host.recalculate(undefined, { user: OWNER });
    expect(recalculated.map((r) => [r.sheet, r.value === 'Loading...'])).toEqual(
      expect.arrayContaining([
        ['Data', false],
        ['Fixed', true],
      ]),
    );
    expect(await daysAsked(h)).toEqual([AFTER_MIDNIGHT]);
    expect(shownDays(h, 'Data')).toEqual(AFTER_MIDNIGHT);
  });

  it("kind reading: the old TODAY() formula still works where Sheets accepts it, and gives the relative one's rows", async () => {
    const h = await start({ strict: { volatileToday: false } });
    h.host.call('refreshAll', [], { user: OWNER });
    expect(h.host.evaluateFormula('Fixed', 'A1', old, { user: OWNER }).error).toBeUndefined();
    expect(h.host.evaluateFormula('Data', 'A1', relative, { user: OWNER }).error).toBeUndefined();
    expect(comparable(h.host.getValues('Fixed'))).toEqual(comparable(h.host.getValues('Data')));
    expect(shownDays(h, 'Fixed')).toEqual(BEFORE_MIDNIGHT);
  });
});
