/**
 * ENGAGE_* formula results in the document cache, computed once. A result is kept, keyed by its
 * identity (the request, the token's hash, the refresh argument), for as long as the data is fresh,
 * compressed and cut into entries (chunked-cache.ts), and within a budget of the cache's items.
 * Identical formulas recalculating together send one set of requests: the first takes the document
 * lock, re-reads the cache, leaves a claim and computes; the others see the claim and wait for its
 * result instead of computing too. A formula's whole work, from the first request to the cache write,
 * ends by its deadline: the cache write is skipped when too little time is left, and a cache that
 * refuses the write loses the cache entry, never the result.
 */
import { CLAIM_LOCK_TIMEOUT_MS, FORMULA_TABLE_RESERVE_MS } from '../../budgets';
import { BusyError } from '../../errors';
import type { BatchCache, Cell, Clock, Compressor, Lock, Sleeper } from '../../ports';
import type { ReportKind } from '../../spec';
import { CACHE_MAX_TTL_SECONDS, CacheBudget, ChunkedCache } from '../stores/chunked-cache';
import { decodeValues, encodeValues } from '../stores/value-codec';

/** How long a formula result stays cached, by how fresh the data can be. */
export const RESULT_TTL_SECONDS: Record<ReportKind | 'lookup', number> = {
  realtime: 300, // realtime data is at most 30 minutes late: keep it briefly
  externalId: 1800,
  main: 3600, // general data is 2 to 4 hours late
  lookup: 3600,
};
/**
 * Cache items formula results may take in the document cache altogether (of the about 1,000 it holds).
 * A compressed result takes about one item per 1,000 rows of 33 columns, so this holds some 500,000
 * rows; the values nearest to expiry make room for a new one. The rest of the cache stays for what
 * must never be evicted for a result: claims, and any shared state kept in this cache for hours. The
 * cache never fills because of results, so neither of the rules a full cache may follow (drop those
 * nearest to expiry, or the oldest) ever applies to them.
 */
export const RESULT_CACHE_BUDGET_ITEMS = 500;
/**
 * A result that would take more items than this (some 150,000 rows of 33 columns, 14 MB compressed)
 * is returned but not cached: recalculating it fetches again.
 */
export const RESULT_MAX_ITEMS = 150;
/**
 * What encoding and compressing a result costs per 1,000 cells, and the allowance for the lock and the
 * cache write: 0.4 to 0.6 ms per 1,000 cells was measured (bench/RESULTS.md), taken over three times.
 * The cache write is skipped, and the result still returned, when the estimate does not fit the time
 * left before the formula's deadline.
 */
export const ENCODE_MS_PER_1000_CELLS = 2;
export const CACHE_WRITE_ALLOWANCE_MS = 1000;
/**
 * Claims outlive every result (a claim's value, a deadline, says when it is stale), so a cache that
 * drops the entries nearest to expiry drops results first.
 */
const CLAIM_TTL_SECONDS = CACHE_MAX_TTL_SECONDS;
/** How often a formula waiting for another one's result looks at the cache. */
const CLAIM_POLL_MS = 250;
const RESULT_CACHE_PREFIX = 'engage.r.';
const RESULT_LEDGER_KEY = 'engage.r-ledger';
const CLAIM_PREFIX = 'engage.claim.';
/** Bumped when the cached shape changes, so old entries are never read. */
const RESULT_FORMAT = 'v2';

export interface FormulaCacheDeps {
  /** The document cache: results, their ledger and claims. */
  cache: BatchCache;
  compressor: Compressor;
  /** The document lock: guards claims and the ledger. */
  lock: Lock;
  clock: Clock;
  sleeper: Sleeper;
}

export class FormulaCache {
  private readonly results: ChunkedCache;
  private readonly budget: CacheBudget;

  constructor(private readonly deps: FormulaCacheDeps) {
    this.results = new ChunkedCache(deps.cache, RESULT_CACHE_PREFIX, deps.compressor);
    this.budget = new CacheBudget(deps.cache, this.results, RESULT_LEDGER_KEY, RESULT_CACHE_BUDGET_ITEMS);
  }

