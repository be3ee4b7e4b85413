/**
 * The user's Engage session in one execution: signing in with user name and password or a pasted
 * token, signing out, the sign-in state the sidebar and the menu show, the settings, the daily quotas
 * counted in the user's properties, and Engage calls made with the stored sign-in. Those calls check
 * the sign-in before anything is sent and never log in; a 401 marks the stored sign-in refused, so
 * later executions (formulas, the sidebar, scheduled runs) ask to sign in again without a request.
 * Secrets (the token, the API key) stay in the user store: nothing here puts them in a cache, a log,
 * a cell or a message.
 *
 * Report rate windows live in the document cache under the document lock: a user's formulas, sidebar
 * runs and trigger runs in one document coordinate there, and nothing here takes a lock or a cache
 * shared by every user of the add-on (docs/shared-state.md says why).
 */
import { PUBLISHER_LIST_BUDGET_MS, SIGN_IN_BUDGET_MS } from '../../budgets';
import {
  DailyQuota,
  FETCH_COUNT_KEY,
  FETCH_COUNT_SAVE_EVERY,
  FetchQuota,
  quotaView,
  TRIGGER_RUNTIME_KEY,
  type QuotaView,
} from '../../api/transport/daily-quota';
import { ACCOUNT_QUOTAS, type AccountType, type Deployment } from '../../deployment';
import { type CallOptions, loginScope, type RunReportOptions } from '../../api/client/client-options';
import { EngageClient } from '../../api/client/engage-client';
import type { ReportResult } from '../../api/paging/paging';
import { LOGIN_RATE_RULE, REPORT_RATE_RULE, RateLimiter } from '../../api/transport/rate-limiter';
import type { ReportInput, ReportQuery } from '../../api/requests/report-request';
import type { LookupEntry } from '../../api/responses/responses';
import { checkToken } from '../../api/responses/token';
import { AuthenticationError, NotSignedInError, TokenNotAcceptedError, ValidationError } from '../../errors';
import type { Cache, Clock, HttpTransport, KeyValueStore, Lock, RandomSource, Sleeper } from '../../ports';
import type { RecommendationsConfig } from '../../recommendations/recommendations';
import type { ReportSource } from '../../schedules/refresh/refresh-source';
import type { ScheduleAccount } from '../../schedules/service/schedule-deps';
import { TOKEN_LIFETIME_DAYS, type LookupKind, type ReportKind } from '../../spec';
import { MS_PER_DAY } from '../../util/dates';
import { hashText } from '../../util/hash';
import { CacheStore } from '../stores/cache-store';
import { CACHE_MAX_TTL_SECONDS } from '../stores/chunked-cache';
import { publicSettings, SettingsStore, type PublicSettings } from './settings';
import { TOKEN_STORE_KEY, TokenStore, type StoredToken } from '../stores/token-store';

/** From this age on the sidebar and the menu warn that the token ends soon. */
export const TOKEN_WARNING_AGE_DAYS = 25;
/** Where a 401 is remembered, so the next execution asks to sign in again without a request. */
export const TOKEN_REJECTED_KEY = 'engage.token.rejected';
/**
 * Rate windows are rewritten on every request and kept for the cache's longest time (6 hours), so a
 * full cache drops them last whether it evicts the oldest entries first or those nearest to expiry.
 */
const RATE_STATE_TTL_SECONDS = CACHE_MAX_TTL_SECONDS;

