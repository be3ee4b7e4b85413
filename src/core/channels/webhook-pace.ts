/**
 * The pace of webhook posts, kept by the webhook channel's sender for one execution: posts to the
 * same host are spaced WEBHOOK_SPACING_MS apart (Slack takes about 1 message a second per incoming
 * webhook, https://api.slack.com/docs/rate-limits; Google Chat 60 writes a minute per space,
 * https://developers.google.com/workspace/chat/limits), and a 429's wait is read from its
 * Retry-After (seconds, or an HTTP date). Waits go through the Sleeper port (the core has no timers),
 * and none is started that would end past the time the caller gives (the run's time for notices):
 * the post is then not made, and the notice is left as one that reached no channel.
 */
import type { Clock, Sleeper } from '../ports';

/** At most one post a second to a host: Slack's pace per webhook, and within Chat's 60 a minute per space. */
export const WEBHOOK_SPACING_MS = 1_000;
/** A 429 without a readable Retry-After is tried again after this. */
export const WEBHOOK_DEFAULT_RETRY_MS = 2_000;
/** A 429 asking for a longer wait than this is not waited for in a run: the notice is left for the next. */
export const WEBHOOK_LONGEST_RETRY_MS = 30_000;

/** The host of a webhook address ("hooks.slack.com"), lowercased; the address itself when it has none. */
export function webhookHost(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(url.trim());
  return (match ? match[1]! : url).toLowerCase();
}

/**
 * The wait a Retry-After asks for, in ms from `nowMs`: delay-seconds ("120") or an HTTP date
 * ("Wed, 21 Oct 2026 07:28:00 GMT"), as RFC 9110 section 10.2.3 allows; undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | undefined, nowMs: number): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const atMs = Date.parse(text);
  if (!/[a-z]/i.test(text) || !Number.isFinite(atMs)) return undefined;
  return Math.max(0, atMs - nowMs);
}

export class WebhookPace {
  /** When the latest post to each host was made. */
  private readonly lastPostAtMs = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly sleeper: Sleeper,
  ) {}

  /** Waits until a post to `url`'s host may go; false (nothing waited) when that would be past `untilMs`. */
  waitTurn(url: string, untilMs: number): boolean {
    const last = this.lastPostAtMs.get(webhookHost(url));
    return last === undefined || this.waitUntil(last + WEBHOOK_SPACING_MS, untilMs);
  }

  /** A post to `url`'s host was made now. */
  posted(url: string): void {
    this.lastPostAtMs.set(webhookHost(url), this.clock.now());
  }

  /** Sleeps until `atMs`; false (nothing waited) when that is past `untilMs`. */
  waitUntil(atMs: number, untilMs: number): boolean {
    const waitMs = atMs - this.clock.now();
    if (waitMs <= 0) return true;
    if (atMs > untilMs) return false;
    this.sleeper.sleep(waitMs);
    return true;
  }
}
