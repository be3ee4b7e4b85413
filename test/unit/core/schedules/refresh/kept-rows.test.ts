/**
 * Append and upsert on sheet values (kept-rows.ts): snapshots stamped with the run's time, whole
 * oldest snapshots dropped past the cap; upsert by the report's key with its day or hour, or without
 * one (the external-ID reports) the keys a run did not bring kept above its rows; text keys compared as
 * read back; columns of kept rows never dropped.
 */
import { appendRows, stampSnapshot, upsertRows, type KeptRowsOptions } from '../../../../../src/core/schedules/refresh/kept-rows';
import { periodStartMs } from '../../../../../src/core/sheets/report-table';
import { columnKind, numberFormatOf } from '../../../../../src/core/sheets/sheet-output';
import type { Cell, SheetBlock } from '../../../../../src/core/ports';

const day = (d: string) => new Date(periodStartMs('day', d, 'UTC')!);
const hour = (h: string) => new Date(periodStartMs('hour', h, 'UTC')!);
const T1 = Date.parse('2026-11-20T12:00:00Z');
const T2 = T1 + 3_600_000;
const T3 = T2 + 3_600_000;

function block(header: string[], rows: Cell[][]): SheetBlock {
  const kinds = header.map(columnKind);
  return {
    values: [header, ...rows],
    kinds,
    numberFormats: kinds.map((k) => numberFormatOf(k)),
    headerNotes: header.map(() => ''),
    dataRows: rows.length,
    hasTotals: false,
  };
}
const options = (breakdowns: string[], cap = Number.POSITIVE_INFINITY): KeptRowsOptions => ({
  cap,
  breakdowns,
  kindOf: columnKind,
  formatOf: (k) => numberFormatOf(k),
});
const rowsOf = (b: SheetBlock) => b.values.slice(1, 1 + b.dataRows);
const at = (ms: number) => new Date(ms);

describe('append', () => {
  const run = (revenue: number) =>
    block(
      ['country.id', 'revenue'],
      [
        ['US', revenue],
        ['DE', revenue + 1],
      ],
    );

  it('adds each run below the earlier ones, its rows stamped with its time in a first column snapshotAt', () => {
    let kept: Cell[][] | null = null;
    for (const [ms, revenue] of [
      [T1, 10],
      [T2, 20],
      [T3, 30],
    ] as const) {
      const written = appendRows(kept, stampSnapshot(run(revenue), ms, 'Europe/Berlin'), options(['country']));
      kept = written.values;
    }
    expect(kept![0]).toEqual(['snapshotAt', 'country.id', 'revenue']);
    expect(kept!.slice(1)).toEqual([
      [at(T1), 'US', 10],
      [at(T1), 'DE', 11],
      [at(T2), 'US', 20],
      [at(T2), 'DE', 21],
      [at(T3), 'US', 30],
      [at(T3), 'DE', 31],
    ]);
    const stamped = stampSnapshot(run(1), T1, 'Europe/Berlin');
    expect(stamped.kinds[0]).toBe('dateTime');
    expect(stamped.numberFormats[0]).toBe('yyyy-mm-dd hh:mm:ss');
    expect(stamped.headerNotes![0]).toMatch(/Europe\/Berlin/);
  });

  it('drops whole snapshots, the oldest first, past the cap; a run that alone passes it keeps its first rows', () => {
    const first = appendRows(null, stampSnapshot(run(10), T1, 'UTC'), options(['country'], 5));
    const second = appendRows(first.values, stampSnapshot(run(20), T2, 'UTC'), options(['country'], 5));
    expect(second.dataRows).toBe(4);
    // 6 rows would pass 5: the first snapshot goes whole, not one row of it.
    const third = appendRows(second.values, stampSnapshot(run(30), T3, 'UTC'), options(['country'], 5));
    expect(rowsOf(third).map((r) => [(r[0] as Date).getTime(), r[1]])).toEqual([
      [T2, 'US'],
      [T2, 'DE'],
      [T3, 'US'],
      [T3, 'DE'],
    ]);
    const alone = appendRows(third.values, stampSnapshot(run(40), T3 + 1, 'UTC'), options(['country'], 1));
    expect(rowsOf(alone)).toEqual([[at(T3 + 1), 'US', 40]]);
  });

  it('keeps every column of the kept rows: one the report no longer has stays, a new one comes at the right', () => {
    const first = appendRows(
      null,
      stampSnapshot(block(['country.id', 'revenue', 'totalPvs'], [['US', 1, 100]]), T1, 'UTC'),
      options(['country']),
    );
    const second = appendRows(
      first.values,
      stampSnapshot(block(['country.id', 'revenue', 'paidClicks'], [['US', 2, 7]]), T2, 'UTC'),
      options(['country']),
    );
    expect(second.values).toEqual([
      ['snapshotAt', 'country.id', 'revenue', 'totalPvs', 'paidClicks'],
      [at(T1), 'US', 1, 100, ''],
      [at(T2), 'US', 2, '', 7],
    ]);
    expect(second.kinds).toEqual(['dateTime', 'text', 'money', 'count', 'count']);
  });

  it('starts afresh over a block whose header was cleared, and leaves out rows left blank', () => {
    const cleared = [
      ['', '', ''],
      ['', '', ''],
    ];
    expect(appendRows(cleared, stampSnapshot(run(5), T1, 'UTC'), options(['country'])).dataRows).toBe(2);
    const kept = [
      ['snapshotAt', 'country.id', 'revenue'],
      ['', '', ''],
      [at(T1), 'US', 1],
    ];
    expect(rowsOf(appendRows(kept, stampSnapshot(run(5), T2, 'UTC'), options(['country'])))).toHaveLength(3);
  });
});

