/**
 * The failures of one scheduled run grouped per owner and channel across every spreadsheet it reaches
 * (spreadsheetAccess "all"): the notices' watchers of the spreadsheets hold their failures in the run's
 * collector, which the run sends when it is over in all of them, before their formulas. A sign-in that
 * expired fails every due report of every spreadsheet: ONE email and ONE post to the shared webhook
 * list them with their spreadsheets; each report's record, in its own spreadsheet, keeps it as its
 * last and its failure as told. An execution that ends before the run's end leaves them as notices
 * that reached no channel, which the next failing run tells. Successes are told at each spreadsheet's
 * end, as before.
 */
import { NotSignedInError } from '../../../../../src/core/errors';
import type { Mailer, ReportSheet, ScheduledSpreadsheet, SpreadsheetRef } from '../../../../../src/core/ports';
import { sheetDestination } from '../../../../../src/core/destinations/sheet/sheet-destination';
import { emailSender } from '../../../../../src/core/channels/email';
import { webhookSender } from '../../../../../src/core/channels/webhook';
import { Destinations } from '../../../../../src/core/schedules/refresh/destination';
import type { ReportSource } from '../../../../../src/core/schedules/refresh/refresh-source';
import { ScheduleRegistry } from '../../../../../src/core/schedules/saved/registry';
import { checkSavedReport, type SavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { runScheduled } from '../../../../../src/core/schedules/service/scheduled-run';
import { RunFailureNotices } from '../../../../../src/core/schedules/watchers/failure-notices';
import { NoticeObserver } from '../../../../../src/core/schedules/watchers/notice-observer';
import { ReportNotices } from '../../../../../src/core/schedules/watchers/notices';
import { FakeStore, FakeTransport, jsonResponse, ManualClock, ManualSleeper } from '../../../../support/fakes';

const ME = 'u-me';
const HOUR = 3_600_000;
const CHAT = 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=KEY-1&token=TOKEN-1';
/** Reports by spreadsheet: 2 in Sales, 1 in Costs, 2 in Budget. */
const LAYOUT: Array<[string, string, string[]]> = [
  ['doc-sales', 'Sales', ['S1', 'S2']],
  ['doc-costs', 'Costs', ['C1']],
  ['doc-budget', 'Budget', ['B1', 'B2']],
];

class FakeMailer implements Mailer {
  readonly sent: Array<{ to: string; subject: string; body: string }> = [];
  address = () => 'owner@example.com';
  remainingToday = () => 100;
  send(message: { to: string; subject: string; body: string }) {
    this.sent.push(message);
  }
}

const ref = (id: string, name: string): SpreadsheetRef => ({
  id,
  name,
  url: `https://docs.google.com/spreadsheets/d/${id}/edit`,
  timeZone: 'UTC',
});

function report(name: string, createdAtMs: number, notices: Record<string, unknown>): SavedReport {
  const input = checkSavedReport({
    name,
    kind: 'main',
    entityId: 'pub-1',
    period: { type: 'lastDays', days: 7 },
    breakdowns: ['day'],
    target: { sheetName: name, cell: 'A1' },
    schedule: { every: 'hour' },
    notices,
  });
  return { ...input, id: `id-${name}`, ownerId: ME, createdAtMs, updatedAtMs: createdAtMs };
}

const sheet = (): ReportSheet => ({
  write: (placement, block) => ({ ...placement, rows: block.values.length, columns: 1 }),
  read: () => null,
  note: () => undefined,
  sheetNames: () => [],
});

function setup(notices: Record<string, unknown> = { email: true, webhook: CHAT }) {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
  const store = new FakeStore();
  const seed = new ScheduleRegistry({ store });
  for (const [id, name, reports] of LAYOUT) {
    seed.putEntry({ ...ref(id, name), reports: reports.length, active: reports.length });
    for (const r of reports) {
      seed.putDefinition(id, report(r, clock.now() - HOUR, notices));
      if (notices.webhook) seed.putNotice(id, `id-${r}`, { webhook: CHAT });
    }
  }
  const mailer = new FakeMailer();
  const transport = new FakeTransport(() => jsonResponse(200, {}));
  let signedIn = false;
  const source: ReportSource = {
    checkSignedIn: () => {
      if (!signedIn) throw new NotSignedInError();
    },
    buildQuery: (kind, input) => ({ kind, ...input }) as never,
    run: (query) => {
      clock.advance(1000);
      return {
        result: { query, items: [{ day: '20261119', revenue: 1 }], totalItems: 1, partial: false, pagesFetched: 1, pagesPlanned: 1 },
        requests: 1,
      } as never;
    },
    runTogether: () => ({ results: [], requests: 0 }),
    budgetFreeAtMs: () => 0,
    fetchRoomFor: () => true,
  };
  /** What was sent when each spreadsheet's formulas started: the notices go before them. */
  const sentAtFormulas: number[] = [];
  /** One execution's scheduled run: its own registry, notices and collector. `endsEarly`: the execution ends before the run's end. */
  const run = (endsEarly = false) => {
    const registry = new ScheduleRegistry({ store });
    const senders = { email: emailSender(mailer), webhook: webhookSender({ transport, clock, sleeper: new ManualSleeper(clock) }) };
    const reportNotices = new ReportNotices({ registry, senders, clock });
    const failures = new RunFailureNotices(reportNotices, registry, clock);
    clock.advance(HOUR);
    return runScheduled(
      {
        registry,
        source,
        destinations: new Destinations([sheetDestination()]),
        clock,
        ownerId: ME,
        access: 'all',
        current: null,
        opener: {
          open: (id): ScheduledSpreadsheet => ({
            ref: ref(id, LAYOUT.find(([doc]) => doc === id)![1]),
            sheet: sheet(),
            refreshFormulas: () => (sentAtFormulas.push(mailer.sent.length), true),
          }),
        },
        observersFor: () => [new NoticeObserver(reportNotices, registry, clock, failures)],
        runEndObservers: endsEarly ? [] : [failures],
      },
      { startedAtMs: clock.now(), fetchBudgetMs: 270_000 },
    );
  };
  return {
    mailer,
    transport,
    run,
    sentAtFormulas,
    registry: () => new ScheduleRegistry({ store }),
    signIn: () => {
      signedIn = true;
    },
  };
}

const ALL = LAYOUT.flatMap(([id, sheetName, names]) => names.map((name) => ({ id, sheetName, name })));

describe('the failures of one run over several spreadsheets', () => {
  it('go out as ONE email and ONE webhook post listing every report with its spreadsheet, before the formulas', () => {
    const s = setup();
    const summary = s.run();
    expect(summary).toMatchObject({ needsSignIn: true, openedById: 3 });
    expect(s.mailer.sent).toHaveLength(1);
    expect(s.transport.requests).toHaveLength(1);
    // Sent once the run was over in all three spreadsheets, before any formulas recalculated.
    expect(s.sentAtFormulas).toEqual([1, 1, 1]);
    const mail = s.mailer.sent[0]!;
    expect(mail.subject).toBe('Engage: 5 saved reports in 3 spreadsheets could not be refreshed');
    const lines = mail.body.split('\n');
    expect(lines[0]).toBe('5 saved reports in 3 spreadsheets could not be refreshed by their schedule at 2026-11-20 13:00 (UTC):');
    for (const { name, sheetName } of ALL) expect(lines).toContain(`- "${name}" in "${sheetName}"`);
    expect(mail.body).toContain('What happened: You are not signed in to Engage');
    expect(mail.body).toContain('Sign in to Engage again in the sidebar');
    for (const [id, name] of LAYOUT) expect(lines).toContain(`- "${name}": https://docs.google.com/spreadsheets/d/${id}/edit`);
    const posted = JSON.parse(s.transport.requests[0]!.payload!) as { text: string };
    expect(posted.text).toContain('- "B2" in "Budget"');
    expect(posted.text).not.toContain('KEY-1');
    const registry = s.registry();
    for (const { id, name, sheetName } of ALL) {
      const record = registry.notice(id, `id-${name}`);
      expect(record.last).toMatchObject({
        subject: `"${name}" could not be refreshed in "${sheetName}", in one notice with 4 other reports from 3 spreadsheets`,
        email: 'sent',
        webhook: 'sent',
      });
      expect(record.failure).toMatchObject({ told: true, tries: 1 });
    }
    // Told: the same failure at the next run sends nothing.
    s.run();
    expect(s.mailer.sent).toHaveLength(1);
    expect(s.transport.requests).toHaveLength(1);
  });

  it('posts the facts to a webhook that takes them: each listed report with its spreadsheet', () => {
    const hook = 'https://hooks.example.com/engage/1';
    const s = setup({ email: false, webhook: hook });
    // The notice record keeps the webhook address (the channel's secret).
    const registry = s.registry();
    for (const { id, name } of ALL) registry.putNotice(id, `id-${name}`, { webhook: hook });
    s.run();
    expect(s.mailer.sent).toEqual([]);
    expect(s.transport.requests.map((r) => r.url)).toEqual([hook]);
    const posted = JSON.parse(s.transport.requests[0]!.payload!) as {
      subject: string;
      spreadsheet: { name: string };
      reports: Array<{ id: string; name: string; spreadsheet: { name: string; url: string } }>;
    };
    expect(posted.subject).toBe('Engage: 5 saved reports in 3 spreadsheets could not be refreshed');
    expect(posted.reports.map((r) => [r.name, r.spreadsheet.name])).toEqual(ALL.map((r) => [r.name, r.sheetName]));
    expect(posted.spreadsheet.name).toBe('Sales');
  });

  it('left unsent when the execution ends before the run is over, are told by the next failing run', () => {
    const s = setup();
    s.run(true);
    expect(s.mailer.sent).toEqual([]);
    expect(s.transport.requests).toEqual([]);
    const before = s.registry();
    for (const { id, name } of ALL) {
      const record = before.notice(id, `id-${name}`);
      expect(record.failure).toMatchObject({ told: false, tries: 1 });
      expect(record.last).toBeUndefined();
    }
    s.run();
    expect(s.mailer.sent.map((m) => m.subject)).toEqual(['Engage: 5 saved reports in 3 spreadsheets could not be refreshed']);
    expect(s.registry().notice('doc-costs', 'id-C1').failure).toMatchObject({ told: true, tries: 2 });
  });

  it('then the recovery of each report is told at its spreadsheet’s end, one per report as before', () => {
    const s = setup({ email: true });
    s.run();
    expect(s.mailer.sent).toHaveLength(1);
    s.signIn();
    s.run();
    expect(
      s.mailer.sent
        .slice(1)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(ALL.map(({ name, sheetName }) => `Engage: "${name}" is refreshing again in "${sheetName}"`).sort());
  });
});
