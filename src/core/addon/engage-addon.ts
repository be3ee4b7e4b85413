/**
 * The add-on's use cases, composed from the core and driven by ports: signing in and out, settings,
 * the sidebar's state, and the results of ENGAGE_* formulas. Entry points build one EngageAddon per
 * execution with the Apps Script adapters; tests build it with fakes or run the bundle in the local
 * host. Secrets (the token, the API key) stay in the user store; nothing here puts them in a cache,
 * a log, a cell or a message.
 *
 * Formula results are cached in the document cache, keyed by the request, the token's identity and
 * the refresh argument, for as long as the data is fresh, compressed (chunked-cache.ts) and within a
 * budget of the cache's items. Identical formulas recalculating together send one set of requests:
 * the first takes the document lock, re-reads the cache, leaves a claim and fetches; the others see the
 * claim and wait for its result instead of fetching too. A formula's whole work, from the first request
 * to the cache write, ends by its deadline: the cache write is skipped when too little time is left.
 *
 * Report rate windows live in the document cache under the document lock too: a user's formulas,
 * sidebar runs and trigger runs in one document coordinate there, and nothing here takes a lock or a
 * cache shared by every user of the add-on (docs/shared-state.md says why).
 */
import { CLAIM_LOCK_TIMEOUT_MS, FORMULA_TABLE_RESERVE_MS, SIGN_IN_BUDGET_MS } from '../budgets';
import { EngageClient } from '../api/engage-client';
import { CACHE_MAX_TTL_SECONDS, CacheBudget, ChunkedCache } from './chunked-cache';
import { DailyQuota, FETCH_COUNT_KEY, FetchQuota, TRIGGER_RUNTIME_KEY, type QuotaUsage } from '../api/daily-quota';
import { ACCOUNT_QUOTAS, type AccountType, type Deployment } from '../api/deployment';
import { AuthenticationError, BusyError, NotSignedInError, RateLimitError, ValidationError } from '../errors';
import type { Cache, Clock, Compressor, HttpTransport, KeyValueStore, Lock, RandomSource, Sleeper, BatchCache, Cell } from '../ports';
import { RateLimiter } from '../api/rate-limiter';
import type { ReportResult } from '../api/paging';
import type { ReportInput, ReportQuery } from '../api/report-request';
import { reportResultToTable, tableToValues } from '../sheets/report-table';
import {
  RECOMMENDATIONS_RESULT_TTL_SECONDS, fetchRecommendations, recommendationsInput, recommendationsPreview, recommendationsTable,
  type RawRecommendationsInput, type RecommendationsConfig, type RecommendationsPreview,
} from '../recommendations/recommendations';
import { SettingsStore, publicSettings, type PublicSettings } from './settings';
import { LOOKUPS, TOKEN_LIFETIME_DAYS, type LookupKind, type ReportKind } from '../spec';
import { TOKEN_STORE_KEY, TokenStore, type StoredToken } from './token-store';
import { MS_PER_DAY } from '../util/dates';
import { hashText } from '../util/hash';

/** From this age on the sidebar and the menu warn that the token ends soon. */
export const TOKEN_WARNING_AGE_DAYS = 25;
/** Where a 401 is remembered, so the next execution asks to sign in again without a request. */
export const TOKEN_REJECTED_KEY = 'engage.token.rejected';
/** How long a formula result stays cached, by how fresh the data can be. */
export const RESULT_TTL_SECONDS: Record<ReportKind | 'lookup', number> = {
  realtime: 300, // realtime data is at most 30 minutes late: keep it briefly
  externalId: 1800,
  main: 3600, // general data is 2 to 4 hours late
  lookup: 3600,
};
/**
 * Rate windows are rewritten on every request and kept for the cache's longest time (6 hours), so a
 * full cache drops them last whether it evicts the oldest entries first or those nearest to expiry.
 */
const RATE_STATE_TTL_SECONDS = CACHE_MAX_TTL_SECONDS;
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

