/**
 * What an EngageClient is made with and what its calls take: the injected services and settings,
 * a call's deadline, a whole report's options, and the limits the client holds input to.
 */
import type { Cache, Clock, HttpTransport, KeyValueStore, Lock, RandomSource, Sleeper } from '../../ports';
import type { FetchCounter } from '../transport/request-sender';
import type { LookupEntry } from '../responses/responses';
import type { RetryPolicy } from '../transport/retry-policy';

/** URL Fetch's fetchAll has no documented concurrency cap; about 10 to 20 are seen in practice. */
export const DEFAULT_MAX_PARALLEL_REQUESTS = 10;
/** Lookups change rarely; a short cache spares the API when many cells ask at once. */
export const LOOKUP_CACHE_TTL_SECONDS = 600;
/** Longest user name and password sent to /login: longer ones are typing accidents, and each try spends one of 2 logins an hour. */
export const USERNAME_MAX_CHARS = 256;
export const PASSWORD_MAX_CHARS = 1024;

export interface EngageClientOptions {
  /** Reporting base address, ending with /engage/v2. */
  baseUrl: string;
  transport: HttpTransport;
  clock: Clock;
  sleeper: Sleeper;
  /** Where the rate windows live, shared by executions (user properties); in memory when absent. */
  store?: KeyValueStore;
  /** Guards the rate windows across executions (user lock). */
  lock?: Lock;
  /** Caches lookups when given. */
  cache?: Cache;
  /** Jitter source for retries; Math.random when absent. */
  random?: RandomSource;
  /** A token obtained earlier or pasted by the user. */
  token?: string;
  retryPolicy?: Partial<RetryPolicy>;
  /** Counts every attempt against the user's daily URL Fetch quota. */
  fetchCounter?: FetchCounter;
  defaultTimeBudgetMs?: number;
  maxParallelRequests?: number;
  /**
   * The publishers the publishers lookup shows, and so what "all" covers: a formula's client lists
   * only those its spreadsheet's owner allows (src/core/addon/formulas/formula-policy.ts). Default: all of them.
   */
  listedPublishers?: (entries: LookupEntry[]) => LookupEntry[];
}

export interface CallOptions {
  /** Epoch ms (of the injected clock) by which the call must be over, retries and waits included. */
  deadlineAtMs?: number;
}

export interface RunReportOptions extends CallOptions {
  maxRows?: number;
  onProgress?: (pagesFetched: number, pagesPlanned: number) => void;
  /** The caller cannot use part of the report: see PagingOptions.allOrNothing. */
  allOrNothing?: boolean;
}

/** Whose login guard a sign-in spends: the user name as the service compares it. */
export function loginScope(username: string): string {
  return username.trim().toLowerCase();
}