export interface SessionDeps {
  transport: HttpTransport;
  /** The user's own properties (the spreadsheet owner's in a custom function): token, settings, login guard, quota counts. */
  userStore: KeyValueStore;
  /** Guards the login guard and the quota counts in the user's properties (the user lock). */
  userLock: Lock;
  /** The document cache: the report rate windows of this document. */
  documentCache: Cache;
  /** Guards the rate windows (the document lock). */
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
  /**
   * Hands over work for the end of the execution (src/gas/adapters/execution.ts): the URL Fetch count's last
   * write. Given, the count is written in batches (FetchQuota); without it, at every attempt.
   */
  atExecutionEnd?: (finish: () => void) => void;
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

/** How many sign-ins the local guard leaves a user name this hour (the service allows 2, failed ones included). */
export interface SignInAllowance {
  left: number;
  limit: number;
  /** When the next sign-in is allowed (ISO), when none is left. */
  nextAt?: string;
}

export interface SidebarState {
  session: SessionState;
  settings: PublicSettings;
  timeZone: string;
  /** The user's URL fetches in the current 24-hour window, against the account type's daily quota. */
  quota: { accountType: AccountType; urlFetch: QuotaView };
}

/** Engage called with the stored sign-in, which was checked before; a 401 marks it refused. */
export interface SignedInEngage {
  /** A hash of the token (never the token), for cache identities. */
  readonly tokenHash: string;
  /** HTTP requests sent through it so far, retries and batch members included. */
  requestsSent(): number;
  /** Every page of a report (see EngageClient.runReport). */
  runReport(query: ReportQuery, options: RunReportOptions): ReportResult;
  /** Every page of reports of one publisher, fetched together, all or nothing (see EngageClient.runTogether). */
  runTogether(queries: readonly ReportQuery[], options: CallOptions & Pick<RunReportOptions, 'onProgress'>): ReportResult[];
  lookup(kind: LookupKind, publisherId: string | undefined, options: CallOptions): LookupEntry[];
}

export class EngageSession implements ScheduleAccount {
  private readonly settings: SettingsStore;
  private readonly tokens: TokenStore;
  /** Every URL Fetch attempt of this user, counted against the account type's daily quota. */
  readonly fetchQuota: FetchQuota;

  constructor(private readonly deps: SessionDeps) {
    this.settings = new SettingsStore(deps.userStore, deps.deployment);
    this.tokens = new TokenStore(deps.userStore, deps.clock);
    const batched = deps.atExecutionEnd ? { saveEvery: FETCH_COUNT_SAVE_EVERY } : {};
    this.fetchQuota = new FetchQuota(this.dailyQuota(FETCH_COUNT_KEY, this.quotas().urlFetchCallsPerDay), deps.clock, batched);
    deps.atExecutionEnd?.(() => this.fetchQuota.save());
  }

  // ---- Signing in and out ----

  /** Logs in once with user name and password; keeps only the token and its issue time. */
  signIn(username: unknown, password: unknown): SidebarState {
    if (typeof username !== 'string') throw ValidationError.single('username', 'must be text (your Engage user name)');
    if (typeof password !== 'string') throw ValidationError.single('password', 'must be text');
    const client = this.client({ forLogin: true });
    const token = client.login(username, password, { deadlineAtMs: this.deps.clock.now() + SIGN_IN_BUDGET_MS });
    this.tokens.save(token, 'login', username.trim());
    this.deps.userStore.remove(TOKEN_REJECTED_KEY);
    return this.sidebarState();
  }

  /**
   * Uses a token created in the service's web UI instead of a password, once one cheap request with it
   * (GET /publishers: no rate limit, no login spent, the user's own short list) was answered; a token
   * the service refuses is not kept.
   */
  useToken(token: unknown): SidebarState {
    const candidate = checkToken(token);
    const client = this.client({ needToken: false });
    client.setToken(candidate);
    try {
      client.lookup('publishers', undefined, { deadlineAtMs: this.deps.clock.now() + PUBLISHER_LIST_BUDGET_MS });
    } catch (e) {
      if (e instanceof AuthenticationError) throw new TokenNotAcceptedError(e);
      throw e;
    }
    this.tokens.save(candidate, 'pasted');
    this.deps.userStore.remove(TOKEN_REJECTED_KEY);
    return this.sidebarState();
  }

  /** The sign-ins the local guard leaves `username` this hour, without spending one. */
  signInAllowance(username: unknown): SignInAllowance {
    const limit = LOGIN_RATE_RULE.limit;
    if (username === undefined || username === null || username === '') return { left: limit, limit };
    if (typeof username !== 'string') throw ValidationError.single('username', 'must be text (your Engage user name)');
    if (username.trim() === '') return { left: limit, limit };
    const { userStore: store, userLock: lock, clock, sleeper } = this.deps;
    const guard = new RateLimiter({ store, lock, clock, sleeper });
    const scope = loginScope(username);
    const left = guard.remaining(LOGIN_RATE_RULE, scope);
    return left > 0 ? { left, limit } : { left, limit, nextAt: new Date(guard.nextFreeAtMs(LOGIN_RATE_RULE, scope)).toISOString() };
  }

  signOut(): SidebarState {
    this.tokens.clear();
    this.deps.userStore.remove(TOKEN_REJECTED_KEY);
    return this.sidebarState();
  }

