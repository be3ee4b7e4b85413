/**
 * End to end, the notices and alerts of a saved report in the built bundle, run by the hourly trigger
 * (in the strict reading without a document: the spreadsheet opened by ID, the notices' record read
 * and written in the user's properties): a failing report sends one email (the host's MailApp record)
 * and one webhook call (the emulator's receiver), naming the spreadsheet, the report, what happened,
 * the trace ID and a link, with nothing secret in them; the same failure again sends nothing; the
 * recovery sends one of each. An alert fires once and not again while its condition holds. The
 * webhook address never reaches the document's properties or the sidebar.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { nextTriggerRun, useScheduledAddon } from '../support/scheduled-host';
import { hourlyDailyReport } from '../support/saved-report';

const START = '2026-11-20T12:00:00.000Z';
let h: AddonHarness;

interface View {
  id: string;
  name: string;
  definition: { notices?: { webhook?: string } };
  status: { failures: number; lastError?: { traceId?: string } };
  notices: {
    webhook?: string;
    last?: { subject: string; email?: string; webhook?: string };
    alerts: Array<{ text: string; firing: boolean; lastFired?: string }>;
  };
}
const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const listed = (name: string) => call<{ reports: View[] }>('listSchedules').reports.find((r) => r.name === name)!;

const report = hourlyDailyReport;

useScheduledAddon(START, { spreadsheetName: 'Sales 2026' }, (harness) => {
  h = harness;
});

afterEach(async () => {
  for (const view of call<{ reports: View[] }>('listSchedules').reports) call('deleteSchedule', view.id);
  await h.emulator.clearWebhooks();
});

describe('notices of a failing report', () => {
  it('sends one email and one webhook call, nothing for the same failure again, and one of each for the recovery', async () => {
    const webhook = `${h.emulator.webhookUrl('chat')}?key=webhook-key-123&token=webhook-token-456`;
    call('saveSchedule', report('Daily revenue', { notices: { when: 'failure', email: true, webhook } }));
    const id = listed('Daily revenue').id;
    // The first run succeeds: nothing to tell.
    nextTriggerRun(h);
    expect(h.host.mails).toHaveLength(0);
    expect(await h.emulator.webhooks()).toHaveLength(0);

    await h.emulator.setFaults([{ match: 'reports/main', status: 504, times: 1000 }]);
    nextTriggerRun(h);
    const failed = listed('Daily revenue');
    expect(failed.status.failures).toBe(1);
    const traceId = failed.status.lastError!.traceId!;
    expect(traceId).toMatch(/\w/);
    expect(h.host.mails).toHaveLength(1);
    const mail = h.host.mails[0] as { to: string; subject: string; body: string; from: string };
    expect(mail.to).toBe(OWNER);
    expect(mail.from).toBe(OWNER);
    expect(mail.subject).toBe('Engage: "Daily revenue" could not be refreshed in "Sales 2026"');
    expect(mail.body).toContain(`Trace ID: ${traceId}`);
    expect(mail.body).toMatch(/What happened: .*took too long/);
    expect(mail.body).toContain('Open it: https://docs.google.com/spreadsheets/d/gas-host-spreadsheet/edit');
    expect(mail.body).toContain('Its data was left as it was.');
    const calls = await h.emulator.webhooks();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.path).toBe('/webhooks/chat');
    expect(calls[0]!.query).toBe('key=webhook-key-123&token=webhook-token-456');
    const posted = JSON.parse(calls[0]!.body) as { text: string; report: { id: string } };
    expect(posted.text).toContain(`Trace ID: ${traceId}`);
    expect(posted.text).toContain('"Daily revenue"');
    expect(posted.report.id).toBe(id);
    // Nothing secret in either: no token of the sign-in, no webhook key.
    const token = JSON.parse(h.host.properties('user', OWNER).get('engage.token')!).token as string;
    for (const text of [mail.body, mail.subject, calls[0]!.body]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain('webhook-key-123');
    }
    expect(failed.notices.last).toMatchObject({ email: 'sent', webhook: 'sent' });

    // The same failure an hour later: nothing.
    nextTriggerRun(h);
    expect(listed('Daily revenue').status.failures).toBe(2);
    expect(h.host.mails).toHaveLength(1);
    expect(await h.emulator.webhooks()).toHaveLength(1);

    // It recovers: one email, one webhook call.
    await h.emulator.clearFaults();
    nextTriggerRun(h);
    expect(listed('Daily revenue').status.failures).toBe(0);
    expect(h.host.mails).toHaveLength(2);
    expect((h.host.mails[1] as { subject: string }).subject).toBe('Engage: "Daily revenue" is refreshing again in "Sales 2026"');
    expect(await h.emulator.webhooks()).toHaveLength(2);
    // Each webhook call was one URL fetch of the add-on's, counted against the user's daily quota.
    expect(h.host.fetchLog.filter((f) => f.url.includes('/webhooks/')).map((f) => [f.method, f.status])).toEqual([
      ['POST', 200],
      ['POST', 200],
    ]);
    // And stays quiet while it keeps refreshing.
    nextTriggerRun(h);
    expect(h.host.mails).toHaveLength(2);
    expect(await h.emulator.webhooks()).toHaveLength(2);

    // The address with its key is kept only in the owner's user properties, never in the document or the sidebar.
    const documentText = [...h.host.properties('document').values()].join('\n');
    expect(documentText).not.toContain('webhook-key-123');
    expect(JSON.stringify(call('listSchedules'))).not.toContain('webhook-key-123');
    expect(listed('Daily revenue').notices.webhook).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…$/);
    expect([...h.host.properties('user', OWNER).entries()].filter(([, v]) => v.includes('webhook-key-123')).map(([k]) => k)).toEqual([
      expect.stringMatching(/^engage\.reg\.n\./),
    ]);
  });
});

describe('alerts', () => {
  it('fire once through the report’s channels, are listed with when they last fired, and stay quiet while the condition holds', async () => {
    call(
      'saveSchedule',
      report('Watched', {
        alerts: [
          { kind: 'above', metric: 'revenue', value: 1 },
          { kind: 'below', metric: 'revenue', value: 1 },
        ],
      }),
    );
    const before = h.host.mails.length;
    nextTriggerRun(h);
    expect(h.host.mails).toHaveLength(before + 1);
    const alert = h.host.mails[before] as { subject: string; body: string };
    expect(alert.subject).toBe('Engage: Alert on "Watched" in "Sales 2026": revenue (Total row) above 1');
    expect(alert.body).toMatch(/revenue is [\d,.]+ \(Total row\), above 1\./);
    expect((await h.emulator.webhooks()).length).toBe(0);
    const view = listed('Watched');
    expect(view.notices.alerts).toEqual([
      { text: 'revenue (Total row) above 1', firing: true, lastFired: expect.stringMatching(/^2026-11-20T1\d:/) },
      { text: 'revenue (Total row) below 1', firing: false },
    ]);
    nextTriggerRun(h);
    expect(h.host.mails).toHaveLength(before + 1);
    expect(listed('Watched').notices.alerts[0]!.firing).toBe(true);
  });
});
