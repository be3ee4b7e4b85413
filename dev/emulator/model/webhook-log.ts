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

/**
 * What the receiver keeps, in the emulator's state (state.ts holds it and resets it): the calls it took
 * and the answers a test set for the next ones.
 */
export interface WebhookLog {
  webhookCalls: WebhookCall[];
  webhookAnswers: Array<{ status: number; times: number }>;
}
