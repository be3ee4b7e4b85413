/**
 * How an error leaves the emulator: the service's envelope `{moreInfo, errorMessage}` with its status
 * (and the rate-limit headers of a 429), whether a handler threw an ApiError, Fastify refused the
 * request, or no route matched. An error raised outside a handler names its operation by the path.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { OPERATIONS } from '../model/operations';
import { BASE_PATH, PIXEL_PATH, RECS_PATH } from './paths';

export type Operation = (typeof OPERATIONS)[keyof typeof OPERATIONS];

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.status === 429 && error.retryAfterMs !== undefined) {
    reply.header('rate-limit-msec-left', String(error.retryAfterMs));
    reply.header('Retry-After', String(Math.ceil(error.retryAfterMs / 1000)));
  }
  return reply.code(error.status).type('application/json').send({ moreInfo: error.operation, errorMessage: error.message });
}

export function operationOfPath(path: string): Operation {
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

/** Every error, and every path no route answers, leaves in the service's envelope. */
export function registerErrorHandlers(app: FastifyInstance): void {
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
}
