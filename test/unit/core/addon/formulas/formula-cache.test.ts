/**
 * FormulaCache around the cache write: a cache that refuses the write (a service error, a value too
 * large) loses the cache entry, never the computed result; and the three time checks on the clock, the
 * estimate before packing, what packing left, and the lock's wait, each skip the write and still return
 * the result.
 */
import { CACHE_WRITE_ALLOWANCE_MS, ENCODE_MS_PER_1000_CELLS, FormulaCache } from '../../../../../src/core/addon/formulas/formula-cache';
import { CLAIM_LOCK_TIMEOUT_MS } from '../../../../../src/core/budgets';
import type { Cell, Lock } from '../../../../../src/core/ports';
import { FakeCache, FakeCompressor, FakeLock, ManualClock, ManualSleeper } from '../../../../support/fakes';

const ROWS = 10_000;
const COLUMNS = 10;
/** Pseudo-random numbers, so the result takes several entries even compressed. */
const bigValues: Cell[][] = Array.from({ length: ROWS }, (_, r) =>
  Array.from({ length: COLUMNS }, (_, c) => (Math.imul(r * COLUMNS + c + 1, 2_654_435_761) >>> 0) % 1_000_003),
);
const smallValues: Cell[][] = [
  ['Day', 'Revenue'],
  ['2026-11-01', 12.5],
];
/** What the pre-pack estimate of the big result asks for: encoding and compressing, then the write. */
const BIG_NEED_MS = ((ROWS * COLUMNS) / 1000) * ENCODE_MS_PER_1000_CELLS + CACHE_WRITE_ALLOWANCE_MS;

/** A lock whose refusal waits out its timeout on the clock, as LockService's tryLock does; records each timeout asked for. */
class WaitingLock implements Lock {
  readonly timeouts: number[] = [];
  available = true;
  held = false;
  constructor(private readonly clock: ManualClock) {}
  tryLock(timeoutMs: number): boolean {
    this.timeouts.push(timeoutMs);
    if (!this.available || this.held) {
      this.clock.advance(timeoutMs);
      return false;
    }
    this.held = true;
    return true;
  }
  releaseLock(): void {
    this.held = false;
  }
}

function setup(cache?: (clock: ManualClock) => FakeCache) {
  const clock = new ManualClock();
  const documentCache = cache ? cache(clock) : new FakeCache(clock);
  const lock = new WaitingLock(clock);
  const compressor = new FakeCompressor();
  /** Milliseconds each compression takes on the clock. */
  let packMs = 0;
  const results = new FormulaCache({
    cache: documentCache,
    compressor: {
      compress: (text) => {
        clock.advance(packMs);
        return compressor.compress(text);
      },
      decompress: (text) => compressor.decompress(text),
    },
    lock,
    clock,
    sleeper: new ManualSleeper(clock),
  });
  let computed = 0;
  /** A formula whose data takes `computeMs` to come, and which has until `deadlineAtMs`. */
  const run = (values: Cell[][], options: { computeMs?: number; deadlineAtMs?: number; meanwhile?: () => void } = {}) => {
    const deadlineAtMs = options.deadlineAtMs ?? clock.now() + 27_000;
    return results.computeOnce(['report', 'pub'], 3600, deadlineAtMs, () => {
      computed++;
      clock.advance(options.computeMs ?? 0);
      options.meanwhile?.();
      return values;
    });
  };
  const resultKeys = () => documentCache.keys().filter((k) => k.startsWith('engage.r'));
  return {
    clock,
    documentCache,
    lock,
    compressor,
    run,
    resultKeys,
    computed: () => computed,
    setPackMs: (ms: number) => {
      packMs = ms;
    },
  };
}

describe('FormulaCache when the cache refuses the write', () => {
  it.each(['Service error: Cache', 'Argument too large: value'])(
    'returns the result uncached when putAll throws "%s", and computes it again next time',
    (message) => {
      const env = setup(
        (clock) =>
          new (class extends FakeCache {
            override putAll(): void {
              throw new Error(message);
            }
          })(clock),
      );
      expect(env.run(bigValues)).toEqual(bigValues);
      // No result entry is held (the ledger counts it until it would expire, which only makes room sooner), nor any claim.
      expect(env.documentCache.keys().filter((k) => k.startsWith('engage.r.') || k.startsWith('engage.claim.'))).toEqual([]);
      expect(env.lock.held).toBe(false);
      expect(env.run(bigValues)).toEqual(bigValues);
      expect(env.computed()).toBe(2);
    },
  );

  it("returns a small result uncached when put refuses its one entry, and still writes the formula's claim", () => {
    const env = setup(
      (clock) =>
        new (class extends FakeCache {
          override put(key: string, value: string, ttlSeconds: number): void {
            if (key.startsWith('engage.r.')) throw new Error('Service error: Cache');
            super.put(key, value, ttlSeconds);
          }
        })(clock),
    );
    expect(env.run(smallValues)).toEqual(smallValues);
    expect(env.documentCache.writes.some((w) => w.key.startsWith('engage.claim.'))).toBe(true);
    expect(env.run(smallValues)).toEqual(smallValues);
    expect(env.computed()).toBe(2);
  });

  it('returns the result, cached, when its claim cannot be removed', () => {
    const env = setup(
      (clock) =>
        new (class extends FakeCache {
          override remove(key: string): void {
            if (key.startsWith('engage.claim.')) throw new Error('Service error: Cache');
            super.remove(key);
          }
        })(clock),
    );
    expect(env.run(smallValues)).toEqual(smallValues);
    expect(env.run(smallValues)).toEqual(smallValues);
    expect(env.computed()).toBe(1);
  });
});

