/**
 * The notices of saved reports, with fake channels: what a run of a report tells and through which
 * channel (the observer of its refreshes), and how one notice goes out (ReportNotices). A failure is
 * told once, again for a new reason (not for another trace ID or other numbers), and its recovery
 * once; "always" tells every success, "never" nothing; Run now tells nothing and changes nothing; a
 * notice that reached no channel is tried again at most 3 times; an alert fires once until its
 * condition clears, a "drops to 0" one again for a key it had not named. A webhook to Google Chat or
 * Slack gets `{text}` alone, any other address the facts too; no address's query, and no chat mention,
 * goes out; each channel's failure is one short reason, never the webhook's address.
 */
import { alertRows, NoticeObserver, FAILURE_TRIES, failureReason } from '../../../../../src/core/schedules/watchers/notice-observer';
import { failuresNotice } from '../../../../../src/core/schedules/watchers/failure-notices';
import { ReportNotices } from '../../../../../src/core/schedules/watchers/notices';
import { withoutSecrets } from '../../../../../src/core/channels/channel';
import { emailSender } from '../../../../../src/core/channels/email';
import { webhookSender } from '../../../../../src/core/channels/webhook';
import { ScheduleRegistry } from '../../../../../src/core/schedules/saved/registry';
import { checkSavedReport, type RefreshStatus, type SavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import type { ReportRunEvent } from '../../../../../src/core/schedules/refresh/run-events';
import type { Mailer, SheetBlock, SpreadsheetRef } from '../../../../../src/core/ports';
import { FetchQuotaError, TransportError } from '../../../../../src/core/errors';
import { FakeStore, FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../../support/fakes';

const SHEET: SpreadsheetRef = { id: 'sheet-1', name: 'Sales', url: 'https://docs.google.com/spreadsheets/d/sheet-1/edit', timeZone: 'UTC' };
const CHAT = 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=KEY-1&token=TOKEN-1';

class FakeMailer implements Mailer {
  readonly sent: Array<{ to: string; subject: string; body: string }> = [];
  left = 100;
  addressGiven = 'owner@example.com';
  address = () => this.addressGiven;
  remainingToday = () => this.left;
  send(message: { to: string; subject: string; body: string }) {
    this.left -= 1;
    this.sent.push(message);
  }
}

function saved(extra: Record<string, unknown> = {}): SavedReport {
  const input = checkSavedReport({
    name: 'Daily revenue',
    kind: 'main',
    entityId: 'p1',
    period: { type: 'lastDays', days: 7 },
    breakdowns: ['day'],
    metrics: ['paidPvs', 'revenue'],
    target: { sheetName: 'Data', cell: 'A1' },
    schedule: { every: 'hour' },
    ...extra,
  });
  return { ...input, id: 'r1', ownerId: 'u1', createdAtMs: 0, updatedAtMs: 0 };
}

function setup(report: SavedReport, webhook?: string) {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
  const sleeper = new ManualSleeper(clock);
  const store = new FakeStore();
  const registry = new ScheduleRegistry({ store });
  if (webhook) registry.putNotice(SHEET.id, report.id, { webhook });
  const mailer = new FakeMailer();
  const transport = new FakeTransport(() => jsonResponse(200, {}));
  const spent: number[] = [];
  const counter = { spend: (n: number) => void spent.push(n), spent: () => new FetchQuotaError({}) };
  const senders = { email: emailSender(mailer), webhook: webhookSender({ transport, counter, clock, sleeper }) };
  const notices = new ReportNotices({ registry, senders, clock });
  const observer = new NoticeObserver(notices, registry, clock);
  const run = (outcome: 'refreshed' | 'failed', extra: Partial<ReportRunEvent> & { message?: string } = {}) => {
    const { message, ...rest } = extra;
    const status: RefreshStatus =
      outcome === 'failed'
        ? {
            failures: 1,
            lastError: { message: message ?? 'Engage took too long to answer (504) [trace ID t-1].', traceId: 't-1', atMs: clock.now() },
          }
        : { failures: 0, rows: 7, lastSuccessAtMs: clock.now() };
    clock.advance(3_600_000);
    observer.afterReport({
      report,
      spreadsheet: SHEET,
      outcome,
      by: 'schedule',
      startedAtMs: clock.now(),
      endedAtMs: clock.now(),
      requests: 1,
      previous: {},
      status,
      ...rest,
    });
    observer.afterRun();
  };
  return { clock, sleeper, store, registry, mailer, transport, spent, notices, observer, run };
}

describe('the notices of a report’s refreshes', () => {
  it('tell a failure once, a new reason again, and the recovery once; another trace ID or other numbers are the same failure', () => {
    const { mailer, run } = setup(saved());
    run('refreshed');
    expect(mailer.sent).toEqual([]);
    run('failed', { message: 'Engage took too long to answer (504) [trace ID t-1].' });
    run('failed', { message: 'Engage took too long to answer (503) [trace ID t-2].' });
    expect(mailer.sent.map((m) => m.subject)).toEqual(['Engage: "Daily revenue" could not be refreshed in "Sales"']);
    run('failed', { message: 'Engage did not accept the sign-in: sign in again [trace ID t-3].' });
    expect(mailer.sent).toHaveLength(2);
    run('refreshed');
    run('refreshed');
    expect(mailer.sent.map((m) => m.subject)).toEqual([
      'Engage: "Daily revenue" could not be refreshed in "Sales"',
      'Engage: "Daily revenue" could not be refreshed in "Sales"',
      'Engage: "Daily revenue" is refreshing again in "Sales"',
    ]);
    expect(mailer.sent[0]!.body).toContain('What happened: Engage took too long to answer (504).');
    expect(mailer.sent[0]!.body).toContain('Trace ID: t-1');
    expect(mailer.sent[0]!.body).toContain('Open it: https://docs.google.com/spreadsheets/d/sheet-1/edit');
    expect(mailer.sent[2]!.body).toMatch(/after failing since 2026-11-20 14:00\./);
    expect(failureReason('x 504 [trace ID a]')).toBe(failureReason('x 503 [trace ID b]'));
  });

  it('with "always" tell every success too; with "never" nothing; a Run now neither tells nor changes what was told', () => {
    const always = setup(saved({ notices: { when: 'always' } }));
    always.run('refreshed');
    always.run('refreshed');
    expect(always.mailer.sent.map((m) => m.subject)).toEqual([
      'Engage: "Daily revenue" was refreshed in "Sales"',
      'Engage: "Daily revenue" was refreshed in "Sales"',
    ]);
    const never = setup(saved({ notices: { when: 'never' } }));
    never.run('failed');
    never.run('refreshed');
    expect(never.mailer.sent).toEqual([]);
    const byHand = setup(saved());
    byHand.run('failed', { by: 'run-now' });
    expect(byHand.mailer.sent).toEqual([]);
    expect(byHand.store.values.size).toBe(0);
    byHand.run('failed');
    byHand.run('refreshed', { by: 'run-now' });
    byHand.run('failed');
    // The scheduled failure was told once; the Run now success between did not count as a recovery.
    expect(byHand.mailer.sent).toHaveLength(1);
  });

  it(`tries a notice that reached no channel again, ${FAILURE_TRIES} times at most, and tells no recovery of a failure nobody heard of`, () => {
    const { mailer, transport, run, registry } = setup(saved({ notices: { webhook: CHAT } }), CHAT);
    mailer.left = 0;
    transport.setHandler(() => jsonResponse(500, 'down'));
    for (let i = 0; i < 5; i++) run('failed');
    expect(transport.requests).toHaveLength(FAILURE_TRIES);
    expect(mailer.sent).toEqual([]);
    expect(registry.notice(SHEET.id, 'r1').last).toMatchObject({
      email: "not sent: today's email quota of Apps Script is spent",
      webhook: 'not sent: the webhook answered HTTP 500',
    });
    run('refreshed');
    expect(transport.requests).toHaveLength(FAILURE_TRIES);
  });
});

describe('a burst of failures in one run', () => {
  const SIGN_IN = 'Engage did not accept the sign-in: sign in again in the sidebar [trace ID t-9].';

  function burst(count: number, webhookOf: (i: number) => string | undefined, extra: Record<string, unknown> = {}) {
    const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
    const sleeper = new ManualSleeper(clock);
    const registry = new ScheduleRegistry({ store: new FakeStore() });
    const mailer = new FakeMailer();
    const transport = new FakeTransport(() => jsonResponse(200, {}));
    const notices = new ReportNotices({
      registry,
      senders: { email: emailSender(mailer), webhook: webhookSender({ transport, clock, sleeper }) },
      clock,
    });
    const observer = new NoticeObserver(notices, registry, clock);
    const reports = Array.from({ length: count }, (_, i) => {
      const webhook = webhookOf(i);
      const report = { ...saved({ ...(webhook ? { notices: { webhook } } : {}), ...extra }), id: `r${i + 1}`, name: `Report ${i + 1}` };
      if (webhook) registry.putNotice(SHEET.id, report.id, { webhook });
      return report;
    });
    const tell = (outcome: 'failed' | 'refreshed') => {
      for (const report of reports) {
        const status: RefreshStatus =
          outcome === 'failed'
            ? { failures: 1, needsSignIn: true, lastError: { message: SIGN_IN, traceId: 't-9', atMs: clock.now() } }
            : { failures: 0, rows: 7, lastSuccessAtMs: clock.now() };
        const at = clock.now();
        observer.afterReport({
          report,
          spreadsheet: SHEET,
          outcome,
          by: 'schedule',
          startedAtMs: at,
          endedAtMs: at,
          deadlineAtMs: at,
          requests: 0,
          previous: {},
          status,
        });
      }
      observer.afterRun();
    };
    return { clock, sleeper, registry, mailer, transport, reports, tell };
  }

  it('goes out as one notice per channel listing the reports, and each report’s record keeps it as its last', () => {
    const { mailer, transport, registry, reports, tell } = burst(12, () => CHAT);
    tell('failed');
    expect(mailer.sent).toHaveLength(1);
    expect(transport.requests).toHaveLength(1);
    expect(mailer.sent[0]!.subject).toBe('Engage: 12 saved reports could not be refreshed in "Sales"');
    const body = mailer.sent[0]!.body;
    for (const report of reports) expect(body).toContain(`- "${report.name}" (trace ID t-9)`);
    // One reason for all: said once, with what to do.
    expect(body.match(/What happened: /g)).toHaveLength(1);
    expect(body).toContain('What happened: Engage did not accept the sign-in: sign in again in the sidebar.');
    expect(body).toContain('Sign in to Engage again in the sidebar');
    expect(body).toContain('Open it: https://docs.google.com/spreadsheets/d/sheet-1/edit');
    const posted = JSON.parse(transport.requests[0]!.payload!) as { text: string };
    expect(posted.text).toContain('- "Report 12" (trace ID t-9)');
    for (const report of reports) {
      const record = registry.notice(SHEET.id, report.id);
      expect(record.last).toMatchObject({
        subject: `"${report.name}" could not be refreshed in "Sales", in one notice with 11 other reports`,
        email: 'sent',
        webhook: 'sent',
      });
      expect(record.failure?.told).toBe(true);
    }
    // Told: the same failure at the next run sends nothing.
    tell('failed');
    expect(mailer.sent).toHaveLength(1);
    expect(transport.requests).toHaveLength(1);
  });

  it('posts once per webhook address, spaced on their shared host, and names each reason when they differ', () => {
    const { mailer, transport, sleeper, tell } = burst(3, (i) => (i === 2 ? `${CHAT.replace('AAA', 'BBB')}` : CHAT));
    tell('failed');
    expect(mailer.sent).toHaveLength(1);
    expect(transport.requests.map((r) => r.url)).toEqual([CHAT, CHAT.replace('AAA', 'BBB')]);
    expect(sleeper.sleeps).toEqual([1_000]);
    // The lone report on the second address gets its own notice.
    expect((JSON.parse(transport.requests[1]!.payload!) as { text: string }).text).toContain(
      '*Engage: "Report 3" could not be refreshed in "Sales"*',
    );
    const atMs = Date.UTC(2026, 10, 20, 13);
    const differing = failuresNotice([
      {
        report: { name: 'A' },
        spreadsheet: SHEET,
        failure: { message: 'Engage took too long to answer (504).', atMs, needsSignIn: false },
      },
      {
        report: { name: 'B' },
        spreadsheet: SHEET,
        failure: { message: 'The publisher was not found.', traceId: 't-2', atMs, needsSignIn: false },
      },
    ]);
    expect(differing).toEqual({
      subject: '2 saved reports could not be refreshed in "Sales"',
      lines: [
        '2 saved reports could not be refreshed by their schedule at 2026-11-20 13:00 (UTC):',
        '- "A": Engage took too long to answer (504).',
        '- "B": The publisher was not found. (trace ID t-2)',
        'Their data was left as it was. Each is tried again at its next attempt, shown in the Schedules tab.',
      ],
    });
  });

  it('keeps successes told one by one ("always"), spaced a second apart on a webhook host', () => {
    const { mailer, transport, sleeper, registry, tell } = burst(3, () => CHAT, { notices: { when: 'always', webhook: CHAT } });
    tell('refreshed');
    expect(mailer.sent.map((m) => m.subject)).toEqual([1, 2, 3].map((n) => `Engage: "Report ${n}" was refreshed in "Sales"`));
    expect(transport.requests).toHaveLength(3);
    expect(sleeper.sleeps).toEqual([1_000, 1_000]);
    expect(registry.notice(SHEET.id, 'r2').last).toMatchObject({ subject: '"Report 2" was refreshed in "Sales"', webhook: 'sent' });
  });

  it('a lone failure is told as before, alone', () => {
    const { mailer, tell } = burst(1, () => undefined);
    tell('failed');
    expect(mailer.sent.map((m) => m.subject)).toEqual(['Engage: "Report 1" could not be refreshed in "Sales"']);
  });
});

describe('alerts', () => {
  const block = (revenue: number): SheetBlock => ({
    values: [
      ['day', 'paidPvs', 'revenue'],
      [new Date(Date.UTC(2026, 10, 19)), 10, revenue],
      ['Total', 10, revenue],
    ],
    kinds: ['day', 'count', 'money'],
    numberFormats: [null, null, null],
    dataRows: 1,
    hasTotals: true,
  });

  it('fire once when the condition starts to hold, again only after it cleared, and keep when they last fired', () => {
    const { mailer, run, registry, clock } = setup(saved({ alerts: [{ kind: 'below', metric: 'revenue', value: 100 }] }));
    run('refreshed', { block: block(50) });
    const firstAt = clock.now();
    run('refreshed', { block: block(40) });
    expect(mailer.sent.map((m) => m.subject)).toEqual(['Engage: Alert on "Daily revenue" in "Sales": revenue (Total row) below 100']);
    expect(mailer.sent[0]!.body).toContain('revenue is 50 (Total row), below 100.');
    expect(Object.values(registry.notice(SHEET.id, 'r1').alerts!)).toEqual([{ on: true, firedAtMs: firstAt }]);
    run('refreshed', { block: block(150) });
    expect(Object.values(registry.notice(SHEET.id, 'r1').alerts!)).toEqual([{ on: false, firedAtMs: firstAt }]);
    run('refreshed', { block: block(60) });
    expect(mailer.sent).toHaveLength(2);
    // A failed refresh wrote nothing: the alerts are not evaluated.
    run('failed');
    expect(mailer.sent.filter((m) => m.subject.includes('Alert'))).toHaveLength(2);
  });

  it('tell a recovery and an alert of the same refresh in one message per channel', () => {
    const { mailer, transport, run } = setup(
      saved({ notices: { webhook: CHAT }, alerts: [{ kind: 'below', metric: 'revenue', value: 100 }] }),
      CHAT,
    );
    run('failed');
    run('refreshed', { block: block(5) });
    expect(mailer.sent).toHaveLength(2);
    expect(transport.requests).toHaveLength(2);
    expect(mailer.sent[1]!.subject).toBe('Engage: "Daily revenue" is refreshing again in "Sales" (and 1 more)');
    expect(mailer.sent[1]!.body).toMatch(
      /is refreshing again in "Sales":\n.*\n\nAlert on "Daily revenue" in "Sales": revenue \(Total row\) below 100:\nAlert:/,
    );
  });
});

describe('ReportNotices.send', () => {
  const notice = {
    subject: 'A month was restated',
    lines: ['October 2026 changed after it was closed: see https://api.example/x?apiKey=SECRET-9.', 'Ask <users/all> or <!channel>.'],
  };

  it('posts {text} alone to Google Chat and Slack, the facts too elsewhere, and counts each call as a URL fetch', () => {
    const report = saved({ notices: { webhook: CHAT } });
    const { notices, transport, spent, registry, mailer } = setup(report, CHAT);
    expect(notices.send(report, SHEET, notice)).toEqual({ email: 'sent', webhook: 'sent' });
    const chat = transport.requests[0]!;
    expect([chat.url, chat.method, chat.contentType]).toEqual([CHAT, 'post', 'application/json; charset=utf-8']);
    const text = (JSON.parse(chat.payload!) as { text: string }).text;
    expect(Object.keys(JSON.parse(chat.payload!))).toEqual(['text']);
    expect(text).toContain('*Engage: A month was restated*');
    expect(text).toContain('Ask ‹users/all› or ‹!channel›.');
    expect(text).toContain('see https://api.example/x?….');
    expect(text).not.toContain('SECRET-9');
    expect(mailer.sent[0]!.body).not.toContain('SECRET-9');
    registry.putNotice(SHEET.id, report.id, { webhook: 'https://hooks.example.net/notify/abc' });
    notices.send(report, SHEET, notice);
    expect(Object.keys(JSON.parse(transport.requests[1]!.payload!))).toEqual(['text', 'subject', 'spreadsheet', 'report', 'sentAt']);
    expect(spent).toEqual([1, 1]);
  });

  it('says for each channel why it did not send, never with the webhook address', () => {
    const report = saved({ notices: { webhook: CHAT } });
    const { notices, transport, mailer } = setup(report, CHAT);
    mailer.addressGiven = '';
    transport.enqueue(new TransportError(`DNS error: ${CHAT}`, { kind: 'dns' }));
    const outcome = notices.send(report, SHEET, notice);
    expect(outcome).toEqual({
      email: 'not sent: Google did not give Engage your email address',
      webhook: 'not sent: its host name does not resolve',
    });
    expect(JSON.stringify(outcome)).not.toContain('KEY-1');
    // Email only, and no webhook: only the email is tried.
    const plain = setup(saved());
    expect(plain.notices.send(saved(), SHEET, notice)).toEqual({ email: 'sent' });
    expect(plain.transport.requests).toEqual([]);
    expect(withoutSecrets('at https://h.example/p?key=1#x and http://a.example/b')).toBe('at https://h.example/p?… and http://a.example/b');
  });
});

describe('the rows alerts read', () => {
  const written: SheetBlock = { values: [['snapshotAt', 'day', 'revenue']], formats: [] } as unknown as SheetBlock;
  const fetched: SheetBlock = { values: [['day', 'revenue']], formats: [] } as unknown as SheetBlock;
  it("are an append's and an upsert's own rows, as fetched, and the block written otherwise", () => {
    expect(alertRows({ report: saved({ writeMode: 'append', maxStoredRows: 100 }), block: written, fetched })).toBe(fetched);
    expect(alertRows({ report: saved({ writeMode: 'upsert', maxStoredRows: 100 }), block: written, fetched })).toBe(fetched);
    // An incremental report's block is its period: the recent days met with those read back.
    expect(alertRows({ report: saved({ incremental: true }), block: written, fetched })).toBe(written);
    expect(alertRows({ report: saved(), block: written, fetched })).toBe(written);
  });
});
