/**
 * Write modes of saved reports (write-modes.ts): the rules that tie a mode and a cap to the rest of a
 * definition, each refusal naming its field; the upsert key of each report kind; a change that would
 * write over kept rows refused; and the runner with a sheet held in memory: an append keeps each
 * run's rows under a snapshotAt, an upsert merges them, a failed page adds nothing, and a report
 * switched from replace starts its history over the replaced block instead of merging with it.
 */
import { RefreshRunner } from '../../../../../src/core/schedules/refresh/refresh-runner';
import type { ReportSource } from '../../../../../src/core/schedules/refresh/refresh-source';
import { buildReportQuery } from '../../../../../src/core/api/requests/report-request';
import { checkSavedReport, type SavedReportInput } from '../../../../../src/core/schedules/saved/saved-reports';
import {
  keepHistory,
  storedRowsCap,
  upsertKeyText,
  writeModeOf,
  writeModeSummary,
} from '../../../../../src/core/schedules/saved/write-modes';
import { SavedReportStore } from '../../../../../src/core/schedules/saved/saved-report-store';
import { FakeLock, FakeStore, ManualClock } from '../../../../support/fakes';
import type { Cell, ReportSheet, WrittenBlock } from '../../../../../src/core/ports';
import { Destinations } from '../../../../../src/core/schedules/refresh/destination';
import { sheetDestination } from '../../../../../src/core/destinations/sheet/sheet-destination';

const OWNER = 'u-owner';
/** The sheet destination at Data!A1, with its mode fields. */
const sheet = (fields: Record<string, unknown> = {}) => ({ kind: 'sheet', target: { sheetName: 'Data', cell: 'A1' }, ...fields });
/** A checked report with its destination's fields changed. */
const changed = <R extends SavedReportInput>(report: R, fields: Partial<SavedReportInput['destination']>): R => ({
  ...report,
  destination: { ...report.destination, ...fields },
});
const definition = (extra: Record<string, unknown> = {}) => ({
  name: 'Countries',
  kind: 'main',
  entityId: 'p',
  period: { type: 'lastDays', days: 7 },
  breakdowns: ['country'],
  destination: sheet(),
  schedule: { every: 'hour' },
  ...extra,
});