describe('upsert', () => {
  const header = ['day', 'country.id', 'revenue'];

  it('replaces the rows of the keys a run brings, keeps the others, orders by day then key and drops the oldest days past the cap', () => {
    const kept = block(header, [
      [day('20261101'), 'US', 1],
      [day('20261102'), 'DE', 2],
      [day('20261102'), 'US', 3],
    ]).values;
    const fresh = block(header, [
      [day('20261103'), 'US', 40],
      [day('20261102'), 'US', 30],
    ]);
    const merged = upsertRows(kept, fresh, options(['day', 'country']))!;
    expect(rowsOf(merged).map((r) => r[2])).toEqual([1, 2, 30, 40]);
    const capped = upsertRows(kept, fresh, options(['day', 'country'], 2))!;
    expect(rowsOf(capped).map((r) => r[2])).toEqual([30, 40]);
  });

  it('keys the external-ID report by its IDs: keys a run did not bring stay above its rows, those unrefreshed longest at the top', () => {
    const ids = ['externalId', 'externalSecondaryId', 'revenue'];
    const first = upsertRows(
      null,
      block(ids, [
        ['a', 's1', 5],
        ['b', 's1', 4],
        ['c', 's1', 3],
      ]),
      options(['externalId', 'externalSecondaryId']),
    )!;
    // The same ID with another secondary ID is another key.
    const second = upsertRows(
      first.values,
      block(ids, [
        ['b', 's1', 9],
        ['a', 's2', 1],
      ]),
      options(['externalId', 'externalSecondaryId']),
    )!;
    expect(rowsOf(second)).toEqual([
      ['a', 's1', 5],
      ['c', 's1', 3],
      ['b', 's1', 9],
      ['a', 's2', 1],
    ]);
    const third = upsertRows(second.values, block(ids, [['d', 's1', 2]]), options(['externalId', 'externalSecondaryId'], 3))!;
    expect(rowsOf(third)).toEqual([
      ['b', 's1', 9],
      ['a', 's2', 1],
      ['d', 's1', 2],
    ]);
    const alone = upsertRows(
      third.values,
      block(ids, [
        ['e', 's1', 8],
        ['f', 's1', 7],
      ]),
      options(['externalId'], 1),
    )!;
    expect(rowsOf(alone)).toEqual([['e', 's1', 8]]);
  });

  it('keys by the hour where Engage sends one, and drops the oldest hours first', () => {
    const hourly = ['externalId', 'hour (UTC)', 'revenue'];
    const first = upsertRows(
      null,
      block(hourly, [
        ['a', hour('2026112010'), 1],
        ['a', hour('2026112011'), 2],
      ]),
      options(['externalId']),
    )!;
    const second = upsertRows(
      first.values,
      block(hourly, [
        ['a', hour('2026112011'), 20],
        ['a', hour('2026112012'), 30],
      ]),
      options(['externalId'], 2),
    )!;
    expect(rowsOf(second)).toEqual([
      ['a', hour('2026112011'), 20],
      ['a', hour('2026112012'), 30],
    ]);
  });

  it('compares text as read back from the sheet: names that look like values are keys like any other', () => {
    const sections = ['day', 'section.id', 'revenue'];
    const kept = block(sections, [
      [day('20261117'), '1/2', 1],
      [day('20261117'), '=1+2', 2],
      [day('20261117'), '00123', 3],
    ]).values;
    const fresh = block(sections, [
      [day('20261117'), '=1+2', 20],
      [day('20261117'), '123', 30],
    ]);
    expect(rowsOf(upsertRows(kept, fresh, options(['day', 'section']))!).map((r) => [r[1], r[2]])).toEqual([
      ['00123', 3],
      ['1/2', 1],
      ['123', 30],
      ['=1+2', 20],
    ]);
  });

  it('refuses, for an incremental window, kept rows of other columns or with a day that is no date', () => {
    const window = { keepFromMs: day('20261101').getTime(), replaceFromMs: day('20261103').getTime() };
    const fresh = block(header, [[day('20261103'), 'US', 1]]);
    expect(upsertRows([['day', 'revenue']], fresh, { ...options(['day', 'country']), window })).toBeNull();
    expect(upsertRows([header, ['Total', '', 3]], fresh, { ...options(['day', 'country']), window })).toBeNull();
    const merged = upsertRows([header, [day('20261031'), 'US', 9], [day('20261102'), 'US', 2]], fresh, {
      ...options(['day', 'country']),
      window,
    })!;
    expect(rowsOf(merged).map((r) => r[2])).toEqual([2, 1]);
  });
});
