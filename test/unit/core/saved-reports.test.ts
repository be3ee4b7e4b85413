import { checkSavedReport, resolvePeriod, SavedReportStore, SAVED_REPORTS_INDEX_KEY, MAX_SAVED_REPORTS } from '../../../src/core/saved-reports';
import { FakeLock, FakeStore, ManualClock } from '../../support/fakes';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const input = (extra: Record<string, unknown> = {}) => checkSavedReport({
  name: 'Daily', kind: 'main', entityId: 'pub', period: { type: 'lastDays', days: 7 }, breakdowns: ['day'],
  target: { sheetName: 'Data', cell: 'A1' }, schedule: { every: 'day', hour: 6 }, ...extra,
});

describe('saved reports', () => {
  it('keeps one property per definition and an index of ids', () => {
    const store = new FakeStore();
    const reports = new SavedReportStore({ store, lock: new FakeLock(), clock: new ManualClock(NOW) });
    const a = reports.create(input(), 'u1');
    const b = reports.create(input({ name: 'Other' }), 'u1');
    expect(JSON.parse(store.get(SAVED_REPORTS_INDEX_KEY)!)).toEqual([a.id, b.id]);
    reports.setStatus(a.id, { rows: 3 });
    reports.remove(a.id);
    expect(reports.list().map((r) => r.name)).toEqual(['Other']);
    expect(reports.status(a.id)).toEqual({});
  });

  it('refuses a definition above the 9 KB a property holds, and more than the most a document may keep', () => {
    const reports = new SavedReportStore({ store: new FakeStore(), lock: new FakeLock(), clock: new ManualClock(NOW) });
    expect(() => reports.create(input({ filter: 'x'.repeat(2000), name: 'y'.repeat(100) }), 'u'.repeat(8000))).toThrow(/at most 9216/);
    for (let i = 0; i < MAX_SAVED_REPORTS; i++) reports.create(input(), 'u1');
    expect(() => reports.create(input(), 'u1')).toThrow(/already has 100 saved reports/);
  });

  it('names the field and the rule of a bad definition', () => {
    expect(() => input({ period: { type: 'lastHours', hours: 3 } })).toThrow(/period: the general report covers days/);
    expect(() => input({ incremental: true, breakdowns: ['country'] })).toThrow(/incremental: needs the general report broken down by day/);
    expect(() => input({ target: { sheetName: 'Data', cell: 'A1:B2' } })).toThrow(/target\.cell: must be one cell such as A1/);
  });

  it('resolves relative periods to UTC days, and hourly periods to whole UTC hours', () => {
    expect(resolvePeriod({ type: 'lastDays', days: 7 }, NOW)).toEqual({ fromDate: '20261114', toDate: '20261120' });
    expect(resolvePeriod({ type: 'lastHours', hours: 3 }, NOW + 25 * 60_000)).toEqual({ fromDate: '2026112010', toDate: '2026112013' });
  });
});