  /**
   * The cached value for the identity made of `parts`, or the value of `compute`, computed by one
   * execution only: concurrent executions with the same identity wait for its result. `compute`
   * fetches by the time it is given, which leaves FORMULA_TABLE_RESERVE_MS before `deadlineAtMs` to
   * build its table.
   */
  computeOnce(parts: readonly unknown[], ttlSeconds: number, deadlineAtMs: number, compute: (fetchByMs: number) => Cell[][]): Cell[][] {
    const identity = JSON.stringify([RESULT_FORMAT, ...parts]);
    const hit = this.read(identity);
    if (hit) return hit;
    const { cache, lock, clock, sleeper } = this.deps;
    const claimKey = `${CLAIM_PREFIX}${this.results.keyOf(identity)}`;
    for (;;) {
      if (!lock.tryLock(Math.max(0, Math.min(CLAIM_LOCK_TIMEOUT_MS, deadlineAtMs - clock.now())))) {
        throw new BusyError('the same report for another cell');
      }
      let claimedByOther = false;
      try {
        // The claim first, then the result: its claimer writes the result, then lets go of the claim,
        // without the lock. Read the other way round, a result written between the two reads and a
        // claim let go after it would look like no result and no claim, and the data would be fetched twice.
        const claim = Number(cache.get(claimKey) ?? 0);
        if (claim > clock.now()) claimedByOther = true;
        else {
          const again = this.read(identity);
          if (again) return again;
          cache.put(claimKey, String(deadlineAtMs), CLAIM_TTL_SECONDS);
        }
      } finally {
        lock.releaseLock();
      }
      if (!claimedByOther) break;
      // Another execution is fetching the same data: wait for its result rather than fetching it again.
      while (clock.now() + CLAIM_POLL_MS < deadlineAtMs) {
        sleeper.sleep(CLAIM_POLL_MS);
        const waited = this.read(identity);
        if (waited) return waited;
        if (Number(cache.get(claimKey) ?? 0) <= clock.now()) break;
      }
      if (clock.now() + CLAIM_POLL_MS >= deadlineAtMs) throw new BusyError('the same report for another cell, which is still loading');
    }
    try {
      const values = compute(deadlineAtMs - FORMULA_TABLE_RESERVE_MS);
      try {
        this.store(identity, values, ttlSeconds, deadlineAtMs);
      } catch {
        // The cache refused the write (a service error, a value too large): the result goes uncached, never lost.
      }
      return values;
    } finally {
      try {
        cache.remove(claimKey);
      } catch {
        // The claim lapses at its deadline: waiting formulas then fetch themselves.
      }
    }
  }

  /**
   * Caches a computed result when that fits before the deadline and the result fits the budget;
   * otherwise caches nothing and says nothing: the result is returned all the same. Time is checked
   * three times on the clock: the estimate of encoding and compressing before it starts, what is left
   * after it (a pack that overran its estimate leaves no write allowance, and nothing is written), and
   * the lock, which is waited for only as long as the write allowance still remains after it.
   */
  private store(identity: string, values: Cell[][], ttlSeconds: number, deadlineAtMs: number): void {
    const { clock, lock } = this.deps;
    const cells = values.reduce((sum, row) => sum + row.length, 0);
    if (clock.now() + (cells / 1000) * ENCODE_MS_PER_1000_CELLS + CACHE_WRITE_ALLOWANCE_MS > deadlineAtMs) return;
    const packed = this.results.pack(identity, encodeValues(values));
    const leftForWriteMs = deadlineAtMs - clock.now() - CACHE_WRITE_ALLOWANCE_MS;
    if (packed.items > RESULT_MAX_ITEMS || leftForWriteMs < 0) return;
    if (!lock.tryLock(Math.min(CLAIM_LOCK_TIMEOUT_MS, leftForWriteMs))) return;
    try {
      const now = clock.now();
      if (!this.budget.admit(packed.key, packed.items, now, now + ttlSeconds * 1000)) return;
    } finally {
      lock.releaseLock();
    }
    this.results.write(packed, ttlSeconds);
  }

  private read(identity: string): Cell[][] | null {
    const text = this.results.get(identity);
    if (text === null) return null;
    try {
      return decodeValues(text);
    } catch {
      return null;
    }
  }
}
