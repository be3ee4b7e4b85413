/**
 * An HttpTransport for Node, so the synchronous core can talk to a real server (the emulator) in
 * integration tests. It reuses the gas-host's synchronous fetch (dev/gas-host/fetch/sync-fetch.ts: a synckit
 * worker thread, every request under a timeout, fetchAll in parallel inside the worker) instead of a
 * second worker of our own, and only adapts shapes: a request that got no answer becomes the core's
 * TransportError. Every request is recorded, like the unit-test fake, so tests can count them.
 */
import { createSyncFetch, SyncFetchError, type SyncFetchRequest, type SyncFetchResponse } from '../../dev/gas-host/fetch/sync-fetch';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/core/ports';
import { TransportError } from '../../src/core/errors';

/** Tests should fail fast rather than wait Apps Script's 60 s. */
export const NODE_TRANSPORT_TIMEOUT_MS = 15_000;

export class NodeTransport implements HttpTransport {
  readonly requests: HttpRequest[] = [];
  fetchCalls = 0;
  fetchAllCalls = 0;
  readonly batchSizes: number[] = [];
  private readonly http = createSyncFetch({ defaultTimeoutMs: NODE_TRANSPORT_TIMEOUT_MS });

  constructor(private readonly timeoutMs = NODE_TRANSPORT_TIMEOUT_MS) {}

  get requestCount(): number {
    return this.requests.length;
  }

  fetch(request: HttpRequest): HttpResponse {
    this.fetchCalls++;
    this.requests.push(request);
    try {
      return toResponse(this.http.fetch(this.toSync(request)));
    } catch (e) {
      throw asTransportError(e);
    }
  }

  fetchAll(requests: HttpRequest[]): HttpResponse[] {
    this.fetchAllCalls++;
    this.batchSizes.push(requests.length);
    this.requests.push(...requests);
    try {
      // Like UrlFetchApp.fetchAll: one member without an answer fails the batch.
      return this.http.fetchAll(requests.map((r) => this.toSync(r))).map(toResponse);
    } catch (e) {
      throw asTransportError(e);
    }
  }

  private toSync(request: HttpRequest): SyncFetchRequest {
    const headers: Record<string, string> = { ...request.headers };
    if (request.contentType) headers['content-type'] = request.contentType;
    const sync: SyncFetchRequest = { url: request.url, method: request.method.toUpperCase(), headers, timeoutMs: this.timeoutMs };
    if (request.payload !== undefined) sync.body = request.payload;
    return sync;
  }
}

function toResponse(response: SyncFetchResponse): HttpResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) headers[name.toLowerCase()] = value;
  return { status: response.status, headers, body: response.body };
}

function asTransportError(e: unknown): unknown {
  if (e instanceof SyncFetchError) return new TransportError(e.message, { cause: e });
  return e;
}

/** The system clock, as the core's Clock port. */
export const systemClock = { now: (): number => Date.now() };

/** A clock that starts at `startMs` and runs in real time (to follow an emulator whose clock was set). */
export function clockStartingAt(startMs: number) {
  const offset = startMs - Date.now();
  return { now: (): number => Date.now() + offset };
}

/** A really blocking sleep, like Utilities.sleep: Atomics.wait on a private buffer. */
export const blockingSleeper = {
  sleeps: [] as number[],
  sleep(ms: number): void {
    blockingSleeper.sleeps.push(ms);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
  },
};
