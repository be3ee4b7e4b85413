/**
 * Client-side rate limits, so the add-on spends its own budget instead of collecting 429s: a sliding
 * window of 30 report requests a minute per publisher and a guard of 2 logins an hour per user.
 *
 * The service counts a request when it ARRIVES, which the add-on cannot see; it can see when the
 * answer came back, which is never before the arrival. So a slot is taken as a PENDING reservation
 * just before a request (or a fetchAll batch) is sent, and SETTLED when the answers are back: an
 * answered request counts from the time its answer came back, a 429 is dropped (the service does
 * not count refused requests), a request that got no answer counts from when the failure was seen.
 * A request sent at least a window after the answer of the one `limit` before it therefore arrives at
 * least a window after it, whatever the network's latency and jitter. A reservation its execution
 * never settled (Apps Script ended it mid-fetch) counts until its send time plus URL Fetch's longest
 * wait, then as a request answered at that moment.
 *
 * Each custom-function cell is its own execution, so the window lives in the injected KeyValueStore
 * as compact JSON, updated under the injected Lock and re-read after locking, because another
 * execution may have spent slots while we waited; no lock is held across a fetch. A caller that has
 * to wait sleeps when the wait fits its deadline; otherwise it gets a RateLimitError that says when
 * to try again.
 */
import { FETCH_LONGEST_WAIT_MS, RATE_LOCK_TIMEOUT_MS } from '../../budgets';
import { BusyError, RateLimitError } from '../../errors';
import type { Clock, KeyValueStore, Lock, Sleeper } from '../../ports';
import { LOGIN_RATE_LIMIT_REQUESTS, LOGIN_RATE_WINDOW_MS, REPORT_RATE_LIMIT_REQUESTS, REPORT_RATE_WINDOW_MS } from '../../spec';

export interface RateRule {
  /** Short stable name, part of the storage key. */
  name: string;
  limit: number;
  windowMs: number;
  /** For messages: "30 report requests a minute per publisher". */
  description: string;
}

export const REPORT_RATE_RULE: RateRule = {
  name: 'reports',
  limit: REPORT_RATE_LIMIT_REQUESTS,
  windowMs: REPORT_RATE_WINDOW_MS,
  description: `${REPORT_RATE_LIMIT_REQUESTS} report requests a minute per publisher`,
};
export const LOGIN_RATE_RULE: RateRule = {
  name: 'login',
  limit: LOGIN_RATE_LIMIT_REQUESTS,
  windowMs: LOGIN_RATE_WINDOW_MS,
  description: `${LOGIN_RATE_LIMIT_REQUESTS} sign-ins an hour per user`,
};

export const RATE_STATE_KEY_PREFIX = 'engage.rate';

/** Slots taken for one request or batch, to be settled once its answers are back. */
export interface RateReservation {
  rule: RateRule;
  scope: string;
  /** Slots reserved: the batch's size. */
  count: number;
  id: number;
  sentAtMs: number;
}

/** What became of a reservation's requests. */
export interface RateSettlement {
  /** Requests the service counted: all but those answered 429. */
  counted: number;
  /** When the answers (or the failure) came back. */
  atMs: number;
  /** A wait the service announced with a 429, honoured by every execution until then. */
  blockUntilMs?: number;
}

/**
 * Stored state, rewritten on every request: `t` times the service had seen each counted request by
 * (answer or failure times) inside the window, `p` pending reservations as [id, sentAtMs, count],
 * `n` the next reservation id, `b` a service-announced block end.
 */
interface WindowState {
  t: number[];
  p: Array<[number, number, number]>;
  n: number;
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

  /** Reserves `count` slots now, or after a wait that fits the deadline; otherwise throws RateLimitError. */
  acquire(rule: RateRule, scope: string, count: number, deadlineAtMs: number): RateReservation {
    return this.take(rule, scope, count, count, deadlineAtMs);
  }

  /**
   * Reserves as many slots as are free now, between 1 and `wanted`; when none is free, waits for the
   * first (if that fits the deadline). Paging uses it to size each batch.
   */
  acquireUpTo(rule: RateRule, scope: string, wanted: number, deadlineAtMs: number): RateReservation {
    return this.take(rule, scope, 1, wanted, deadlineAtMs);
  }

  /**
   * Reserves as many slots as are free now, between 1 and `wanted`, without waiting: undefined when
   * none is. A batch of several publishers' pages takes what each publisher has free.
   */
  tryAcquireUpTo(rule: RateRule, scope: string, wanted: number): RateReservation | undefined {
    const outcome = this.withLock(() => this.reserveFree(rule, scope, 1, wanted));
    return 'reservation' in outcome ? outcome.reservation : undefined;
  }

  /**
   * Records what became of a reservation. Never throws: when the lock cannot be had, the reservation
   * stays pending and counts, conservatively, as a request answered at its latest possible moment.
   */
  settle(reservation: RateReservation, settlement: RateSettlement): void {
    const { rule, scope } = reservation;
    try {
      this.withLock(() => {
        const state = this.read(rule, scope);
        state.p = state.p.filter(([id, sentAtMs]) => !(id === reservation.id && sentAtMs === reservation.sentAtMs));
        // Not found (the state was lost, or outlived): counting the requests again can only be stricter.
        for (let i = 0; i < settlement.counted; i++) state.t.push(settlement.atMs);
        if (settlement.blockUntilMs !== undefined && (state.b ?? 0) < settlement.blockUntilMs) state.b = settlement.blockUntilMs;
        this.write(rule, scope, state);
      });
    } catch (e) {
      if (!(e instanceof BusyError)) throw e;
    }
  }

