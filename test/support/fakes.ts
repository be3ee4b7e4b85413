/**
 * In-memory fakes of the core's ports for unit tests. Each counts its calls, so a test can say
 * "the second lookup must not reach the transport" or "exactly one fetchAll of two requests". The
 * clock is manual and the sleeper advances it, so waits of minutes take no time.
 */
import zlib from 'node:zlib';
import type {
  Cache,
  Clock,
  Compressor,
  HttpRequest,
  HttpResponse,
  HttpTransport,
  ListableStore,
  Lock,
  Sleeper,
} from '../../src/core/ports';
import { TransportError } from '../../src/core/errors';

export type FakeAnswer = HttpResponse | TransportError;
export type FakeHandler = (request: HttpRequest, index: number) => FakeAnswer;

/** A JSON answer with lowercased headers. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  const lower: Record<string, string> = { 'content-type': 'application/json' };
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  return { status, headers: lower, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

/** The service's error envelope with a trace id. */
export function errorResponse(
  status: number,
  errorMessage: string,
  traceId = `trace-${status}`,
  headers: Record<string, string> = {},
): HttpResponse {
  return jsonResponse(status, { moreInfo: 'operation', errorMessage }, { 'x-traceid': traceId, ...headers });
}

/**
 * Records every request; answers from a queue of answers (first in, first out) when one is queued,
 * else from the handler. A TransportError answer is thrown, as a connection failure would be; in a
 * batch it fails the whole fetchAll, as UrlFetchApp does.
 */
export class FakeTransport implements HttpTransport {
  readonly requests: HttpRequest[] = [];
  fetchCalls = 0;
  fetchAllCalls = 0;
  /** Size of each fetchAll batch, in order. */
  readonly batchSizes: number[] = [];
  private readonly queue: FakeAnswer[] = [];

  constructor(private handler: FakeHandler = () => jsonResponse(404, { errorMessage: 'no handler' })) {}

  /** Answers to give before falling back to the handler. */
  enqueue(...answers: FakeAnswer[]): this {
    this.queue.push(...answers);
    return this;
  }

  setHandler(handler: FakeHandler): void {
    this.handler = handler;
  }

  /** All requests sent, fetch and fetchAll alike. */
  get requestCount(): number {
    return this.requests.length;
  }

  fetch(request: HttpRequest): HttpResponse {
    this.fetchCalls++;
    const answer = this.answer(request);
    if (answer instanceof TransportError) throw answer;
    return answer;
  }

  fetchAll(requests: HttpRequest[]): HttpResponse[] {
    this.fetchAllCalls++;
    this.batchSizes.push(requests.length);
    const answers = requests.map((r) => this.answer(r));
    const failure = answers.find((a): a is TransportError => a instanceof TransportError);
    if (failure) throw failure;
    return answers as HttpResponse[];
  }

  private answer(request: HttpRequest): FakeAnswer {
    const index = this.requests.length;
    this.requests.push(request);
    return this.queue.length > 0 ? this.queue.shift()! : this.handler(request, index);
  }
}

