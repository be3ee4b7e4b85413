/**
 * The emulator's request handling as a Fastify app built from an EmulatorState, separate from any
 * listener (as stripe-mock does): the reporting routes under /engage/v2, the in-chat recommendations
 * endpoint and its impression pixel, and the /__admin test controls (admin-routes.ts). Cross-cutting
 * behaviour lives in hooks: every response gets an `x-traceid`, every API request is logged and may
 * be hit by an injected fault, and every error leaves as the service's `{moreInfo, errorMessage}`.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { registerAdminRoutes, type InstanceRegistry } from './admin-routes';
import { registerWebhookAdminRoutes, registerWebhookRoutes, WEBHOOK_PREFIX } from './webhooks';
import { registerBigQueryAdminRoutes } from '../bigquery/admin-routes';
import {
  BIGQUERY_PREFIX,
  BIGQUERY_UPLOAD_PREFIX,
  registerBigQueryHooks,
  registerBigQueryRoutes,
  registerBigQueryUploadRoute,
} from '../bigquery/routes';
import { BigQueryState } from '../bigquery/state';
import { ApiError, OPERATIONS } from './api-error';
import { chooseDocuments, THUMBNAIL_PATH, thumbnailSvg } from './recommendations';
import { runExternalIdReport, runMainReport, type Query } from './reports';
import { API_KEYS, COUNTRIES, PUBLISHERS, TIMEZONES, findPublisher, type SeedPublisher } from './seed';
import { reshapeBody, shapeList, type ResponseShape } from './shapes';
import { VIRTUAL_ANSWER_TIME_HEADER, VIRTUAL_SEND_TIME_HEADER } from '../gas-host/clock';
import { type EmulatorState, TOKEN_LIFETIME_MS, sampleLatencyMs, type FaultRule, type RequestLogEntry, type UserState } from './state';

export const BASE_PATH = '/engage/v2';
export const RECS_PATH = '/recs/v1/recommendations';
export const PIXEL_PATH = '/recs/v1/served';
export const ADMIN_PREFIX = '/__admin';
export const TOKEN_HEADER = 'SVC-TOKEN-V1';
/** Report pages are assembled as JSON bytes (reports.ts), so their type is set by hand. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** What a malformed-JSON fault sends: a body cut off mid-value. */
const TRUNCATED_JSON = '{"items":[{"day":"2024';

type Operation = (typeof OPERATIONS)[keyof typeof OPERATIONS];

export interface EmulatorAppOptions {
  /** Lets /__admin/instances start further isolated instances; omitted in instances themselves is fine. */
  registry?: InstanceRegistry;
  /** The BigQuery stand-in's state (dev/bigquery); a fresh one on the emulator's clock when omitted. */
  bigquery?: BigQueryState;
}

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

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.status === 429 && error.retryAfterMs !== undefined) {
    reply.header('rate-limit-msec-left', String(error.retryAfterMs));
    reply.header('Retry-After', String(Math.ceil(error.retryAfterMs / 1000)));
  }
  return reply.code(error.status).type('application/json').send({ moreInfo: error.operation, errorMessage: error.message });
}

