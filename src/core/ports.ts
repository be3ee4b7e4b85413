/**
 * The small synchronous interfaces the core is driven through. Apps Script is synchronous, so every
 * port is too. Adapters over the URL Fetch, Properties, Cache and Lock services and Utilities (sleep,
 * gzip and base64) live in src/gas; tests use the counting fakes in test/support/fakes.ts. Nothing
 * here names a platform global, so the core runs unchanged in Apps Script V8 and in Node.
 */

export type HttpMethod = 'get' | 'post';

export interface HttpRequest {
  url: string;
  method: HttpMethod;
  headers?: Record<string, string>;
  payload?: string;
  contentType?: string;
}

export interface HttpResponse {
  status: number;
  /** Header names lowercased by the adapter, so lookups need no case folding. */
  headers: Record<string, string>;
  body: string;
}

/** URL Fetch refuses addresses longer than 2 KB ("Limit Exceeded: URLFetch URL Length"): check before sending. */
export const FETCH_URL_MAX_CHARS = 2000;

/**
 * Sends HTTP requests. Any status is returned as a response (URL Fetch with muteHttpExceptions);
 * only a failure to get an answer at all (DNS, refused connection, timeout) throws a TransportError.
 */
export interface HttpTransport {
  fetch(request: HttpRequest): HttpResponse;
  /** Sends the requests in parallel; answers come back in request order. */
  fetchAll(requests: HttpRequest[]): HttpResponse[];
}

/** String-only persistent store (Apps Script properties: at most 9 KB per value). */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

/** A store that can also list what it holds (all of a properties store), to prune it and measure it. */
export interface ListableStore extends KeyValueStore {
  entries(): Record<string, string>;
}

/** Best-effort cache; entries may disappear before their time (Cache service: at most 100 KB per value). */
export interface Cache {
  get(key: string): string | null;
  getAll?(keys: string[]): Record<string, string>;
  put(key: string, value: string, ttlSeconds: number): void;
  remove(key: string): void;
}

/**
 * Compresses text into ASCII text and back (gzip and base64 with Utilities), so that a large value
 * takes fewer cache entries. `decompress` throws on anything `compress` did not make.
 */
export interface Compressor {
  compress(text: string): string;
  decompress(compressed: string): string;
}

/** Mutual exclusion across executions (Lock service). */
export interface Lock {
  /** Returns false when the lock was not obtained within the time. */
  tryLock(timeoutMs: number): boolean;
  releaseLock(): void;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** Blocks the execution (Apps Script's sleep); every millisecond counts against the execution limit. */
export interface Sleeper {
  sleep(ms: number): void;
}

/** A source of numbers in [0, 1) for retry jitter; injectable so tests are deterministic. */
export type RandomSource = () => number;