export class FakeStore implements ListableStore {
  readonly values = new Map<string, string>();
  gets = 0;
  sets = 0;
  removes = 0;
  entries(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
  get(key: string): string | null {
    this.gets++;
    return this.values.get(key) ?? null;
  }
  set(key: string, value: string): void {
    this.sets++;
    // Apps Script's 9 KB a value, read strictly (as the local host does).
    if (Buffer.byteLength(value, 'utf8') > 9000)
      throw new Error(`value of ${key} exceeds 9 KB (${Buffer.byteLength(value, 'utf8')} bytes)`);
    this.values.set(key, value);
  }
  remove(key: string): void {
    this.removes++;
    this.values.delete(key);
  }
}

export class FakeCache implements Cache {
  private readonly entries = new Map<string, { value: string; expiresAtMs: number }>();
  /** Every entry written, by put or putAll, in order. */
  readonly writes: Array<{ key: string; value: string; ttl: number }> = [];
  gets = 0;
  getAlls = 0;
  puts = 0;
  putAlls = 0;
  removes = 0;
  constructor(private readonly clock: Clock) {}
  get(key: string): string | null {
    this.gets++;
    return this.read(key);
  }
  getAll(keys: string[]): Record<string, string> {
    this.getAlls++;
    const out: Record<string, string> = {};
    for (const k of keys) {
      const v = this.read(k);
      if (v !== null) out[k] = v;
    }
    return out;
  }
  put(key: string, value: string, ttlSeconds: number): void {
    this.puts++;
    this.write(key, value, ttlSeconds);
  }
  putAll(values: Record<string, string>, ttlSeconds: number): void {
    this.putAlls++;
    for (const [key, value] of Object.entries(values)) this.write(key, value, ttlSeconds);
  }
  remove(key: string): void {
    this.removes++;
    this.entries.delete(key);
  }
  removeAll(keys: string[]): void {
    this.removes++;
    for (const key of keys) this.entries.delete(key);
  }
  /** Live keys, for tests that count what a cache holds. */
  keys(): string[] {
    return [...this.entries].filter(([, e]) => e.expiresAtMs > this.clock.now()).map(([k]) => k);
  }
  private read(key: string): string | null {
    const e = this.entries.get(key);
    if (!e || e.expiresAtMs <= this.clock.now()) return null;
    return e.value;
  }
  private write(key: string, value: string, ttlSeconds: number): void {
    // The Cache service's 100 KB a value, read strictly (as the local host does).
    if (Buffer.byteLength(value, 'utf8') > 100_000) throw new Error(`value of ${key} exceeds 100 KB`);
    this.writes.push({ key, value, ttl: ttlSeconds });
    this.entries.set(key, { value, expiresAtMs: this.clock.now() + ttlSeconds * 1000 });
  }
}

/** gzip and base64 with Node's zlib, as Utilities does in Apps Script; counts its calls. */
export class FakeCompressor implements Compressor {
  compressions = 0;
  decompressions = 0;
  compress(text: string): string {
    this.compressions++;
    return zlib.gzipSync(Buffer.from(text, 'utf8')).toString('base64');
  }
  decompress(compressed: string): string {
    this.decompressions++;
    return zlib.gunzipSync(Buffer.from(compressed, 'base64')).toString('utf8');
  }
}

export class FakeLock implements Lock {
  tryLocks = 0;
  releases = 0;
  held = false;
  /** Set to false to simulate another execution holding the lock for too long. */
  available = true;
  /** Runs while the lock is taken, to simulate another execution that changed state just before. */
  onAcquire?: () => void;
  tryLock(): boolean {
    this.tryLocks++;
    if (!this.available || this.held) return false;
    this.held = true;
    this.onAcquire?.();
    return true;
  }
  releaseLock(): void {
    this.releases++;
    this.held = false;
  }
}

export class ManualClock implements Clock {
  constructor(public nowMs = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  now(): number {
    return this.nowMs;
  }
  advance(ms: number): void {
    this.nowMs += ms;
  }
  set(epochMs: number): void {
    this.nowMs = epochMs;
  }
}

/** A sleeper that records each wait and moves the manual clock forward instead of blocking. */
export class ManualSleeper implements Sleeper {
  readonly sleeps: number[] = [];
  constructor(private readonly clock: ManualClock) {}
  sleep(ms: number): void {
    this.sleeps.push(ms);
    this.clock.advance(ms);
  }
  get totalMs(): number {
    return this.sleeps.reduce((a, b) => a + b, 0);
  }
}

/** Query parameters of a recorded request. */
export function queryOf(request: HttpRequest): Record<string, string> {
  const url = new URL(request.url);
  return Object.fromEntries(url.searchParams.entries());
}

/**
 * A handler that serves a report of `totalRows` rows by limit and offset, like the service does;
 * `makeItem` builds row i. Requests that are not reports get a 404.
 */
export function reportHandler(
  totalRows: number,
  makeItem: (i: number) => Record<string, unknown> = defaultItem,
  metricsSums: Record<string, unknown> = { revenue: totalRows },
): FakeHandler {
  return (request) => {
    if (!request.url.includes('/reports/')) return errorResponse(404, 'not found');
    const q = queryOf(request);
    const limit = Number(q.limit ?? 500);
    const offset = Number(q.offset ?? 0);
    const items: Record<string, unknown>[] = [];
    for (let i = offset; i < Math.min(totalRows, offset + limit); i++) items.push(makeItem(i));
    return jsonResponse(200, { items, totalItems: totalRows, metricsSums }, { 'x-traceid': 'ok' });
  };
}

function defaultItem(i: number): Record<string, unknown> {
  return { day: '20261101', revenue: i, paidClicks: 1 };
}
