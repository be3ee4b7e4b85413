/**
 * End to end, the history a spreadsheet keeps of its saved reports' refreshes, in the built bundle:
 * the emulator restates two past days of a publisher, and the next hourly run (a run without the
 * document that opens the spreadsheet by ID, in both readings) adds each day's revenue before and
 * after to "Engage revisions", and the day of the closed month raises exactly one notice (one email in
 * the host's mail record, one call at the emulator's webhook receiver), none at the next run; the
 * "Engage log" rows match the runs, a failed one with its trace ID; deleting the log sheet turns the
 * log off and a sheet of that name made again turns it on; the log keeps its latest 1,000 rows. It
 * also measures the spreadsheet calls the log and revisions add to a run.
 */
import { OWNER, type AddonHarness } from '../support/addon-host';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';
import { HOUR_MS, MINUTE_MS, nextTriggerRun, startScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';
// A name Sheets would read as a date if it were typed: it must stay text in the log and revisions.
const REPORT = '1/2 Daily revenue';
let h: AddonHarness;

interface View {
  id: string;
  name: string;
  status: { rows?: number; lastError?: { message: string; traceId?: string } };
}
interface List {
  reports: View[];
}

const call = <T>(fn: string, ...args: unknown[]) => h.host.call(fn, args, { user: OWNER }) as T;
const idOf = (list: List, name: string) => list.reports.find((r) => r.name === name)!.id;
/** The rows of an own sheet that hold something, as wide as its 9 columns. */
const sheetRows = (name: string) =>
  h.host
    .getValues(name)
    .filter((row) => row.some((cell) => cell !== ''))
    .map((row) => row.slice(0, 9));
const model = () => h.host.state.spreadsheet;

function deleteSheet(name: string): void {
  const sheets = model().sheets;
  sheets.splice(
    sheets.findIndex((s) => s.name === name),
    1,
  );
}

/** The revenue of a day in the report's sheet (the row whose day cell shows it). */
function revenueOn(dayIso: string): { day: Date; revenue: number } {
  const [header, ...rows] = h.host.getValues(REPORT);
  const dayColumn = header!.indexOf('day');
  const revenueColumn = header!.indexOf('revenue');
  const row = rows.find(
    (r) => r[dayColumn] instanceof Date && (r[dayColumn] as Date).toLocaleDateString('sv', { timeZone: 'Europe/Berlin' }) === dayIso,
  )!;
  return { day: row[dayColumn] as Date, revenue: row[revenueColumn] as number };
}

beforeAll(async () => {
  // A trigger's run without its document, which reaches the spreadsheet by ID, in the kind reading too.
  h = await startScheduledAddon(START, { strict: process.env.GAS_HOST_STRICT === '1' ? true : { triggerWithoutDocument: true } });
  h.signIn();
});
afterAll(async () => {
  await h.close();
});

describe('revisions', () => {
  it("shows a restated day's revenue before and after, and a closed month raises exactly one notice", async () => {
    await h.emulator.clearWebhooks();
    const mailsBefore = h.host.mails.length;
    const saved = call<List>('saveSchedule', {
      name: REPORT,
      kind: 'main',
      entityId: MEDIUM_PUBLISHER_ID,
      period: { type: 'lastDays', days: 30 },
      breakdowns: ['day'],
      metrics: ['revenue', 'paidPvs'],
      target: { sheetName: REPORT, cell: 'A1' },
      schedule: { every: 'hour' },
      closedThrough: '2026-10',
      // Told of failures only: the restated closed month is told whatever "when" says.
      notices: { when: 'failure', email: true, webhook: `${h.emulator.webhookUrl('close')}?key=close-key` },
    });
    call('runScheduleNow', idOf(saved, REPORT));
    const october = revenueOn('2026-10-28');
    const november = revenueOn('2026-11-15');
    expect(model().sheetByName('Engage revisions')).toBeUndefined();
    expect(model().sheetByName('Engage first figures')!.hidden).toBe(true);

    await h.emulator.reviseRevenue(MEDIUM_PUBLISHER_ID, '20261028', 0.9);
    await h.emulator.reviseRevenue(MEDIUM_PUBLISHER_ID, '20261115', 1.1);
    nextTriggerRun(h);

    const octoberNow = revenueOn('2026-10-28').revenue;
    const novemberNow = revenueOn('2026-11-15').revenue;
    expect(octoberNow).toBeCloseTo(october.revenue * 0.9, 1);
    const [header, ...revisions] = sheetRows('Engage revisions');
    expect(header).toEqual(['Seen', 'Report', 'Day', 'Keys', 'Metric', 'First seen', 'Now', 'Change', 'Month closed']);
    expect(revisions.map((r) => r.slice(1))).toEqual([
      [REPORT, october.day, '(none)', 'revenue', october.revenue, octoberNow, expect.closeTo(octoberNow - october.revenue, 6), 'closed'],
      [REPORT, november.day, '(none)', 'revenue', november.revenue, novemberNow, expect.closeTo(novemberNow - november.revenue, 6), ''],
    ]);
    const mails = () => h.host.mails.slice(mailsBefore) as Array<{ to: string; subject: string; body: string }>;
    expect(mails()).toHaveLength(1);
    const [mail] = mails();
    expect(mail!.to).toBe(OWNER);
    expect(mail!.subject).toBe(`Engage: figures of closed month 2026-10 changed in "${REPORT}"`);
    // The restated figure with its day, the first figure and now; not November's, whose month is open.
    expect(mail!.body).toContain(`2026-10-28: revenue was ${october.revenue} when first seen, now ${octoberNow}`);
    expect(mail!.body).not.toContain('2026-11-15');
    expect(mail!.body).toContain('Every revision is in the sheet "Engage revisions"');
    expect(mail!.body).toContain('Open it: https://docs.google.com/spreadsheets/d/');
    const calls = await h.emulator.webhooks();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.path).toBe('/webhooks/close');
    expect(JSON.parse(calls[0]!.body).subject).toBe(mail!.subject);
    // The Schedules tab shows it as the report's last notice, with how each channel took it.
    const listed = h.host.call('listSchedules', [], { user: OWNER }) as {
      reports: { name: string; notices?: { last?: { subject: string; email?: string; webhook?: string } } }[];
    };
    expect(listed.reports.find((r) => r.name === REPORT)!.notices?.last).toEqual({
      at: expect.any(String),
      subject: `figures of closed month 2026-10 changed in "${REPORT}"`,
      email: 'sent',
      webhook: 'sent',
    });

    // The next run brings the same figures: nothing more.
    nextTriggerRun(h);
    expect(sheetRows('Engage revisions')).toHaveLength(3);
    expect(mails()).toHaveLength(1);
    expect(await h.emulator.webhooks()).toHaveLength(1);
  });
});

