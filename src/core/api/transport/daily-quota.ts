/**
 * Apps Script's daily quotas as this add-on counts them for one user, in that user's properties:
 * URL fetches (20,000 a day for consumer accounts, 100,000 for Workspace) and trigger runtime (90
 * minutes, or 6 hours). Knowing the count lets scheduled runs stop before the quota does, and lets a
 * formula say when fetching works again.
 *
 * Day boundary: Google's quotas page says quotas "are per user and reset 24 hours after the first
 * request", so a count is a window that opens with the first use it records and closes 24 hours
 * later; the next use opens a new one. A calendar day (midnight in some zone) would disagree with
 * Apps Script for most of the day.
 *
 * The count is what this add-on spent: the user's other scripts spend the same quotas, so Apps Script
 * may refuse before the count reaches its limit, and `markSpent` then takes Apps Script's word for it
 * until the window closes. Updates are made under the user lock, re-reading the count after taking
 * it; when the lock is busy, or the store refuses a write (a formula recalculated by an editor cannot
 * write the owner's properties), the count goes on without that update: it is a planning aid, and
 * Apps Script's own refusal is always recognised.
 */
import { QUOTA_LOCK_TIMEOUT_MS } from '../../budgets';
import { FetchQuotaError } from '../../errors';
import type { Clock, KeyValueStore, Lock } from '../../ports';
import type { FetchCounter } from './request-sender';

export const QUOTA_WINDOW_MS = 24 * 3_600_000;
export const FETCH_COUNT_KEY = 'engage.quota.urlfetch';
export const TRIGGER_RUNTIME_KEY = 'engage.quota.triggerRuntime';

export interface QuotaUsage {
  used: number;
  limit: number;
  /** When the current window closes; undefined when nothing was counted in the last 24 hours. */
  resetAtMs?: number;
}

/** A daily quota as the sidebar shows it: plain data, the reset time as an ISO string. */
export interface QuotaView {
  used: number;
  limit: number;
  /** When the 24-hour window closes; absent when nothing was counted in the last 24 hours. */
  resetAt?: string;
}

export function quotaView(usage: QuotaUsage): QuotaView {
  return {
    used: usage.used,
    limit: usage.limit,
    ...(usage.resetAtMs !== undefined ? { resetAt: new Date(usage.resetAtMs).toISOString() } : {}),
  };
}

/** A share of a quota taken ahead of its use (DailyQuota.reserve), to be settled when the use is known. */
export interface QuotaReservation {
  /** What was taken: at most what was asked, never more than was left. */
  amount: number;
  /** Start of the window it was taken in. */
  windowStartMs: number;
}

/** Stored as {"s": window start (epoch ms), "n": amount used}. */
interface StoredWindow {
  s: number;
  n: number;
}

export interface DailyQuotaDeps {
  store: KeyValueStore;
  clock: Clock;
  lock?: Lock;
}

export class DailyQuota {
  constructor(
    private readonly deps: DailyQuotaDeps,
    readonly key: string,
    readonly limit: number,
  ) {}

  usage(): QuotaUsage {
    return this.usageOf(this.read());
  }

  /**
   * Counts `amount` when the total stays within `ceiling` (default the limit) and returns true;
   * otherwise counts nothing and returns false. A new window opens at `atMs` (default now).
   */
  take(amount: number, options: { ceiling?: number; atMs?: number } = {}): boolean {
    return this.count(amount, options).counted;
  }

  /** As `take`, with the count as it stands afterwards (read under the lock): one read and one write of the store. */
  count(amount: number, options: { ceiling?: number; atMs?: number } = {}): { counted: boolean; usage: QuotaUsage } {
    const ceiling = options.ceiling ?? this.limit;
    let after: StoredWindow | undefined;
    const counted = this.update((window) => {
      after = window;
      const used = window?.n ?? 0;
      if (used + amount > ceiling) return undefined;
      after = { s: window?.s ?? options.atMs ?? this.deps.clock.now(), n: used + amount };
      return after;
    });
    return { counted, usage: this.usageOf(after) };
  }

