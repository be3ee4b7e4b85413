/**
 * Everything one emulator instance remembers: its settable clock, users (passwords and emails can
 * change), issued tokens, the sliding windows of the three rate limits, fault rules, the network
 * latency it models, the request log and recorded impressions. Each instance created through the
 * admin API gets its own state, so a test that moves the clock or exhausts a limit cannot disturb
 * another. Limits are counted at a request's ARRIVAL, as a real service counts them: the app stamps
 * each request (its send time plus a sampled arrival latency) and passes that stamp to every method
 * here. The limiter methods return the milliseconds to wait (0 when allowed) so the app can put them
 * in `rate-limit-msec-left`.
 */
import type { ResponseShape } from './shapes';
import { WEBHOOK_PACE_MS, type WebhookAnswer, type WebhookCall } from './webhook-log';
import { randomBytes } from 'node:crypto';
import { type SeedName, usersOf } from './seed';
import type { RevenueRevisions } from './reports/main-report';

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
  /** Answers normally, with a Content-Type that names no charset (`application/json`), as many servers do; the body stays UTF-8. */
  noCharset?: boolean;
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

/** One uniform range of latency, in ms. */
export interface LatencyRange {
  minMs: number;
  maxMs: number;
}

/**
 * The network between client and service: each request takes an arrival latency to reach the
 * service and a return latency for its answer to reach the client, each drawn uniformly from its
 * range. Draws are a hash of `seed` and the request (see sampleLatencyMs), so a run that sends the
 * same requests at the same virtual times meets the same network.
 */
export interface LatencySettings {
  arrival: LatencyRange;
  return: LatencyRange;
  seed: number;
}

/** A number in [0, 1) from a seed and a text (FNV-1a, then a 32-bit finaliser): deterministic jitter. */
export function unitHash(seed: number, text: string): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

export function sampleLatencyMs(range: LatencyRange, seed: number, key: string): number {
  return Math.round(range.minMs + unitHash(seed, key) * (range.maxMs - range.minMs));
}

/**
 * Arrival times of allowed events, kept sorted. Arrivals may be recorded out of order (a request
 * stamped earlier can be handled later: its latency was drawn shorter), so each is inserted in
 * place. A request is judged against every recorded arrival after the start of its window, later
 * ones included: stricter than a service that sees requests in arrival order, never kinder.
 */
class SlidingWindow {
  private times: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Index of the first recorded time above `ms`. */
  private firstAbove(ms: number): number {
    let low = 0;
    let high = this.times.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.times[mid]! <= ms) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Milliseconds until another event arriving at `atMs` would be allowed; 0 when allowed. */
  waitMs(atMs: number): number {
    const from = this.firstAbove(atMs - this.windowMs);
    const counted = this.times.length - from;
    if (counted < this.limit) return 0;
    // The (counted - limit + 1) oldest counted arrivals must leave the window first.
    return Math.max(1, this.times[from + counted - this.limit]! + this.windowMs - atMs);
  }