describe('FormulaCache time checks before the cache write', () => {
  it('caches a result whose estimate, packing and lock all fit before the deadline', () => {
    const env = setup();
    expect(env.run(bigValues, { computeMs: 27_000 - BIG_NEED_MS - 100 })).toEqual(bigValues);
    expect(env.resultKeys().length).toBeGreaterThan(3);
    expect(env.run(bigValues)).toEqual(bigValues);
    expect(env.computed()).toBe(1);
  });

  it('skips packing when the estimate does not fit what is left', () => {
    const env = setup();
    expect(env.run(bigValues, { computeMs: 27_000 - BIG_NEED_MS + 100 })).toEqual(bigValues);
    expect(env.compressor.compressions).toBe(0);
    expect(env.resultKeys()).toEqual([]);
  });

  it('skips the write when packing overran its estimate and left less than the write allowance', () => {
    // 3 s left after the data: the estimate (1.4 s) fits.
    expect(BIG_NEED_MS).toBeLessThan(3000);
    const slow = setup();
    slow.setPackMs(2500);
    const deadlineAtMs = slow.clock.now() + 27_000;
    expect(slow.run(bigValues, { computeMs: 24_000, deadlineAtMs })).toEqual(bigValues);
    // Packed, then 0.5 s was left, under the 1 s the write may take: nothing written, not even the ledger, no lock waited for.
    expect(slow.compressor.compressions).toBe(1);
    expect(slow.resultKeys()).toEqual([]);
    expect(slow.lock.timeouts).toHaveLength(1);
    expect(slow.clock.now()).toBeLessThanOrEqual(deadlineAtMs);
    expect(slow.run(bigValues)).toEqual(bigValues);
    expect(slow.computed()).toBe(2);

    // The same pack taking 1.5 s leaves the allowance: the result is cached.
    const fits = setup();
    fits.setPackMs(1500);
    fits.run(bigValues, { computeMs: 24_000 });
    expect(fits.resultKeys().length).toBeGreaterThan(3);
  });

  it('waits for the lock only as long as leaves the write allowance, and writes nothing when the wait times out', () => {
    const env = setup();
    const deadlineAtMs = env.clock.now() + 27_000;
    // 3 s left after the data, and meanwhile another execution took the document lock and holds it past the wait.
    const values = env.run(smallValues, {
      computeMs: 24_000,
      deadlineAtMs,
      meanwhile: () => {
        env.lock.available = false;
      },
    });
    expect(values).toEqual(smallValues);
    // The claim's wait, then the write's: not the lock's whole timeout, only what leaves the write allowance (3 s - 1 s).
    expect(env.lock.timeouts).toEqual([CLAIM_LOCK_TIMEOUT_MS, 3000 - CACHE_WRITE_ALLOWANCE_MS]);
    expect(env.clock.now()).toBe(deadlineAtMs - CACHE_WRITE_ALLOWANCE_MS);
    expect(env.resultKeys()).toEqual([]);
    // Nor is the claim left: the next formula computes at once rather than waiting, and with the lock free caches its result.
    env.lock.available = true;
    expect(env.run(smallValues)).toEqual(smallValues);
    expect(env.computed()).toBe(2);
    expect(env.resultKeys().length).toBeGreaterThan(0);
  });
});

describe('FormulaCache between two executions of one formula', () => {
  it('finds the result its claimer wrote just before letting go of the claim, and computes nothing', () => {
    const clock = new ManualClock();
    const deadlineAtMs = clock.now() + 27_000;
    const formulaCache = (cache: FakeCache) =>
      new FormulaCache({ cache, compressor: new FakeCompressor(), lock: new FakeLock(), clock, sleeper: new ManualSleeper(clock) });
    // What the claiming execution writes: its claim when it starts, its result when it is done.
    const claimer = new FakeCache(clock);
    formulaCache(claimer).computeOnce(['report', 'pub'], 3600, deadlineAtMs, () => smallValues);
    const claim = claimer.writes.find((w) => w.key.startsWith('engage.claim.'))!;
    const result = claimer.writes.filter((w) => w.key.startsWith('engage.r.'));
    expect(result.length).toBeGreaterThan(0);
    // The claimer finishes (the result written, then the claim let go, without the lock) just as the
    // other execution, holding the lock, looks at the claim: whatever it read before, it must then see the result.
    let finished = false;
    const shared = new (class extends FakeCache {
      override get(key: string): string | null {
        if (!finished && key === claim.key) {
          finished = true;
          for (const w of result) this.put(w.key, w.value, w.ttl);
          this.remove(claim.key);
        }
        return super.get(key);
      }
    })(clock);
    shared.put(claim.key, claim.value, claim.ttl);
    let computed = 0;
    const values = formulaCache(shared).computeOnce(['report', 'pub'], 3600, deadlineAtMs, () => {
      computed++;
      return smallValues;
    });
    expect({ computed, values }).toEqual({ computed: 0, values: smallValues });
  });
});
