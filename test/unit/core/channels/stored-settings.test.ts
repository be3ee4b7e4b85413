/**
 * Notice settings as today's stored shape has them, read through the notice channels: a saved
 * report's definition in the document's properties and in the user's registry keeps `notices` with
 * `when`, `email` and the webhook's redacted address, and the owner's notice record keeps the address
 * with its key, the failure told, each alert's state and the last notice with each channel's outcome.
 * They read back the same (the definition passes the schema unchanged, the record is stored again
 * byte for byte, the Schedules tab's view is what it was), an edit that gives the redacted address
 * back keeps it, and a notice still goes by email and to the stored address.
 */
import { emailSender } from '../../../../src/core/channels/email';
import { webhookSender } from '../../../../src/core/channels/webhook';
import type { Mailer, SpreadsheetRef } from '../../../../src/core/ports';
import { noticeRecordMaxBytes, noticeRecordText } from '../../../../src/core/schedules/saved/notice-record';
import { ScheduleRegistry } from '../../../../src/core/schedules/saved/registry';
import { SavedReportStore } from '../../../../src/core/schedules/saved/saved-report-store';
import { checkSavedReport, type SavedReport } from '../../../../src/core/schedules/saved/saved-reports';
import { noticesView } from '../../../../src/core/schedules/service/schedule-view';
import { splitSecrets, storeSecrets } from '../../../../src/core/schedules/watchers/notice-secrets';
import { ReportNotices } from '../../../../src/core/schedules/watchers/notices';
import { hashText } from '../../../../src/core/util/hash';
import { FakeLock, FakeStore, FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../support/fakes';

const SHEET: SpreadsheetRef = { id: 'sheet-1', name: 'Sales', url: 'https://docs.google.com/spreadsheets/d/sheet-1/edit', timeZone: 'UTC' };
const ADDRESS = 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=KEY-1&token=TOKEN-1';
const DEPLOYMENT = { webhookPrefixes: ['https://chat.googleapis.com/v1/spaces/'] };
const SLOT = hashText(SHEET.id);

/** Definitions as today's main writes them: notices by email and webhook with alerts, by webhook alone, and the defaults. */
const definition = (id: string, extra: Record<string, unknown>): SavedReport => ({
  name: `Report ${id}`,
  kind: 'main',
  entityId: 'p1',
  period: { type: 'lastDays', days: 7 },
  breakdowns: ['day'],
  metrics: ['paidPvs', 'revenue'],
  destination: { kind: 'sheet', target: { sheetName: id, cell: 'A1' } },
  schedule: { every: 'hour' },
  ...extra,
  id,
  ownerId: 'u1',
  createdAtMs: 1,
  updatedAtMs: 1,
});
const BOTH = definition('r1', {
  notices: { when: 'always', email: true, webhook: 'https://chat.googleapis.com/…' },
  alerts: [{ kind: 'above', metric: 'revenue', value: 1 }],
});
const WEBHOOK_ONLY = definition('r2', { notices: { when: 'failure', email: false, webhook: 'https://chat.googleapis.com/…' } });
const DEFAULTS = definition('r3', {});
/** The owner's notice record as today's main writes it, under engage.reg.n.<slot>.<id>. */
const RECORD_TEXT = JSON.stringify({
  webhook: ADDRESS,
  failure: { reason: 'abc', sinceMs: 1_000, told: true, tries: 1 },
  alerts: { '0a1b2c3d': { on: true, firedAtMs: 2_000 } },
  last: {
    atMs: 3_000,
    subject: '"Report r1" could not be refreshed in "Sales"',
    email: 'sent',
    webhook: 'not sent: the webhook answered HTTP 500',
  },
});

class FakeMailer implements Mailer {
  readonly sent: Array<{ to: string; subject: string; body: string }> = [];
  address = () => 'owner@example.com';
  remainingToday = () => 100;
  send(message: { to: string; subject: string; body: string }) {
    this.sent.push(message);
  }
}

function stored() {
  const document = new FakeStore();
  const user = new FakeStore();
  document.values.set('engage.sr.index', JSON.stringify(['r1', 'r2', 'r3']));
  for (const report of [BOTH, WEBHOOK_ONLY, DEFAULTS]) {
    document.values.set(`engage.sr.def.${report.id}`, JSON.stringify(report));
    user.values.set(`engage.reg.d.${SLOT}.${report.id}`, JSON.stringify(report));
  }
  for (const id of ['r1', 'r2']) user.values.set(`engage.reg.n.${SLOT}.${id}`, RECORD_TEXT);
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
  return {
    document,
    user,
    clock,
    store: new SavedReportStore({ store: document, lock: new FakeLock(), clock }),
    registry: new ScheduleRegistry({ store: user }),
  };
}

describe('notice settings saved in today’s shape', () => {
  it('read back the same from the document and the registry, and pass the schema unchanged', () => {
    const { store, registry } = stored();
    expect(store.list()).toEqual([BOTH, WEBHOOK_ONLY, DEFAULTS]);
    expect(registry.reports(SHEET.id)).toEqual([BOTH, WEBHOOK_ONLY, DEFAULTS]);
    for (const report of store.list()) {
      const { id: _id, ownerId: _owner, createdAtMs: _created, updatedAtMs: _updated, ...input } = report;
      expect(checkSavedReport(input)).toEqual(input);
    }
  });

  it('keep the owner’s record byte for byte, and the room set aside for it', () => {
    const { registry, user } = stored();
    const record = registry.notice(SHEET.id, 'r1');
    expect(record).toEqual(JSON.parse(RECORD_TEXT));
    expect(noticeRecordText(record)).toBe(RECORD_TEXT);
    const sets = user.sets;
    registry.putNotice(SHEET.id, 'r1', record);
    expect(user.sets).toBe(sets);
    expect(noticeRecordMaxBytes(BOTH)).toBe(500 + 520 + 160);
    expect(noticeRecordMaxBytes(WEBHOOK_ONLY)).toBe(500 + 520);
    expect(noticeRecordMaxBytes(DEFAULTS)).toBe(500);
  });

  it('show the Schedules tab what it showed: the channels, the redacted address, the last notice with each channel’s outcome', () => {
    const { registry } = stored();
    expect(noticesView(BOTH, registry.notice(SHEET.id, 'r1'))).toEqual({
      when: 'always',
      email: true,
      webhook: 'https://chat.googleapis.com/…',
      last: {
        at: new Date(3_000).toISOString(),
        subject: '"Report r1" could not be refreshed in "Sales"',
        email: 'sent',
        webhook: 'not sent: the webhook answered HTTP 500',
      },
      alerts: [{ text: 'revenue (Total row) above 1', firing: false }],
      known: true,
    });
    expect(noticesView(WEBHOOK_ONLY, undefined)).toEqual({
      when: 'failure',
      email: false,
      webhook: 'https://chat.googleapis.com/…',
      alerts: [],
      known: false,
    });
    expect(noticesView(DEFAULTS, {})).toEqual({ when: 'failure', email: true, alerts: [], known: true });
  });

  it('keep the stored address when an edit gives its redacted form back, and drop it when the edit clears it', () => {
    const { registry, user } = stored();
    const { id: _id, ownerId: _owner, createdAtMs: _created, updatedAtMs: _updated, ...input } = BOTH;
    const kept = splitSecrets(checkSavedReport(input), BOTH, DEPLOYMENT);
    expect(kept).toEqual({ definition: input, webhook: undefined });
    storeSecrets(registry, SHEET.id, 'r1', kept);
    expect(user.values.get(`engage.reg.n.${SLOT}.r1`)).toBe(RECORD_TEXT);
    const cleared = splitSecrets(checkSavedReport({ ...input, notices: { when: 'always', webhook: '' } }), BOTH, DEPLOYMENT);
    expect(cleared).toEqual({ definition: { ...input, notices: { when: 'always' } }, webhook: null });
    storeSecrets(registry, SHEET.id, 'r1', cleared);
    const { webhook: _gone, ...rest } = JSON.parse(RECORD_TEXT) as Record<string, unknown>;
    expect(new ScheduleRegistry({ store: user }).notice(SHEET.id, 'r1')).toEqual(rest);
  });

  it('still send by email and to the stored address, with its key', () => {
    const { registry, clock } = stored();
    const mailer = new FakeMailer();
    const transport = new FakeTransport(() => jsonResponse(200, {}));
    const notices = new ReportNotices({
      registry,
      senders: { email: emailSender(mailer), webhook: webhookSender({ transport, clock, sleeper: new ManualSleeper(clock) }) },
      clock,
    });
    const notice = { subject: 'A test', lines: ['Nothing happened.'] };
    expect(notices.send(BOTH, SHEET, notice)).toEqual({ email: 'sent', webhook: 'sent' });
    expect(notices.send(WEBHOOK_ONLY, SHEET, notice)).toEqual({ webhook: 'sent' });
    expect(notices.send(DEFAULTS, SHEET, notice)).toEqual({ email: 'sent' });
    expect(mailer.sent.map((m) => m.subject)).toEqual(['Engage: A test', 'Engage: A test']);
    expect(transport.requests.map((r) => [r.method, r.url])).toEqual([
      ['post', ADDRESS],
      ['post', ADDRESS],
    ]);
    expect(JSON.parse(transport.requests[0]!.payload as string)).toEqual({ text: expect.stringContaining('*Engage: A test*') });
  });
});
