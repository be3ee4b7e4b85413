/**
 * Client-side rate limits, so the add-on spends its own budget instead of collecting 429s: a sliding
 * window of 30 report requests a minute per publisher and a guard of 2 logins an hour per user. Each
 * custom-function cell is its own execution, so the window lives in the injected KeyValueStore
 * (properties) as compact JSON, updated under the injected Lock and re-read after locking, because
 * another execution may have spent slots while we waited. A caller that has to wait sleeps when the
 * wait fits its deadline; otherwise it gets a RateLimitError that says when to try again.
 */
import { BusyError, RateLimitError } from './errors';
import type { Clock, KeyValueStore, Lock, Sleeper } from './ports';
import { LOGIN_RATE_LIMIT_REQUESTS, LOGIN_RATE_WINDOW_MS, REPORT_RATE_LIMIT_REQUESTS, REPORT_RATE_WINDOW_MS } from './spec';

export interface RateRule {
  /** Short stable name, part of the storage key. */
  name: string;
  limit: number;
  windowMs: number;
  /** For messages: "30 report requests a minute per publisher". */
  description: string;
}

export const REPORT_RATE_RULE: RateRule = {
  name: 'reports', limit: REPORT_RATE_LIMIT_REQUESTS, windowMs: REPORT_RATE_WINDOW_MS,
  description: `${REPORT_RATE_LIMIT_REQUESTS} report requests a minute per publisher`,
};
export const LOGIN_RATE_RULE: RateRule = {
  name: 'login', limit: LOGIN_RATE_LIMIT_REQUESTS, windowMs: LOGIN_RATE_WINDOW_MS,
  description: `${LOGIN_RATE_LIMIT_REQUESTS} sign-ins an hour per user`,
};

export const RATE_STATE_KEY_PREFIX = 'engage.rate';
/** How long to wait for another execution to finish updating the shared state. */
export const RATE_LOCK_TIMEOUT_MS = 5000;

/** Stored state: `t` times of requests inside the window, `b` a service-announced block end. */
interface WindowState {
  t: number[];
  b?: number;
}

export interface RateLimiterDeps {
  store: KeyValueStore;
  lock?: Lock;
  clock: Clock;
  sleeper: Sleeper;
}

export class RateLimiter {
  constructor(private readonly deps: RateLimiterDeps) {}

  /** Takes `count` slots now, or after a wait that fits the deadline; otherwise throws RateLimitError. */
  acquire(rule: RateRule, scope: string, count: number, deadlineAtMs: number): void {
    this.take(rule, scope, count, count, deadlineAtMs);
  }

  /**
   * Takes as many slots as are free now, between 1 and `wanted`; when none is free, waits for the
   * first (if that fits the deadline). Returns the number taken. Paging uses it to size each batch.
   */
  acquireUpTo(rule: RateRule, scope: string, wanted: number, deadlineAtMs: number): number {
    return this.take(rule, scope, 1, wanted, deadlineAtMs);
  }

  /** Remembers a wait the service announced with a 429, so other executions honour it too. */
  blockUntil(rule: RateRule, scope: string, untilMs: number): void {
    this.withLock(() => {
      const state = this.read(rule, scope);
      if ((state.b ?? 0) < untilMs) {
        state.b = untilMs;
        this.write(rule, scope, state);
      }
    });
  }

  /** Earliest time `count` slots will be free (now when they are). */
  nextFreeAtMs(rule: RateRule, scope: string, count = 1): number {
    return this.freeAt(rule, this.read(rule, scope), count);
  }

  /** Slots still free right now. */
  remaining(rule: RateRule, scope: string): number {
    const state = this.read(rule, scope);
    const now = this.deps.clock.now();
    if ((state.b ?? 0) > now) return 0;
    return Math.max(0, rule.limit - state.t.length);
  }

  private take(rule: RateRule, scope: string, atLeast: number, atMost: number, deadlineAtMs: number): number {
    if (atLeast > rule.limit) throw new RangeError(`cannot take ${atLeast} slots of a limit of ${rule.limit}`);
    for (;;) {
      const outcome = this.withLock((): { taken: number } | { waitUntilMs: number } => {
        const state = this.read(rule, scope); // re-read under the lock: others may have spent slots
        const now = this.deps.clock.now();
        const blocked = (state.b ?? 0) > now;
        const free = blocked ? 0 : rule.limit - state.t.length;
        if (free >= atLeast) {
          const taken = Math.min(free, atMost);
          for (let i = 0; i < taken; i++) state.t.push(now);
          this.write(rule, scope, state);
          return { taken };
        }
        return { waitUntilMs: this.freeAt(rule, state, atLeast) };
      });
      if ('taken' in outcome) return outcome.taken;
      const now = this.deps.clock.now();
      if (outcome.waitUntilMs > deadlineAtMs) {
        throw new RateLimitError({
          status: 429, local: true, retryAtMs: outcome.waitUntilMs, nowMs: now, limitDescription: rule.description,
          operation: `${rule.name} for ${scope}`,
        });
      }
      this.deps.sleeper.sleep(Math.max(1, outcome.waitUntilMs - now));
    }
  }

  private freeAt(rule: RateRule, state: WindowState, count: number): number {
    const now = this.deps.clock.now();
    const times = state.t.filter((t) => t > now - rule.windowMs).sort((a, b) => a - b);
    const overflow = times.length + count - rule.limit;
    // The (overflow)-th oldest request must leave the window before `count` more fit.
    const windowFreeAt = overflow <= 0 ? now : times[overflow - 1]! + rule.windowMs;
    return Math.max(windowFreeAt, state.b ?? 0, now);
  }

  private key(rule: RateRule, scope: string): string {
    return `${RATE_STATE_KEY_PREFIX}.${rule.name}.${scope}`;
  }

  /** Reads the state, dropping requests that left the window; unreadable state counts as empty. */
  private read(rule: RateRule, scope: string): WindowState {
    const raw = this.deps.store.get(this.key(rule, scope));
    const now = this.deps.clock.now();
    if (!raw) return { t: [] };
    try {
      const parsed = JSON.parse(raw) as Partial<WindowState>;
      const t = Array.isArray(parsed.t) ? parsed.t.filter((x): x is number => typeof x === 'number' && x > now - rule.windowMs && x <= now + rule.windowMs) : [];
      const state: WindowState = { t };
      if (typeof parsed.b === 'number' && parsed.b > now) state.b = parsed.b;
      return state;
    } catch {
      return { t: [] };
    }
  }

  private write(rule: RateRule, scope: string, state: WindowState): void {
    // At most `limit` timestamps survive pruning: 30 x 14 characters, far below the 9 KB property cap.
    const value = state.b !== undefined ? { t: state.t, b: state.b } : { t: state.t };
    this.deps.store.set(this.key(rule, scope), JSON.stringify(value));
  }

  private withLock<T>(fn: () => T): T {
    const lock = this.deps.lock;
    if (!lock) return fn();
    if (!lock.tryLock(RATE_LOCK_TIMEOUT_MS)) throw new BusyError('the shared rate-limit budget');
    try {
      return fn();
    } finally {
      lock.releaseLock();
    }
  }
}
