/**
 * The webhook channel: a POST to a Google Chat or Slack incoming webhook, or any https address the
 * deployment's webhook prefixes allow (the manifest lets Apps Script post nowhere else). Its address
 * is its secret: a Chat or Slack address carries its key and token, so the owner's notice record (user
 * properties) keeps it whole, and the definition only its host ("https://chat.googleapis.com/…"),
 * which never reaches document properties, another editor's sidebar, a log or a message. A post is one
 * URL fetch of the add-on's through the HttpTransport port, counted against the user's daily URL Fetch
 * quota before it is made; Chat and Slack get `{text}` alone, any other address the facts too, and no
 * text can mention everyone in a chat (its angle brackets are replaced). Posts keep their hosts' pace
 * and take a 429's Retry-After once (webhook-pace.ts).
 */
import * as z from '../util/zod';
import type { FetchCounter } from '../api/transport/request-sender';
import { webhookAddressProblem } from '../deployment';
import { EngageError, TransportError } from '../errors';
import type { Clock, HttpTransport, Sleeper } from '../ports';
import { type ChannelMessage, type ChannelSend, type NoticeChannel, notSent, withoutSecrets } from './channel';
import {
  retryAfterMs,
  WEBHOOK_DEFAULT_RETRY_MS,
  WEBHOOK_LONGEST_RETRY_MS,
  WEBHOOK_SPACING_MS,
  WebhookPace,
  webhookHost,
} from './webhook-pace';

/** What a post's body is: JSON in UTF-8, said so (Chat and Slack read the charset; names may be in any script). */
export const WEBHOOK_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The end of a redacted webhook address, which says that the rest is kept out of sight. */
const REDACTED_END = '/…';

/**
 * A webhook address as a saved report's definition and the sidebar keep it: its scheme and host only,
 * so no key or token of its path or query ever reaches document properties or an editor's sidebar.
 */