  /** Counts `amount` whatever the total (time already spent cannot be refused). */
  add(amount: number, atMs?: number): void {
    this.update((window) => ({ s: window?.s ?? atMs ?? this.deps.clock.now(), n: (window?.n ?? 0) + amount }));
  }

  /**
   * Takes up to `amount` of what is left for a use that begins now and whose size is known only at
   * its end (a trigger run's time), under the lock, so that an execution starting meanwhile plans with
   * what remains: one user's hourly runs in several documents overlap. `settle` replaces the share
   * with the real use. A share that is never settled (the execution was killed) stays counted, which
   * errs on the safe side. A new window opens at `atMs` (default now).
   */
  reserve(amount: number, atMs?: number): QuotaReservation {
    let share: QuotaReservation = { amount: 0, windowStartMs: atMs ?? this.deps.clock.now() };
    this.update((window) => {
      const used = window?.n ?? 0;
      share = { amount: Math.max(0, Math.min(amount, this.limit - used)), windowStartMs: window?.s ?? share.windowStartMs };
      return share.amount > 0 ? { s: share.windowStartMs, n: used + share.amount } : undefined;
    });
    return share;
  }

  /** Replaces a share taken with `reserve` by what was really used, more or less than the share. */
  settle(share: QuotaReservation, used: number, atMs?: number): void {
    this.update((window) => {
      if (window && window.s === share.windowStartMs) return { s: window.s, n: Math.max(0, window.n - share.amount + used) };
      // The share's window closed meanwhile and took the share with it: the use counts in the open window.
      return { s: window?.s ?? atMs ?? this.deps.clock.now(), n: (window?.n ?? 0) + used };
    });
  }

  /** Apps Script said the quota is spent: count it as full until the window closes (24 hours from now when none is open). */
  markSpent(): QuotaUsage {
    this.update((window) => ({ s: window?.s ?? this.deps.clock.now(), n: Math.max(window?.n ?? 0, this.limit) }));
    const usage = this.usage();
    // When the store refused the write, still answer with a full window.
    return usage.used >= this.limit ? usage : { used: this.limit, limit: this.limit, resetAtMs: this.deps.clock.now() + QUOTA_WINDOW_MS };
  }

  private usageOf(window: StoredWindow | undefined): QuotaUsage {
    return window ? { used: window.n, limit: this.limit, resetAtMs: window.s + QUOTA_WINDOW_MS } : { used: 0, limit: this.limit };
  }

  /** The open window, or undefined when none is (never used, closed, or unreadable). */
  private read(): StoredWindow | undefined {
    const raw = this.deps.store.get(this.key);
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<StoredWindow>;
      const now = this.deps.clock.now();
      if (
        typeof parsed.s !== 'number' ||
        typeof parsed.n !== 'number' ||
        parsed.s + QUOTA_WINDOW_MS <= now ||
        parsed.s > now + QUOTA_WINDOW_MS
      )
        return undefined;
      return { s: parsed.s, n: parsed.n };
    } catch {
      return undefined;
    }
  }

  /** Applies `change` to the re-read window under the lock; undefined from `change` writes nothing. */
  private update(change: (window: StoredWindow | undefined) => StoredWindow | undefined): boolean {
    const { lock, store } = this.deps;
    let locked = false;
    try {
      locked = lock ? lock.tryLock(QUOTA_LOCK_TIMEOUT_MS) : false;
    } catch {
      // A lock the execution may not take is a busy lock: see the file comment.
    }
    try {
      const next = change(this.read());
      if (!next) return false;
      try {
        store.set(this.key, JSON.stringify(next));
      } catch {
        // See the file comment: a count that cannot be written is skipped, never fatal.
      }
      return true;
    } finally {
      if (locked) lock!.releaseLock();
    }
  }
}

/**
 * Scheduled runs leave this share of the daily URL Fetch quota to the user's formulas and sidebar,
 * which someone is waiting for: 4,000 of 20,000 calls (20,000 of 100,000 on Workspace).
 */
export const FORMULA_RESERVE_SHARE = 0.2;