  state(): SessionState {
    const stored = this.tokens.load();
    if (!stored) {
      const expired = this.deps.userStore.get(TOKEN_STORE_KEY) !== null;
      return expired
        ? {
            signedIn: false,
            rejected: false,
            warning: `Your Engage sign-in is older than ${TOKEN_LIFETIME_DAYS} days and has expired: sign in again.`,
          }
        : { signedIn: false, rejected: false };
    }
    const rejected = this.isRejected(stored);
    const now = this.deps.clock.now();
    const state: SessionState = {
      signedIn: !rejected,
      rejected,
      source: stored.source,
      tokenAgeDays: Math.floor((now - stored.obtainedAtMs) / MS_PER_DAY),
    };
    if (stored.username) state.username = stored.username;
    if (stored.expiresAtMs !== undefined) state.expiresAt = new Date(stored.expiresAtMs).toISOString();
    if (rejected)
      state.warning =
        stored.source === 'pasted'
          ? 'Engage no longer accepts the pasted token (it may have ended or been revoked): sign in again or paste a new token.'
          : `Engage no longer accepts your sign-in (a sign-in ends after ${TOKEN_LIFETIME_DAYS} days, or when the password changes): sign in again.`;
    else if (stored.expiresAtMs !== undefined && state.tokenAgeDays! >= TOKEN_WARNING_AGE_DAYS) {
      const daysLeft = Math.max(0, Math.ceil((stored.expiresAtMs - now) / MS_PER_DAY));
      state.warning = `Your Engage sign-in ends in ${daysLeft} day${daysLeft === 1 ? '' : 's'}: sign in again soon to keep reports and schedules running.`;
    }
    return state;
  }

  isSignedIn(): boolean {
    return this.state().signedIn;
  }

  // ---- Settings, the sidebar's state and the quotas ----

  saveSettings(change: unknown): SidebarState {
    this.settings.save(change as Record<string, unknown>);
    return this.sidebarState();
  }

  sidebarState(): SidebarState {
    return {
      session: this.state(),
      settings: publicSettings(this.settings.load(), this.deps.deployment),
      timeZone: this.deps.timeZone,
      quota: { accountType: this.accountType(), urlFetch: quotaView(this.fetchQuota.usage()) },
    };
  }

  /** The widget ID of the settings, used when a recommendations request names none. */
  defaultWidgetId(): string | undefined {
    return this.settings.load().widgetId;
  }

  /** Where recommendations are asked for; a missing address or key is named before anything is sent. */
  recommendationsConfig(): RecommendationsConfig {
    return { recommendationsUrl: this.settings.require('recommendationsUrl'), apiKey: this.settings.require('apiKey') };
  }

  /** The reporting base address of the settings (part of a cached result's identity). */
  reportingBaseUrl(): string {
    return this.settings.require('reportingBaseUrl');
  }

  /** The user's trigger runtime in the current 24-hour window, against the account type's daily quota (scheduled runs). */
  triggerRuntime(): DailyQuota {
    return this.dailyQuota(TRIGGER_RUNTIME_KEY, this.quotas().triggerRuntimeMsPerDay);
  }

  // ---- Engage calls with the stored sign-in ----

  /** Validates report arguments (nothing is sent) and returns the query. */
  buildQuery(kind: ReportKind, input: ReportInput): ReportQuery {
    return this.client({ needToken: false }).buildQuery(kind, input, this.deps.timeZone);
  }

  /**
   * The stored sign-in, ready for calls. Throws NotSignedInError or AuthenticationError before
   * anything is sent when it is missing, expired or was refused; never logs in. `listedPublishers`:
   * what its publishers lookup (and so "all") may show, for a formula (formula-policy.ts).
   */
  signedIn(options: { listedPublishers?: (entries: LookupEntry[]) => LookupEntry[] } = {}): SignedInEngage {
    const client = this.client(options);
    return {
      tokenHash: hashText(client.token ?? ''),
      requestsSent: () => client.requestsSent,
      runReport: (query, options) => this.withSignIn(() => client.runReport(query, options)),
      runTogether: (queries, options) => this.withSignIn(() => client.runTogether(queries, options)),
      lookup: (kind, publisherId, options) => this.withSignIn(() => client.lookup(kind, publisherId, options)),
    };
  }