export interface AddonPorts {
  transport: HttpTransport;
  /** The user's own properties (the spreadsheet owner's in a custom function): token, settings, login guard. */
  userStore: KeyValueStore;
  /** Guards the login guard and the quota counts in the user's properties (the user lock). */
  userLock: Lock;
  /** The document cache: formula results and claims, and the report rate windows of this document. */
  documentCache: BatchCache;
  /** Compresses cached formula results. */
  compressor: Compressor;
  /** Guards claims of formula results and the rate windows (the document lock). */
  documentLock: Lock;
  clock: Clock;
  sleeper: Sleeper;
  random?: RandomSource;
  /** IANA zone of the spreadsheet. */
  timeZone: string;
  /** True in a custom function: messages speak of the spreadsheet's owner. */
  inCustomFunction?: boolean;
  /** The deployment built into the bundle: default addresses, the whitelist addresses must match, the account type's quotas. */
  deployment?: Deployment;
}

export interface SessionState {
  signedIn: boolean;
  /** The sign-in was refused by the service (401): sign in again. */
  rejected: boolean;
  username?: string;
  source?: StoredToken['source'];
  tokenAgeDays?: number;
  expiresAt?: string;
  /** A sentence to show when the token ends soon or was refused. */
  warning?: string;
}

/** A daily quota as the sidebar shows it: plain data, the reset time as an ISO string. */
export interface QuotaView {
  used: number;
  limit: number;
  /** When the 24-hour window closes; absent when nothing was counted in the last 24 hours. */
  resetAt?: string;
}

export function quotaView(usage: QuotaUsage): QuotaView {
  return { used: usage.used, limit: usage.limit, ...(usage.resetAtMs !== undefined ? { resetAt: new Date(usage.resetAtMs).toISOString() } : {}) };
}

export interface SidebarState {
  session: SessionState;
  settings: PublicSettings;
  timeZone: string;
  /** The user's URL fetches in the current 24-hour window, against the account type's daily quota. */
  quota: { accountType: AccountType; urlFetch: QuotaView };
}

export interface FormulaReportOptions {
  maxRows?: number;
  /** Any value; a change makes a new request instead of a cached answer. */
  refresh?: unknown;
  /** Epoch ms by which the formula's whole work must be done: fetching, the table, the cache write. */
  deadlineAtMs: number;
}

export class EngageAddon {
  private readonly settings: SettingsStore;
  private readonly tokens: TokenStore;
  private readonly results: ChunkedCache;
  /** Every URL Fetch attempt of this user, counted against the account type's daily quota. */
  readonly fetchQuota: FetchQuota;
  private readonly resultBudget: CacheBudget;

  constructor(private readonly ports: AddonPorts) {
    this.settings = new SettingsStore(ports.userStore, ports.deployment);
    this.tokens = new TokenStore(ports.userStore, ports.clock);
    this.results = new ChunkedCache(ports.documentCache, RESULT_CACHE_PREFIX, ports.compressor);
    this.resultBudget = new CacheBudget(ports.documentCache, this.results, RESULT_LEDGER_KEY, RESULT_CACHE_BUDGET_ITEMS);
    this.fetchQuota = new FetchQuota(this.dailyQuota(FETCH_COUNT_KEY, this.quotas().urlFetchCallsPerDay), ports.clock);
  }

  // ---- Sign-in ----

  /** Logs in once with user name and password; keeps only the token and its issue time. */
  signIn(username: unknown, password: unknown): SidebarState {
    if (typeof username !== 'string') throw ValidationError.single('username', 'must be text (your Engage user name)');
    if (typeof password !== 'string') throw ValidationError.single('password', 'must be text');
    const client = this.client({ forLogin: true });
    const token = client.login(username, password, { deadlineAtMs: this.ports.clock.now() + SIGN_IN_BUDGET_MS });
    this.tokens.save(token, 'login', username.trim());
    this.ports.userStore.remove(TOKEN_REJECTED_KEY);
    return this.sidebarState();
  }

  /** Uses a token created in the service's web UI instead of a password. */
  useToken(token: unknown): SidebarState {
    if (typeof token !== 'string' || token.trim() === '' || /\s/.test(token.trim())) {
      throw ValidationError.single('token', 'must be the API token as one piece of text without spaces');
    }
    if (token.trim().length > 4096) throw ValidationError.single('token', 'is longer than 4096 characters: paste the token alone');
    // It travels as a header value: printable ASCII only (a control character or an accented letter is a paste accident).
    if (!/^[\x21-\x7e]+$/.test(token.trim())) throw ValidationError.single('token', 'may hold only printable ASCII characters (it has a control character or a non-ASCII letter): paste the token alone');
    this.tokens.save(token.trim(), 'pasted');
    this.ports.userStore.remove(TOKEN_REJECTED_KEY);
    return this.sidebarState();
  }

