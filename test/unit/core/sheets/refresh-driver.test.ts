/**
 * Refresh waves as the core drives them, on a spreadsheet of refresh cells that exists only here: each
 * wave starts once the formulas of the one before have counted their ends in the shared cache, two
 * drivers never run waves at once, a deadline leaves the rest for later, and the refresh cells say
 * when the day has changed since they were last changed.
 */
import type { RefreshCell, RefreshCells } from '../../../../src/core/ports';
import { driveRefreshWaves, refreshCellsFromAnotherDay } from '../../../../src/core/sheets/refresh-driver';
import { countWaveEnd, WaveWatch } from '../../../../src/core/sheets/wave-watch';
import { FakeCache, FakeLock, ManualClock, ManualSleeper } from '../../../support/fakes';

/** One group of `formulas` formulas on EngageRefresh, whose formulas end (and count their ends) as soon as a wave reaches them. */
class CountingCells implements RefreshCells {
  readonly changes: string[] = [];
  private readonly counts = new Map<string, number>();

  constructor(
    formulas: number,
    private readonly cache: FakeCache,
    private readonly clock: ManualClock,
    private readonly counting = true,
  ) {
    this.counts.set('EngageRefresh', formulas);
  }

  groups(): RefreshCell[] {
    return [{ name: 'EngageRefresh', groupNumber: 1, stampMs: this.clock.now() - 86_400_000, exists: true }];
  }

  formulas(group: string): number {
    return this.counts.get(group) ?? 0;
  }

  touch(groups: readonly string[], stampMs: number): void {
    this.changes.push(`touch ${groups.join(', ')}`);
    this.end(
      groups.reduce((sum, g) => sum + this.formulas(g), 0),
      stampMs,
    );
  }

  move(from: string, to: string, _skip: number, count: number, stampMs: number): void {
    this.changes.push(`move ${count} ${from} -> ${to}`);
    this.counts.set(from, this.formulas(from) - count);
    this.counts.set(to, count);
    this.end(count, stampMs);
  }

  private end(formulas: number, stampMs: number): void {
    if (!this.counting) return;
    for (let i = 0; i < formulas; i++) countWaveEnd(this.cache, () => new FakeLock(), stampMs, true, this.clock.now() + 2000, this.clock);
  }
}

describe('driveRefreshWaves', () => {
  it('starts each wave once the formulas of the one before have counted their ends, and does not wait after the last', () => {
    const clock = new ManualClock();
    const sleeper = new ManualSleeper(clock);
    const cache = new FakeCache(clock);
    const cells = new CountingCells(60, cache, clock);
    const watch = new WaveWatch(cache, new FakeLock(), clock, sleeper);
    const outcome = driveRefreshWaves({ cells, watch, clock, sleeper }, { deadlineAtMs: clock.now() + 300_000 });
    expect(outcome).toEqual({ formulas: 60, waves: 3, refreshedFormulas: 60, startedWaves: 3, busy: false });
    expect(cells.changes).toEqual([
      'move 25 EngageRefresh -> EngageRefresh2',
      'move 10 EngageRefresh -> EngageRefresh3',
      'touch EngageRefresh',
    ]);
    // Each wait ends at the first read, after the moment the last formula needs to return its result.
    expect(sleeper.sleeps).toEqual([100, 100]);
  });

  it('waits a wave’s whole 35 s where it cannot read the count, and leaves the waves past its deadline', () => {
    const clock = new ManualClock();
    const sleeper = new ManualSleeper(clock);
    const cells = new CountingCells(60, new FakeCache(clock), clock, false);
    const outcome = driveRefreshWaves({ cells, watch: undefined, clock, sleeper }, { deadlineAtMs: clock.now() + 40_000 });
    expect(outcome).toEqual({ formulas: 60, waves: 3, refreshedFormulas: 35, startedWaves: 2, busy: false });
    expect(sleeper.totalMs).toBe(40_000);
  });

  it('changes nothing while another execution drives this spreadsheet’s waves', () => {
    const clock = new ManualClock();
    const sleeper = new ManualSleeper(clock);
    const cache = new FakeCache(clock);
    new WaveWatch(cache, null, clock, sleeper).claim(clock.now() + 60_000);
    const cells = new CountingCells(10, cache, clock);
    const plans: unknown[] = [];
    const outcome = driveRefreshWaves(
      { cells, watch: new WaveWatch(cache, new FakeLock(), clock, sleeper), clock, sleeper },
      { onPlan: (plan) => plans.push(plan) },
    );
    expect(outcome).toEqual({ formulas: 0, waves: 0, refreshedFormulas: 0, startedWaves: 0, busy: true });
    expect(cells.changes).toEqual([]);
    expect(plans).toEqual([]);
  });
});

describe('refreshCellsFromAnotherDay', () => {
  const now = Date.UTC(2026, 10, 20, 12);
  const cell = (stampMs: number, exists = true): RefreshCell => ({ name: 'EngageRefresh', groupNumber: 1, stampMs, exists });

  it('is true once a cell was last changed on another day of the spreadsheet’s clock, or holds no time', () => {
    expect(refreshCellsFromAnotherDay([cell(now - 3_600_000)], now, 'UTC')).toBe(false);
    expect(refreshCellsFromAnotherDay([cell(now - 13 * 3_600_000)], now, 'UTC')).toBe(true);
    expect(refreshCellsFromAnotherDay([cell(now - 13 * 3_600_000)], now, 'Asia/Tokyo')).toBe(false);
    expect(refreshCellsFromAnotherDay([cell(0)], now, 'UTC')).toBe(true);
  });

  it('is false for a group whose cell is not made yet', () => {
    expect(refreshCellsFromAnotherDay([cell(0, false)], now, 'UTC')).toBe(false);
  });
});