export function redactedWebhook(url: string): string {
  const match = /^(https?:\/\/[^/?#]+)/i.exec(url.trim());
  return `${match ? match[1]!.toLowerCase() : 'webhook'}${REDACTED_END}`;
}

export function isRedactedWebhook(text: string): boolean {
  return text.endsWith(REDACTED_END);
}

const isSet = (setting: string | null | undefined): setting is string => typeof setting === 'string' && setting !== '';

export const webhookChannel = {
  id: 'webhook',
  /**
   * The address; null or "" removes it. A saved report's definition keeps only its redacted form
   * (redactedWebhook), which given back means "unchanged".
   */
  setting: z.optional(
    z.nullable(
      z
        .string({ error: 'must be an https address, or null to remove it' })
        .check(z.trim(), z.maxLength(500, { error: 'must be at most 500 characters' })),
    ),
  ),
  isOn: isSet,
  turnOn: 'give notices.webhook',
  /** The redacted address, when one is set. */
  shown: (setting): string | undefined => (isSet(setting) ? setting : undefined),
  secret: {
    /** The address at its longest, with its JSON: the setting allows 500 ASCII characters. */
    maxBytes: 520,
    redacted: redactedWebhook,
    isRedacted: isRedactedWebhook,
    problem: webhookAddressProblem,
    notTheSaved: 'must be the whole address: a saved address is shown only as its host, so give it again to change it',
  },
} satisfies NoticeChannel<'webhook', string | null, string | undefined>;

export interface WebhookSenderDeps {
  /** Posts (the URL Fetch service, under the manifest's whitelist). */
  transport: HttpTransport;
  /** The user's URL Fetch count: a post is one fetch. */
  counter?: FetchCounter;
  clock: Clock;
  /** Waits between posts to one host, and before a 429's one retry (webhook-pace.ts). */
  sleeper: Sleeper;
}

/** Hosts whose incoming webhooks take `{"text": ...}` and nothing else (Google Chat refuses unknown fields). */
const TEXT_ONLY_HOSTS = /^https:\/\/(chat\.googleapis\.com|hooks\.slack\.com)\//i;

/** Chat and Slack read `<...>` as mentions and links: user and API text gets look-alike brackets instead. */
const inert = (text: string) => text.replace(/</g, '‹').replace(/>/g, '›');

/** Why a post that reached no answer was not sent, by the transport's kind of failure. */
const FAILED_POST: Record<TransportError['kind'], string> = {
  connection: 'no answer from it',
  'not-allowed': "its address is outside the manifest's urlFetchWhitelist",
  'daily-quota': "today's URL Fetch quota of Apps Script is spent",
  'invalid-address': 'its address is not valid',
  dns: 'its host name does not resolve',
};

function payloadOf(url: string, message: ChannelMessage, nowMs: number): object {
  const { subject, lines, spreadsheet, report, reports } = message;
  const text = [`*${inert(subject)}*`, ...lines.map(inert)].join('\n');
  if (TEXT_ONLY_HOSTS.test(url)) return { text };
  return {
    text,
    subject,
    spreadsheet: { name: spreadsheet.name, url: spreadsheet.url },
    report: { id: report.id, name: report.name },
    ...(reports && reports.length > 1
      ? { reports: reports.map(({ id, name, spreadsheet: s }) => ({ id, name, spreadsheet: { name: s.name, url: s.url } })) }
      : {}),
    sentAt: new Date(nowMs).toISOString(),
  };
}

/** A 429 twice, or one whose wait the run cannot give: the notice stays one that reached no channel. */
const TOO_MANY = 'not sent: the webhook answered HTTP 429 (too many requests)';

/**
 * Posts each message to its address: spaced from the last post to the same host (webhook-pace.ts),
 * as `application/json; charset=utf-8`, and a 429 tried once more after its Retry-After (or
 * WEBHOOK_DEFAULT_RETRY_MS) when that wait ends within the message's `untilMs`. One sender serves one
 * execution, so its pace holds across every report and spreadsheet of a run.
 */
export function webhookSender(deps: WebhookSenderDeps): ChannelSend {
  const pace = new WebhookPace(deps.clock, deps.sleeper);
  const post = (url: string, payload: string) => {
    deps.counter?.spend(1);
    try {
      return deps.transport.fetch({ url, method: 'post', contentType: WEBHOOK_CONTENT_TYPE, payload });
    } finally {
      pace.posted(url);
    }
  };
  return (message) => {
    const url = message.secret;
    if (!url) return 'not sent: the webhook address is missing from your user properties; give it again in the sidebar';
    const untilMs = message.untilMs ?? deps.clock.now();
    if (!pace.waitTurn(url, untilMs)) {
      return `not sent: posts to ${webhookHost(url)} are spaced ${WEBHOOK_SPACING_MS / 1000} s apart, and this run's time for notices is up`;
    }
    const payload = JSON.stringify(payloadOf(url, message, deps.clock.now()));
    try {
      let response = post(url, payload);
      if (response.status === 429) {
        const waitMs = retryAfterMs(response.headers['retry-after'], deps.clock.now()) ?? WEBHOOK_DEFAULT_RETRY_MS;
        if (waitMs > WEBHOOK_LONGEST_RETRY_MS || !pace.waitUntil(deps.clock.now() + waitMs, untilMs)) {
          return `${TOO_MANY}, asking to wait ${Math.ceil(waitMs / 1000)} s, longer than this run can`;
        }
        response = post(url, payload);
        if (response.status === 429) return `${TOO_MANY} again after ${Math.ceil(waitMs / 1000)} s`;
      }
      return response.status >= 200 && response.status < 300 ? 'sent' : `not sent: the webhook answered HTTP ${response.status}`;
    } catch (error) {
      if (error instanceof TransportError) {
        if (error.kind === 'daily-quota') deps.counter?.spent();
        return `not sent: ${FAILED_POST[error.kind]}`;
      }
      if (error instanceof EngageError) return `not sent: ${withoutSecrets(error.message)}`;
      return notSent(error);
    }
  };
}