  signOut(): SidebarState {
    this.tokens.clear();
    this.ports.userStore.remove(TOKEN_REJECTED_KEY);
    return this.sidebarState();
  }

  session(): SessionState {
    const stored = this.tokens.load();
    if (!stored) {
      const expired = this.ports.userStore.get(TOKEN_STORE_KEY) !== null;
      return expired
        ? { signedIn: false, rejected: false, warning: `Your Engage sign-in is older than ${TOKEN_LIFETIME_DAYS} days and has expired: sign in again.` }
        : { signedIn: false, rejected: false };
    }
    const rejected = this.isRejected(stored);
    const now = this.ports.clock.now();
    const state: SessionState = { signedIn: !rejected, rejected, source: stored.source, tokenAgeDays: Math.floor((now - stored.obtainedAtMs) / MS_PER_DAY) };
    if (stored.username) state.username = stored.username;
    if (stored.expiresAtMs !== undefined) state.expiresAt = new Date(stored.expiresAtMs).toISOString();
    if (rejected) state.warning = 'Engage no longer accepts your sign-in (the password may have changed): sign in again.';
    else if (stored.expiresAtMs !== undefined && state.tokenAgeDays! >= TOKEN_WARNING_AGE_DAYS) {
      const daysLeft = Math.max(0, Math.ceil((stored.expiresAtMs - now) / MS_PER_DAY));
      state.warning = `Your Engage sign-in ends in ${daysLeft} day${daysLeft === 1 ? '' : 's'}: sign in again soon to keep reports and schedules running.`;
    }
    return state;
  }

  // ---- Settings and sidebar ----

  saveSettings(change: unknown): SidebarState {
    this.settings.save(change as Record<string, unknown>);
    return this.sidebarState();
  }

  sidebarState(): SidebarState {
    return {
      session: this.session(),
      settings: publicSettings(this.settings.load(), this.ports.deployment),
      timeZone: this.ports.timeZone,
      quota: { accountType: this.accountType(), urlFetch: quotaView(this.fetchQuota.quota.usage()) },
    };
  }

  /** The user's trigger runtime in the current 24-hour window, against the account type's daily quota (scheduled runs). */
  triggerRuntime(): DailyQuota {
    return this.dailyQuota(TRIGGER_RUNTIME_KEY, this.quotas().triggerRuntimeMsPerDay);
  }

  // ---- Reports and lookups ----

  /** Validates report arguments (nothing is sent) and returns the query. */
  buildQuery(kind: ReportKind, input: ReportInput): ReportQuery {
    return this.client({ needToken: false }).buildQuery(kind, input, this.ports.timeZone);
  }

  /** A report as sheet values (header, rows, totals), cached and shared between identical formulas. */
  formulaReport(kind: ReportKind, input: ReportInput, options: FormulaReportOptions): Cell[][] {
    const query = this.buildQuery(kind, input);
    const client = this.client();
    const identity = JSON.stringify([RESULT_FORMAT, 'report', this.baseUrl(), hashText(client.token ?? ''), kind, query.params, query.breakdowns, query.metrics, options.maxRows ?? null, this.ports.timeZone, options.refresh ?? null]);
    return this.cachedOnce(identity, RESULT_TTL_SECONDS[kind], options.deadlineAtMs, (fetchByMs) => {
      const result = this.withSignIn(() => client.runReport(query, { deadlineAtMs: fetchByMs, allOrNothing: true, ...(options.maxRows !== undefined ? { maxRows: options.maxRows } : {}) }));
      if (result.stoppedBecause === 'rateLimit') {
        throw new RateLimitError({ status: 429, local: true, nowMs: this.ports.clock.now(), limitDescription: `only ${result.items.length} of ${result.totalItems} rows could be fetched within the 30 report requests a minute`, ...(result.retryAtMs !== undefined ? { retryAtMs: result.retryAtMs } : {}) });
      }
      return tableToValues(reportResultToTable(result, { timeZone: this.ports.timeZone }));
    });
  }

