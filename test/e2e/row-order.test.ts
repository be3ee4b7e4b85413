/**
 * End to end, the order of a report's rows by day in the built bundle against the emulator, which
 * sorts by revenue as Engage does: without a sort, a formula, Run to sheet and a saved report's run
 * each give the days earliest first, the rows of one day in Engage's order (by revenue, highest
 * first); a sort the user gives is kept as Engage sorts.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { useScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';
let h: AddonHarness;

type Cell = string | number | boolean | Date;
const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const FORMULA = `=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}","2026-11-13","2026-11-19","day,platform","revenue"`;
const day = (cell: Cell | undefined) => (cell instanceof Date ? cell.getTime() : Number.NaN);

/** The data rows of a block (header first, Total row last) as [day in ms, platform id, revenue]. */
function rowsOf(values: Cell[][]): Array<[number, Cell, number]> {
  const header = values[0]!;
  const at = (name: string) => header.indexOf(name);
  return values
    .slice(1)
    .filter((row) => row[0] !== 'Total' && row.some((v) => v !== ''))
    .map((row) => [day(row[at('day')]), row[at('platform.id')]!, Number(row[at('revenue')])]);
}

/** Days earliest first; within a day, revenue highest first. */
function expectDayOrder(rows: Array<[number, Cell, number]>): void {
  expect(rows.length).toBeGreaterThan(7);
  for (let i = 1; i < rows.length; i++) {
    const [before, , revenueBefore] = rows[i - 1]!;
    const [now, , revenueNow] = rows[i]!;
    expect(before).toBeLessThanOrEqual(now);
    if (before === now) expect(revenueBefore).toBeGreaterThanOrEqual(revenueNow);
  }
}

useScheduledAddon(START, {}, (harness) => {
  h = harness;
});

describe('a report by day without a sort', () => {
  it('comes out by day from a formula, and as Engage sorts it with a sort given', () => {
    const plain = h.host.evaluateFormula('Sheet1', 'A1', `${FORMULA})`);
    expectDayOrder(rowsOf(plain.values as Cell[][]));
    // Engage's own order, asked for: revenue, highest first, which is not the days' order.
    const sorted = rowsOf(h.host.evaluateFormula('Sheet1', 'A1', `${FORMULA},"","revenue desc")`).values as Cell[][]);
    expect(sorted.map((r) => r[2])).toEqual([...sorted.map((r) => r[2])].sort((a, b) => b - a));
    expect(sorted.map((r) => r[0])).not.toEqual([...sorted.map((r) => r[0])].sort((a, b) => a - b));
    expect(new Set(sorted.map((r) => `${r[0]} ${r[1]}`))).toEqual(new Set(rowsOf(plain.values as Cell[][]).map((r) => `${r[0]} ${r[1]}`)));
  });

  it('comes out by day from Run to sheet and from a saved report’s run', () => {
    const request = {
      kind: 'main',
      entityId: MEDIUM_PUBLISHER_ID,
      fromDate: '2026-11-13',
      toDate: '2026-11-19',
      breakdowns: ['day', 'platform'],
      metrics: ['revenue'],
    };
    call('runReportToSheet', request, { type: 'newSheet', sheetName: 'Run' }, 'row-order-run');
    expectDayOrder(rowsOf(h.host.getValues('Run') as Cell[][]));

    const saved = call<{ reports: Array<{ id: string }> }>('saveSchedule', {
      name: 'By day',
      kind: 'main',
      entityId: MEDIUM_PUBLISHER_ID,
      period: { type: 'fixed', fromDate: '20261113', toDate: '20261119' },
      breakdowns: ['day', 'platform'],
      metrics: ['revenue'],
      target: { sheetName: 'Scheduled', cell: 'A1' },
      schedule: { every: 'hour' },
      paused: true,
    }).reports[0]!;
    call('runScheduleNow', saved.id);
    expectDayOrder(rowsOf(h.host.getValues('Scheduled') as Cell[][]));
    call('deleteSchedule', saved.id);
  });
});
