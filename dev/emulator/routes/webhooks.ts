/**
 * A webhook receiver beside the emulated service, standing in for a Google Chat or Slack incoming
 * webhook (or any https endpoint) that the add-on's notices post to: every POST under /webhooks/ is
 * recorded, with its path, query, content type and body, and answered 200 `ok`, unless the test asked
 * for other answers first (a 500, a 404). It is no part of Engage: its calls are never in the API
 * request log, never faulted, and never move the clock. Tests read and steer it under
 * /__admin/webhooks (test/support/emulator.ts).
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { ApiError } from '../../shared/api-error';
import type { WebhookLog } from '../model/webhook-log';

export const WEBHOOK_PREFIX = '/webhooks/';

const AnswerSchema = z
  .object({
    status: z.number().int().min(200).max(599),
    /** How many calls in a row get it; default 1. */
    times: z.number().int().min(1).max(1000).optional(),
  })
  .strict();

export function registerWebhookRoutes(app: FastifyInstance, state: WebhookLog): void {
  app.post(`${WEBHOOK_PREFIX}*`, async (request, reply) => {
    const url = request.url;
    const questionMark = url.indexOf('?');
    const answer = state.webhookAnswers[0];
    const status = answer?.status ?? 200;
    if (answer && --answer.times <= 0) state.webhookAnswers.shift();
    const type = request.headers['content-type'];
    state.webhookCalls.push({
      path: questionMark < 0 ? url : url.slice(0, questionMark),
      query: questionMark < 0 ? '' : url.slice(questionMark + 1),
      contentType: typeof type === 'string' ? type : null,
      body: typeof request.body === 'string' ? request.body : '',
      status,
      receivedAt: new Date().toISOString(),
    });
    return reply
      .code(status)
      .type('text/plain; charset=utf-8')
      .send(status < 300 ? 'ok' : `webhook receiver answered ${status}`);
  });
}

/** /__admin/webhooks: read and clear the calls, and set the next answers. */
export function registerWebhookAdminRoutes(admin: FastifyInstance, state: WebhookLog): void {
  admin.get('/webhooks', async () => ({ calls: state.webhookCalls }));
  admin.delete('/webhooks', async () => {
    state.webhookCalls = [];
    state.webhookAnswers = [];
    return { calls: [] };
  });
  admin.post('/webhooks/answers', async (request) => {
    const raw = typeof request.body === 'string' && request.body.trim() !== '' ? request.body : '{}';
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new ApiError(400, 'admin', 'Admin request body is not valid JSON');
    }
    const parsed = AnswerSchema.safeParse(json);
    if (!parsed.success) {
      throw new ApiError(400, 'admin', `Invalid admin request body: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    }
    state.webhookAnswers.push({ status: parsed.data.status, times: parsed.data.times ?? 1 });
    return { answers: state.webhookAnswers };
  });
}