/**
 * Calls an execution may make before it writes them to the count, when the end of the execution is
 * told (`FetchQuota`): the most an execution that Apps Script ends at its time limit leaves uncounted.
 */
export const FETCH_COUNT_SAVE_EVERY = 20;

/**
 * The URL Fetch count as one execution's request sender uses it: every attempt is counted before it
 * is made, batch members one by one.
 *
 * What it costs: Apps Script allows 50,000 reads and writes of properties a day on a consumer account,
 * more than URL Fetch's 20,000 calls but not twice as many, so a read and a write of the count for
 * every fetch could spend the properties first. An execution's first fetch is counted at once, one
 * locked read and write, so an execution that fetches once costs what it always did and no other
 * execution misses it. Later fetches are added up in memory and written together, one locked read and
 * write, every FETCH_COUNT_SAVE_EVERY calls and when the execution ends (`save`, which the entry
 * points call); the scheduled run's check of its share reads no property at all. A scheduled run of
 * 120 requests in 80 fetches used to take 200 reads and writes of the count and now takes 15.
 *
 * The trade-off: each write adds this execution's calls to the count read under the user lock, so no
 * execution's calls are lost to another's, but other executions see the calls of a running one up to
 * 19 calls late, and an execution that Apps Script ends at its time limit leaves up to 19 uncounted.
 * The count only plans (scheduled runs stop at 80%, formulas say when the quota resets); Apps Script's
 * own refusal is recognised whatever the count says. Without `saveEvery` (tests, and callers that
 * cannot tell when the execution ends) every attempt is written at once.
 */
export class FetchQuota implements FetchCounter {
  /** The count as this execution last read or wrote it (undefined until it is needed). */
  private seen: QuotaUsage | undefined;
  /** Calls this execution counted since it last wrote the count. */
  private unsaved = 0;
  private written = false;
  private readonly saveEvery: number;

  constructor(
    readonly quota: DailyQuota,
    private readonly clock: Clock,
    options: { saveEvery?: number } = {},
  ) {
    this.saveEvery = Math.max(1, options.saveEvery ?? 1);
  }

  spend(calls: number): void {
    if (!this.written) {
      const { counted, usage } = this.quota.count(calls);
      this.seen = usage;
      if (!counted) throw this.error(usage, true);
      this.written = true;
      return;
    }
    if (this.usage().used + calls > this.quota.limit) {
      // Re-read before refusing: the window may have closed since.
      this.save(true);
      if (this.usage().used + calls > this.quota.limit) throw this.error(this.usage(), true);
    }
    this.unsaved += calls;
    if (this.unsaved >= this.saveEvery) this.save();
  }

  /**
   * Writes the calls counted since the last write (one locked read and write); the execution's end
   * calls it. With nothing to write, `reread` reads the count again instead.
   */
  save(reread = false): void {
    if (this.unsaved === 0) {
      if (reread) this.seen = this.quota.usage();
      return;
    }
    this.seen = this.quota.count(this.unsaved, { ceiling: Number.POSITIVE_INFINITY }).usage;
    this.unsaved = 0;
  }

  /** The count with this execution's calls not yet written; read once when this execution has not read it. */
  usage(): QuotaUsage {
    this.seen ??= this.quota.usage();
    return { ...this.seen, used: this.seen.used + this.unsaved };
  }

  spent(): FetchQuotaError {
    this.save();
    this.seen = this.quota.markSpent();
    return this.error(this.seen, false);
  }

  /** Whether `calls` more fit before the reserve kept for the user's own formulas and sidebar. */
  roomForScheduled(calls: number): boolean {
    const { used, limit } = this.usage();
    return used + calls <= Math.floor(limit * (1 - FORMULA_RESERVE_SHARE));
  }

  private error(usage: QuotaUsage, local: boolean): FetchQuotaError {
    return new FetchQuotaError({
      limit: usage.limit,
      nowMs: this.clock.now(),
      local,
      ...(usage.resetAtMs !== undefined ? { resetAtMs: usage.resetAtMs } : {}),
    });
  }
}
