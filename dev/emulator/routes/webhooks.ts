/**
 * A webhook receiver beside the emulated service, standing in for a Google Chat or Slack incoming
 * webhook (or any https endpoint) that the add-on's notices post to: every POST under /webhooks/ is
 * recorded, with its path, query, content type and body, and answered 200 `ok`, unless the test asked
 * for other answers first (a 500, a 404, a 429 with its Retry-After), or the post came sooner after
 * the path's last than the pace allows (one a second, as Slack: model/webhook-log.ts), which is
 * answered 429 with the seconds left as Retry-After. Time is the client's virtual send time when the
 * request carries one (the local host on a virtual clock), else the emulator's clock. It is no part of
 * Engage: its calls are never in the API request log, never faulted, and never move the clock. Tests
 * read and steer it under /__admin/webhooks (test/support/emulator.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { parseAdminBody } from '../../shared/admin-body';
import { VIRTUAL_SEND_TIME_HEADER } from '../../shared/clock';
import type { WebhookAnswer, WebhookLog } from '../model/webhook-log';

export const WEBHOOK_PREFIX = '/webhooks/';

const AnswerSchema = z
  .object({
    status: z.number().int().min(200).max(599),
    /** How many calls in a row get it; default 1. */
    times: z.number().int().min(1).max(1000).optional(),
    /** A Retry-After to send with it: delay-seconds, or an HTTP date. */
    retryAfter: z.union([z.number().int().min(0).max(3600), z.string().trim().min(1).max(64)]).optional(),
  })
  .strict();

const PaceSchema = z
  .object({
    /** The least time between two posts one path takes; 0 turns the pace off. */
    minIntervalMs: z.number().int().min(0).max(3_600_000),
  })
  .strict();

/** When the post was sent: its client's virtual time when it says so, else the emulator's clock. */
function sentAtMs(request: FastifyRequest, state: WebhookLog): number {
  const header = request.headers[VIRTUAL_SEND_TIME_HEADER];
  const sent = Number(Array.isArray(header) ? header[0] : header);
  return header !== undefined && Number.isFinite(sent) ? sent : state.now();
}

/** The answer to a post to `path` at `atMs`: a test's next answer, else the pace's 429, else 200. */
function answerFor(state: WebhookLog, path: string, atMs: number): { status: number; retryAfter?: string } {
  const set = state.webhookAnswers[0];
  if (set) {
    if (--set.times <= 0) state.webhookAnswers.shift();
    return { status: set.status, ...(set.retryAfter !== undefined ? { retryAfter: set.retryAfter } : {}) };
  }
  const last = state.webhookTakenAtMs.get(path);
  if (state.webhookPaceMs > 0 && last !== undefined && atMs - last < state.webhookPaceMs) {
    return { status: 429, retryAfter: String(Math.ceil((last + state.webhookPaceMs - atMs) / 1000)) };
  }
  return { status: 200 };
}

export function registerWebhookRoutes(app: FastifyInstance, state: WebhookLog): void {
  app.post(`${WEBHOOK_PREFIX}*`, async (request, reply) => {
    const url = request.url;
    const questionMark = url.indexOf('?');
    const path = questionMark < 0 ? url : url.slice(0, questionMark);
    const atMs = sentAtMs(request, state);
    const { status, retryAfter } = answerFor(state, path, atMs);
    if (status < 300) state.webhookTakenAtMs.set(path, atMs);
    const type = request.headers['content-type'];
    state.webhookCalls.push({
      path,
      query: questionMark < 0 ? '' : url.slice(questionMark + 1),
      contentType: typeof type === 'string' ? type : null,
      body: typeof request.body === 'string' ? request.body : '',
      status,
      receivedAt: new Date().toISOString(),
    });
    if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
    return reply
      .code(status)
      .type('text/plain; charset=utf-8')
      .send(status < 300 ? 'ok' : `webhook receiver answered ${status}`);
  });
}

/** /__admin/webhooks: read and clear the calls, set the next answers and the pace. */
export function registerWebhookAdminRoutes(admin: FastifyInstance, state: WebhookLog): void {
  admin.get('/webhooks', async () => ({ calls: state.webhookCalls, paceMs: state.webhookPaceMs }));
  admin.delete('/webhooks', async () => {
    state.webhookCalls = [];
    state.webhookAnswers = [];
    state.webhookTakenAtMs.clear();
    return { calls: [] };
  });
  admin.post('/webhooks/answers', async (request) => {
    const { status, times, retryAfter } = parseAdminBody(AnswerSchema, request, 'admin');
    const answer: WebhookAnswer = { status, times: times ?? 1, ...(retryAfter !== undefined ? { retryAfter: String(retryAfter) } : {}) };
    state.webhookAnswers.push(answer);
    return { answers: state.webhookAnswers };
  });
  admin.post('/webhooks/pace', async (request) => {
    state.webhookPaceMs = parseAdminBody(PaceSchema, request, 'admin').minIntervalMs;
    return { paceMs: state.webhookPaceMs };
  });
}
