/**
 * The test controls under /__admin: reset, the settable clock, password/email changes and token
 * revocation, fault injection, the request log, recorded impressions, and isolated instances on
 * their own ports. They sit apart from the API routes (no token, never logged, never faulted) so a
 * test can steer the emulator without disturbing what it observes. Bodies are validated with zod and
 * errors use the same `{moreInfo, errorMessage}` envelope as the API.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { ApiError } from '../../shared/api-error';
import { parseAdminBody } from '../../shared/admin-body';
import { formatDay } from '../model/reports/parameters';
import { API_KEYS, BIG_PUBLISHER_ID, HOSTILE_PUBLISHER_ID, PUBLISHERS, usersOf } from '../model/seed';
import { RESPONSE_SHAPES } from '../model/shapes';
import { publisherDimensions } from '../model/synthetic-data';
import type { EmulatorState } from '../model/state';

export interface EmulatorAddresses {
  port: number;
  /** Reporting base URL, ending in /engage/v2. */
  baseUrl: string;
  /** Full in-chat recommendations URL. */
  recsUrl: string;
  /** Admin base URL, ending in /__admin. */
  adminUrl: string;
}

export interface InstanceRegistry {
  create(): Promise<EmulatorAddresses>;
  close(port: number): Promise<boolean>;
  list(): EmulatorAddresses[];
}

const ADMIN_OPERATION = 'admin';

const FaultRuleSchema = z
  .object({
    match: z.string().optional(),
    onNth: z.number().int().min(1).optional(),
    times: z.number().int().min(1).optional(),
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    status: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
    malformedJson: z.boolean().optional(),
    dropConnection: z.boolean().optional(),
    rateLimitMs: z.number().int().min(0).optional(),
    shape: z.union([z.enum(RESPONSE_SHAPES), z.array(z.enum(RESPONSE_SHAPES)).min(1)]).optional(),
    revokeToken: z.boolean().optional(),
    noCharset: z.boolean().optional(),
  })
  .strict();

const FaultsBodySchema = z.union([z.array(FaultRuleSchema), z.object({ faults: z.array(FaultRuleSchema) }).strict()]);
const ClockBodySchema = z.union([
  z
    .object({
      now: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'now must be an ISO date-time'),
      frozen: z.boolean().optional(),
      followClient: z.boolean().optional(),
    })
    .strict(),
  z.object({ advanceMs: z.number().finite() }).strict(),
]);
const LatencyRangeSchema = z
  .object({ minMs: z.number().int().min(0).max(60_000), maxMs: z.number().int().min(0).max(60_000) })
  .strict()
  .refine((r) => r.minMs <= r.maxMs, 'minMs must not exceed maxMs');
const LatencyBodySchema = z
  .object({
    arrival: LatencyRangeSchema,
    return: LatencyRangeSchema.optional(),
    seed: z.number().int().optional(),
  })
  .strict();
const RevisionBodySchema = z
  .object({
    publisherId: z.string().min(1),
    day: z.string().regex(/^\d{4}-?\d{2}-?\d{2}$/, 'day must be yyyyMMdd or yyyy-MM-dd'),
    revenueFactor: z.number().positive().max(1000),
    widgetId: z.string().min(1).optional(),
  })
  .strict();
const PasswordBodySchema = z.object({ password: z.string().min(1) }).strict();
const EmailBodySchema = z.object({ email: z.string().min(3) }).strict();
const RevokeBodySchema = z.object({ username: z.string().min(1) }).strict();

function parseBody<T>(schema: z.ZodType<T>, request: FastifyRequest): T {
  return parseAdminBody(schema, request, ADMIN_OPERATION);
}

export async function registerAdminRoutes(admin: FastifyInstance, state: EmulatorState, registry?: InstanceRegistry): Promise<void> {
  registerClockRoutes(admin, state);
  registerUserRoutes(admin, state);
  registerRevisionRoutes(admin, state);
  registerFaultAndLogRoutes(admin, state);
  registerSeedAndInstanceRoutes(admin, state, registry);
}

/** Reset, the clock (set, frozen, following a client, advanced) and the network's latency model. */
function registerClockRoutes(admin: FastifyInstance, state: EmulatorState): void {
  admin.post('/reset', async () => {
    state.reset();
    return { ok: true, now: state.nowIso() };
  });

  const clockView = () => ({
    now: state.nowIso(),
    offsetMs: state.clockOffsetMs,
    frozen: state.frozenAtMs !== undefined,
    followClient: state.followsClient,
  });

  admin.get('/clock', async () => clockView());

  admin.post('/clock', async (request) => {
    const body = parseBody(ClockBodySchema, request);
    if ('now' in body) state.setClock(body.now, body.frozen === true, body.followClient === true);
    else state.advanceClock(body.advanceMs);
    return clockView();
  });

  admin.get('/latency', async () => ({ latency: state.latency ?? null }));

  admin.post('/latency', async (request) => {
    const body = parseBody(LatencyBodySchema, request);
    state.latency = { arrival: body.arrival, return: body.return ?? body.arrival, seed: body.seed ?? 1 };
    return { latency: state.latency };
  });

  admin.delete('/latency', async () => {
    state.latency = undefined;
    return { latency: null };
  });
}

