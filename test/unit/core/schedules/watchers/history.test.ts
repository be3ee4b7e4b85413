/**
 * The watchers that keep a spreadsheet's history of refreshes, with a fake of the add-on's own sheets:
 * the run log writes one row per report of a run in one batch when the run is over, keeps the latest
 * 1,000, and writes nothing once its sheet was deleted; revisions keep the first figures of finished
 * days only, add a row for each figure a later refresh changed (never the same revision twice), start
 * afresh when the report asks for its figures differently, compare only the days an incremental
 * refresh fetched, stop while their sheet is deleted, and call the closed-month callback exactly once
 * per report of a run that found revisions in its closed months, with those revisions.
 */
import type { Cell, OwnRows, OwnSheet, OwnSheets, OwnSheetState, SheetBlock } from '../../../../../src/core/ports';
import { finishObservers, type ReportRunEvent, tellObservers } from '../../../../../src/core/schedules/refresh/run-events';
import { LOG_KEEP_ROWS, RUN_LOG_SHEET, RunLog } from '../../../../../src/core/schedules/watchers/run-log';
import {
  CLOSED_MONTH_NOTICE_LINES,
  closedMonthNotice,
  type Revision,
  REVISIONS_SHEET,
  RevisionTracker,
} from '../../../../../src/core/schedules/watchers/revisions';
import { FIRST_FIGURES_MAX_ROWS, FIRST_FIGURES_SHEET, FirstFigures } from '../../../../../src/core/schedules/watchers/first-figures';
import { checkClosedThrough, checkSavedReport, type SavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { zonedMidnightMs } from '../../../../../src/core/util/dates';

const TZ = 'Europe/Berlin';
const HOUR = 3_600_000;

/** The own sheets in memory: rows below the header, a marker per remembered sheet made, every call counted. */
class FakeOwnSheets implements OwnSheets {
  readonly sheets = new Map<string, Cell[][]>();
  readonly formats = new Map<string, (string | null)[][]>();
  readonly markers = new Set<string>();
  readonly calls: string[] = [];

  state(own: OwnSheet): OwnSheetState {
    this.calls.push(`state ${own.name}`);
    if (this.sheets.has(own.name)) return 'present';
    return this.markers.has(own.name) ? 'deleted' : 'new';
  }
  read(own: OwnSheet): Cell[][] {
    this.calls.push(`read ${own.name}`);
    return (this.sheets.get(own.name) ?? []).map((row) => [...row]);
  }
  append(own: OwnSheet, rows: OwnRows, keepRows: number): void {
    this.calls.push(`append ${own.name}`);
    if (!this.sheets.has(own.name) && own.remembered) this.markers.add(own.name);
    const all = [...(this.sheets.get(own.name) ?? []), ...rows.values];
    this.sheets.set(own.name, all.slice(Math.max(0, all.length - keepRows)));
    this.formats.set(own.name, [...(this.formats.get(own.name) ?? []), ...rows.formats]);
  }
  replace(own: OwnSheet, rows: OwnRows): void {
    this.calls.push(`replace ${own.name}`);
    this.sheets.set(
      own.name,
      rows.values.map((row) => [...row]),
    );
  }
  /** A user deletes the sheet. */
  delete(name: string): void {
    this.sheets.delete(name);
  }
}

/** The sheet destination at Daily!A1, with its fields. */
const sheet = (fields: Omit<Extract<SavedReport['destination'], { kind: 'sheet' }>, 'kind' | 'target'> = {}) => ({
  kind: 'sheet' as const,
  target: { sheetName: 'Daily', cell: 'A1' },
  ...fields,
});

function report(extra: Partial<SavedReport> = {}): SavedReport {
  return {
    ...checkSavedReport({
      name: 'Daily by country',
      kind: 'main',
      entityId: 'p1',
      period: { type: 'lastDays', days: 30 },
      breakdowns: ['day', 'country'],
      destination: sheet(),
      schedule: { every: 'day', hour: 6 },
    }),
    id: 'r1',
    ownerId: 'u1',
    createdAtMs: 0,
    updatedAtMs: 0,
    ...extra,
  };
}

const day = (compact: string) =>
  new Date(zonedMidnightMs({ year: +compact.slice(0, 4), month: +compact.slice(4, 6), day: +compact.slice(6) }, TZ));

/** A written block of the report: rows of [day, country id, country name, revenue, paidPvs]. */
function block(rows: Array<[string, string, number, number]>): SheetBlock {
  return {
    values: [
      ['day', 'country.id', 'country.name', 'revenue', 'paidPvs'],
      ...rows.map(([d, c, rev, pvs]) => [day(d), c, `${c} name`, rev, pvs]),
    ],
    kinds: ['day', 'text', 'text', 'money', 'count'],
    numberFormats: ['yyyy-mm-dd', null, null, '#,##0.00 "USD"', '#,##0'],
    dataRows: rows.length,
    hasTotals: false,
  };
}

function event(atMs: number, rows: Array<[string, string, number, number]>, extra: Partial<ReportRunEvent> = {}): ReportRunEvent {
  const written = block(rows);
  return {
    report: report(),
    spreadsheet: { id: 's1', name: 'Sheet', url: 'https://example.com', timeZone: TZ },
    outcome: 'refreshed',
    by: 'schedule',
    startedAtMs: atMs,
    endedAtMs: atMs + 2_000,
    requests: 2,
    previous: {},
    status: { rows: written.dataRows, lastSuccessAtMs: atMs + 2_000 },
    block: written,
    written: { sheetName: 'Daily', row: 1, column: 1, rows: written.values.length, columns: 5 },
    ...extra,
  };
}

/** One run of the tracker over these events (a new tracker per run, as observersFor makes one). */
function run(sheets: FakeOwnSheets, events: ReportRunEvent[], closed: Array<{ revisions: Revision[]; event: ReportRunEvent }> = []) {
  const observers = [new RevisionTracker(sheets, { onClosedMonthRevisions: (revisions, e) => closed.push({ revisions, event: e }) })];
  for (const e of events) tellObservers(observers, e);
  finishObservers(observers);
  return closed;
}

const NOV_20_NOON = Date.UTC(2026, 10, 20, 12);

describe('the run log', () => {
  it("writes one row per report of the run in one batch when it is over, with a failure's trace ID and error", () => {
    const sheets = new FakeOwnSheets();
    const log = new RunLog(sheets);
    const ok = event(NOV_20_NOON, [['20261119', 'US', 10, 100]]);
    const failed = event(NOV_20_NOON + 5_000, [], {
      outcome: 'failed',
      by: 'run-now',
      requests: 3,
      endedAtMs: NOV_20_NOON + 9_400,
      status: { lastError: { message: 'Engage took too long to answer', traceId: 'trace-504', atMs: NOV_20_NOON + 9_400 } },
      report: report({ id: 'r2', name: '=SUM(1)' }),
    });
    delete failed.block;
    tellObservers([log], ok);
    tellObservers([log], failed);
    expect(sheets.calls).toEqual([]);
    finishObservers([log]);
    expect(sheets.calls).toEqual(['state Engage log', 'append Engage log']);
    expect(sheets.sheets.get('Engage log')).toEqual([
      [new Date(NOV_20_NOON), 'Daily by country', 'refreshed', 'scheduled', 1, 2, 2, '', ''],
      [new Date(NOV_20_NOON + 5_000), '=SUM(1)', 'failed', 'Run now', '', 3, 4.4, 'trace-504', 'Engage took too long to answer'],
    ]);
    expect(sheets.formats.get('Engage log')![0]![0]).toBe('yyyy-mm-dd hh:mm:ss');
    // A run with nothing to log writes nothing.
    finishObservers([log]);
    expect(sheets.calls).toHaveLength(2);
  });

  it('keeps the latest 1,000 rows and writes nothing once a user deleted its sheet', () => {
    const sheets = new FakeOwnSheets();
    for (let runIndex = 0; runIndex < 3; runIndex++) {
      const log = new RunLog(sheets);
      for (let i = 0; i < 400; i++) tellObservers([log], event(NOV_20_NOON + (runIndex * 400 + i) * 1000, []));
      finishObservers([log]);
    }
    const rows = sheets.sheets.get(RUN_LOG_SHEET.name)!;
    expect(rows).toHaveLength(LOG_KEEP_ROWS);
    expect(rows[0]![0]).toEqual(new Date(NOV_20_NOON + 200 * 1000));
    expect(rows[999]![0]).toEqual(new Date(NOV_20_NOON + 1199 * 1000));

    sheets.delete(RUN_LOG_SHEET.name);
    const log = new RunLog(sheets);
    tellObservers([log], event(NOV_20_NOON, []));
    finishObservers([log]);
    expect(sheets.sheets.has(RUN_LOG_SHEET.name)).toBe(false);
    expect(sheets.calls.at(-1)).toBe('state Engage log');
  });
});

describe('revisions', () => {
  const first: Array<[string, string, number, number]> = [
    ['20261025', 'US', 50, 500],
    ['20261118', 'US', 10, 100],
    ['20261118', 'DE', 20, 200],
    ['20261119', 'US', 30, 300],
    ['20261120', 'US', 5, 50],
  ];

  it('keeps the first figures of finished days only, and adds a row for each figure a later refresh changed', () => {
    const sheets = new FakeOwnSheets();
    run(sheets, [event(NOV_20_NOON, first)]);
    // Nov 19 ended 12 hours ago (finished); Nov 20 is today.
    const kept = sheets.sheets.get(FIRST_FIGURES_SHEET.name)!;
    expect(kept.map((r) => [r[2], r[3], r[4]])).toEqual([
      ['20261025', 'country: US (US name)', '{"revenue":50,"paidPvs":500}'],
      ['20261118', 'country: US (US name)', '{"revenue":10,"paidPvs":100}'],
      ['20261118', 'country: DE (DE name)', '{"revenue":20,"paidPvs":200}'],
      ['20261119', 'country: US (US name)', '{"revenue":30,"paidPvs":300}'],
    ]);
    expect(sheets.sheets.has(REVISIONS_SHEET.name)).toBe(false);

    const later = NOV_20_NOON + 24 * HOUR;
    const second = first.map(([d, c, rev, pvs]): [string, string, number, number] => [
      d,
      c,
      d === '20261118' && c === 'DE' ? 18 : d === '20261120' ? 7 : rev,
      pvs,
    ]);
    run(sheets, [event(later, second)]);
    expect(sheets.sheets.get(REVISIONS_SHEET.name)).toEqual([
      [new Date(later + 2_000), 'Daily by country', day('20261118'), 'country: DE (DE name)', 'revenue', 20, 18, -2, ''],
    ]);
    expect(sheets.formats.get(REVISIONS_SHEET.name)![0]![5]).toBe('#,##0.00 "USD"');

    // The same figures again: nothing new. Back to the first figure: that is a revision too (and Nov 20,
    // first kept at 7 once it had ended, now 5).
    run(sheets, [event(later + HOUR, second)]);
    expect(sheets.sheets.get(REVISIONS_SHEET.name)).toHaveLength(1);
    run(sheets, [event(later + 2 * HOUR, first)]);
    expect(sheets.sheets.get(REVISIONS_SHEET.name)!.map((r) => [r[2], r[5], r[6], r[7]])).toEqual([
      [day('20261118'), 20, 18, -2],
      [day('20261118'), 20, 20, 0],
      [day('20261120'), 7, 5, -2],
    ]);
  });

  it('waits 4 hours after a UTC day ends before keeping its figures', () => {
    const sheets = new FakeOwnSheets();
    run(sheets, [event(Date.UTC(2026, 10, 20, 3, 59), [['20261119', 'US', 30, 300]])]);
    expect(sheets.sheets.get(FIRST_FIGURES_SHEET.name) ?? []).toEqual([]);
    run(sheets, [event(Date.UTC(2026, 10, 20, 4, 0), [['20261119', 'US', 30, 300]])]);
    expect(sheets.sheets.get(FIRST_FIGURES_SHEET.name)).toHaveLength(1);
  });

  it('calls the closed-month callback exactly once per report of a run that found revisions in its closed months, with those', () => {
    const sheets = new FakeOwnSheets();
    const closedReport = report({ destination: sheet({ closedThrough: '2026-10' }) });
    const open = report({ id: 'r2', name: 'Open months' });
    const closed: Array<{ revisions: Revision[]; event: ReportRunEvent }> = [];
    run(sheets, [event(NOV_20_NOON, first, { report: closedReport }), event(NOV_20_NOON, first, { report: open })], closed);
    const revised = first.map(([d, c, rev, pvs]): [string, string, number, number] => [d, c, d < '20261120' ? rev * 0.9 : rev, pvs]);
    const later = NOV_20_NOON + 24 * HOUR;
    run(sheets, [event(later, revised, { report: closedReport }), event(later, revised, { report: open })], closed);

    expect(closed).toHaveLength(1);
    expect(closed[0]!.event.report.id).toBe('r1');
    expect(closed[0]!.revisions).toEqual([
      expect.objectContaining({
        day: '20261025',
        keys: 'country: US (US name)',
        metric: 'revenue',
        first: 50,
        now: 45,
        inClosedMonth: true,
      }),
    ]);
    // Every revision is in the sheet; those of the closed month say so.
    const rows = sheets.sheets.get(REVISIONS_SHEET.name)!;
    expect(rows).toHaveLength(8);
    expect(rows.filter((r) => r[8] === 'closed').map((r) => [r[1], r[4]])).toEqual([['Daily by country', 'revenue']]);
    // No revision in the next run: no call.
    run(sheets, [event(later + HOUR, revised, { report: closedReport })], closed);
    expect(closed).toHaveLength(1);
  });

  it("reads an append's own rows, not its earlier snapshots: a restated day is one revision, not one at every run", () => {
    const sheets = new FakeOwnSheets();
    const appended = report({ destination: sheet({ writeMode: 'append', maxStoredRows: 1000 }) });
    run(sheets, [event(NOV_20_NOON, first, { report: appended })]);
    const revised = first.map(([d, c, rev, pvs]): [string, string, number, number] => [d, c, d < '20261120' ? rev * 0.9 : rev, pvs]);
    const later = NOV_20_NOON + 24 * HOUR;
    // The block written holds every snapshot kept (the first figures among them); the run's own rows are the revised ones.
    run(sheets, [event(later, revised, { report: appended, block: block([...first, ...revised]), fetched: block(revised) })]);
    const told = sheets.sheets.get(REVISIONS_SHEET.name)!.length;
    expect(told).toBeGreaterThan(0);
    run(sheets, [
      event(later + HOUR, revised, { report: appended, block: block([...first, ...revised, ...revised]), fetched: block(revised) }),
    ]);
    expect(sheets.sheets.get(REVISIONS_SHEET.name)!).toHaveLength(told);
  });

  it('starts afresh when the report asks for its figures differently, and drops days that left its period', () => {
    const sheets = new FakeOwnSheets();
    run(sheets, [event(NOV_20_NOON, first)]);
    const inEuros = report({ currencyCode: 'EUR', period: { type: 'lastDays', days: 7 } });
    run(sheets, [
      event(
        NOV_20_NOON + HOUR,
        first.map(([d, c, rev, pvs]) => [d, c, rev * 0.95, pvs]),
        { report: inEuros },
      ),
    ]);
    expect(sheets.sheets.has(REVISIONS_SHEET.name)).toBe(false);
    // The 7 days from Nov 14: Oct 25 is gone.
    expect(sheets.sheets.get(FIRST_FIGURES_SHEET.name)!.map((r) => r[2])).toEqual(['20261118', '20261118', '20261119']);
  });

  it('compares only the days an incremental refresh fetched: the rows before them came back from the sheet', () => {
    const sheets = new FakeOwnSheets();
    const incremental = report({ destination: sheet({ incremental: true }), period: { type: 'since', fromDate: '20261101' } });
    run(sheets, [event(NOV_20_NOON, first.slice(1), { report: incremental })]);
    // The next day fetches from Nov 17 (3 days before Nov 20); a Nov 10 row edited in the sheet is not a revision.
    const edited: Array<[string, string, number, number]> = [
      ['20261110', 'US', 999, 1],
      ...first.slice(1).map(([d, c, r, p]): [string, string, number, number] => [d, c, r + 1, p]),
    ];
    run(sheets, [event(NOV_20_NOON + 24 * HOUR, edited, { report: incremental, previous: { fetchedThrough: '20261120' } })]);
    expect(sheets.sheets.get(REVISIONS_SHEET.name)!.map((r) => r[2])).toEqual([day('20261118'), day('20261118'), day('20261119')]);
  });

  it('keeps nothing while a user has deleted the revisions sheet', () => {
    const sheets = new FakeOwnSheets();
    run(sheets, [event(NOV_20_NOON, first)]);
    run(sheets, [
      event(
        NOV_20_NOON + 24 * HOUR,
        first.map(([d, c, rev, pvs]) => [d, c, rev + 1, pvs]),
      ),
    ]);
    sheets.delete(REVISIONS_SHEET.name);
    sheets.calls.length = 0;
    run(sheets, [
      event(
        NOV_20_NOON + 25 * HOUR,
        first.map(([d, c, rev, pvs]) => [d, c, rev + 2, pvs]),
      ),
    ]);
    expect(sheets.calls).toEqual(['state Engage revisions']);
    expect(sheets.sheets.has(REVISIONS_SHEET.name)).toBe(false);
  });

  it('ignores reports that are not daily general reports, and failed refreshes', () => {
    const sheets = new FakeOwnSheets();
    const monthly = report({ breakdowns: ['month'] });
    run(sheets, [event(NOV_20_NOON, first, { report: monthly }), event(NOV_20_NOON, first, { outcome: 'failed' })]);
    expect(sheets.calls).toEqual([]);
  });
});

describe('the first figures', () => {
  it(`keep at most ${FIRST_FIGURES_MAX_ROWS.toLocaleString('en')} rows, dropping the oldest days first`, () => {
    const table = new FirstFigures();
    const seen = Array.from({ length: FIRST_FIGURES_MAX_ROWS + 10 }, (_, i) => ({
      day: i < 10 ? '20261001' : '20261102',
      keys: `widget: ${i}`,
      figures: { revenue: i },
    }));
    table.observe('r1', 'basis', seen, NOV_20_NOON, '20261001');
    const rows = table.toRows().values;
    expect(rows).toHaveLength(FIRST_FIGURES_MAX_ROWS);
    expect(rows.some((r) => r[2] === '20261001')).toBe(false);
    // What was written reads back the same.
    expect(FirstFigures.fromRows(rows).toRows().values).toEqual(rows);
  });
});

describe('closed months in a saved report', () => {
  const definition = {
    name: 'Closed',
    kind: 'main',
    entityId: 'p1',
    period: { type: 'lastDays', days: 30 },
    breakdowns: ['day'],
    destination: sheet(),
    schedule: { every: 'day', hour: 6 },
  };

  it('takes a month as yyyy-MM that has ended, for daily general reports only', () => {
    expect(checkSavedReport({ ...definition, destination: sheet({ closedThrough: '2026-10' }) }).destination).toEqual(
      sheet({ closedThrough: '2026-10' }),
    );
    expect(() => checkSavedReport({ ...definition, destination: sheet({ closedThrough: '2026-13' }) })).toThrow(
      /closedThrough: must be a month as yyyy-MM/,
    );
    expect(() => checkSavedReport({ ...definition, destination: { ...sheet(), closedThrough: 202610 } })).toThrow(
      /closedThrough: must be a month as yyyy-MM/,
    );
    expect(() => checkSavedReport({ ...definition, breakdowns: ['month'], destination: sheet({ closedThrough: '2026-10' }) })).toThrow(
      /closedThrough: closes months of a daily report only/,
    );
    expect(() => checkClosedThrough({ destination: sheet({ closedThrough: '2026-11' }) }, NOV_20_NOON)).toThrow(
      /closedThrough: 2026-11 has not ended yet.*2026-10/,
    );
    expect(() => checkClosedThrough({ destination: sheet({ closedThrough: '2026-10' }) }, NOV_20_NOON)).not.toThrow();
  });
});

describe('the notice of a closed month', () => {
  const revision = (day: string, first: number, now: number, keys = ''): Revision => ({
    reportId: 'r1',
    reportName: 'Daily by country',
    day,
    keys,
    metric: 'revenue',
    first,
    previous: first,
    now,
    seenAtMs: NOV_20_NOON,
    inClosedMonth: true,
  });

  it('names the months and lists each figure with its first value, now and the change', () => {
    const notice = closedMonthNotice([revision('20261025', 50, 45, 'country: US (US name)'), revision('20260930', 0, 2)]);
    expect(notice.subject).toBe('figures of closed months 2026-09, 2026-10 changed in "Daily by country"');
    expect(notice.lines).toEqual([
      'A refresh on 2026-11-20T12:00:00.000Z found 2 figures of 2026-09, 2026-10 different from when first seen, in months you closed for this report.',
      '2026-10-25, country: US (US name): revenue was 50 when first seen, now 45, -5 (-10.0%)',
      '2026-09-30: revenue was 0 when first seen, now 2, +2',
      'Every revision is in the sheet "Engage revisions" of the spreadsheet.',
    ]);
  });

  it(`lists at most ${CLOSED_MONTH_NOTICE_LINES} figures and says how many more there are`, () => {
    const many = Array.from({ length: 13 }, (_, i) => revision(`202610${String(i + 1).padStart(2, '0')}`, 10, 11));
    const notice = closedMonthNotice(many);
    expect(notice.subject).toBe('figures of closed month 2026-10 changed in "Daily by country"');
    expect(notice.lines.filter((l) => l.startsWith('2026-10-'))).toHaveLength(CLOSED_MONTH_NOTICE_LINES);
    expect(notice.lines).toContain('…and 3 more.');
  });
});
