/**
 * What the webhook receiver (routes/webhooks.ts) records, named beside the state that keeps it, so
 * that the state need not know the routes and the routes reach the state only through this shape.
 */

/** One POST the receiver took. */
export interface WebhookCall {
  /** The path, from /webhooks/ on. */
  path: string;
  /** The query string without its "?", "" when none. */
  query: string;
  contentType: string | null;
  body: string;
  /** The status it was answered with. */
  status: number;
  /** When it arrived, by the real clock (ISO): a receiver is not part of the emulated service's time. */
  receivedAt: string;
}

/** An answer a test set for the next calls: a status, how many calls in a row get it, and a 429's Retry-After. */
export interface WebhookAnswer {
  status: number;
  times: number;
  /** Sent as the Retry-After header: delay-seconds ("3") or an HTTP date. */
  retryAfter?: string;
}

/**
 * The pace the receiver holds each webhook (path) to unless a test sets another: one post a second,
 * Slack's pace for an incoming webhook (https://api.slack.com/docs/rate-limits: "1 per second" with
 * short bursts allowed; no burst is allowed here, the stricter reading), which also keeps within
 * Google Chat's 60 writes a minute per space (https://developers.google.com/workspace/chat/limits).
 * A post sooner than this after the last one the path took is answered 429 with a Retry-After.
 */
export const WEBHOOK_PACE_MS = 1_000;

/**
 * What the receiver keeps, in the emulator's state (state.ts holds it and resets it): the calls it took,
 * the answers a test set for the next ones, the pace, and when each path last took a post.
 */
export interface WebhookLog {
  webhookCalls: WebhookCall[];
  webhookAnswers: WebhookAnswer[];
  /** The least time between two posts a path takes; 0: no pace. */
  webhookPaceMs: number;
  /** When each path last took a post (2xx), on the emulator's clock or its client's virtual one. */
  webhookTakenAtMs: Map<string, number>;
  /** The emulator's clock. */
  now(): number;
}
