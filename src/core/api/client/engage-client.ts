/**
 * The Engage reporting client: sign-in (Basic credentials for a token, or a pasted token), the five
 * lookups, report pages and whole reports. It owns no platform service: transport, store, lock,
 * cache, clock and sleeper are injected, so the same code runs in Apps Script and in Node tests.
 * Report requests spend the shared rate budget of their publisher and are retried by the pure retry
 * policy; login is never retried and spends the per-user login guard (failed logins count too).
 */
import { FORMULA_FETCH_BUDGET_MS } from '../../budgets';
import {
  type CallOptions,
  DEFAULT_MAX_PARALLEL_REQUESTS,
  type EngageClientOptions,
  LOOKUP_CACHE_TTL_SECONDS,
  loginScope,
  PASSWORD_MAX_CHARS,
  type RunReportOptions,
  USERNAME_MAX_CHARS,
} from './client-options';
import { encodeBase64 } from '../../util/base64';
import { AuthenticationError, EngageError, NotSignedInError, ValidationError, WrongCredentialsError } from '../../errors';
import { type BatchMember, fetchReport, fetchWholeReports, type PageFetcher } from '../paging/multi-paging';
import type { PageRange, PagingOptions, ReportResult } from '../paging/paging';
import {
  buildSelectedQuery,
  publisherQuery,
  runPublisherReport,
  runPublisherReports,
  type PublisherReportClient,
} from '../paging/publisher-reports';
import { FETCH_URL_MAX_CHARS, type HttpRequest, type HttpResponse, type KeyValueStore } from '../../ports';
import { LOGIN_RATE_RULE, RateLimiter, REPORT_RATE_RULE, type RateReservation } from '../transport/rate-limiter';
import { publisherIdProblem } from '../requests/publisher-list';
import { buildReportQuery, buildUrl, reportPageUrl, type ReportInput, type ReportQuery } from '../requests/report-request';
import { parseLoginToken, parseLookup, reportAnswer, type LookupEntry, type ReportAnswer, type ReportPage } from '../responses/responses';
import { DEFAULT_RETRY_POLICY } from '../transport/retry-policy';
import { RequestSender } from '../transport/request-sender';
import { checkToken } from '../responses/token';
import { LOOKUPS, TOKEN_HEADER, TRACE_ID_HEADER, type LookupKind, type ReportKind } from '../../spec';
import { controlCharacterIndex, describeControlCharacter, quoted } from '../../util/text';
import { hashText } from '../../util/hash';
import { utf8Length } from '../../util/utf8';

/** The Cache service refuses values above 100 KB, read strictly: 100,000 bytes of UTF-8. */
const CACHE_VALUE_MAX_BYTES = 100_000;

function memoryStore(): KeyValueStore {
  const values = new Map<string, string>();
  return { get: (k) => values.get(k) ?? null, set: (k, v) => void values.set(k, v), remove: (k) => void values.delete(k) };
}

export class EngageClient implements PageFetcher, PublisherReportClient {
  private readonly baseUrl: string;
  private readonly options: EngageClientOptions;
  private readonly limiter: RateLimiter;
  private readonly sender: RequestSender;
  private currentToken: string | undefined;

  constructor(options: EngageClientOptions) {
    if (!/^https?:\/\/\S+$/.test(options.baseUrl ?? '')) {
      throw ValidationError.single('baseUrl', `'${String(options.baseUrl)}' is not an http(s) address ending with /engage/v2`);
    }
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const deps = { store: options.store ?? memoryStore(), clock: options.clock, sleeper: options.sleeper };
    this.limiter = new RateLimiter(options.lock ? { ...deps, lock: options.lock } : deps);
    this.sender = new RequestSender({
      transport: options.transport,
      clock: options.clock,
      sleeper: options.sleeper,
      random: options.random ?? Math.random,
      policy: { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy },
      limiter: this.limiter,
      ...(options.fetchCounter ? { counter: options.fetchCounter } : {}),
    });
    if (options.token !== undefined) this.setToken(options.token);
  }

  /** HTTP requests sent by this client so far, retries and batch members included. */
  get requestsSent(): number {
    return this.sender.requestsSent;
  }

