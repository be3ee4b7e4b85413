/**
 * The emulator's webhook receiver, which the notice tests read: every POST under /webhooks/ is
 * recorded as sent (path, query, content type, body) and answered 200 "ok", or with the statuses a
 * test set for the next calls; its calls stay out of the API request log, and a reset forgets them.
 */
import { newEmulator, type EmulatorHandle } from '../support/emulator';

let emulator: EmulatorHandle;

beforeAll(async () => {
  emulator = await newEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

describe('the webhook receiver', () => {
  it('records every POST, answers as told, and keeps out of the API request log', async () => {
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
});