describe('the write mode of a saved report', () => {
  it.each([
    [{ destination: sheet({ writeMode: 'merge' }) }, /^writeMode: must be 'replace', 'append' or 'upsert'$/],
    [{ destination: sheet({ writeMode: 'append', maxStoredRows: 0 }) }, /^maxStoredRows: must be a whole number from 1 to 1000000$/],
    [{ destination: sheet({ writeMode: 'append', maxStoredRows: 2.5 }) }, /^maxStoredRows: must be a whole number from 1 to 1000000$/],
    [
      { destination: sheet({ writeMode: 'upsert', maxStoredRows: 1_000_001 }) },
      /^maxStoredRows: must be a whole number from 1 to 1000000$/,
    ],
    [{ destination: sheet({ writeMode: 'append', maxStoredRows: '500' }) }, /^maxStoredRows: must be a whole number/],
    [{ destination: sheet({ maxStoredRows: 500 }) }, /^maxStoredRows: applies to writeMode 'append' or 'upsert' only/],
    [
      { destination: sheet({ writeMode: 'upsert' }), compareWith: 'previous' },
      /^writeMode: 'upsert' cannot take a comparison: .*use 'append'/,
    ],
    [{ destination: sheet({ writeMode: 'append' }), totals: true }, /^totals: cannot be combined with writeMode 'append'/],
    [
      { destination: sheet({ writeMode: 'upsert' }), totals: true },
      /^totals: cannot be combined with writeMode 'upsert': totals of rates cannot be merged/,
    ],
    [
      { destination: sheet({ writeMode: 'append', incremental: true }), breakdowns: ['day'] },
      /^writeMode: 'append' cannot be combined with incremental/,
    ],
    [
      { destination: sheet({ writeMode: 'replace', incremental: true }), breakdowns: ['day'] },
      /^writeMode: 'replace' cannot be combined with incremental/,
    ],
  ])('refuses %j, naming the field', (extra, message) => {
    expect(() => checkSavedReport(definition(extra))).toThrow(message);
  });

  it('takes every mode for every kind, the hourly reports included, and a comparison appended', () => {
    for (const writeMode of ['replace', 'append', 'upsert']) {
      expect(checkSavedReport(definition({ destination: sheet({ writeMode }) })).destination).toEqual(sheet({ writeMode }));
      for (const kind of ['externalId', 'realtime'])
        expect(
          checkSavedReport(
            definition({
              destination: sheet({ writeMode }),
              kind,
              breakdowns: ['externalId', 'widget'],
              period: { type: 'lastHours', hours: 24 },
            }),
          ).kind,
        ).toBe(kind);
    }
    expect(
      checkSavedReport(definition({ destination: sheet({ writeMode: 'append', maxStoredRows: 10 }), compareWith: 'previous' })).destination,
    ).toEqual(sheet({ writeMode: 'append', maxStoredRows: 10 }));
    expect(
      checkSavedReport(definition({ destination: sheet({ writeMode: 'upsert', incremental: true }), breakdowns: ['day'] })).destination,
    ).toEqual(sheet({ writeMode: 'upsert', incremental: true }));
  });

  it('reads a report saved before modes as replace, and an incremental one as an upsert of its period', () => {
    expect(writeModeOf({ destination: {} })).toBe('replace');
    expect(writeModeOf({ destination: { incremental: true } })).toBe('upsert');
    expect(storedRowsCap({ destination: {} })).toBe(100_000);
    expect(storedRowsCap({ destination: { incremental: true } })).toBe(Number.POSITIVE_INFINITY);
    expect(writeModeSummary({ destination: {} })).toBe('');
    expect(writeModeSummary({ destination: { writeMode: 'append', maxStoredRows: 5000 } })).toBe('append, up to 5,000 rows');
    expect(writeModeSummary({ destination: { incremental: true } })).toBe('incremental');
  });

  it('says what keys an upsert of each kind', () => {
    expect(upsertKeyText({ kind: 'main', breakdowns: [] })).toBe('day');
    expect(upsertKeyText({ kind: 'main', entityId: 'all', breakdowns: ['day', 'country'] })).toBe('publisher.id, day, country.id');
    expect(upsertKeyText({ kind: 'externalId', breakdowns: ['widget', 'externalSecondaryId'] })).toBe(
      'externalId, widget.id, externalSecondaryId, and the hour where Engage sends one',
    );
    expect(upsertKeyText({ kind: 'realtime' })).toBe('externalId, and the hour where Engage sends one');
  });

  it('refuses a change that would write over kept rows, and lets one through elsewhere or with nothing kept', () => {
    const appended = checkSavedReport(definition({ destination: sheet({ writeMode: 'append' }) }));
    const written: WrittenBlock = { sheetName: 'Data', row: 1, column: 1, rows: 31, columns: 3 };
    expect(() => keepHistory(appended, changed(appended, { writeMode: 'replace' }), { written })).toThrow(
      /^writeMode: cannot turn 'append' into 'replace' at Data!A1: the next run would write over the 30 rows it kept there/,
    );
    const upserted = checkSavedReport(definition({ destination: sheet({ writeMode: 'upsert' }), breakdowns: ['day'] }));
    expect(() => keepHistory(upserted, changed(upserted, { incremental: true }), { written })).toThrow(/into an incremental upsert/);
    expect(() =>
      keepHistory(appended, changed(appended, { writeMode: 'upsert', target: { sheetName: 'Other', cell: 'A1' } }), { written }),
    ).not.toThrow();
    expect(() => keepHistory(appended, changed(appended, { writeMode: 'replace' }), {})).not.toThrow();
    expect(() => keepHistory(appended, changed(appended, { maxStoredRows: 10 }), { written })).not.toThrow();
  });
});

/** A sheet held in memory: what was written, as read back. */
function memorySheet() {
  const blocks = new Map<string, Cell[][]>();
  let writes = 0;
  const sheet: ReportSheet = {
    write(placement, block) {
      writes++;
      blocks.set(
        placement.sheetName,
        block.values.map((row) => [...row]),
      );
      return { ...placement, rows: block.values.length, columns: block.values[0]?.length ?? 0 };
    },
    read: (block) => blocks.get(block.sheetName)?.map((row) => [...row]) ?? null,
    note: () => undefined,
    sheetNames: () => [...blocks.keys()],
  };
  return { sheet, values: (name: string) => blocks.get(name), writes: () => writes };
}