  get token(): string | undefined {
    return this.currentToken;
  }

  /** Uses a token the user pasted (created in the service's web UI) or one stored earlier. */
  setToken(token: string): void {
    this.currentToken = checkToken(token);
  }

  clearToken(): void {
    this.currentToken = undefined;
  }

  /**
   * Exchanges user name and password for a token (GET /login with Basic credentials), keeps it and
   * returns it. Never retried: the service allows 2 logins an hour per user, failed ones included.
   */
  login(username: string, password: string, options: CallOptions = {}): string {
    const problems = [];
    if (typeof username !== 'string' || username.trim() === '') problems.push({ argument: 'username', message: 'username: is required' });
    else if (username.trim().length > USERNAME_MAX_CHARS) {
      problems.push({
        argument: 'username',
        message: `username: is ${username.trim().length} characters long; a user name has at most ${USERNAME_MAX_CHARS}`,
      });
    } else if (controlCharacterIndex(username) >= 0)
      problems.push({ argument: 'username', message: `username: ${quoted(username)} contains ${describeControlCharacter(username)}` });
    else if (username.includes(':'))
      problems.push({
        argument: 'username',
        message: `username: ${quoted(username)} must not contain ':' (Basic credentials cannot carry it)`,
      });
    if (typeof password !== 'string' || password === '') problems.push({ argument: 'password', message: 'password: is required' });
    else if (password.length > PASSWORD_MAX_CHARS)
      problems.push({
        argument: 'password',
        message: `password: is ${password.length} characters long; a password has at most ${PASSWORD_MAX_CHARS}`,
      });
    if (problems.length) throw new ValidationError(problems);
    const request: HttpRequest = {
      url: `${this.baseUrl}/login`,
      method: 'get',
      headers: { Authorization: `Basic ${encodeBase64(`${username.trim()}:${password}`)}` },
    };
    // Spends the login guard (failed logins count at the service too) and is never retried.
    let response: HttpResponse;
    try {
      response = this.sender.send(request, {
        operation: 'GET /login',
        deadlineAtMs: this.deadline(options),
        retry: false,
        rate: { rule: LOGIN_RATE_RULE, scope: loginScope(username) },
      });
    } catch (e) {
      // A 401 to /login is about the credentials, never about a token's age.
      if (e instanceof AuthenticationError) throw new WrongCredentialsError(e);
      throw e;
    }
    const token = parseLoginToken(response.body, response.headers[TRACE_ID_HEADER]);
    this.currentToken = token;
    return token;
  }

  /**
   * Entries of a lookup, each {id, name, ...}. `publisherId` is required for widgets and nativeApps.
   * The publishers are those `listedPublishers` lets through, when given (what formulas may use).
   */
  lookup(kind: LookupKind, publisherId?: string, options: CallOptions = {}): LookupEntry[] {
    const entries = this.fetchLookup(kind, publisherId, options);
    const listed = this.options.listedPublishers;
    return kind === 'publishers' && listed ? listed(entries) : entries;
  }

  private fetchLookup(kind: LookupKind, publisherId: string | undefined, options: CallOptions): LookupEntry[] {
    const spec = LOOKUPS[kind];
    let path: string = spec.path;
    if (path.includes('{id}')) {
      const id = typeof publisherId === 'string' ? publisherId.trim() : '';
      if (id === '') throw ValidationError.single('publisherId', `is required to list ${spec.title}`);
      const problem = publisherIdProblem(id);
      if (problem) throw ValidationError.single('publisherId', `${quoted(id)} ${problem}`);
      path = path.replace('{id}', encodeURIComponent(id));
    }
    const token = this.requireToken();
    // A hash of the token, so the cache key does not carry the token itself.
    const cacheKey = `engage.lookup.${hashText(token)}.${path}`;
    const cache = this.options.cache;
    const cached = cache?.get(cacheKey);
    if (cached) {
      try {
        return JSON.parse(cached) as LookupEntry[];
      } catch {
        cache!.remove(cacheKey);
      }
    }
    const operation = `GET ${path}`;
    const response = this.sender.send(
      { url: buildUrl(this.baseUrl, path), method: 'get', headers: { [TOKEN_HEADER]: token } },
      { operation, deadlineAtMs: this.deadline(options), retry: true },
    );
    const entries = parseLookup(response.body, operation, response.headers[TRACE_ID_HEADER]);
    if (cache) {
      const text = JSON.stringify(entries);
      if (utf8Length(text) <= CACHE_VALUE_MAX_BYTES) cache.put(cacheKey, text, LOOKUP_CACHE_TTL_SECONDS);
    }
    return entries;
  }