  /** Gives back a reservation whose requests were never sent. */
  release(reservation: RateReservation): void {
    this.settle(reservation, { counted: 0, atMs: this.deps.clock.now() });
  }

  /**
   * The earliest time `count` slots can be free (now when they are): when the last of `count` more
   * requests can go. When that depends on requests still in flight it assumes their answers arrive
   * now: their true time is known once they settle. Beyond the limit, each further `limit` requests
   * need another window.
   */
  nextFreeAtMs(rule: RateRule, scope: string, count = 1): number {
    const windows = Math.ceil(count / rule.limit) - 1;
    return this.freeAt(rule, this.read(rule, scope), Math.min(count, rule.limit)) + Math.max(0, windows) * rule.windowMs;
  }

  /** Slots free right now. */
  remaining(rule: RateRule, scope: string): number {
    const state = this.read(rule, scope);
    if ((state.b ?? 0) > this.deps.clock.now()) return 0;
    return Math.max(0, rule.limit - occupied(state));
  }

  private take(rule: RateRule, scope: string, atLeast: number, atMost: number, deadlineAtMs: number): RateReservation {
    if (atLeast > rule.limit) throw new RangeError(`cannot take ${atLeast} slots of a limit of ${rule.limit}`);
    for (;;) {
      const outcome = this.withLock(() => this.reserveFree(rule, scope, atLeast, atMost));
      if ('reservation' in outcome) return outcome.reservation;
      const now = this.deps.clock.now();
      if (outcome.waitUntilMs > deadlineAtMs) {
        throw new RateLimitError({
          status: 429,
          local: true,
          retryAtMs: outcome.waitUntilMs,
          nowMs: now,
          limitDescription: rule.description,
          operation: `${rule.name} for ${scope}`,
        });
      }
      // Sleep to the earliest moment; if requests in flight decide it, their settled times are known then.
      this.deps.sleeper.sleep(Math.max(1, outcome.waitUntilMs - now));
    }
  }

  /** Under the lock: reserves between `atLeast` and `atMost` free slots, or says when `atLeast` will be free. */
  private reserveFree(
    rule: RateRule,
    scope: string,
    atLeast: number,
    atMost: number,
  ): { reservation: RateReservation } | { waitUntilMs: number } {
    const state = this.read(rule, scope); // re-read under the lock: others may have spent slots
    const now = this.deps.clock.now();
    const blocked = (state.b ?? 0) > now;
    const free = blocked ? 0 : rule.limit - occupied(state);
    if (free < atLeast) return { waitUntilMs: this.freeAt(rule, state, atLeast) };
    const count = Math.min(free, atMost);
    const id = state.n;
    state.n = id + 1;
    state.p.push([id, now, count]);
    this.write(rule, scope, state);
    return { reservation: { rule, scope, count, id, sentAtMs: now } };
  }

  private freeAt(rule: RateRule, state: WindowState, count: number): number {
    const now = this.deps.clock.now();
    const settled = [...state.t].sort((a, b) => a - b);
    const overflow = occupied(state) + count - rule.limit;
    // The (overflow) oldest counted requests must leave the window before `count` more fit. Every
    // settled request was seen by now, so all leave before any still in flight, which leaves a
    // window after its answer: at the earliest, a window from now.
    const windowFreeAt = overflow <= 0 ? now : overflow <= settled.length ? settled[overflow - 1]! + rule.windowMs : now + rule.windowMs;
    return Math.max(windowFreeAt, state.b ?? 0, now);
  }

  private key(rule: RateRule, scope: string): string {
    return `${RATE_STATE_KEY_PREFIX}.${rule.name}.${scope}`;
  }

  /**
   * Reads the state, dropping requests that left the window and turning reservations older than
   * URL Fetch's longest wait into requests answered at that moment; unreadable state counts as empty.
   */
  private read(rule: RateRule, scope: string): WindowState {
    const raw = this.deps.store.get(this.key(rule, scope));
    const now = this.deps.clock.now();
    const inWindow = (x: unknown): x is number => typeof x === 'number' && x > now - rule.windowMs && x <= now + rule.windowMs;
    const state: WindowState = { t: [], p: [], n: 1 };
    if (!raw) return state;
    let parsed: Partial<WindowState>;
    try {
      parsed = JSON.parse(raw) as Partial<WindowState>;
    } catch {
      return state;
    }
    if (Array.isArray(parsed.t)) state.t = parsed.t.filter(inWindow);
    for (const entry of Array.isArray(parsed.p) ? parsed.p : []) {
      if (!Array.isArray(entry) || entry.length !== 3 || !entry.every((x) => typeof x === 'number')) continue;
      const [, sentAtMs, count] = entry;
      if (sentAtMs + FETCH_LONGEST_WAIT_MS > now) state.p.push(entry);
      else if (inWindow(sentAtMs + FETCH_LONGEST_WAIT_MS)) for (let i = 0; i < count; i++) state.t.push(sentAtMs + FETCH_LONGEST_WAIT_MS);
    }
    if (typeof parsed.n === 'number' && Number.isInteger(parsed.n)) state.n = parsed.n;
    if (typeof parsed.b === 'number' && parsed.b > now) state.b = parsed.b;
    return state;
  }

  private write(rule: RateRule, scope: string, state: WindowState): void {
    // At most `limit` requests survive pruning: some 30 x 14 characters, far below the 9 KB property cap.
    const value: Partial<WindowState> = { t: state.t };
    if (state.p.length > 0) value.p = state.p;
    value.n = state.n;
    if (state.b !== undefined) value.b = state.b;
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

/** Slots in use: requests counted in the window and reservations still in flight. */
function occupied(state: WindowState): number {
  return state.p.reduce((sum, [, , count]) => sum + count, state.t.length);
}