function operationOfPath(path: string): Operation {
  if (path.startsWith(`${BASE_PATH}/login`)) return OPERATIONS.login;
  if (path.startsWith(`${BASE_PATH}/reports/realtime`)) return OPERATIONS.realtimeReport;
  if (path.startsWith(`${BASE_PATH}/reports/externalId`)) return OPERATIONS.externalIdReport;
  if (path.startsWith(`${BASE_PATH}/reports/main`)) return OPERATIONS.mainReport;
  if (path.endsWith('/widgets')) return OPERATIONS.widgets;
  if (path.endsWith('/nativeapps')) return OPERATIONS.nativeApps;
  if (path.startsWith(`${BASE_PATH}/publishers`)) return OPERATIONS.publishers;
  if (path.startsWith(`${BASE_PATH}/countries`)) return OPERATIONS.countries;
  if (path.startsWith(`${BASE_PATH}/timezones`)) return OPERATIONS.timezones;
  if (path.startsWith(RECS_PATH)) return OPERATIONS.recommendations;
  if (path.startsWith(PIXEL_PATH)) return OPERATIONS.pixel;
  return OPERATIONS.unknown;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function queryOf(request: FastifyRequest): Query {
  return (request.query ?? {}) as Query;
}

function headerText(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function isBigQueryPath(url: string): boolean {
  return url.startsWith(`${BIGQUERY_PREFIX}/`) || url.startsWith(`${BIGQUERY_UPLOAD_PREFIX}/`);
}

export function createEmulatorApp(state: EmulatorState, options: EmulatorAppOptions = {}): FastifyInstance {
  const app = Fastify({ logger: false, genReqId: () => randomUUID(), requestIdHeader: false, bodyLimit: 1_048_576 });

  // Bodies arrive as text; the handlers parse them, so a wrong content type or bad JSON becomes the
  // service's 400 envelope instead of Fastify's own 415/400 shapes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  let requestsSeen = 0;
  /**
   * Times a request by its arrival. On the real clock the arrival latency is really waited, so an
   * answer never comes back before the arrival it was counted at. On a frozen clock it is added to
   * the stamp without waiting; following a client, the stamp starts from the client's virtual send
   * time, and the answer says when it reaches the client.
   */
  async function stampArrival(request: FastifyRequest): Promise<void> {
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
  }

  app.addHook('onRequest', async (request, reply) => {
    request.startedAtMs = Date.now();
    const url = request.url;
    // The test controls, the webhook receiver and the BigQuery stand-in are no part of the emulated
    // service: never in its log, faults or network model (the stand-in keeps its own log and faults).
    if (url.startsWith(ADMIN_PREFIX) || url.startsWith(WEBHOOK_PREFIX) || isBigQueryPath(url)) return;
    await stampArrival(request);
    const questionMark = url.indexOf('?');
    const entry: RequestLogEntry = {
      method: request.method,
      path: questionMark < 0 ? url : url.slice(0, questionMark),
      query: { ...(request.query as Record<string, unknown>) },
      headers: { ...request.headers },
      status: null,
      time: new Date(request.arrivalAtMs).toISOString(),
      durationMs: null,
      traceId: request.id,
    };
    request.logEntry = entry;
    state.logRequest(entry);
    const fault = state.takeFault(url);
    if (!fault) return;
    entry.fault = fault;
    // Returning the reply tells Fastify the hook already answered (or dropped) the request.
    if (await applyFault(fault, request, reply, entry.path)) return reply;
  });

  app.addHook('onSend', async (request, reply, payload) => {
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
  });

  app.addHook('onResponse', async (request, reply) => {
    if (request.logEntry) {
      request.logEntry.status = reply.statusCode;
      request.logEntry.durationMs = Date.now() - (request.startedAtMs ?? Date.now());
    }
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof ApiError) return sendError(reply, error);
    const status = (error as { statusCode?: number }).statusCode;
    const message = error instanceof Error ? error.message : String(error);
    if (status && status >= 400 && status < 500) {
      return sendError(reply, new ApiError(400, operationOfPath(request.url), message));
    }
    return sendError(reply, new ApiError(500, operationOfPath(request.url), `Internal error: ${message}`));
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError(404, operationOfPath(request.url), `No such resource: ${request.method} ${request.url.split('?')[0]}`)),
  );

  /** Applies an injected fault; true when the fault answered or dropped the request itself. */
  async function applyFault(fault: FaultRule, request: FastifyRequest, reply: FastifyReply, path: string): Promise<boolean> {
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

  // ------------------------------------------------------------------------------------------
  // Authentication

  function authenticate(request: FastifyRequest, operation: Operation): UserState {
    const token = headerText(request, TOKEN_HEADER);
    if (!token) throw new ApiError(401, operation, `Missing ${TOKEN_HEADER} header; get a token from GET ${BASE_PATH}/login`);
    const record = state.tokens.get(token.trim());
    if (!record) throw new ApiError(401, operation, 'Invalid access token');
    const user = state.users.get(record.username);
    if (!user || record.generation !== user.tokenGeneration) {
      throw new ApiError(401, operation, 'Access token was revoked (the account password or email changed); log in again');
    }
    if (request.arrivalAtMs - record.issuedAtMs >= TOKEN_LIFETIME_MS) {
      throw new ApiError(401, operation, 'Access token expired (tokens are valid 30 days); log in again');
    }
    return user;
  }

  /** For lookups: unknown publisher 404, a publisher of someone else 403. */
  function lookupPublisher(user: UserState, id: string, operation: Operation): SeedPublisher {
    const publisher = findPublisher(id);
    if (!publisher) throw new ApiError(404, operation, `Publisher ${id} not found`);
    if (!user.publisherIds.includes(id)) throw new ApiError(403, operation, `Access denied to publisher ${id}`);
    return publisher;
  }

  /** For reports: the entityId must be given and be one of the user's publishers (403 otherwise). */
  function reportPublisher(request: FastifyRequest, user: UserState, operation: Operation): SeedPublisher {
    const raw = queryOf(request).entityId;
    const entityId = String((Array.isArray(raw) ? raw[raw.length - 1] : raw) ?? '').trim();
    if (!entityId) throw new ApiError(400, operation, 'Missing required parameter entityId (the hashed publisher id)');
    const publisher = findPublisher(entityId);
    if (!publisher || !user.publisherIds.includes(entityId)) {
      throw new ApiError(403, operation, `Access denied to entityId ${entityId}`);
    }
    const waitMs = state.reportWaitMs(publisher.id, request.arrivalAtMs);
    if (waitMs > 0) {
      throw new ApiError(
        429,
        operation,
        `Rate limit exceeded: 30 report requests per minute for publisher ${entityId}; retry in ${waitMs} ms`,
        waitMs,
      );
    }
    state.recordReport(publisher.id, request.arrivalAtMs);
    return publisher;
  }

  // ------------------------------------------------------------------------------------------
  // Reporting API

  app.register(
    async (api) => {
      api.get('/login', async (request, reply) => {
        const operation = OPERATIONS.login;
        const header = headerText(request, 'authorization') ?? '';
        const match = /^basic\s+(\S+)\s*$/i.exec(header);
        if (!match)
          throw new ApiError(401, operation, 'Missing or malformed Authorization header (expected BASIC base64(username:password))');
        const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        if (colon < 0) throw new ApiError(401, operation, 'Malformed Basic credentials (expected username:password)');
        const loginName = decoded.slice(0, colon);
        const password = decoded.slice(colon + 1);
        const waitMs = state.loginWaitMs(loginName, request.arrivalAtMs);
        if (waitMs > 0) {
          throw new ApiError(429, operation, `Login rate limit exceeded: 2 logins per hour per user; retry in ${waitMs} ms`, waitMs);
        }
        state.recordLogin(loginName, request.arrivalAtMs);
        const user = state.findUser(loginName);
        if (!user || user.email.toLowerCase() !== loginName.toLowerCase() || user.password !== password) {
          throw new ApiError(401, operation, 'Invalid username or password');
        }
        return reply.send({ [TOKEN_HEADER]: state.issueToken(user, request.arrivalAtMs) });
      });

      api.get('/publishers', async (request) => {
        const user = authenticate(request, OPERATIONS.publishers);
        const publishers = PUBLISHERS.filter((p) => user.publisherIds.includes(p.id)).map((p) => ({
          id: p.id,
          name: p.name,
          domain: p.domain,
          currency: p.currency,
          timezone: p.timezone,
          status: 'ACTIVE',
          type: 'PUBLISHER',
        }));
        return { publishers };
      });

      api.get<{ Params: { id: string } }>('/publishers/:id/widgets', async (request) => {
        const user = authenticate(request, OPERATIONS.widgets);
        const publisher = lookupPublisher(user, request.params.id, OPERATIONS.widgets);
        return { widgets: publisher.widgets.map((w) => ({ ...w, publisherId: publisher.id })) };
      });

      api.get<{ Params: { id: string } }>('/publishers/:id/nativeapps', async (request) => {
        const user = authenticate(request, OPERATIONS.nativeApps);
        const publisher = lookupPublisher(user, request.params.id, OPERATIONS.nativeApps);
        return { nativeapps: publisher.nativeApps.map((a) => ({ ...a, publisherId: publisher.id })) };
      });

      api.get('/countries', async (request) => {
        authenticate(request, OPERATIONS.countries);
        return { countries: COUNTRIES.map(({ id, name, iso3, region }) => ({ id, name, iso3, region })) };
      });

      api.get('/timezones', async (request) => {
        authenticate(request, OPERATIONS.timezones);
        return { timezones: TIMEZONES.map((t) => ({ ...t })) };
      });

      api.get('/reports/main', async (request, reply) => {
        const user = authenticate(request, OPERATIONS.mainReport);
        const query = queryOf(request);
        const publisher = reportPublisher(request, user, OPERATIONS.mainReport);
        return reply.type(JSON_TYPE).send(runMainReport(publisher, query, request.arrivalAtMs, state.revenueFactors(publisher.id)));
      });

      for (const [path, mode, operation] of [
        ['/reports/externalId', 'hourly', OPERATIONS.externalIdReport],
        ['/reports/realtime/externalId', 'realtime', OPERATIONS.realtimeReport],
      ] as const) {
        api.get(path, async (request, reply) => {
          const user = authenticate(request, operation);
          const query = queryOf(request);
          const publisher = reportPublisher(request, user, operation);
          const waitMs = state.variantWaitMs(publisher.id, request.arrivalAtMs);
          if (waitMs > 0) {
            throw new ApiError(
              429,
              operation,
              `Unique variants limit exceeded: 100,000 per hour for publisher ${publisher.id}; retry in ${waitMs} ms`,
              waitMs,
            );
          }
          const result = runExternalIdReport(publisher, query, request.arrivalAtMs, mode);
          state.recordVariants(publisher.id, result.variantKeys, request.arrivalAtMs);
          return reply.type(JSON_TYPE).send(result.response);
        });
      }
    },
    { prefix: BASE_PATH },
  );

  // ------------------------------------------------------------------------------------------
  // In-chat recommendations and the impression pixel

  app.post(RECS_PATH, async (request, reply) => {
    const operation = OPERATIONS.recommendations;
    const query = queryOf(request);
    const text = (name: string) => {
      const value = query[name];
      const last = Array.isArray(value) ? value[value.length - 1] : value;
      return last === undefined ? undefined : String(last);
    };
    const key = text('key');
    if (!key) throw new ApiError(401, operation, 'Missing API key (query parameter key)');
    const apiKey = API_KEYS.find((k) => k.key === key);
    if (!apiKey) throw new ApiError(401, operation, 'Invalid API key');
    for (const name of ['contentUrl', 'widgetJSId', 'cors']) {
      if (!text(name)?.trim()) throw new ApiError(400, operation, `Missing required parameter ${name}`);
    }
    if (text('cors') !== 'true') throw new ApiError(400, operation, 'Parameter cors must be the literal true');
    const widgetJSId = text('widgetJSId')!;
    if (!apiKey.widgetIds.includes(widgetJSId)) {
      throw new ApiError(400, operation, `Parameter widgetJSId: ${widgetJSId} is not a widget of this API key`);
    }
    const bidFloor = text('bf');
    if (bidFloor !== undefined && !(Number.isFinite(Number(bidFloor)) && Number(bidFloor) >= 0 && bidFloor.trim() !== '')) {
      throw new ApiError(400, operation, `Parameter bf must be a non-negative number, got "${bidFloor}"`);
    }
    const contentType = headerText(request, 'content-type') ?? '';
    if (!/^application\/json\s*(;.*)?$/i.test(contentType)) {
      throw new ApiError(400, operation, `Content-Type must be application/json, got "${contentType || 'none'}"`);
    }
    let body: unknown;
    try {
      body = JSON.parse(typeof request.body === 'string' ? request.body : '');
    } catch {
      throw new ApiError(400, operation, 'Request body is not valid JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError(400, operation, 'Request body must be a JSON object {keywords?, iabCategories?}');
    }
    const fields = body as Record<string, unknown>;
    for (const name of ['keywords', 'iabCategories']) {
      const value = fields[name];
      if (value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
        throw new ApiError(400, operation, `Body field ${name} must be an array of strings`);
      }
    }
    const testMode = text('testMode') === 'true';
    const origin = `${request.protocol}://${request.headers.host ?? request.hostname}`;
    const choice = chooseDocuments({
      keywords: (fields.keywords as string[] | undefined) ?? [],
      iabCategories: (fields.iabCategories as string[] | undefined) ?? [],
      widgetJSId,
      contentUrl: text('contentUrl')!,
      // The demo seed serves its thumbnails itself; the tests' point at a host that never resolves.
      ...(state.seed === 'demo' ? { thumbnailBase: `${origin}${THUMBNAIL_PATH}` } : {}),
    });
    const response: Record<string, unknown> = { documents: choice.documents };
    if (choice.tracked && choice.documents.length > 0) {
      const servedId = state.nextServedId();
      state.served.set(servedId, {
        servedId,
        widgetJSId,
        testMode,
        documentCount: choice.documents.length,
        time: new Date(request.arrivalAtMs).toISOString(),
      });
      const params = new URLSearchParams({ servedId, widgetJSId });
      if (testMode) params.set('testMode', 'true');
      response.tracking = { reportServed: `${origin}${PIXEL_PATH}?${params.toString()}` };
    }
    return reply.send(response);
  });

  app.options(RECS_PATH, async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'POST, OPTIONS')
      .header('access-control-allow-headers', 'Content-Type')
      .header('access-control-max-age', '600')
      .send(),
  );

  app.get(PIXEL_PATH, async (request, reply) => {
    const query = queryOf(request);
    const text = (name: string) => (query[name] === undefined ? null : String(query[name]));
    const servedId = text('servedId');
    if (!servedId) throw new ApiError(400, OPERATIONS.pixel, 'Missing required parameter servedId');
    const pos = text('pos');
    state.impressions.push({
      servedId,
      known: state.served.has(servedId),
      widgetJSId: text('widgetJSId'),
      testMode: text('testMode') === 'true',
      pos,
      positions: pos
        ? pos
            .split('-')
            .map(Number)
            .filter((n) => Number.isInteger(n) && n > 0)
        : [],
      time: new Date(request.arrivalAtMs).toISOString(),
      userAgent: headerText(request, 'user-agent') ?? null,
    });
    return reply.code(204).send();
  });

  // The demo seed's thumbnails (recommendations.ts), so the playground's preview shows pictures.
  app.get<{ Params: { file: string } }>(`${THUMBNAIL_PATH}:file`, async (request, reply) => {
    const svg = state.seed === 'demo' ? thumbnailSvg(request.params.file.replace(/\.svg$/, '')) : undefined;
    if (!svg) return reply.code(404).type('text/plain; charset=utf-8').send('No such thumbnail');
    return reply.type('image/svg+xml').header('cache-control', 'max-age=3600').send(svg);
  });

  registerWebhookRoutes(app, state);

  // The BigQuery stand-in shares the emulator's port, clock and instances (dev/bigquery/README.md).
  const bigquery = options.bigquery ?? new BigQueryState(() => state.now());
  app.register(
    async (upload) => {
      registerBigQueryHooks(upload, bigquery);
      registerBigQueryUploadRoute(upload, bigquery);
    },
    { prefix: BIGQUERY_UPLOAD_PREFIX },
  );
  app.register(
    async (api) => {
      registerBigQueryHooks(api, bigquery);
      registerBigQueryRoutes(api, bigquery);
    },
    { prefix: BIGQUERY_PREFIX },
  );

  app.register(
    async (admin) => {
      await registerAdminRoutes(admin, state, options.registry);
      registerWebhookAdminRoutes(admin, state);
      await admin.register(async (scope) => registerBigQueryAdminRoutes(scope, bigquery), { prefix: '/bigquery' });
    },
    { prefix: ADMIN_PREFIX },
  );

  return app;
}
