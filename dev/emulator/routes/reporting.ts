/**
 * The reporting API under /engage/v2: login with Basic credentials (2 a user an hour), the lookups
 * (publishers, their widgets and native apps, countries, time zones), the main report and the two
 * externalId reports with their limit on unique variants an hour.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { OPERATIONS } from '../model/operations';
import { runExternalIdReport } from '../model/reports/external-id-report';
import { runMainReport } from '../model/reports/main-report';
import { COUNTRIES, PUBLISHERS, TIMEZONES } from '../model/seed';
import type { EmulatorState } from '../model/state';
import { authenticate, lookupPublisher, queryOf, reportPublisher } from './authentication';
import { headerText } from './hooks';
import { JSON_TYPE, TOKEN_HEADER } from './paths';

/** Registers the reporting API on `api`, which the app mounts under BASE_PATH. */
export function registerReportingRoutes(api: FastifyInstance, state: EmulatorState): void {
  registerLogin(api, state);
  registerLookups(api, state);
  registerReports(api, state);
}

function registerLogin(api: FastifyInstance, state: EmulatorState): void {
  api.get('/login', async (request, reply) => {
    const operation = OPERATIONS.login;
    const header = headerText(request, 'authorization') ?? '';
    const match = /^basic\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new ApiError(401, operation, 'Missing or malformed Authorization header (expected BASIC base64(username:password))');
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
}

function registerLookups(api: FastifyInstance, state: EmulatorState): void {
  api.get('/publishers', async (request) => {
    const user = authenticate(state, request, OPERATIONS.publishers);
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
    const user = authenticate(state, request, OPERATIONS.widgets);
    const publisher = lookupPublisher(user, request.params.id, OPERATIONS.widgets);
    return { widgets: publisher.widgets.map((w) => ({ ...w, publisherId: publisher.id })) };
  });

  api.get<{ Params: { id: string } }>('/publishers/:id/nativeapps', async (request) => {
    const user = authenticate(state, request, OPERATIONS.nativeApps);
    const publisher = lookupPublisher(user, request.params.id, OPERATIONS.nativeApps);
    return { nativeapps: publisher.nativeApps.map((a) => ({ ...a, publisherId: publisher.id })) };
  });

  api.get('/countries', async (request) => {
    authenticate(state, request, OPERATIONS.countries);
    return { countries: COUNTRIES.map(({ id, name, iso3, region }) => ({ id, name, iso3, region })) };
  });

  api.get('/timezones', async (request) => {
    authenticate(state, request, OPERATIONS.timezones);
    return { timezones: TIMEZONES.map((t) => ({ ...t })) };
  });
}

function registerReports(api: FastifyInstance, state: EmulatorState): void {
  api.get('/reports/main', async (request, reply) => {
    const user = authenticate(state, request, OPERATIONS.mainReport);
    const query = queryOf(request);
    const publisher = reportPublisher(state, request, user, OPERATIONS.mainReport);
    return reply.type(JSON_TYPE).send(runMainReport(publisher, query, request.arrivalAtMs, state.revenueRevisions(publisher.id)));
  });

  for (const [path, mode, operation] of [
    ['/reports/externalId', 'hourly', OPERATIONS.externalIdReport],
    ['/reports/realtime/externalId', 'realtime', OPERATIONS.realtimeReport],
  ] as const) {
    api.get(path, async (request, reply) => {
      const user = authenticate(state, request, operation);
      const query = queryOf(request);
      const publisher = reportPublisher(state, request, user, operation);
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
}