function runnerSetup() {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
  const store = new SavedReportStore({ store: new FakeStore(), lock: new FakeLock(), clock });
  const memory = memorySheet();
  let revenue = 10;
  let failing = false;
  const source: ReportSource = {
    checkSignedIn: () => undefined,
    buildQuery: (kind, input) => buildReportQuery(kind, input, { nowMs: clock.now(), timeZone: 'UTC' }),
    run(query) {
      if (failing) throw new Error('Engage took too long to answer page 2 (trace ID t-9)');
      revenue += 10;
      return {
        result: {
          query,
          items: [
            { country: { id: 'US', name: 'United States' }, revenue },
            { country: { id: 'DE', name: 'Germany' }, revenue: revenue + 1 },
          ],
          totalItems: 2,
          metricsSums: { revenue: 2 * revenue + 1 },
          partial: false,
          pagesFetched: 1,
          pagesPlanned: 1,
        },
        requests: 1,
      };
    },
    runTogether: () => {
      throw new Error('no comparison is saved here');
    },
    budgetFreeAtMs: () => clock.now(),
    fetchRoomFor: () => true,
  };
  const runner = new RefreshRunner({
    store,
    source,
    destinations: new Destinations([sheetDestination()]),
    sheet: memory.sheet,
    clock,
    timeZone: 'UTC',
    ownerId: OWNER,
  });
  const save = (extra: Record<string, unknown>) => store.create(checkSavedReport(definition({ metrics: ['revenue'], ...extra })), OWNER);
  return { clock, store, runner, memory, save, fail: (on: boolean) => (failing = on) };
}

describe('the runner in each write mode', () => {
  it('appends each run under its time, and a failed page adds nothing', () => {
    const { clock, store, runner, memory, save, fail } = runnerSetup();
    const report = save({ destination: sheet({ writeMode: 'append' }) });
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      times.push(clock.now());
      expect(runner.run({ only: [report.id] }).refreshed).toEqual([report.id]);
      clock.advance(3_600_000);
    }
    const three = memory.values('Data')!;
    expect(three[0]).toEqual(['snapshotAt', 'country.id', 'country.name', 'revenue']);
    expect(three.slice(1).map((r) => [(r[0] as Date).getTime(), r[1], r[3]])).toEqual([
      [times[0], 'US', 20],
      [times[0], 'DE', 21],
      [times[1], 'US', 30],
      [times[1], 'DE', 31],
      [times[2], 'US', 40],
      [times[2], 'DE', 41],
    ]);
    expect(store.status(report.id)).toMatchObject({ rows: 6, writtenAs: 'append' });
    const writes = memory.writes();
    fail(true);
    expect(runner.run({ only: [report.id] }).failed).toEqual([report.id]);
    expect(memory.writes()).toBe(writes);
    expect(memory.values('Data')).toEqual(three);
    expect(store.status(report.id)).toMatchObject({ rows: 6, failures: 1, lastError: { message: expect.stringMatching(/page 2/) } });
  });

  it('upserts by the report key, and starts over a block a replace wrote rather than merging its Total row', () => {
    const { clock, store, runner, memory, save } = runnerSetup();
    const report = save({});
    runner.run({ only: [report.id] });
    expect(memory.values('Data')!.map((r) => r[0])).toEqual(['country.id', 'US', 'DE', 'Total']);
    const { id: _id, ownerId: _o, createdAtMs: _c, updatedAtMs: _u, ...input } = report;
    store.update(report.id, checkSavedReport(changed(input, { writeMode: 'upsert' })) as SavedReportInput);
    clock.advance(3_600_000);
    runner.run({ only: [report.id] });
    clock.advance(3_600_000);
    runner.run({ only: [report.id] });
    expect(memory.values('Data')).toEqual([
      ['country.id', 'country.name', 'revenue'],
      ['US', 'United States', 40],
      ['DE', 'Germany', 41],
    ]);
    expect(store.status(report.id).writtenAs).toBe('upsert');
  });
});
