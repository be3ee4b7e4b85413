/**
 * Everything one emulator instance remembers: its settable clock, users (passwords and emails can
 * change), issued tokens, the sliding windows of the three rate limits, fault rules, the request log
 * and recorded impressions. Each instance created through the admin API gets its own state, so a
 * test that moves the clock or exhausts a limit cannot disturb another. The limiter methods return
 * the milliseconds to wait (0 when allowed) so the app can put them in `rate-limit-msec-left`.
 */
import type { ResponseShape } from './shapes';
import { randomBytes } from 'node:crypto';
import { USERS } from './seed';

export const TOKEN_LIFETIME_MS = 30 * 24 * 3_600_000;
export const LOGIN_LIMIT_PER_WINDOW = 2;
export const LOGIN_WINDOW_MS = 3_600_000;
export const REPORT_LIMIT_PER_WINDOW = 30;
export const REPORT_WINDOW_MS = 60_000;
export const UNIQUE_VARIANTS_PER_WINDOW = 100_000;
export const UNIQUE_VARIANTS_WINDOW_MS = 3_600_000;
/** The request log keeps the most recent entries only, so a long `npm start` session stays small. */
export const REQUEST_LOG_MAX_ENTRIES = 5_000;

export interface UserState {
  username: string;
  email: string;
  password: string;
  publisherIds: string[];
  /** Bumped by a password or email change or an admin revoke; older tokens stop working. */
  tokenGeneration: number;
}

export interface TokenRecord {
  username: string;
  issuedAtMs: number;
  generation: number;
}

export interface FaultRule {
  /** Regular expression tested against the request path with its query string; absent = every API request. */
  match?: string;
  /** 1-based index among matching requests of the first one to fault; default 1. */
  onNth?: number;
  /** How many consecutive matching requests fault from onNth on; default 1. */
  times?: number;
  latencyMs?: number;
  status?: 500 | 502 | 503 | 504;
  malformedJson?: boolean;
  dropConnection?: boolean;
  rateLimitMs?: number;
  /** Answers normally, then rewrites report items, metricsSums and lookup entries in these observed shapes (shapes.ts). */
  shape?: ResponseShape | ResponseShape[];
  /** Revokes every token of the requesting user (as a password change would), then answers normally: 401. */
  revokeToken?: boolean;
}

interface ActiveFault {
  rule: FaultRule;
  regex: RegExp | undefined;
  matched: number;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  status: number | null;
  time: string;
  durationMs: number | null;
  traceId: string;
  fault?: FaultRule;
}

export interface ServedRecord {
  servedId: string;
  widgetJSId: string;
  testMode: boolean;
  documentCount: number;
  time: string;
}

export interface ImpressionRecord {
  servedId: string;
  /** Whether servedId came from a recommendations answer of this instance. */
  known: boolean;
  widgetJSId: string | null;
  testMode: boolean;
  /** The `pos` parameter as sent, e.g. "1-2-3". */
  pos: string | null;
  positions: number[];
  time: string;
  userAgent: string | null;
}

/** Timestamps of allowed events, pruned to a sliding window. */
class SlidingWindow {
  private readonly times: number[] = [];
  constructor(private readonly limit: number, private readonly windowMs: number) {}

  /** Milliseconds until another event would be allowed; 0 when allowed now. */
  waitMs(nowMs: number): number {
    while (this.times.length > 0 && this.times[0]! <= nowMs - this.windowMs) this.times.shift();
    if (this.times.length < this.limit) return 0;
    return Math.max(1, this.times[this.times.length - this.limit]! + this.windowMs - nowMs);
  }

  record(nowMs: number): void {
    this.times.push(nowMs);
  }
}

/**
 * Distinct external-ID variants (hourly fact rows) served per publisher in a sliding hour. A variant
 * counts from its first serving for one hour; serving it again inside that hour costs nothing.
 */
class VariantWindow {
  private readonly firstSeen = new Map<number, number>();
  private queueKeys: number[] = [];
  private queueTimes: number[] = [];
  private head = 0;
  constructor(private readonly limit: number, private readonly windowMs: number) {}

  private prune(nowMs: number): void {
    while (this.head < this.queueTimes.length && this.queueTimes[this.head]! <= nowMs - this.windowMs) {
      const key = this.queueKeys[this.head]!;
      if (this.firstSeen.get(key) === this.queueTimes[this.head]) this.firstSeen.delete(key);
      this.head++;
    }
    if (this.head > 100_000) {
      this.queueKeys = this.queueKeys.slice(this.head);
      this.queueTimes = this.queueTimes.slice(this.head);
      this.head = 0;
    }
  }

  get count(): number {
    return this.firstSeen.size;
  }

  waitMs(nowMs: number): number {
    this.prune(nowMs);
    const excess = this.firstSeen.size - this.limit;
    if (excess < 0) return 0;
    // The count drops below the limit once the (excess + 1) oldest variants have expired.
    return Math.max(1, this.queueTimes[this.head + excess]! + this.windowMs - nowMs);
  }

  record(keys: number[], nowMs: number): void {
    for (const key of keys) {
      if (this.firstSeen.has(key)) continue;
      this.firstSeen.set(key, nowMs);
      this.queueKeys.push(key);
      this.queueTimes.push(nowMs);
    }
  }
}

