/**
 * Who may ask the reporting API what: a session token from /login (present, known, not revoked, under
 * 30 days old), a publisher the user holds for a lookup (404 unknown, 403 someone else's), and a
 * report's entityId with its per-publisher rate limit. Each refusal is the service's own status.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../shared/api-error';
import type { Query } from '../model/reports/parameters';
import { findPublisher, type SeedPublisher } from '../model/seed';
import { type EmulatorState, TOKEN_LIFETIME_MS, type UserState } from '../model/state';
import type { Operation } from './errors';
import { headerText } from './hooks';
import { BASE_PATH, TOKEN_HEADER } from './paths';

export function queryOf(request: FastifyRequest): Query {
  return (request.query ?? {}) as Query;
}

export function authenticate(state: EmulatorState, request: FastifyRequest, operation: Operation): UserState {
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
export function lookupPublisher(user: UserState, id: string, operation: Operation): SeedPublisher {
  const publisher = findPublisher(id);
  if (!publisher) throw new ApiError(404, operation, `Publisher ${id} not found`);
  if (!user.publisherIds.includes(id)) throw new ApiError(403, operation, `Access denied to publisher ${id}`);
  return publisher;
}

/** For reports: the entityId must be given and be one of the user's publishers (403 otherwise). */
export function reportPublisher(state: EmulatorState, request: FastifyRequest, user: UserState, operation: Operation): SeedPublisher {
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
