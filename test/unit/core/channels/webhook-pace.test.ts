/**
 * The webhook channel's pace, on a manual clock and a sleeper that moves it: posts to one host are
 * spaced a second apart (Slack's ~1 a second per webhook, https://api.slack.com/docs/rate-limits;
 * Google Chat's 60 writes a minute per space, https://developers.google.com/workspace/chat/limits),
 * other hosts are not held up; a 429 is tried once more after its Retry-After (seconds or an HTTP
 * date, else a short default) when that ends within the caller's time, and never twice; a wait past
 * that time is not started and nothing is posted. Bodies go as application/json; charset=utf-8.
 */
import {
  retryAfterMs,
  WEBHOOK_DEFAULT_RETRY_MS,
  WEBHOOK_LONGEST_RETRY_MS,
  WEBHOOK_SPACING_MS,
  webhookHost,
} from '../../../../src/core/channels/webhook-pace';
import { webhookSender } from '../../../../src/core/channels/webhook';
import type { ChannelMessage } from '../../../../src/core/channels/channel';
import { FetchQuotaError } from '../../../../src/core/errors';
import { FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../support/fakes';

const SLACK = 'https://hooks.slack.com/services/T1/B1/SECRET';
const SLACK_2 = 'https://hooks.slack.com/services/T1/B2/OTHER';
const CHAT = 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=K&token=T';

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
  const sleeper = new ManualSleeper(clock);
  const transport = new FakeTransport(() => jsonResponse(200, {}));
  const posts: number[] = [];
  transport.setHandler(() => {
    posts.push(clock.now());
    return jsonResponse(200, {});
  });
  const spent: number[] = [];
  const send = webhookSender({
    transport,
    clock,
    sleeper,
    counter: { spend: (n) => void spent.push(n), spent: () => new FetchQuotaError({}) },
  });
  const message = (secret: string, untilMs = clock.now() + 20_000): ChannelMessage => ({
    subject: 'Engage: a notice',
    lines: ['Something happened.'],
    spreadsheet: { id: 's', name: 'Sales', url: 'https://docs.google.com/spreadsheets/d/s/edit', timeZone: 'UTC' },
    report: { id: 'r1', name: 'Daily' },
    secret,
    untilMs,
  });
  return { clock, sleeper, transport, posts, spent, send, message };
}

const tooMany = (retryAfter?: string) =>
  jsonResponse(429, { error: 'rate_limited' }, retryAfter === undefined ? {} : { 'retry-after': retryAfter });

describe('retryAfterMs', () => {
  const now = Date.UTC(2026, 10, 20, 12);
  it('reads delay-seconds and an HTTP date, and nothing else', () => {
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Fri, 20 Nov 2026 12:00:05 GMT', now)).toBe(5_000);
    // A date already past asks for no wait.
    expect(retryAfterMs('Fri, 20 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-1', now)).toBeUndefined();
    expect(retryAfterMs('1.5', now)).toBeUndefined();
  });

  it('keys the pace by host, lowercased, never by the secret path', () => {
    expect(webhookHost(SLACK)).toBe('hooks.slack.com');
    expect(webhookHost('HTTPS://Chat.GoogleApis.com/v1/x?key=1')).toBe('chat.googleapis.com');
  });
});

describe('the webhook sender’s pace', () => {
  it('spaces posts to one host a second apart, and does not hold up another host', () => {
    const { send, message, sleeper, posts, transport } = setup();
    expect(send(message(SLACK))).toBe('sent');
    expect(send(message(SLACK_2))).toBe('sent');
    expect(send(message(CHAT))).toBe('sent');
    expect(send(message(SLACK))).toBe('sent');
    // Two Slack webhooks share a host: a second between them; Chat went straight after; Slack again waited its second.
    expect(sleeper.sleeps).toEqual([WEBHOOK_SPACING_MS, WEBHOOK_SPACING_MS]);
    expect(posts.map((at) => at - posts[0]!)).toEqual([0, WEBHOOK_SPACING_MS, WEBHOOK_SPACING_MS, 2 * WEBHOOK_SPACING_MS]);
    expect(transport.requests.map((r) => r.contentType)).toEqual(Array(4).fill('application/json; charset=utf-8'));
  });

  it('posts nothing when its turn would come after the caller’s time', () => {
    const { send, message, clock, sleeper, transport } = setup();
    send(message(SLACK));
    const outcome = send(message(SLACK, clock.now() + WEBHOOK_SPACING_MS - 1));
    expect(outcome).toBe("not sent: posts to hooks.slack.com are spaced 1 s apart, and this run's time for notices is up");
    expect(outcome).not.toContain('SECRET');
    expect(transport.requests).toHaveLength(1);
    expect(sleeper.sleeps).toEqual([]);
  });

  it('tries a 429 once more after its Retry-After, counting each post as a URL fetch', () => {
    const { send, message, transport, sleeper, spent } = setup();
    transport.enqueue(tooMany('3'));
    expect(send(message(CHAT))).toBe('sent');
    expect(transport.requests).toHaveLength(2);
    expect(sleeper.sleeps).toEqual([3_000]);
    expect(spent).toEqual([1, 1]);
    expect(transport.requests[1]!.payload).toBe(transport.requests[0]!.payload);
  });

  it('reads an HTTP date, and waits a short default when the 429 says nothing', () => {
    const dated = setup();
    dated.transport.enqueue(tooMany(new Date(dated.clock.now() + 4_000).toUTCString()));
    expect(dated.send(dated.message(CHAT))).toBe('sent');
    expect(dated.sleeper.sleeps).toEqual([4_000]);
    const bare = setup();
    bare.transport.enqueue(tooMany());
    expect(bare.send(bare.message(CHAT))).toBe('sent');
    expect(bare.sleeper.sleeps).toEqual([WEBHOOK_DEFAULT_RETRY_MS]);
  });

  it('leaves the notice after a second 429, or when the wait is longer than the run can give', () => {
    const twice = setup();
    twice.transport.enqueue(tooMany('1'), tooMany('1'));
    expect(twice.send(twice.message(CHAT))).toBe('not sent: the webhook answered HTTP 429 (too many requests) again after 1 s');
    expect(twice.transport.requests).toHaveLength(2);

    const long = setup();
    long.transport.enqueue(tooMany(String(WEBHOOK_LONGEST_RETRY_MS / 1000 + 1)));
    expect(long.send(long.message(CHAT, long.clock.now() + 600_000))).toBe(
      'not sent: the webhook answered HTTP 429 (too many requests), asking to wait 31 s, longer than this run can',
    );
    expect(long.transport.requests).toHaveLength(1);
    expect(long.sleeper.sleeps).toEqual([]);

    const late = setup();
    late.transport.enqueue(tooMany('5'));
    expect(late.send(late.message(CHAT, late.clock.now() + 4_000))).toMatch(/asking to wait 5 s, longer than this run can$/);
    expect(late.transport.requests).toHaveLength(1);
    expect(late.sleeper.sleeps).toEqual([]);
  });

  it('waits out the pace after a 429’s retry too: the next post to the host comes a second after it', () => {
    const { send, message, transport, posts } = setup();
    transport.enqueue(tooMany('2'));
    send(message(SLACK));
    send(message(SLACK_2));
    expect(posts[1]! - posts[0]!).toBe(WEBHOOK_SPACING_MS);
    expect(transport.requests).toHaveLength(3);
  });
});
