/**
 * The first figures seen of each finished day and key of a saved daily report, per metric, and the
 * latest figure of a metric that a revision has changed since: what a later run is compared with
 * (revisions.ts). They live in a hidden sheet of the report's spreadsheet, "Engage first figures",
 * one row per report, UTC day and key, the figures as JSON text: a run that opened the spreadsheet by
 * ID has no document properties, and those are 500 KB shared by every use of the document, where a
 * sheet holds millions of cells. A report keeps the rows of the days still in its period (a day that
 * left it is never fetched again), so they take about as many rows as its own data; at most
 * FIRST_FIGURES_MAX_ROWS in all (7 columns each: 350,000 cells of the 10,000,000 a spreadsheet
 * holds, and a run reads them all once), the oldest days dropped first past it. The rows of a report whose figures were asked for
 * differently (another publisher, filter, currency, decimals or breakdowns: its basis) start afresh.
 */
import type { Cell, OwnRows, OwnSheet } from '../../ports';
import { isDate } from '../../util/dates';

export const FIRST_FIGURES_SHEET: OwnSheet = {
  name: 'Engage first figures',
  header: ['Report ID', 'Basis', 'Day', 'Keys', 'First figures', 'Last figures', 'First seen'],
  hidden: true,
};

export const FIRST_FIGURES_MAX_ROWS = 50_000;

/** Figures are equal within this share of the larger (the API rounds; binary fractions do not). */
const RELATIVE_TOLERANCE = 1e-9;

/** What a run saw of one finished day and key. */
export interface DayFigures {
  /** yyyyMMdd, a UTC day as the API's. */
  day: string;
  /** The key columns as text ("country: US (United States)"); "" for a report by day alone. */
  keys: string;
  figures: Record<string, number>;
}

/** A figure that differs from the one seen before (the first, or the last revision's). */
export interface FigureChange {
  day: string;
  keys: string;
  metric: string;
  first: number;
  previous: number;
  now: number;
}

interface FigureRecord {
  reportId: string;
  basis: string;
  day: string;
  keys: string;
  first: Record<string, number>;
  last: Record<string, number>;
  firstSeenAtMs: number;
}

function sameFigure(a: number, b: number): boolean {
  return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

function numbersOf(text: Cell | undefined): Record<string, number> | null {
  if (text === undefined || text === '') return {};
  if (typeof text !== 'string') return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const out: Record<string, number> = {};
    for (const [metric, value] of Object.entries(parsed)) if (typeof value === 'number' && Number.isFinite(value)) out[metric] = value;
    return out;
  } catch {
    return null;
  }
}

export class FirstFigures {
  private readonly records = new Map<string, FigureRecord>();
  private changed = false;

  /** The sheet's rows as read; a row that is not one of ours (edited by hand) is left out. */
  static fromRows(rows: readonly Cell[][]): FirstFigures {
    const table = new FirstFigures();
    for (const [reportId, basis, day, keys, first, last, seen] of rows) {
      const firstFigures = numbersOf(first);
      const lastFigures = numbersOf(last);
      if (typeof reportId !== 'string' || !reportId || typeof basis !== 'string' || typeof day !== 'string' || !/^\d{8}$/.test(day))
        continue;
      if (!firstFigures || !lastFigures) continue;
      const record: FigureRecord = {
        reportId,
        basis,
        day,
        keys: typeof keys === 'string' ? keys : String(keys ?? ''),
        first: firstFigures,
        last: lastFigures,
        firstSeenAtMs: isDate(seen) ? seen.getTime() : typeof seen === 'number' ? seen : 0,
      };
      table.records.set(FirstFigures.id(record), record);
    }
    return table;
  }

  private static id(record: Pick<FigureRecord, 'reportId' | 'day' | 'keys'>): string {
    return `${record.reportId}\u0000${record.day}\u0000${record.keys}`;
  }

  /** Whether anything was added, revised or dropped since it was read. */
  get isChanged(): boolean {
    return this.changed;
  }

  get size(): number {
    return this.records.size;
  }

  /**
   * Compares what a run of the report saw with what was seen before: a day and key seen for the first
   * time keeps its figures as the first; a metric whose figure differs from the last one seen is a
   * change (recorded as the new last, so the same revision is not reported again next run). Rows of
   * the report on another basis are dropped first, and so are its days before `keepFromDay`.
   */
  observe(reportId: string, basis: string, seen: readonly DayFigures[], atMs: number, keepFromDay: string): FigureChange[] {
    for (const [id, record] of this.records) {
      if (record.reportId === reportId && (record.basis !== basis || record.day < keepFromDay)) {
        this.records.delete(id);
        this.changed = true;
      }
    }
    const changes: FigureChange[] = [];
    for (const { day, keys, figures } of seen) {
      const id = FirstFigures.id({ reportId, day, keys });
      const record = this.records.get(id);
      if (!record) {
        this.records.set(id, { reportId, basis, day, keys, first: { ...figures }, last: {}, firstSeenAtMs: atMs });
        this.changed = true;
        continue;
      }
      for (const [metric, now] of Object.entries(figures)) {
        const first = record.first[metric];
        if (first === undefined) {
          // A metric the report did not have before: its first figure is today's.
          record.first[metric] = now;
          this.changed = true;
          continue;
        }
        const previous = record.last[metric] ?? first;
        if (sameFigure(previous, now)) continue;
        changes.push({ day, keys, metric, first, previous, now });
        if (sameFigure(first, now)) delete record.last[metric];
        else record.last[metric] = now;
        this.changed = true;
      }
    }
    return changes;
  }

  /** The rows to write: oldest days dropped past FIRST_FIGURES_MAX_ROWS. */
  toRows(): OwnRows {
    let records = [...this.records.values()];
    if (records.length > FIRST_FIGURES_MAX_ROWS) {
      records = records.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0)).slice(records.length - FIRST_FIGURES_MAX_ROWS);
    }
    const values: Cell[][] = records.map((r) => [
      r.reportId,
      r.basis,
      r.day,
      r.keys,
      JSON.stringify(r.first),
      Object.keys(r.last).length > 0 ? JSON.stringify(r.last) : '',
      new Date(r.firstSeenAtMs),
    ]);
    const formats = values.map(() => [null, null, null, null, null, null, 'yyyy-mm-dd hh:mm:ss']);
    return { values, formats };
  }
}