  /**
   * What scheduled refreshes fetch with: the stored sign-in (checked when first needed), the
   * document's report rate budget (the windows every formula, sidebar run and scheduled run here
   * spends; in a run without a document, the windows of the user's cache that addon-services.ts hands
   * over instead) and the share of the URL Fetch quota kept for the user's formulas.
   */
  reportSource(): ReportSource {
    let engage: SignedInEngage | undefined;
    const budget = new RateLimiter({ ...this.rateWindows(), clock: this.deps.clock, sleeper: this.deps.sleeper });
    const signedIn = () => (engage ??= this.signedIn());
    return {
      checkSignedIn: () => void signedIn(),
      buildQuery: (kind, input) => this.buildQuery(kind, input),
      run(query, options) {
        const e = signedIn();
        const before = e.requestsSent();
        // A scheduled refresh writes whole reports only: no request for pages that could not all come.
        const result = e.runReport(query, { ...options, allOrNothing: true });
        return { result, requests: e.requestsSent() - before };
      },
      runTogether(queries, options) {
        const e = signedIn();
        const before = e.requestsSent();
        const results = e.runTogether(queries, options);
        return { results, requests: e.requestsSent() - before };
      },
      budgetFreeAtMs: (entityId, requests) => budget.nextFreeAtMs(REPORT_RATE_RULE, entityId, requests),
      fetchRoomFor: (requests) => this.fetchQuota.roomForScheduled(requests),
    };
  }

  // ---- Internals ----

  private accountType(): AccountType {
    return this.deps.deployment?.accountType ?? 'consumer';
  }

  private quotas() {
    return ACCOUNT_QUOTAS[this.accountType()];
  }

  private dailyQuota(key: string, limit: number): DailyQuota {
    const { userStore: store, clock, userLock: lock } = this.deps;
    return new DailyQuota({ store, clock, lock }, key, limit);
  }

  private isRejected(stored: StoredToken): boolean {
    return this.deps.userStore.get(TOKEN_REJECTED_KEY) === hashText(stored.token);
  }

  /** Where report rate windows are kept and what guards them: the document's cache and lock. */
  private rateWindows(): { store: KeyValueStore; lock: Lock } {
    return { store: new CacheStore(this.deps.documentCache, RATE_STATE_TTL_SECONDS), lock: this.deps.documentLock };
  }

  /**
   * Runs a call; a 401 marks the stored token as refused, so later executions (formulas, sidebar,
   * scheduled runs) ask to sign in again without a request.
   */
  private withSignIn<T>(call: () => T): T {
    try {
      return call();
    } catch (e) {
      if (e instanceof AuthenticationError) {
        const stored = this.tokens.load();
        if (stored) {
          try {
            this.deps.userStore.set(TOKEN_REJECTED_KEY, hashText(stored.token));
          } catch {
            // A custom function of an editor cannot write the owner's properties; the message still says what to do.
          }
        }
      }
      throw e;
    }
  }

  /** A client with the stored token; sign-in problems are reported before anything is sent. */
  private client(
    options: { forLogin?: boolean; needToken?: boolean; listedPublishers?: (entries: LookupEntry[]) => LookupEntry[] } = {},
  ): EngageClient {
    const { deps } = this;
    const client = new EngageClient({
      ...(options.listedPublishers ? { listedPublishers: options.listedPublishers } : {}),
      baseUrl: this.reportingBaseUrl(),
      transport: deps.transport,
      clock: deps.clock,
      sleeper: deps.sleeper,
      // The login guard is per user and must survive cache eviction: it lives in the user's properties, under the user's lock.
      ...(options.forLogin ? { store: deps.userStore, lock: deps.userLock } : this.rateWindows()),
      fetchCounter: this.fetchQuota,
      ...(deps.random ? { random: deps.random } : {}),
    });
    if (options.forLogin || options.needToken === false) return client;
    const stored = this.tokens.load();
    if (!stored && deps.userStore.get(TOKEN_STORE_KEY) !== null) {
      throw new NotSignedInError(
        deps.inCustomFunction
          ? `the Engage sign-in of this spreadsheet's owner is older than ${TOKEN_LIFETIME_DAYS} days and has expired: the owner must sign in again from the Engage sidebar`
          : `your Engage sign-in is older than ${TOKEN_LIFETIME_DAYS} days and has expired: sign in again from the Engage sidebar`,
      );
    }
    if (!stored) {
      throw deps.inCustomFunction
        ? new NotSignedInError(
            "the owner of this spreadsheet must sign in from the Engage sidebar (Extensions > Engage for Sheets > Open sidebar), because formulas run with the owner's sign-in",
          )
        : new NotSignedInError();
    }
    if (this.isRejected(stored)) {
      throw new AuthenticationError({ status: 401, errorMessage: 'the stored sign-in was refused earlier' });
    }
    client.setToken(stored.token);
    return client;
  }
}
