/**
 * End to end, the notices of saved reports within webhooks' limits, in the built bundle run by the
 * hourly trigger (in the strict reading without a document): the emulator's webhook receiver holds
 * each webhook to one post a second, as Slack does (https://api.slack.com/docs/rate-limits; Google
 * Chat: 60 writes a minute per space, https://developers.google.com/workspace/chat/limits), and
 * answers 429 with a Retry-After when told.
 * - 12 reports failing at once on a sign-in error send ONE email and ONE webhook post listing them,
 *   and each report's last notice in the Schedules tab says so.
 * - A webhook answering 429 then 200 gets its notice, posted again after its Retry-After; a second
 *   429 leaves the notice unsent, and the next failing run tells it.
 * - Several notices to one host in a run are spaced a second apart: the receiver refuses none.
 * Every post is `application/json; charset=utf-8`.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { nextTriggerRun, useScheduledAddon } from '../support/scheduled-host';
import { hourlyDailyReport } from '../support/saved-report';

const START = '2026-11-20T12:00:00.000Z';
let h: AddonHarness;

interface View {
  id: string;
  name: string;
  status: { needsSignIn: boolean; failures: number };
  notices: { last?: { subject: string; email?: string; webhook?: string } };
}
const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const views = () => call<{ reports: View[] }>('listSchedules').reports;
const listed = (name: string) => views().find((r) => r.name === name)!;
const webhookPosts = (name: string) => h.host.fetchLog.filter((f) => f.url.includes(`/webhooks/${name}`));

const report = (name: string, notices: Record<string, unknown>) => hourlyDailyReport(name, { notices });

useScheduledAddon(START, { spreadsheetName: 'Sales 2026' }, (harness) => {
  h = harness;
});

afterEach(async () => {
  for (const view of views()) call('deleteSchedule', view.id);
  await h.emulator.clearWebhooks();
});

describe('a sign-in error failing 12 reports at once', () => {
  it('sends one email and one webhook post that list them all, and each report’s last notice says so', async () => {
    const webhook = `${h.emulator.webhookUrl('chat/space-1')}?key=burst-key-1`;
    const names = Array.from({ length: 12 }, (_, i) => `Report ${String(i + 1).padStart(2, '0')}`);
    for (const name of names) call('saveSchedule', report(name, { when: 'failure', email: true, webhook }));
    // The stored sign-in expires: every due report fails before any request.
    const tokens = h.host.properties('user', OWNER);
    const stored = tokens.get('engage.token')!;
    tokens.set('engage.token', JSON.stringify({ ...JSON.parse(stored), expiresAtMs: h.host.clock.now() - 1 }));
    try {
      const mailsBefore = h.host.mails.length;
      nextTriggerRun(h);
      expect(views().every((v) => v.status.needsSignIn)).toBe(true);
      const mails = () => h.host.mails.slice(mailsBefore);
      expect(mails()).toHaveLength(1);
      const mail = mails()[0] as { subject: string; body: string };
      expect(mail.subject).toBe('Engage: 12 saved reports could not be refreshed in "Sales 2026"');
      for (const name of names) expect(mail.body).toContain(`- "${name}"`);
      expect(mail.body).toContain('Sign in to Engage again in the sidebar');
      const calls = await h.emulator.webhooks();
      expect(calls.map((c) => [c.path, c.status, c.contentType])).toEqual([
        ['/webhooks/chat/space-1', 200, 'application/json; charset=utf-8'],
      ]);
      const text = (JSON.parse(calls[0]!.body) as { text: string }).text;
      for (const name of names) expect(text).toContain(`- "${name}"`);
      expect(text).not.toContain('burst-key-1');
      for (const name of names) {
        expect(listed(name).notices.last).toEqual({
          at: expect.stringMatching(/^2026-11-20T/),
          subject: `"${name}" could not be refreshed in "Sales 2026", in one notice with 11 other reports`,
          email: 'sent',
          webhook: 'sent',
        });
      }
      // The same failure an hour later tells nothing more.
      nextTriggerRun(h);
      expect(mails()).toHaveLength(1);
      expect(await h.emulator.webhooks()).toHaveLength(1);
    } finally {
      tokens.set('engage.token', stored);
    }
  });
});

describe('a webhook answering 429', () => {
  it('gets its notice after the Retry-After when the next answer is 200', async () => {
    call('saveSchedule', report('Always told', { when: 'always', email: false, webhook: h.emulator.webhookUrl('slack/T1') }));
    await h.emulator.answerWebhooks(429, 1, 3);
    nextTriggerRun(h);
    expect((await h.emulator.webhooks()).map((c) => c.status)).toEqual([429, 200]);
    const posts = webhookPosts('slack/T1');
    expect(posts.map((p) => p.status)).toEqual([429, 200]);
    // Posted again once its 3 seconds had passed, on the run's (virtual) clock.
    expect(posts[1]!.startedAt - posts[0]!.startedAt).toBeGreaterThanOrEqual(3_000);
    expect(listed('Always told').notices.last).toMatchObject({ subject: '"Always told" was refreshed in "Sales 2026"', webhook: 'sent' });
  });

  it('leaves the notice after a second 429, and the next failing run tells it', async () => {
    call('saveSchedule', report('Failing', { when: 'failure', email: false, webhook: h.emulator.webhookUrl('chat/space-2') }));
    await h.emulator.setFaults([{ match: 'reports/main', status: 504, times: 1000 }]);
    await h.emulator.answerWebhooks(429, 2, 1);
    nextTriggerRun(h);
    expect((await h.emulator.webhooks()).map((c) => c.status)).toEqual([429, 429]);
    expect(listed('Failing').notices.last!.webhook).toBe('not sent: the webhook answered HTTP 429 (too many requests) again after 1 s');
    nextTriggerRun(h);
    expect((await h.emulator.webhooks()).map((c) => c.status)).toEqual([429, 429, 200]);
    expect(listed('Failing').notices.last!.webhook).toBe('sent');
    await h.emulator.clearFaults();
  });
});

describe('several notices to one host in a run', () => {
  it('are spaced a second apart, so the receiver refuses none', async () => {
    for (const space of ['a', 'a', 'b']) {
      call(
        'saveSchedule',
        report(`Told ${space}${views().length}`, { when: 'always', email: false, webhook: h.emulator.webhookUrl(`chat/${space}`) }),
      );
    }
    nextTriggerRun(h);
    const calls = await h.emulator.webhooks();
    expect(calls.map((c) => c.status)).toEqual([200, 200, 200]);
    const times = webhookPosts('chat/')
      .filter((p) => /chat\/[ab]$/.test(p.url))
      .map((p) => p.startedAt);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1_000);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1_000);
  });
});
