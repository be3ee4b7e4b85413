/**
 * The count of a refresh's formula ends, in a cache every execution of the spreadsheet shares (the
 * document cache, docs/shared-state.md). Before its first wave, the driver (Refresh all, the hourly
 * run) puts a count at zero under the refresh's stamp; each formula that received that stamp as its
 * refresh value adds its end, success or error, under the document lock; the driver reads the count
 * until the wave's formulas are all in (the count before the wave plus the wave's formulas). One more
 * key says which execution drives waves in this spreadsheet now and what the wave computing needs, so
 * that two drivers never run waves at once. A run that cannot reach this document's cache (a trigger
 * run without the document) has no watch: it waits a wave's whole time instead (refresh-driver.ts).
 */
import { REFRESH_WAVE_GRACE_MS, REFRESH_WAVE_POLL_MS, WAVE_MARK_LOCK_TIMEOUT_MS } from '../budgets';
import type { Cache, Clock, Lock, Sleeper } from '../ports';
import { parseWaveCount, refreshWaveKey, type WaveCount } from './refresh-waves';

/** Kept longer than any driver runs (6 minutes). */
const WAVE_TTL_SECONDS = 600;
const DRIVER_KEY = 'engage.waves.driver';
/** Taking the driver's claim: a short read and write under the document lock. */
const CLAIM_LOCK_TIMEOUT_MS = 5000;

/** Which execution drives waves here until when, and the wave computing now: its count's key, the count that ends it, until when. */
interface DriverState {
  untilMs: number;
  wave?: { key: string; target: number; untilMs: number };
}

function parseDriverState(text: string | null): DriverState {
  try {
    const value = text ? (JSON.parse(text) as DriverState) : undefined;
    return value && typeof value.untilMs === 'number' ? value : { untilMs: 0 };
  } catch {
    return { untilMs: 0 };
  }
}

/**
 * A formula's end, counted in the wave its refresh stamp names, when that refresh is counting; the
 * lock (asked for only then) is waited for until `lockDeadlineAtMs` at most. A lock that cannot be had
 * leaves the end uncounted: the driver then waits out the wave's time.
 */
export function countWaveEnd(
  cache: Cache,
  documentLock: () => Lock | null,
  stampMs: number,
  ok: boolean,
  lockDeadlineAtMs: number,
  clock: Clock,
): void {
  const key = refreshWaveKey(stampMs);
  if (cache.get(key) === null) return;
  const lock = documentLock();
  if (!lock?.tryLock(Math.max(0, Math.min(WAVE_MARK_LOCK_TIMEOUT_MS, lockDeadlineAtMs - clock.now())))) return;
  try {
    const count = parseWaveCount(cache.get(key));
    if (count) cache.put(key, JSON.stringify({ ...count, ended: count.ended + 1, failed: count.failed + (ok ? 0 : 1) }), WAVE_TTL_SECONDS);
  } finally {
    lock.releaseLock();
  }
}

/** The driver's side: its claim, and each wave's count from its start to its end. */
export class WaveWatch {
  constructor(
    private readonly cache: Cache,
    private readonly lock: Lock | null,
    private readonly clock: Clock,
    private readonly sleeper: Sleeper,
  ) {}

  /**
   * Takes the spreadsheet's waves until `untilMs`: 'busy' when another execution drives them now.
   * A lock that cannot be had goes ahead without the claim (the count still guards each wave).
   */
  claim(untilMs: number): 'claimed' | 'busy' {
    const held = this.lock?.tryLock(CLAIM_LOCK_TIMEOUT_MS) === true;
    try {
      const state = parseDriverState(this.cache.get(DRIVER_KEY));
      if (state.untilMs > this.clock.now()) return 'busy';
      this.write({ ...state, untilMs });
      return 'claimed';
    } finally {
      if (held) this.lock?.releaseLock();
    }
  }

  /** Waits for the wave an earlier driver left computing; false when `deadlineAtMs` came first. */
  waitForPrevious(deadlineAtMs: number): boolean {
    const wave = parseDriverState(this.cache.get(DRIVER_KEY)).wave;
    if (!wave || wave.untilMs <= this.clock.now()) return true;
    return (
      this.waitUntilEnded(wave.key, wave.target, Math.min(wave.untilMs, deadlineAtMs)) !== 'deadline' || this.clock.now() >= wave.untilMs
    );
  }

  /** Puts the refresh's count at zero, before its first wave's cells change. */
  open(stampMs: number): void {
    const count: WaveCount = { ended: 0, failed: 0 };
    this.cache.put(refreshWaveKey(stampMs), JSON.stringify(count), WAVE_TTL_SECONDS);
  }

  /** The refresh's formulas ended so far (every wave before the next is over by then, counted or not). */
  ended(stampMs: number): WaveCount {
    return parseWaveCount(this.cache.get(refreshWaveKey(stampMs))) ?? { ended: 0, failed: 0 };
  }

  /** A wave computes until `waveUntilMs`, and is over at a count of `target` ends: a driver after this one waits for it. */
  started(stampMs: number, target: number, driverUntilMs: number, waveUntilMs: number): void {
    this.write({ untilMs: driverUntilMs, wave: { key: refreshWaveKey(stampMs), target, untilMs: waveUntilMs } });
  }

  /**
   * Reads the count until it reaches `target` ('ended'), the wave's time passed ('timed out': every
   * formula has ended by then, counted or not) or the driver's deadline came ('deadline').
   */
  waitFor(stampMs: number, target: number, waveUntilMs: number, deadlineAtMs: number): 'ended' | 'timed out' | 'deadline' {
    const outcome = this.waitUntilEnded(refreshWaveKey(stampMs), target, Math.min(waveUntilMs, deadlineAtMs));
    if (outcome === 'ended') return 'ended';
    return this.clock.now() >= waveUntilMs ? 'timed out' : 'deadline';
  }

  /** The driver is done: another may start (the wave left computing stays known). */
  release(): void {
    this.write({ ...parseDriverState(this.cache.get(DRIVER_KEY)), untilMs: 0 });
  }

  private waitUntilEnded(key: string, target: number, untilMs: number): 'ended' | 'deadline' {
    for (;;) {
      const count = parseWaveCount(this.cache.get(key));
      if (count && count.ended >= target) {
        // The last formula counted its end just before returning its result: give it that moment.
        this.sleeper.sleep(REFRESH_WAVE_GRACE_MS);
        return 'ended';
      }
      const left = untilMs - this.clock.now();
      if (left <= 0) return 'deadline';
      this.sleeper.sleep(Math.min(REFRESH_WAVE_POLL_MS, left));
    }
  }

  private write(state: DriverState): void {
    this.cache.put(DRIVER_KEY, JSON.stringify(state), WAVE_TTL_SECONDS);
  }
}