  /**
   * Every page of a report, uncached, for the sidebar's "Run to sheet" (and scheduled runs):
   * validated before anything is sent; `onProgress` hears of each page. A 401 marks the sign-in refused.
   */
  fetchReport(kind: ReportKind, input: ReportInput, options: { deadlineAtMs: number; onProgress?: (pagesFetched: number, pagesPlanned: number) => void }): ReportResult {
    const query = this.buildQuery(kind, input);
    const client = this.client();
    return this.withSignIn(() => client.runReport(query, { deadlineAtMs: options.deadlineAtMs, ...(options.onProgress ? { onProgress: options.onProgress } : {}) }));
  }

  /** The signed-in user's publishers (the sidebar's picker), uncached. */
  lookupEntries(kind: LookupKind, publisherId: string | undefined, deadlineAtMs: number): Record<string, unknown>[] {
    const client = this.client();
    return this.withSignIn(() => client.lookup(kind, publisherId, { deadlineAtMs }));
  }

  /** A lookup as sheet values: a header of the fields seen, then one row per entry. */
  formulaLookup(kind: LookupKind, publisherId: string | undefined, options: Omit<FormulaReportOptions, 'maxRows'>): Cell[][] {
    const client = this.client();
    const identity = JSON.stringify([RESULT_FORMAT, 'lookup', this.baseUrl(), hashText(client.token ?? ''), kind, publisherId ?? null, options.refresh ?? null]);
    return this.cachedOnce(identity, RESULT_TTL_SECONDS.lookup, options.deadlineAtMs, (fetchByMs) => {
      const entries = this.withSignIn(() => client.lookup(kind, publisherId, { deadlineAtMs: fetchByMs }));
      return lookupTable(entries, LOOKUPS[kind].title);
    });
  }

  // ---- In-chat recommendations (key-authorised: no sign-in needed) ----

  /** ENGAGE_RECOMMENDATIONS: one row per document, cached briefly; never fires the impression pixel. */
  formulaRecommendations(raw: RawRecommendationsInput, options: Omit<FormulaReportOptions, 'maxRows'>): Cell[][] {
    const input = recommendationsInput(raw, this.settings.load().widgetId);
    const config = this.recommendationsConfig();
    // The identity is stored in the cache: it holds a hash of the key, never the key.
    const identity = JSON.stringify([RESULT_FORMAT, 'recs', config.recommendationsUrl, hashText(config.apiKey), input, options.refresh ?? null]);
    return this.cachedOnce(identity, RECOMMENDATIONS_RESULT_TTL_SECONDS, options.deadlineAtMs, (fetchByMs) =>
      recommendationsTable(fetchRecommendations(this.fetchDeps(), config, input, { deadlineAtMs: fetchByMs })));
  }

  /** The sidebar's preview: fresh documents (each answer has its own pixel address), only with http(s) links. */
  previewRecommendations(raw: RawRecommendationsInput, options: { deadlineAtMs: number }): RecommendationsPreview {
    const input = recommendationsInput(raw, this.settings.load().widgetId);
    return recommendationsPreview(fetchRecommendations(this.fetchDeps(), this.recommendationsConfig(), input, options), input);
  }

  // ---- Scheduled refresh (refresh-runner.ts) ----

  /**
   * A client with the stored token, for runs that are not formulas (scheduled refresh, run now).
   * Throws NotSignedInError or AuthenticationError before anything is sent when the sign-in is
   * missing, expired or was refused; never logs in.
   */
  signedInClient(): EngageClient {
    return this.client();
  }

  /**
   * Runs a call; a 401 marks the stored token as refused, so later executions (formulas, sidebar,
   * scheduled runs) ask to sign in again without a request.
   */
  withSignIn<T>(call: () => T): T {
    try {
      return call();
    } catch (e) {
      if (e instanceof AuthenticationError) {
        const stored = this.tokens.load();
        if (stored) {
          try {
            this.ports.userStore.set(TOKEN_REJECTED_KEY, hashText(stored.token));
          } catch {
            // A custom function of an editor cannot write the owner's properties; the message still says what to do.
          }
        }
      }
      throw e;
    }
  }

  /** The document's report rate budget (the same windows every formula, sidebar run and scheduled run here spends). */
  rateBudget(): RateLimiter {
    return new RateLimiter({ ...this.rateWindows(), clock: this.ports.clock, sleeper: this.ports.sleeper });
  }

  // ---- Internals ----

  private accountType(): AccountType {
    return this.ports.deployment?.accountType ?? 'consumer';
  }

  private quotas() {
    return ACCOUNT_QUOTAS[this.accountType()];
  }

