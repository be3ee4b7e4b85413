/**
 * Refreshing a spreadsheet's ENGAGE_* formulas in waves (refresh-waves.ts plans them): the menu's
 * Refresh all, every scheduled run that refreshed something, and the first open and the first hourly
 * run of a new day (which moves the formulas' relative days, "7daysAgo", "yesterday", to the day it is
 * then) change the refresh cells a wave at a time, so that no more formulas compute at once than Apps
 * Script runs for one user (30). Each wave starts once the formulas of the one before have counted
 * their ends (wave-watch.ts), or, where that count is out of reach, once a wave's whole time has passed.
 * The cells are the RefreshCells port's; the time, the clock's and the sleeper's.
 */
import { REFRESH_DEFAULT_BUDGET_MS, REFRESH_WAVE_FORMULAS, REFRESH_WAVE_LIMIT_MS } from '../budgets';
import type { Clock, RefreshCell, RefreshCells, Sleeper } from '../ports';
import { isAnotherDay } from '../util/relative-days';
import { nextRefreshStampMs, planRefreshWaves, type RefreshOutcome, type RefreshWave } from './refresh-waves';
import type { WaveWatch } from './wave-watch';

/** A wave is not started this close to the deadline: its cells and formulas take writes. */
const WAVE_START_MARGIN_MS = 2000;
/** The longest one sleep while a wave's time passes. */
const LONGEST_SLEEP_MS = 60_000;

export interface RefreshDriving {
  /** When the caller's execution must be done with the waves (default: 25 s from now, what an open's simple trigger allows). */
  deadlineAtMs?: number;
  /** Told, before any cell changes, how many formulas and waves there are (Refresh all shows it). */
  onPlan?: (plan: { formulas: number; waves: number }) => void;
  /**
   * Wait for the last wave too (its count, or its whole time), within the deadline: a scheduled run
   * that goes on to another spreadsheet's formulas must not start them while these still compute.
   */
  awaitLastWave?: boolean;
}

/** What drives one spreadsheet's waves: its cells, the count of its formulas' ends where in reach, the time. */
export interface RefreshDriver {
  cells: RefreshCells;
  watch: WaveWatch | undefined;
  clock: Clock;
  sleeper: Sleeper;
}

/**
 * Makes every ENGAGE_* formula that references a refresh cell compute again, a wave of at most 25 at
 * a time, moving formulas to new groups where a group holds more. Without a deadline it takes at most
 * 25 s (an open's simple trigger has 30). The last wave started computes after this returns; waves it
 * had no time for are left for the next refresh, which takes the oldest groups first. Another
 * execution driving waves here first: then nothing is looked at or changed.
 */
export function driveRefreshWaves(driver: RefreshDriver, options: RefreshDriving = {}): RefreshOutcome {
  const { cells, watch, clock } = driver;
  const deadlineAtMs = options.deadlineAtMs ?? clock.now() + REFRESH_DEFAULT_BUDGET_MS;
  if (watch?.claim(deadlineAtMs) === 'busy') return { formulas: 0, waves: 0, refreshedFormulas: 0, startedWaves: 0, busy: true };
  try {
    const groups = cells.groups();
    const counts = groups.map((g) => ({ name: g.name, formulas: cells.formulas(g.name), stampMs: g.stampMs }));
    const waves = planRefreshWaves(counts, REFRESH_WAVE_FORMULAS);
    const formulas = counts.reduce((sum, g) => sum + g.formulas, 0);
    const outcome: RefreshOutcome = { formulas, waves: waves.length, refreshedFormulas: 0, startedWaves: 0, busy: false };
    options.onPlan?.({ formulas, waves: waves.length });
    if (watch && !watch.waitForPrevious(deadlineAtMs)) return outcome;
    // One stamp for every wave: identical formulas of different groups share the result the first fetched.
    const stampMs = nextRefreshStampMs(clock.now(), Math.max(0, ...groups.map((g) => g.stampMs)));
    watch?.open(stampMs);
    runWaves(driver, waves, stampMs, deadlineAtMs, options.awaitLastWave === true, outcome);
    return outcome;
  } finally {
    watch?.release();
  }
}

/** Starts the waves in turn, each once the one before is over, until they are all started or the deadline nears. */
function runWaves(
  { cells, watch, clock, sleeper }: RefreshDriver,
  waves: readonly RefreshWave[],
  stampMs: number,
  deadlineAtMs: number,
  awaitLastWave: boolean,
  outcome: RefreshOutcome,
): void {
  for (const [index, wave] of waves.entries()) {
    // No wave starts without time to change its cells, the first not either (a run whose reports took it all).
    if (clock.now() > deadlineAtMs - WAVE_START_MARGIN_MS) break;
    // Every wave before is over (counted or out of time): this one is over at this count plus its formulas.
    const target = (watch?.ended(stampMs).ended ?? 0) + wave.formulas;
    if (wave.kind === 'touch') cells.touch(wave.groups, stampMs);
    else cells.move(wave.from, wave.to, wave.skip, wave.formulas, stampMs);
    const waveUntilMs = clock.now() + REFRESH_WAVE_LIMIT_MS;
    watch?.started(stampMs, target, deadlineAtMs, waveUntilMs);
    outcome.startedWaves++;
    outcome.refreshedFormulas += wave.formulas;
    // The last wave computes on its own once this execution ends (unless asked to wait); a wave of no formula needs no wait.
    if ((index === waves.length - 1 && !awaitLastWave) || wave.formulas === 0) continue;
    const ended = watch ? watch.waitFor(stampMs, target, waveUntilMs, deadlineAtMs) : sleepUntil(waveUntilMs, deadlineAtMs, clock, sleeper);
    if (ended === 'deadline') break;
  }
}

/** Without a count to read: waits the wave's whole time ('timed out'), or until the deadline when it comes first. */
function sleepUntil(waveUntilMs: number, deadlineAtMs: number, clock: Clock, sleeper: Sleeper): 'timed out' | 'deadline' {
  const untilMs = Math.min(waveUntilMs, deadlineAtMs);
  for (let left = untilMs - clock.now(); left > 0; left = untilMs - clock.now()) sleeper.sleep(Math.min(left, LONGEST_SLEEP_MS));
  return clock.now() >= waveUntilMs ? 'timed out' : 'deadline';
}

/**
 * True when the day has changed on the spreadsheet's clock since a refresh cell was last changed, so
 * that the relative days of the formulas that take it now name other days. A cell that holds no time
 * (someone typed into it) counts as changed on another day, so the next change writes a time again.
 */
export function refreshCellsFromAnotherDay(groups: readonly RefreshCell[], nowMs: number, timeZone: string): boolean {
  return groups.some((g) => g.exists && (g.stampMs === 0 || isAnotherDay(g.stampMs, nowMs, timeZone)));
}