export class EmulatorState {
  clockOffsetMs = 0;
  /** When set, the clock stands still at this time and moves only by advanceClock (tests that drive time). */
  frozenAtMs: number | undefined;
  users = new Map<string, UserState>();
  tokens = new Map<string, TokenRecord>();
  private loginWindows = new Map<string, SlidingWindow>();
  private reportWindows = new Map<string, SlidingWindow>();
  private variantWindows = new Map<string, VariantWindow>();
  private faults: ActiveFault[] = [];
  requestLog: RequestLogEntry[] = [];
  impressions: ImpressionRecord[] = [];
  served = new Map<string, ServedRecord>();
  private servedCounter = 0;

  constructor() {
    this.reset();
  }

  /** Back to the seed: real time, seeded users, no tokens, limits, faults, logs or impressions. */
  reset(): void {
    this.clockOffsetMs = 0;
    this.frozenAtMs = undefined;
    this.users = new Map(USERS.map((u) => [u.username, { ...u, publisherIds: [...u.publisherIds], tokenGeneration: 0 }]));
    this.tokens.clear();
    this.loginWindows.clear();
    this.reportWindows.clear();
    this.variantWindows.clear();
    this.faults = [];
    this.requestLog = [];
    this.impressions = [];
    this.served.clear();
  }

  now(): number {
    return this.frozenAtMs ?? Date.now() + this.clockOffsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Sets the clock; `frozen` stops it there (it then moves only by advanceClock), otherwise it keeps running. */
  setClock(iso: string, frozen = false): void {
    this.clockOffsetMs = Date.parse(iso) - Date.now();
    this.frozenAtMs = frozen ? Date.parse(iso) : undefined;
  }

  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
    if (this.frozenAtMs !== undefined) this.frozenAtMs += ms;
  }

  /** A user by stable username or current email (case-insensitive). */
  findUser(nameOrEmail: string): UserState | undefined {
    const wanted = nameOrEmail.toLowerCase();
    for (const user of this.users.values()) {
      if (user.username.toLowerCase() === wanted || user.email.toLowerCase() === wanted) return user;
    }
    return undefined;
  }

  revokeTokens(user: UserState): void {
    user.tokenGeneration++;
  }

  issueToken(user: UserState): string {
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { username: user.username, issuedAtMs: this.now(), generation: user.tokenGeneration });
    return token;
  }

  /** Login attempts per login name, counted whether or not they succeed. */
  loginWaitMs(loginName: string): number {
    return this.windowFor(this.loginWindows, loginName.toLowerCase(), LOGIN_LIMIT_PER_WINDOW, LOGIN_WINDOW_MS).waitMs(this.now());
  }

  recordLogin(loginName: string): void {
    this.windowFor(this.loginWindows, loginName.toLowerCase(), LOGIN_LIMIT_PER_WINDOW, LOGIN_WINDOW_MS).record(this.now());
  }

  reportWaitMs(publisherId: string): number {
    return this.windowFor(this.reportWindows, publisherId, REPORT_LIMIT_PER_WINDOW, REPORT_WINDOW_MS).waitMs(this.now());
  }

  recordReport(publisherId: string): void {
    this.windowFor(this.reportWindows, publisherId, REPORT_LIMIT_PER_WINDOW, REPORT_WINDOW_MS).record(this.now());
  }

  private variantWindow(publisherId: string): VariantWindow {
    let window = this.variantWindows.get(publisherId);
    if (!window) {
      window = new VariantWindow(UNIQUE_VARIANTS_PER_WINDOW, UNIQUE_VARIANTS_WINDOW_MS);
      this.variantWindows.set(publisherId, window);
    }
    return window;
  }

  variantWaitMs(publisherId: string): number {
    return this.variantWindow(publisherId).waitMs(this.now());
  }

  recordVariants(publisherId: string, keys: number[]): void {
    this.variantWindow(publisherId).record(keys, this.now());
  }

  variantCount(publisherId: string): number {
    this.variantWindow(publisherId).waitMs(this.now());
    return this.variantWindow(publisherId).count;
  }

  private windowFor(map: Map<string, SlidingWindow>, key: string, limit: number, windowMs: number): SlidingWindow {
    let window = map.get(key);
    if (!window) {
      window = new SlidingWindow(limit, windowMs);
      map.set(key, window);
    }
    return window;
  }

  setFaults(rules: FaultRule[]): void {
    this.faults = rules.map((rule) => ({ rule, regex: rule.match ? new RegExp(rule.match) : undefined, matched: 0 }));
  }

  faultRules(): FaultRule[] {
    return this.faults.map((f) => f.rule);
  }

  /** The first fault that fires for this request, counting it as a match of every rule it matches. */
  takeFault(pathWithQuery: string): FaultRule | undefined {
    let fired: FaultRule | undefined;
    for (const fault of this.faults) {
      if (fault.regex && !fault.regex.test(pathWithQuery)) continue;
      fault.matched++;
      const first = fault.rule.onNth ?? 1;
      const times = fault.rule.times ?? 1;
      if (!fired && fault.matched >= first && fault.matched < first + times) fired = fault.rule;
    }
    return fired;
  }

  logRequest(entry: RequestLogEntry): void {
    this.requestLog.push(entry);
    if (this.requestLog.length > REQUEST_LOG_MAX_ENTRIES) this.requestLog.splice(0, this.requestLog.length - REQUEST_LOG_MAX_ENTRIES);
  }

  nextServedId(): string {
    this.servedCounter++;
    return `srv-${this.servedCounter.toString(36)}-${randomBytes(4).toString('hex')}`;
  }
}