  private dailyQuota(key: string, limit: number): DailyQuota {
    const { userStore: store, clock, userLock: lock } = this.ports;
    return new DailyQuota({ store, clock, lock }, key, limit);
  }

  private fetchDeps() {
    const { transport, clock, sleeper, random } = this.ports;
    return { transport, clock, sleeper, fetchCounter: this.fetchQuota, ...(random ? { random } : {}) };
  }

  private recommendationsConfig(): RecommendationsConfig {
    return { recommendationsUrl: this.settings.require('recommendationsUrl'), apiKey: this.settings.require('apiKey') };
  }

  private baseUrl(): string {
    return this.settings.require('reportingBaseUrl');
  }

  private isRejected(stored: StoredToken): boolean {
    return this.ports.userStore.get(TOKEN_REJECTED_KEY) === hashText(stored.token);
  }

  /** Where report rate windows are kept and what guards them: the document's cache and lock. */
  private rateWindows(): { store: KeyValueStore; lock: Lock } {
    return { store: new CacheStore(this.ports.documentCache, RATE_STATE_TTL_SECONDS), lock: this.ports.documentLock };
  }

  /** A client with the stored token; sign-in problems are reported before anything is sent. */
  private client(options: { forLogin?: boolean; needToken?: boolean } = {}): EngageClient {
    const { ports } = this;
    const client = new EngageClient({
      baseUrl: this.baseUrl(),
      transport: ports.transport,
      clock: ports.clock,
      sleeper: ports.sleeper,
      // The login guard is per user and must survive cache eviction: it lives in the user's properties, under the user's lock.
      ...(options.forLogin ? { store: ports.userStore, lock: ports.userLock } : this.rateWindows()),
      fetchCounter: this.fetchQuota,
      ...(ports.random ? { random: ports.random } : {}),
    });
    if (options.forLogin || options.needToken === false) return client;
    const stored = this.tokens.load();
    if (!stored && ports.userStore.get(TOKEN_STORE_KEY) !== null) {
      throw new NotSignedInError(
        ports.inCustomFunction
          ? `the Engage sign-in of this spreadsheet's owner is older than ${TOKEN_LIFETIME_DAYS} days and has expired: the owner must sign in again from the Engage sidebar`
          : `your Engage sign-in is older than ${TOKEN_LIFETIME_DAYS} days and has expired: sign in again from the Engage sidebar`,
      );
    }
    if (!stored) {
      throw ports.inCustomFunction
        ? new NotSignedInError('the owner of this spreadsheet must sign in from the Engage sidebar (Extensions > Engage for Sheets > Open sidebar), because formulas run with the owner\'s sign-in')
        : new NotSignedInError();
    }
    if (this.isRejected(stored)) {
      throw new AuthenticationError({ status: 401, errorMessage: 'the stored sign-in was refused earlier' });
    }
    client.setToken(stored.token);
    return client;
  }

  /**
   * The cached value for `identity`, or the value of `compute`, computed by one execution only:
   * concurrent executions with the same identity wait for its result. `compute` fetches by the time it
   * is given, which leaves FORMULA_TABLE_RESERVE_MS before `deadlineAtMs` to build its table.
   */
  private cachedOnce(identity: string, ttlSeconds: number, deadlineAtMs: number, compute: (fetchByMs: number) => Cell[][]): Cell[][] {
    const hit = this.readResult(identity);
    if (hit) return hit;
    const { documentCache: cache, documentLock: lock, clock, sleeper } = this.ports;
    const claimKey = `${CLAIM_PREFIX}${this.results.keyOf(identity)}`;
    for (;;) {
      if (!lock.tryLock(Math.max(0, Math.min(CLAIM_LOCK_TIMEOUT_MS, deadlineAtMs - clock.now())))) {
        throw new BusyError('the same report for another cell');
      }
      let claimedByOther = false;
      try {
        const again = this.readResult(identity);
        if (again) return again;
        const claim = Number(cache.get(claimKey) ?? 0);
        if (claim > clock.now()) claimedByOther = true;
        else cache.put(claimKey, String(deadlineAtMs), CLAIM_TTL_SECONDS);
      } finally {
        lock.releaseLock();
      }
      if (!claimedByOther) break;
      // Another execution is fetching the same data: wait for its result rather than fetching it again.
      while (clock.now() + CLAIM_POLL_MS < deadlineAtMs) {
        sleeper.sleep(CLAIM_POLL_MS);
        const waited = this.readResult(identity);
        if (waited) return waited;
        if (Number(cache.get(claimKey) ?? 0) <= clock.now()) break;
      }
      if (clock.now() + CLAIM_POLL_MS >= deadlineAtMs) throw new BusyError('the same report for another cell, which is still loading');
    }
    try {
      const values = compute(deadlineAtMs - FORMULA_TABLE_RESERVE_MS);
      this.storeResult(identity, values, ttlSeconds, deadlineAtMs);
      return values;
    } finally {
      cache.remove(claimKey);
    }
  }