  record(atMs: number): void {
    this.times.splice(this.firstAbove(atMs), 0, atMs);
    // Forget what no request can count any more: a window behind the latest arrival, plus a window of
    // slack for requests stamped out of order.
    const stale = this.firstAbove(this.times[this.times.length - 1]! - 2 * this.windowMs);
    if (stale > 0) this.times = this.times.slice(stale);
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
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private prune(atMs: number): void {
    while (this.head < this.queueTimes.length && this.queueTimes[this.head]! <= atMs - this.windowMs) {
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

  waitMs(atMs: number): number {
    this.prune(atMs);
    const excess = this.firstSeen.size - this.limit;
    if (excess < 0) return 0;
    // The count drops below the limit once the (excess + 1) oldest variants have expired.
    return Math.max(1, this.queueTimes[this.head + excess]! + this.windowMs - atMs);
  }

  record(keys: number[], atMs: number): void {
    // Arrivals can be recorded out of order; a variant then counts from the latest arrival recorded
    // so far, which keeps the queue in order and only ever holds a variant longer.
    const last = this.queueTimes.length > this.head ? this.queueTimes[this.queueTimes.length - 1]! : atMs;
    const countedFromMs = Math.max(atMs, last);
    for (const key of keys) {
      if (this.firstSeen.has(key)) continue;
      this.firstSeen.set(key, countedFromMs);
      this.queueKeys.push(key);
      this.queueTimes.push(countedFromMs);
    }
  }
}

export class EmulatorState {
  clockOffsetMs = 0;
  /** When set, the clock stands still at this time and moves only by advanceClock (tests that drive time). */
  frozenAtMs: number | undefined;
  /**
   * Frozen, and each request that carries its client's virtual send time (VIRTUAL_SEND_TIME_HEADER)
   * is timed from it instead: the emulator then follows a client running on a virtual clock, and the
   * frozen clock moves up to the latest arrival.
   */
  followsClient = false;
  /** The modelled network; undefined: requests arrive when sent and answers come back at once. */
  latency: LatencySettings | undefined;
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
  /** Restated days: publisher ID to (UTC day number to the factor its revenue was revised by, compounded). */
  private revisions = new Map<string, Map<number, number>>();
  /** Restated days of one widget: publisher ID to (UTC day number to (widget ID to its factor, compounded)). */
  private widgetRevisions = new Map<string, Map<number, Map<string, number>>>();
  /** What the webhook receiver took (routes/webhooks.ts), and the answers a test set for the next calls. */
  webhookCalls: WebhookCall[] = [];
  webhookAnswers: WebhookAnswer[] = [];
  webhookPaceMs = WEBHOOK_PACE_MS;
  webhookTakenAtMs = new Map<string, number>();

  /** The fixtures it serves (seed.ts): 'demo' unless told 'tests'. */
  constructor(readonly seed: SeedName = 'demo') {
    this.reset();
  }

  /** Back to the seed: real time, seeded users, no tokens, limits, faults, logs, impressions or webhook calls. */
  reset(): void {
    this.clockOffsetMs = 0;
    this.frozenAtMs = undefined;
    this.followsClient = false;
    this.latency = undefined;
    this.users = new Map(usersOf(this.seed).map((u) => [u.username, { ...u, publisherIds: [...u.publisherIds], tokenGeneration: 0 }]));
    this.tokens.clear();
    this.loginWindows.clear();
    this.reportWindows.clear();
    this.variantWindows.clear();
    this.faults = [];
    this.requestLog = [];
    this.impressions = [];
    this.served.clear();
    this.revisions.clear();
    this.widgetRevisions.clear();
    this.webhookCalls = [];
    this.webhookAnswers = [];
    this.webhookPaceMs = WEBHOOK_PACE_MS;
    this.webhookTakenAtMs.clear();
  }

  /**
   * Restates a past day: from now on the general report gives the publisher's revenue of that UTC
   * day multiplied by `factor` (compounded with earlier revisions of the day), every breakdown alike.
   */
  reviseRevenue(publisherId: string, dayNumber: number, factor: number, widgetId?: string): void {
    if (widgetId !== undefined) {
      const days = this.widgetRevisions.get(publisherId) ?? new Map<number, Map<string, number>>();
      const widgets = days.get(dayNumber) ?? new Map<string, number>();
      widgets.set(widgetId, (widgets.get(widgetId) ?? 1) * factor);
      days.set(dayNumber, widgets);
      this.widgetRevisions.set(publisherId, days);
      return;
    }
    const days = this.revisions.get(publisherId) ?? new Map<number, number>();
    days.set(dayNumber, (days.get(dayNumber) ?? 1) * factor);
    this.revisions.set(publisherId, days);
  }

  /** The publisher's restated days and their factors: the whole day's, and each restated widget's. */
  revenueRevisions(publisherId: string): RevenueRevisions {
    return { days: this.revisions.get(publisherId) ?? new Map(), widgetDays: this.widgetRevisions.get(publisherId) ?? new Map() };
  }

  /** Every restatement, for the admin API. */
  revisionList(): Array<{ publisherId: string; dayNumber: number; revenueFactor: number; widgetId?: string }> {
    const whole = [...this.revisions].flatMap(([publisherId, days]) =>
      [...days].map(([dayNumber, revenueFactor]) => ({ publisherId, dayNumber, revenueFactor })),
    );
    const ofWidgets = [...this.widgetRevisions].flatMap(([publisherId, days]) =>
      [...days].flatMap(([dayNumber, widgets]) =>
        [...widgets].map(([widgetId, revenueFactor]) => ({ publisherId, dayNumber, revenueFactor, widgetId })),
      ),
    );
    return [...whole, ...ofWidgets];
  }

  clearRevisions(): void {
    this.revisions.clear();
    this.widgetRevisions.clear();
  }

  now(): number {
    return this.frozenAtMs ?? Date.now() + this.clockOffsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /**
   * Sets the clock; `frozen` stops it there (it then moves only by advanceClock), otherwise it keeps
   * running. `followClient` freezes it and times requests by their client's virtual send time.
   */
  setClock(iso: string, frozen = false, followClient = false): void {
    this.clockOffsetMs = Date.parse(iso) - Date.now();
    this.frozenAtMs = frozen || followClient ? Date.parse(iso) : undefined;
    this.followsClient = followClient;
  }

  /** Following a client: the frozen clock moves up to a request's arrival, never back. */
  noteArrival(atMs: number): void {
    if (this.followsClient && this.frozenAtMs !== undefined && atMs > this.frozenAtMs) {
      this.clockOffsetMs += atMs - this.frozenAtMs;
      this.frozenAtMs = atMs;
    }
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

  issueToken(user: UserState, atMs: number): string {
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { username: user.username, issuedAtMs: atMs, generation: user.tokenGeneration });
    return token;
  }

  /** Login attempts per login name, counted whether or not they succeed. */
  loginWaitMs(loginName: string, atMs: number): number {
    return this.windowFor(this.loginWindows, loginName.toLowerCase(), LOGIN_LIMIT_PER_WINDOW, LOGIN_WINDOW_MS).waitMs(atMs);
  }

  recordLogin(loginName: string, atMs: number): void {
    this.windowFor(this.loginWindows, loginName.toLowerCase(), LOGIN_LIMIT_PER_WINDOW, LOGIN_WINDOW_MS).record(atMs);
  }

  reportWaitMs(publisherId: string, atMs: number): number {
    return this.windowFor(this.reportWindows, publisherId, REPORT_LIMIT_PER_WINDOW, REPORT_WINDOW_MS).waitMs(atMs);
  }

  recordReport(publisherId: string, atMs: number): void {
    this.windowFor(this.reportWindows, publisherId, REPORT_LIMIT_PER_WINDOW, REPORT_WINDOW_MS).record(atMs);
  }

  private variantWindow(publisherId: string): VariantWindow {
    let window = this.variantWindows.get(publisherId);
    if (!window) {
      window = new VariantWindow(UNIQUE_VARIANTS_PER_WINDOW, UNIQUE_VARIANTS_WINDOW_MS);
      this.variantWindows.set(publisherId, window);
    }
    return window;
  }

  variantWaitMs(publisherId: string, atMs: number): number {
    return this.variantWindow(publisherId).waitMs(atMs);
  }

  recordVariants(publisherId: string, keys: number[], atMs: number): void {
    this.variantWindow(publisherId).record(keys, atMs);
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