describe('the run log', () => {
  it('has one row per run, scheduled or Run now, a failed one with its trace ID', async () => {
    const saved = call<List>('saveSchedule', {
      name: 'Timeout',
      kind: 'main',
      entityId: MEDIUM_PUBLISHER_ID,
      period: { type: 'lastDays', days: 3 },
      breakdowns: ['day'],
      target: { sheetName: 'Timeout', cell: 'A1' },
      schedule: { every: 'day', hour: 6 },
      paused: true,
    });
    h.host.advanceTime(2 * MINUTE_MS);
    await h.emulator.setFaults([{ match: '/reports/main', status: 504, times: 20 }]);
    const failed = call<{ list: List }>('runScheduleNow', idOf(saved, 'Timeout')).list.reports.find((r) => r.name === 'Timeout')!;
    await h.emulator.clearFaults();
    const traceId = failed.status.lastError!.traceId!;
    expect((await h.emulator.requests()).filter((r) => r.status === 504).map((r) => r.traceId)).toContain(traceId);

    const [header, ...rows] = sheetRows('Engage log');
    expect(header).toEqual(['Time', 'Report', 'Outcome', 'Run', 'Rows', 'Requests', 'Duration (s)', 'Trace ID', 'Error']);
    // As wide as its header: its cells count against the spreadsheet's 10,000,000.
    expect(model().sheetByName('Engage log')!.maxColumns).toBe(9);
    expect(rows.map((r) => [r[1], r[2], r[3], r[4], r[5], r[7]])).toEqual([
      [REPORT, 'refreshed', 'Run now', 30, 1, ''],
      [REPORT, 'refreshed', 'scheduled', 30, 1, ''],
      [REPORT, 'refreshed', 'scheduled', 30, 1, ''],
      ['Timeout', 'failed', 'Run now', '', '', traceId],
    ]);
    expect(rows[3]![8]).toBe(failed.status.lastError!.message);
    // Times are the runs' starts, shown on the spreadsheet's clock.
    expect(rows[0]![0]).toEqual(new Date(START));
    expect(h.host.getCell('Engage log', 'A2').numberFormat).toBe('yyyy-mm-dd hh:mm:ss');
  });

  it('is turned off by deleting its sheet, and on again by a sheet of its name', () => {
    deleteSheet('Engage log');
    nextTriggerRun(h);
    expect(model().sheetByName('Engage log')).toBeUndefined();
    expect(h.host.getValues(REPORT).length).toBeGreaterThan(30);

    model().addSheet('Engage log');
    nextTriggerRun(h);
    const rows = sheetRows('Engage log');
    expect(rows.map((r) => r.slice(1, 4))).toEqual([
      ['Report', 'Outcome', 'Run'],
      [REPORT, 'refreshed', 'scheduled'],
    ]);
  });

  it('keeps the latest 1,000 rows, dropping the oldest', () => {
    // 999 older rows below the one run logged so far.
    const sheet = model().sheetByName('Engage log')!;
    model().resizeSheet(sheet, 1001, sheet.maxColumns);
    for (let row = 3; row <= 1001; row++) model().writeInput(sheet, row, 2, `old ${row}`);
    nextTriggerRun(h);
    const rows = sheetRows('Engage log');
    expect(rows).toHaveLength(1001);
    expect(rows[1]![1]).toBe('old 3');
    expect(rows[999]![1]).toBe('old 1001');
    expect(rows[1000]!.slice(1, 4)).toEqual([REPORT, 'refreshed', 'scheduled']);
  });

  it('adds a few spreadsheet calls to a run (measured)', () => {
    const id = idOf(call<List>('listSchedules'), REPORT);
    const spreadsheetCalls = () =>
      Object.entries(h.host.counters)
        .filter(([name]) => /^(Spreadsheet|Sheet|Range|DeveloperMetadata)\./.test(name))
        .reduce((sum, [, count]) => sum + count, 0);
    h.host.advanceTime(HOUR_MS);
    h.host.resetCounters();
    call('runScheduleNow', id);
    const withHistory = spreadsheetCalls();
    deleteSheet('Engage log');
    deleteSheet('Engage revisions');
    h.host.advanceTime(HOUR_MS);
    h.host.resetCounters();
    call('runScheduleNow', id);
    const without = spreadsheetCalls();
    console.log(
      `a Run now of a daily report: ${withHistory} spreadsheet calls with the log and revisions, ${without} with both sheets deleted`,
    );
    expect(withHistory - without).toBeLessThanOrEqual(12);
  });
});