/** A user's password or email changed, or their tokens revoked: every token of theirs stops working. */
function registerUserRoutes(admin: FastifyInstance, state: EmulatorState): void {
  const userOr404 = (name: string) => {
    const user = state.findUser(name);
    if (!user) throw new ApiError(404, ADMIN_OPERATION, `No such user: ${name}`);
    return user;
  };

  admin.post<{ Params: { username: string } }>('/users/:username/password', async (request) => {
    const user = userOr404(request.params.username);
    user.password = parseBody(PasswordBodySchema, request).password;
    state.revokeTokens(user);
    return { ok: true, username: user.username, tokensRevoked: true };
  });

  admin.post<{ Params: { username: string } }>('/users/:username/email', async (request) => {
    const user = userOr404(request.params.username);
    user.email = parseBody(EmailBodySchema, request).email;
    state.revokeTokens(user);
    return { ok: true, username: user.username, email: user.email, tokensRevoked: true };
  });

  admin.post('/revoke', async (request) => {
    const user = userOr404(parseBody(RevokeBodySchema, request).username);
    state.revokeTokens(user);
    return { ok: true, username: user.username, tokensRevoked: true };
  });
}

/** Restatements of a publisher's past revenue. */
function registerRevisionRoutes(admin: FastifyInstance, state: EmulatorState): void {
  const revisionView = () => ({
    revisions: state.revisionList().map(({ publisherId, dayNumber, revenueFactor, widgetId }) => ({
      publisherId,
      day: formatDay(dayNumber),
      revenueFactor,
      ...(widgetId !== undefined ? { widgetId } : {}),
    })),
  });

  admin.get('/revisions', async () => revisionView());

  // Restates a past day of a publisher: its revenue in the general report is multiplied by the factor from now on.
  admin.post('/revisions', async (request) => {
    const body = parseBody(RevisionBodySchema, request);
    const publisher = PUBLISHERS.find((p) => p.id === body.publisherId);
    if (!publisher) throw new ApiError(404, ADMIN_OPERATION, `No such publisher: ${body.publisherId}`);
    if (body.widgetId !== undefined && !publisherDimensions(publisher).widget.some((w) => w.id === body.widgetId))
      throw new ApiError(404, ADMIN_OPERATION, `No such widget of ${publisher.name}: ${body.widgetId}`);
    const compact = body.day.replace(/-/g, '');
    const ms = Date.UTC(Number(compact.slice(0, 4)), Number(compact.slice(4, 6)) - 1, Number(compact.slice(6, 8)));
    if (new Date(ms).toISOString().slice(0, 10).replace(/-/g, '') !== compact) {
      throw new ApiError(400, ADMIN_OPERATION, `Invalid admin request body: day: ${body.day} is not a calendar day`);
    }
    state.reviseRevenue(body.publisherId, Math.floor(ms / 86_400_000), body.revenueFactor, body.widgetId);
    return revisionView();
  });

  admin.delete('/revisions', async () => {
    state.clearRevisions();
    return { revisions: [] };
  });
}

/** Injected faults, the request log, and the recommendations' impressions. */
function registerFaultAndLogRoutes(admin: FastifyInstance, state: EmulatorState): void {
  admin.get('/faults', async () => ({ faults: state.faultRules() }));

  admin.post('/faults', async (request) => {
    const body = parseBody(FaultsBodySchema, request);
    const rules = Array.isArray(body) ? body : body.faults;
    for (const rule of rules) {
      if (rule.match !== undefined) {
        try {
          new RegExp(rule.match);
        } catch {
          throw new ApiError(400, ADMIN_OPERATION, `Fault match is not a valid regular expression: ${rule.match}`);
        }
      }
    }
    state.setFaults(rules);
    return { faults: state.faultRules() };
  });

  admin.delete('/faults', async () => {
    state.setFaults([]);
    return { faults: [] };
  });

  admin.get('/requests', async () => ({ requests: state.requestLog }));

  admin.delete('/requests', async () => {
    state.requestLog = [];
    return { requests: [] };
  });

  admin.get('/impressions', async () => ({ impressions: state.impressions, served: [...state.served.values()] }));

  admin.delete('/impressions', async () => {
    state.impressions = [];
    return { impressions: [] };
  });
}

/** What the seed holds, and further isolated instances. */
function registerSeedAndInstanceRoutes(admin: FastifyInstance, state: EmulatorState, registry: InstanceRegistry | undefined): void {
  admin.get('/seed', async () => ({
    seed: state.seed,
    users: usersOf(state.seed).map((u) => ({ username: u.username, password: u.password, publisherIds: u.publisherIds })),
    publishers: PUBLISHERS.map((p) => ({ id: p.id, name: p.name, widgets: p.widgets.map((w) => w.id) })),
    bigPublisherId: BIG_PUBLISHER_ID,
    hostilePublisherId: HOSTILE_PUBLISHER_ID,
    apiKeys: API_KEYS,
  }));

  admin.get('/instances', async () => ({ instances: registry?.list() ?? [] }));

  admin.post('/instances', async (_request, reply) => {
    if (!registry) throw new ApiError(404, ADMIN_OPERATION, 'This emulator cannot start instances');
    return reply.code(201).send(await registry.create());
  });

  admin.delete<{ Params: { port: string } }>('/instances/:port', async (request) => {
    if (!registry) throw new ApiError(404, ADMIN_OPERATION, 'This emulator cannot start instances');
    const port = Number(request.params.port);
    if (!(await registry.close(port))) throw new ApiError(404, ADMIN_OPERATION, `No instance on port ${request.params.port}`);
    return { ok: true, port };
  });
}
