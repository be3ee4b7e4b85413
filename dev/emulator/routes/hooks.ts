/**
 * What every request to the emulated service goes through, whatever its route: it is timed by its
 * arrival (the network model and a client's virtual clock), logged, and may be hit by an injected
 * fault; every answer gets an `x-traceid`, a reshaped body when a fault asked for one, and its
 * return latency. The test controls, the webhook receiver and the BigQuery stand-in pass untouched.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { VIRTUAL_ANSWER_TIME_HEADER, VIRTUAL_SEND_TIME_HEADER } from '../../shared/clock';
import { reshapeBody, shapeList, type ResponseShape } from '../model/shapes';
import { type EmulatorState, sampleLatencyMs, type FaultRule, type RequestLogEntry } from '../model/state';
import { operationOfPath, sendError } from './errors';
import { ADMIN_PREFIX, BASE_PATH, TOKEN_HEADER } from './paths';
import { WEBHOOK_PREFIX } from './webhooks';

/** What a malformed-JSON fault sends: a body cut off mid-value. */
const TRUNCATED_JSON = '{"items":[{"day":"2024';

declare module 'fastify' {
  interface FastifyRequest {
    logEntry?: RequestLogEntry;
    startedAtMs?: number;
    /** When the request reached the service, on the emulator's clock: what limits, token ages and the log count with. */
    arrivalAtMs: number;
    /** Following a client's virtual clock: when the answer reaches the client (sent back in VIRTUAL_ANSWER_TIME_HEADER). */
    answerReachesClientAtMs?: number;
    /** Real clock: how long the answer takes to reach the client (waited before it is sent). */
    returnLatencyMs?: number;
    /** Set by a fault rule's `shape`: the successful answer is rewritten in these shapes. */
    responseShapes?: ResponseShape[];
    /** Set by a fault rule's `noCharset`: the answer's Content-Type loses its charset parameter. */
    noCharset?: boolean;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function headerText(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Registers the hooks on the emulator's app; `passesUntouched` names the paths outside the emulated service. */
export function registerServiceHooks(app: FastifyInstance, state: EmulatorState, passesUntouched: (url: string) => boolean): void {
  const stampArrival = arrivalStamper(state);
  app.addHook('onRequest', async (request, reply) => {
    request.startedAtMs = Date.now();
    const url = request.url;
    // The test controls, the webhook receiver and the BigQuery stand-in are no part of the emulated
    // service: never in its log, faults or network model (the stand-in keeps its own log and faults).
    if (url.startsWith(ADMIN_PREFIX) || url.startsWith(WEBHOOK_PREFIX) || passesUntouched(url)) return;
    await stampArrival(request);
    const entry = logEntryOf(request);
    request.logEntry = entry;
    state.logRequest(entry);
    const fault = state.takeFault(url);
    if (!fault) return;
    entry.fault = fault;
    // Returning the reply tells Fastify the hook already answered (or dropped) the request.
    if (await applyFault(state, fault, request, reply, entry.path)) return reply;
  });
  app.addHook('onSend', async (request, reply, payload) => finishAnswer(request, reply, payload));
  app.addHook('onResponse', async (request, reply) => {
    if (request.logEntry) {
      request.logEntry.status = reply.statusCode;
      request.logEntry.durationMs = Date.now() - (request.startedAtMs ?? Date.now());
    }
  });
}

/**
 * Times a request by its arrival. On the real clock the arrival latency is really waited, so an
 * answer never comes back before the arrival it was counted at. On a frozen clock it is added to
 * the stamp without waiting; following a client, the stamp starts from the client's virtual send
 * time, and the answer says when it reaches the client.
 */
function arrivalStamper(state: EmulatorState): (request: FastifyRequest) => Promise<void> {
  let requestsSeen = 0;
  return async (request) => {
    const sentText = headerText(request, VIRTUAL_SEND_TIME_HEADER);
    const sentAtMs = sentText === undefined ? NaN : Number(sentText);
    const follows = state.followsClient && Number.isFinite(sentAtMs);
    const latency = state.latency;
    // Keyed by the request and its virtual send time, the draw is the same on every run of a virtual-clock test.
    const key = `${request.method} ${request.url} ${follows ? sentAtMs : ++requestsSeen}`;
    const arrivalMs = latency ? sampleLatencyMs(latency.arrival, latency.seed, `${key} arrival`) : 0;
    const returnMs = latency ? sampleLatencyMs(latency.return, latency.seed, `${key} return`) : 0;
    if (state.frozenAtMs === undefined) {
      if (arrivalMs > 0) await sleep(arrivalMs);
      request.arrivalAtMs = state.now();
      request.returnLatencyMs = returnMs;
      return;
    }
    request.arrivalAtMs = (follows ? sentAtMs : state.now()) + arrivalMs;
    state.noteArrival(request.arrivalAtMs);
    if (follows) request.answerReachesClientAtMs = request.arrivalAtMs + returnMs;
  };
}

function logEntryOf(request: FastifyRequest): RequestLogEntry {
  const url = request.url;
  const questionMark = url.indexOf('?');
  return {
    method: request.method,
    path: questionMark < 0 ? url : url.slice(0, questionMark),
    query: { ...(request.query as Record<string, unknown>) },
    headers: { ...request.headers },
    status: null,
    time: new Date(request.arrivalAtMs).toISOString(),
    durationMs: null,
    traceId: request.id,
  };
}

/** The answer's trace id, charset, virtual arrival or return latency, reshaped body and CORS headers. */
async function finishAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  reply.header('x-traceid', request.id);
  if (request.noCharset) {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string') reply.header('content-type', type.replace(/;\s*charset=[^;]*/i, ''));
  }
  if (request.answerReachesClientAtMs !== undefined) reply.header(VIRTUAL_ANSWER_TIME_HEADER, String(request.answerReachesClientAtMs));
  else if (request.returnLatencyMs) await sleep(request.returnLatencyMs);
  if (
    request.responseShapes &&
    request.url.startsWith(BASE_PATH) &&
    !request.url.startsWith(`${BASE_PATH}/login`) &&
    reply.statusCode === 200
  ) {
    const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
    if (typeof text === 'string' && text !== '') return JSON.stringify(reshapeBody(JSON.parse(text), request.responseShapes));
  }
  // The recommendations endpoint is called from browsers (hence its cors=true parameter).
  if (request.url.startsWith('/recs/')) {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'x-traceid');
  }
  return payload;
}

/** Applies an injected fault; true when the fault answered or dropped the request itself. */
async function applyFault(
  state: EmulatorState,
  fault: FaultRule,
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
): Promise<boolean> {
  if (fault.latencyMs) await sleep(fault.latencyMs);
  if (fault.shape) request.responseShapes = shapeList(fault.shape);
  if (fault.noCharset) request.noCharset = true;
  if (fault.revokeToken) {
    // The user changed the password while this request was on its way: it and every later one get 401.
    const record = state.tokens.get((headerText(request, TOKEN_HEADER) ?? '').trim());
    const user = record ? state.users.get(record.username) : undefined;
    if (user) state.revokeTokens(user);
  }
  const operation = operationOfPath(path);
  if (fault.dropConnection) {
    reply.hijack();
    request.raw.socket.destroy();
    return true;
  }
  if (fault.rateLimitMs !== undefined) {
    sendError(reply, new ApiError(429, operation, 'Rate limit exceeded (injected fault)', fault.rateLimitMs));
    return true;
  }
  if (fault.status) {
    const message = fault.status === 504 ? 'Request timed out' : `Service unavailable (injected ${fault.status})`;
    sendError(reply, new ApiError(fault.status, operation, message));
    return true;
  }
  if (fault.malformedJson) {
    reply.code(200).type('application/json').send(TRUNCATED_JSON);
    return true;
  }
  return false;
}