  listPublishers(options?: CallOptions): LookupEntry[] {
    return this.lookup('publishers', undefined, options);
  }
  listWidgets(publisherId: string, options?: CallOptions): LookupEntry[] {
    return this.lookup('widgets', publisherId, options);
  }
  listNativeApps(publisherId: string, options?: CallOptions): LookupEntry[] {
    return this.lookup('nativeApps', publisherId, options);
  }
  listCountries(options?: CallOptions): LookupEntry[] {
    return this.lookup('countries', undefined, options);
  }
  listTimezones(options?: CallOptions): LookupEntry[] {
    return this.lookup('timezones', undefined, options);
  }

  /**
   * Validates report arguments against the spec, with "now" from the injected clock, and checks that
   * every page's address fits what URL Fetch can send (a long filter is the usual cause).
   */
  buildQuery(kind: ReportKind, input: ReportInput, timeZone = 'UTC'): ReportQuery {
    // entityId may select several publishers: then the query is the template of a report of several.
    return buildSelectedQuery(input, (one) =>
      this.checkAddress(buildReportQuery(kind, one, { nowMs: this.options.clock.now(), timeZone })),
    );
  }

  /** The report of one publisher of a report of several, its address checked as buildQuery checks it. */
  queryFor(template: ReportQuery, publisherId: string): ReportQuery {
    return this.checkAddress(publisherQuery(template, publisherId));
  }

  private checkAddress(query: ReportQuery): ReportQuery {
    // The longest page address: the largest page at an offset with as many digits as any report reaches.
    const length = reportPageUrl(this.baseUrl, query, { limit: query.spec.pageMax, offset: 99_999_999 }).length;
    if (length > FETCH_URL_MAX_CHARS) {
      const longest = (['filter', 'entityId', 'sort'] as const).reduce((a, b) =>
        (query.params[b] ?? '').length > (query.params[a] ?? '').length ? b : a,
      );
      throw ValidationError.single(
        longest,
        `makes the request address ${length} characters long, more than the ${FETCH_URL_MAX_CHARS} Apps Script can send: shorten it (fewer or shorter values)`,
      );
    }
    return query;
  }

  /** Fetches a whole report (or `maxRows` of it) with paging (multi-paging.ts), for several publishers too (publisher-reports.ts). */
  runReport(query: ReportQuery, options: RunReportOptions = {}): ReportResult {
    this.requireToken();
    const paging: PagingOptions = {
      deadlineAtMs: this.deadline(options),
      maxParallelRequests: Math.min(this.options.maxParallelRequests ?? DEFAULT_MAX_PARALLEL_REQUESTS, REPORT_RATE_RULE.limit),
    };
    if (options.maxRows !== undefined) paging.maxRows = options.maxRows;
    if (options.onProgress) paging.onProgress = options.onProgress;
    if (options.allOrNothing) paging.allOrNothing = true;
    return query.publishers ? runPublisherReport(this, query, paging) : fetchReport(this, query, paging);
  }

