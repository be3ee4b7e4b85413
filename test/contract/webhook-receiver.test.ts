/**
 * The emulator's webhook receiver, which the notice tests read: every POST under /webhooks/ is
 * recorded as sent (path, query, content type, body) and answered 200 "ok", or with the statuses a
 * test set for the next calls (a 429 with its Retry-After); a path takes at most one post a second
 * (Slack's pace, https://api.slack.com/docs/rate-limits), a sooner one is answered 429 with the
 * seconds left; its calls stay out of the API request log, and a reset forgets them.
 */
import { newEmulator, type EmulatorHandle } from '../support/emulator';

let emulator: EmulatorHandle;

beforeAll(async () => {
  emulator = await newEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const post = (url: string, body: string, sentAtMs?: number) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(sentAtMs !== undefined ? { 'x-virtual-send-time': String(sentAtMs) } : {}) },
    body,
  });

describe('the webhook receiver', () => {
  it('records every POST, answers as told, and keeps out of the API request log', async () => {
    await emulator.paceWebhooks(0);
    const url = emulator.webhookUrl('chat/space-1');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/chat\/space-1$/);
    const first = await post(`${url}?threadKey=a`, '{"text":"one"}');
    expect([first.status, await first.text()]).toEqual([200, 'ok']);
    await emulator.answerWebhooks(500, 2);
    expect((await post(url, '{"text":"two"}')).status).toBe(500);
    expect((await post(url, '{"text":"three"}')).status).toBe(500);
    expect((await post(url, '{"text":"four"}')).status).toBe(200);
    const calls = await emulator.webhooks();
    expect(calls.map((c) => [c.path, c.query, c.contentType, c.body, c.status])).toEqual([
      ['/webhooks/chat/space-1', 'threadKey=a', 'application/json', '{"text":"one"}', 200],
      ['/webhooks/chat/space-1', '', 'application/json', '{"text":"two"}', 500],
      ['/webhooks/chat/space-1', '', 'application/json', '{"text":"three"}', 500],
      ['/webhooks/chat/space-1', '', 'application/json', '{"text":"four"}', 200],
    ]);
    expect(await emulator.requests()).toEqual([]);
    await emulator.reset();
    expect(await emulator.webhooks()).toEqual([]);
  });

  it('answers 429 with a Retry-After as told, N times, then 200', async () => {
    await emulator.paceWebhooks(0);
    const url = emulator.webhookUrl('slack/T1');
    await emulator.answerWebhooks(429, 2, 3);
    await emulator.answerWebhooks(429, 1, 'Fri, 20 Nov 2026 12:00:05 GMT');
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const response = await post(url, `{"text":"${i}"}`);
      answers.push([response.status, response.headers.get('retry-after')]);
    }
    expect(answers).toEqual([
      [429, '3'],
      [429, '3'],
      [429, 'Fri, 20 Nov 2026 12:00:05 GMT'],
      [200, null],
    ]);
    await expect(emulator.answerWebhooks(429, 1, -1)).rejects.toThrow(/retryAfter/);
  });

  it("takes one post a second per path, on its client's virtual clock, and answers a sooner one 429 with the seconds left", async () => {
    await emulator.reset();
    const t0 = Date.UTC(2026, 10, 20, 12);
    const one = emulator.webhookUrl('chat/space-1');
    const two = emulator.webhookUrl('chat/space-2');
    const statuses = [];
    for (const [url, atMs] of [
      [one, t0],
      [one, t0 + 200],
      [two, t0 + 200],
      [one, t0 + 1_000],
    ] as const) {
      const response = await post(url, '{"text":"x"}', atMs);
      statuses.push([response.status, response.headers.get('retry-after')]);
    }
    // The refused post did not take the path's turn: the next one a second after the first is taken.
    expect(statuses).toEqual([
      [200, null],
      [429, '1'],
      [200, null],
      [200, null],
    ]);
  });
});
