/**
 * End to end: a rolling preset of the report builder, inserted as a formula, keeps rolling (its bounds
 * are relative days such as "7daysAgo" and "yesterday", never TODAY()) and asks Engage for exactly the
 * days Run to sheet asked for, with the same rows, on days where a period's bounds are easy to get
 * wrong: New Year's Day in Berlin while UTC is still in the old year, the day Berlin's clocks go
 * forward, and an ordinary day. Both readings of TODAY() as an argument give the same: the formula has none.
 */
import { presetRange, ROLLING_PRESET_DAYS, type RollingDayPreset } from '../../src/core/builder/date-presets';
import { OWNER, startAddon } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';

jest.setTimeout(120_000);

const ZONE = 'Europe/Berlin';
const PRESETS = Object.keys(ROLLING_PRESET_DAYS) as RollingDayPreset[];
const comparable = (values: unknown[][]) => values.map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : String(v))));

describe.each([
  ['New Year in Berlin, still 31 December in UTC', '2025-12-31T23:30:00Z'],
  ['the day Berlin moves to summer time', '2026-03-29T10:00:00Z'],
  ['an ordinary day', '2026-11-20T12:00:00Z'],
])('on %s (%s)', (_what, instant) => {
  it.each(PRESETS)('"%s" inserted as a formula asks for the days Run to sheet asked for, and gives its rows', async (preset) => {
    const h = await startAddon({ clock: 'virtual', startTime: new Date(instant), maxRows: 200, sheets: ['Run', 'Formula'] });
    try {
      await h.emulator.setClock(instant);
      h.signIn();
      const range = presetRange('main', preset, Date.parse(instant), ZONE);
      const request = {
        kind: 'main',
        entityId: MEDIUM_PUBLISHER_ID,
        fromDate: range.fromDate,
        toDate: range.toDate,
        breakdowns: ['day'],
        preset,
      };
      await h.emulator.clearRequests();
      const run = h.host.call('runReportToSheet', [request, { type: 'existingSheet', sheetName: 'Run' }, 'rolling-run'], {
        user: OWNER,
      }) as {
        block: { rows: number; columns: number };
      };
      h.host.setActiveRange('Formula', 'A1');
      const inserted = h.host.call('insertFormula', [request], { user: OWNER }) as { formula: string };
      const bounds = ROLLING_PRESET_DAYS[preset];
      expect(inserted.formula).toBe(
        `=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}","${bounds.fromDate}","${bounds.toDate}","day","","","","","","",EngageRefresh)`,
      );
      expect(inserted.formula).not.toMatch(/TODAY\(/i);
      const result = h.host.evaluateFormula('Formula', 'A1');
      expect(result.error).toBeUndefined();

      const asked = (await h.emulator.requests())
        .filter((r) => r.path.endsWith('/reports/main'))
        .map((r) => [r.query.fromDate, r.query.toDate]);
      const days = [range.fromDate.replace(/-/g, ''), range.toDate.replace(/-/g, '')];
      expect(asked).toEqual([days, days]);
      const a1 = `A1:${String.fromCharCode(64 + run.block.columns)}${run.block.rows}`;
      expect(comparable(h.host.getValues('Formula', a1))).toEqual(comparable(h.host.getValues('Run', a1)));
    } finally {
      await h.close();
    }
  });
});

describe('a request whose dates are not its rolling preset’s days now', () => {
  it('keeps the dates the user saw: the inserted formula writes them, and the reopened report is custom', async () => {
    const now = '2026-11-20T00:30:00Z';
    const h = await startAddon({ clock: 'virtual', startTime: new Date(now), maxRows: 200, sheets: ['Run', 'Formula'] });
    try {
      await h.emulator.setClock(now);
      h.signIn();
      // Built before midnight in Berlin (the 19th), sent after it (the 20th there): "last7" is now 13 to 19 November.
      const built = presetRange('main', 'last7', Date.parse('2026-11-19T22:50:00Z'), ZONE);
      expect(built).toMatchObject({ fromDate: '2026-11-12', toDate: '2026-11-18' });
      const request = { kind: 'main', entityId: MEDIUM_PUBLISHER_ID, ...built, breakdowns: ['day'], preset: 'last7' };
      h.host.setActiveRange('Formula', 'A1');
      const inserted = h.host.call('insertFormula', [request], { user: OWNER }) as { formula: string };
      expect(inserted.formula).toBe(
        `=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}","2026-11-12","2026-11-18","day","","","","","","",EngageRefresh)`,
      );
      h.host.call('runReportToSheet', [request, { type: 'existingSheet', sheetName: 'Run' }, 'late-run'], { user: OWNER });
      h.host.setActiveRange('Run', 'B2');
      const context = h.host.call('getSheetContext', [], { user: OWNER }) as { reportHere: { report: Record<string, unknown> } };
      expect(context.reportHere.report).toMatchObject({ fromDate: '2026-11-12', toDate: '2026-11-18' });
      expect(context.reportHere.report.preset).toBeUndefined();
      // The same request with the dates of now keeps rolling.
      const current = { ...request, ...presetRange('main', 'last7', Date.parse(now), ZONE) };
      // An empty cell: over the report in Run, Insert formula would ask first.
      h.host.setActiveRange('Formula', 'A30');
      const rolling = h.host.call('insertFormula', [current], { user: OWNER }) as { formula: string };
      expect(rolling.formula).toBe(`=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}","7daysAgo","yesterday","day","","","","","","",EngageRefresh)`);
    } finally {
      await h.close();
    }
  });
});