  /**
   * Every page of reports that differ only in their dates (a comparison's two periods), fetched
   * together and whole: their first pages in one batch, then every other page, each publisher's pages
   * within its one budget (multi-paging.ts); of one publisher or of several (publisher-reports.ts).
   */
  runTogether(queries: readonly ReportQuery[], options: Omit<RunReportOptions, 'maxRows' | 'allOrNothing'> = {}): ReportResult[] {
    this.requireToken();
    const first = queries[0];
    if (!first) return [];
    if (queries.some((q) => q.entityId !== first.entityId)) throw new RangeError('reports fetched together share their publishers');
    const paging = {
      deadlineAtMs: this.deadline(options),
      maxParallelRequests: Math.min(this.options.maxParallelRequests ?? DEFAULT_MAX_PARALLEL_REQUESTS, REPORT_RATE_RULE.limit),
      nowMs: this.options.clock.now(),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    };
    if (first.publishers) return runPublisherReports(this, queries, paging);
    return fetchWholeReports(
      this,
      queries.map((query) => ({ query })),
      {
        ...paging,
        shortfall: (fetched, planned) =>
          `${planned - fetched} of the ${planned} pages of the compared periods could not be fetched within the ${REPORT_RATE_RULE.limit} report requests a minute`,
      },
    );
  }

  /** One page exactly as asked (limit and offset of the query, or the report's defaults). */
  fetchReportPage(query: ReportQuery, options: CallOptions = {}): ReportPage {
    return this.fetchFirstPage(
      query,
      { offset: query.offset, limit: query.limit ?? query.spec.defaultPageLimit },
      this.deadline(options),
    ).read();
  }

  fetchFirstPage(query: ReportQuery, page: PageRange, deadlineAtMs: number): ReportAnswer {
    const token = this.requireToken();
    const response = this.sender.send(this.pageRequest(query, page, token), {
      operation: `GET ${query.spec.path}`,
      deadlineAtMs,
      retry: true,
      rate: { rule: REPORT_RATE_RULE, scope: query.entityId },
    });
    return reportAnswer(response.body, `GET ${query.spec.path}`, response.headers[TRACE_ID_HEADER]);
  }

  budgetFreeAtMs(query: ReportQuery, requests: number): number {
    return this.limiter.nextFreeAtMs(REPORT_RATE_RULE, query.entityId, requests);
  }

  reserveSlots(query: ReportQuery, wanted: number, deadlineAtMs: number): RateReservation {
    return this.limiter.acquireUpTo(REPORT_RATE_RULE, query.entityId, wanted, deadlineAtMs);
  }

  freeSlots(query: ReportQuery): number {
    return this.limiter.remaining(REPORT_RATE_RULE, query.entityId);
  }

  tryReserveSlots(query: ReportQuery, wanted: number): RateReservation | undefined {
    return this.limiter.tryAcquireUpTo(REPORT_RATE_RULE, query.entityId, wanted);
  }

  /** Pages of several publishers in one batch, each spending its own publisher's reservation. */
  fetchPageBatch(members: readonly BatchMember[], deadlineAtMs: number, reservations: readonly RateReservation[]): ReportAnswer[] {
    const token = this.requireToken();
    const operation = `GET ${members[0]?.query.spec.path ?? ''}`;
    const responses = this.sender.sendAll(
      members.map((m) => this.pageRequest(m.query, m.page, token)),
      {
        operation,
        deadlineAtMs,
        retry: true,
        rates: { rule: REPORT_RATE_RULE, scopes: members.map((m) => m.query.entityId), reservations },
        subjects: members.map((m) => m.subject),
      },
    );
    return responses.map((r, i) =>
      reportAnswer(r.body, operation, r.headers[TRACE_ID_HEADER], (e) => {
        if (e instanceof EngageError && e.subject === undefined) e.subject = members[i]!.subject;
      }),
    );
  }

  private pageRequest(query: ReportQuery, page: PageRange, token: string): HttpRequest {
    // A report of several publishers is never one request: runReport pages each publisher.
    if (query.publishers) throw new RangeError('a report of several publishers is fetched with runReport');
    return { url: reportPageUrl(this.baseUrl, query, page), method: 'get', headers: { [TOKEN_HEADER]: token } };
  }

  private requireToken(): string {
    if (!this.currentToken) throw new NotSignedInError();
    return this.currentToken;
  }

  private timeBudgetMs(): number {
    return this.options.defaultTimeBudgetMs ?? FORMULA_FETCH_BUDGET_MS;
  }

  private deadline(options: CallOptions): number {
    return options.deadlineAtMs ?? this.options.clock.now() + this.timeBudgetMs();
  }
}