  /**
   * Caches a computed result when that fits before the deadline and the result fits the budget;
   * otherwise caches nothing and says nothing: the result is returned all the same.
   */
  private storeResult(identity: string, values: Cell[][], ttlSeconds: number, deadlineAtMs: number): void {
    const { clock, documentLock: lock } = this.ports;
    const cells = values.reduce((sum, row) => sum + row.length, 0);
    if (clock.now() + (cells / 1000) * ENCODE_MS_PER_1000_CELLS + CACHE_WRITE_ALLOWANCE_MS > deadlineAtMs) return;
    const packed = this.results.pack(identity, encodeValues(values));
    if (packed.items > RESULT_MAX_ITEMS || clock.now() + CACHE_WRITE_ALLOWANCE_MS > deadlineAtMs) return;
    if (!lock.tryLock(Math.min(CLAIM_LOCK_TIMEOUT_MS, deadlineAtMs - clock.now() - CACHE_WRITE_ALLOWANCE_MS))) return;
    try {
      const now = clock.now();
      if (!this.resultBudget.admit(packed.key, packed.items, now, now + ttlSeconds * 1000)) return;
    } finally {
      lock.releaseLock();
    }
    this.results.write(packed, ttlSeconds);
  }

  private readResult(identity: string): Cell[][] | null {
    const text = this.results.get(identity);
    if (text === null) return null;
    try {
      return decodeValues(text);
    } catch {
      return null;
    }
  }
}

/** A cache used as the key-value store of shared state that may be lost without harm (rate windows). */
export class CacheStore implements KeyValueStore {
  constructor(private readonly cache: Cache, private readonly ttlSeconds: number) {}
  get(key: string): string | null {
    return this.cache.get(key);
  }
  set(key: string, value: string): void {
    this.cache.put(key, value, this.ttlSeconds);
  }
  remove(key: string): void {
    this.cache.remove(key);
  }
}

/** Lookup entries as a table: id and name first, then every other field seen, in order of appearance. */
export function lookupTable(entries: readonly Record<string, unknown>[], title: string): Cell[][] {
  const columns = ['id', 'name'];
  for (const entry of entries) for (const key of Object.keys(entry)) if (!columns.includes(key)) columns.push(key);
  if (entries.length === 0) return [[`No ${title} found`]];
  return [columns, ...entries.map((e) => columns.map((c) => toCell(e[c])))];
}

function toCell(value: unknown): Cell {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value && typeof value === 'object' && 'value' in (value as object)) return toCell((value as { value: unknown }).value);
  return JSON.stringify(value);
}

/**
 * Values with Dates kept as Dates through JSON: a Date becomes {"$d": epochMs}. Written as a pass over
 * the cells rather than a JSON replacer or reviver, which would run once per value: a 50,000-row
 * result has 1.5 million of them.
 */
export function encodeValues(values: Cell[][]): string {
  const out: unknown[][] = new Array(values.length);
  for (let r = 0; r < values.length; r++) {
    const row = values[r]!;
    let copy: unknown[] | null = null;
    for (let c = 0; c < row.length; c++) {
      const cell = row[c];
      if (typeof cell === 'object' && cell !== null) {
        if (copy === null) copy = row.slice();
        copy[c] = { $d: (cell as Date).getTime() };
      }
    }
    out[r] = copy ?? row;
  }
  return JSON.stringify(out);
}

export function decodeValues(text: string): Cell[][] {
  const values = JSON.parse(text) as unknown[][];
  for (const row of values) {
    for (let c = 0; c < row.length; c++) {
      const cell = row[c];
      if (typeof cell === 'object' && cell !== null) row[c] = new Date((cell as { $d: number }).$d);
    }
  }
  return values as Cell[][];
}
