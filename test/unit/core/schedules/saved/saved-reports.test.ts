import { checkSavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { FakeLock, FakeStore, ManualClock } from '../../../../support/fakes';
import { resolvePeriod } from '../../../../../src/core/schedules/saved/period';
import {
  SavedReportStore,
  SAVED_REPORTS_INDEX_KEY,
  MAX_SAVED_REPORTS,
  SAVED_REPORTS_MAX_BYTES,
  STATUS_MAX_BYTES,
} from '../../../../../src/core/schedules/saved/saved-report-store';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const input = (extra: Record<string, unknown> = {}) =>
  checkSavedReport({
    name: 'Daily',
    kind: 'main',
    entityId: 'pub',
    period: { type: 'lastDays', days: 7 },
    breakdowns: ['day'],
    target: { sheetName: 'Data', cell: 'A1' },
    schedule: { every: 'day', hour: 6 },
    ...extra,
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
    expect(() => reports.create(input({ filter: 'x'.repeat(2000), name: 'y'.repeat(100) }), 'u'.repeat(8000))).toThrow(/at most 9000 /);
    for (let i = 0; i < MAX_SAVED_REPORTS; i++) reports.create(input(), 'u1');
    expect(() => reports.create(input(), 'u1')).toThrow(/already has 100 saved reports/);
  });

  it("refuses a report the document's properties have no room for, before writing anything", () => {
    const store = new FakeStore();
    // Properties from elsewhere: 495,000 bytes of the store's 500 KB, read as 500,000 bytes (the stricter of 500,000 and 512,000).
    for (let i = 0; i < 55; i++) store.values.set(`other.${i}`, 'x'.repeat(9000 - `other.${i}`.length));
    const reports = new SavedReportStore({ store, lock: new FakeLock(), clock: new ManualClock(NOW) });
    reports.create(input(), 'u1');
    const before = store.entries();
    // A second one with a long filter needs its definition and room for its status: more than is left.
    expect(() => reports.create(input({ name: 'Second', filter: 'revenue:gt:1;'.repeat(100) }), 'u1')).toThrow(
      /^savedReport: there is no room for it: this spreadsheet's properties would take 50\d KB of the 500 KB Apps Script keeps per document: delete a saved report first$/,
    );
    // Some 50x,000 bytes: it would fit 512,000, the looser reading; the check keeps to the stricter.
    expect(store.entries()).toEqual(before);
    expect(reports.list().map((r) => r.name)).toEqual(['Daily']);
  });

  it('keeps saved reports within their share of the properties, counting every status at its most', () => {
    const store = new FakeStore();
    const reports = new SavedReportStore({ store, lock: new FakeLock(), clock: new ManualClock(NOW) });
    // Definitions of some 3 KB: the longest filter, and a name and a sheet name of 100 three-byte characters.
    const long = (i: number) =>
      input({ name: `${i} ${'€'.repeat(95)}`, filter: 'revenue:gt:1;'.repeat(153), target: { sheetName: '€'.repeat(100), cell: 'A1' } });
    let saved = 0;
    let refusal = '';
    for (; saved < MAX_SAVED_REPORTS; saved++) {
      try {
        reports.create(long(saved), 'u1');
      } catch (e) {
        refusal = (e as Error).message;
        break;
      }
    }
    expect(saved).toBeLessThan(MAX_SAVED_REPORTS);
    expect(refusal).toMatch(
      /^savedReport: there is no room for it: saved reports would take 43\d KB of the 430 KB they may use of this spreadsheet's properties/,
    );
    expect(reports.ids()).toHaveLength(saved);
    // Every report can still record a long failure: the room was set aside.
    const bytes = () => [...store.values].reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
    for (const id of reports.ids())
      reports.setStatus(id, { failures: 1, lastAttemptAtMs: NOW, lastError: { message: 'é'.repeat(3000), atMs: NOW, traceId: 't' } });
    expect(bytes()).toBeLessThanOrEqual(SAVED_REPORTS_MAX_BYTES);
  });

  it('keeps a status within its room by shortening a long error message', () => {
    const store = new FakeStore();
    const reports = new SavedReportStore({ store, lock: new FakeLock(), clock: new ManualClock(NOW) });
    const { id } = reports.create(input(), 'u1');
    reports.setStatus(id, { rows: 3, lastError: { message: `Engage answered ${'€'.repeat(4000)}`, atMs: NOW } });
    expect(Buffer.byteLength(store.get(`engage.sr.status.${id}`)!)).toBeLessThanOrEqual(STATUS_MAX_BYTES);
    expect(reports.status(id)).toMatchObject({ rows: 3, lastError: { message: expect.stringMatching(/^Engage answered €+\.\.\.$/) } });
  });

  it('leaves no definition behind when the index cannot be written', () => {
    const store = new FakeStore();
    const failing = Object.assign(Object.create(store) as FakeStore, {
      set(key: string, value: string) {
        if (key === SAVED_REPORTS_INDEX_KEY) throw new Error('You have exceeded the property storage quota.');
        store.set(key, value);
      },
    });
    const reports = new SavedReportStore({ store: failing, lock: new FakeLock(), clock: new ManualClock(NOW) });
    expect(() => reports.create(input(), 'u1')).toThrow(/quota/);
    expect(store.entries()).toEqual({});
  });

  it('names the field and the rule of a bad definition', () => {
    expect(() => input({ period: { type: 'lastHours', hours: 3 } })).toThrow(/period: the general report covers days/);
    expect(() => input({ incremental: true, breakdowns: ['country'] })).toThrow(/incremental: needs the general report broken down by day/);
    expect(() => input({ target: { sheetName: 'Data', cell: 'A1:B2' } })).toThrow(/target\.cell: must be one cell such as A1/);
  });

  it("names the field in messages of its own, not the schema library's", () => {
    expect(() => checkSavedReport(undefined)).toThrow(/^report: must be a saved report: an object with name, kind/);
    expect(() => input({ colour: 'red' })).toThrow(/^colour: is not a field of a saved report$/);
    expect(() => input({ breakdowns: 'day' })).toThrow(/^breakdowns: must be a list of breakdown names/);
    expect(() => input({ breakdowns: ['day', 'a', 'b', 'c', 'd'] })).toThrow(/^breakdowns: has more than 4 breakdowns/);
    expect(() => input({ currencyCode: 'EURO' })).toThrow(/^currencyCode: must be a three-letter currency code/);
    expect(() => input({ maxRows: 0 })).toThrow(/^maxRows: must be a whole number from 1 to 100000/);
    expect(() => input({ paused: 'yes' })).toThrow(/^paused: must be true or false/);
    expect(() => input({ target: undefined })).toThrow(/^target: must be a sheet name and a cell such as A1/);
    expect(() => input({ name: 'Daily\u0000' })).toThrow(/^name: must not contain control characters/);
    expect(() => input({ target: { sheetName: 'Da\u0007ta', cell: 'A1' } })).toThrow(
      /^target\.sheetName: must not contain control characters/,
    );
  });

  it("bounds pageSize by the report's own page maximum, naming pageSize", () => {
    expect(() => input({ pageSize: 20000 })).toThrow(/^pageSize: 20000 must be a whole number from 1 to 10000 for the general report/);
    expect(() => input({ kind: 'externalId', breakdowns: undefined, period: { type: 'lastHours', hours: 2 }, pageSize: 6000 })).toThrow(
      /from 1 to 5000 for the external-ID report/,
    );
    expect(input({ pageSize: 10000 }).pageSize).toBe(10000);
  });

  it('says what an id must be when none is given', () => {
    const reports = new SavedReportStore({ store: new FakeStore(), lock: new FakeLock(), clock: new ManualClock(NOW) });
    expect(() => reports.findOrThrow(undefined)).toThrow(/^id: must be the id of a saved report of this spreadsheet$/);
    expect(() => reports.findOrThrow('nope')).toThrow(/^id: "nope" is not a saved report of this spreadsheet/);
  });

  it('resolves relative periods to UTC days, and hourly periods to whole UTC hours', () => {
    expect(resolvePeriod({ type: 'lastDays', days: 7 }, NOW)).toEqual({ fromDate: '20261114', toDate: '20261120' });
    expect(resolvePeriod({ type: 'lastHours', hours: 3 }, NOW + 25 * 60_000)).toEqual({ fromDate: '2026112010', toDate: '2026112013' });
  });
});
