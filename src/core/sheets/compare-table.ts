/**
 * A comparison as a sheet: each period's rows (report-table.ts) joined on the non-time breakdowns,
 * and for each metric its value, the earlier period's (`m.previous`), the change (`m.change`, this
 * period minus the earlier) and the change in % of the earlier value (`m.change%`, as the API's
 * percentages are: 12.5 means 12.5 %). With `day` or `month` the periods align by position, day 1
 * with day 1, and the earlier period's day (or month) has its own column (`day.previous`) so a
 * reader sees what was aligned; positions beyond the shorter period show a blank day on that side.
 * A row present in one period only shows blanks on the other side and blank changes: never a zero
 * the API did not send. The Total row compares the two periods' own metricsSums: rates are never
 * summed here. Rows come in the report's order (by position first with a time breakdown), rows of the
 * earlier period alone after those of the report; `maxRows` keeps the first rows (0: the Total row
 * alone), and the totals still cover every row. A comparison of several publishers is joined on the
 * publisher too: each publisher's rows together, in the publishers' order, `maxRows` a publisher,
 * and its totals are the publishers' combined sums of each period (publisher-totals.ts).
 */
import { type Comparison, type DayRange, monthsBetween } from '../api/requests/compare-periods';
import { dashedDay, dayAfter, daysBetween } from '../util/dates';
import type { ReportResult } from '../api/paging/paging';
import { PUBLISHER_BREAKDOWN } from '../api/requests/publisher-list';
import { metricNote } from '../api/requests/report-metrics';
import { unwrap } from '../api/responses/values';
import type { Cell, ColumnKind, SheetBlock } from '../ports';
import { DATE_BREAKDOWNS, ENTITY_BREAKDOWNS } from '../spec';
import { buildReportTable, periodStartMs, type ReportTable, TOTALS_LABEL } from './report-table';
import { columnKind, numberFormatOf } from './sheet-output';

export const PREVIOUS_SUFFIX = '.previous';
export const CHANGE_SUFFIX = '.change';
export const CHANGE_PERCENT_SUFFIX = '.change%';

export interface CompareTableOptions {
  /** The metrics compared, in column order (Comparison.metrics). */
  metrics: readonly string[];
  currentRange: DayRange;
  earlierRange: DayRange;
  /** IANA zone of the spreadsheet, for day and month dates. */
  timeZone: string;
  /** Data rows kept at most (of each publisher, for several); 0 keeps the Total row alone. */
  maxRows?: number;
  /** Adds the Total row (default true). */
  totals?: boolean;
}

/**
 * The table options of a comparison, the same wherever it is written (the ENGAGE_COMPARE formula, Run
 * to sheet, a saved comparison's refresh): its metrics and periods, the sheet's zone and the row limit.
 */
export function compareTableOptions(comparison: Comparison, timeZone: string, maxRows?: number): CompareTableOptions {
  const options: CompareTableOptions = {
    metrics: comparison.metrics,
    currentRange: comparison.currentRange,
    earlierRange: comparison.earlierRange,
    timeZone,
  };
  if (maxRows !== undefined) options.maxRows = maxRows;
  return options;
}

/** Entity columns (id and name): the spec's entity breakdowns, and the publisher of a comparison of several publishers. */
const isEntity = (breakdown: string) => ENTITY_BREAKDOWNS.has(breakdown) || breakdown === PUBLISHER_BREAKDOWN;

/** The columns a comparison takes: two per breakdown (an entity's id and name, a day and the earlier day), four per metric. */
export function compareColumnCount(breakdowns: readonly string[], metrics: readonly string[]): number {
  return breakdowns.reduce((n, b) => n + (isEntity(b) || DATE_BREAKDOWNS.has(b) ? 2 : 1), 0) + 4 * metrics.length;
}

/** Rounds away the binary noise of a subtraction (0.30000000000000004), keeping every figure the API sent. */
const tidy = (n: number) => Number(n.toPrecision(12));

/** The change and the change in %, blank unless both values are numbers (and, for %, the earlier one is not 0). */
function changes(now: Cell | undefined, before: Cell | undefined): [Cell, Cell] {
  if (typeof now !== 'number' || typeof before !== 'number') return ['', ''];
  return [tidy(now - before), before === 0 ? '' : tidy(((now - before) / Math.abs(before)) * 100)];
}

interface Side {
  table: ReportTable;
  items: readonly Record<string, unknown>[];
  range: DayRange;
}

/** One row of the comparison: the period's row and the earlier period's, either possibly missing. */
interface Joined {
  position: number | null;
  rows: [Cell[] | undefined, Cell[] | undefined];
}

type TimeBreakdown = 'day' | 'month' | undefined;

export function buildCompareTable(current: ReportResult, earlier: ReportResult, options: CompareTableOptions): ReportTable {
  const breakdowns = current.query.breakdowns;
  const time = breakdowns.find((b) => DATE_BREAKDOWNS.has(b)) as TimeBreakdown;
  const withTotals = options.totals !== false;
  const side = (result: ReportResult, range: DayRange): Side => ({
    table: buildReportTable(result.items, {
      kind: 'main',
      breakdowns,
      metrics: options.metrics,
      timeZone: options.timeZone,
      ...(withTotals && result.metricsSums ? { metricsSums: result.metricsSums } : {}),
    }),
    items: result.items,
    range,
  });
  const sides = [side(current, options.currentRange), side(earlier, options.earlierRange)] as const;
  const header = sides[0].table.header;
  const metricStart = header.length - options.metrics.length;
  // Where each breakdown's key lies in a period's row: an entity's id, or the breakdown's own column.
  const keyColumns = breakdowns.filter((b) => !DATE_BREAKDOWNS.has(b)).map((b) => header.indexOf(isEntity(b) ? `${b}.id` : b));
  const joined = joinSides(sides, keyColumns, time);
  // Several publishers: each publisher's rows together, in the publishers' order.
  const publisherColumn = breakdowns.includes(PUBLISHER_BREAKDOWN) ? header.indexOf(`${PUBLISHER_BREAKDOWN}.id`) : -1;
  const publisherIds = [...(current.publishers ?? []), ...(earlier.publishers ?? [])].map((p) => p.id);
  const entries = orderedEntries(joined, time, publisherColumn, publisherIds, options.maxRows);

  const { outHeader, plan } = comparedColumns(header, metricStart, time, options);
  const table: ReportTable = { header: outHeader, rows: entries.map((e) => plan.flatMap((fill) => fill(e))) };
  const [nowTotals, beforeTotals] = [sides[0].table.totals, sides[1].table.totals];
  if (nowTotals || beforeTotals) {
    const totals: Cell[] = outHeader.slice(0, outHeader.length - 4 * options.metrics.length).map((_, i) => (i === 0 ? TOTALS_LABEL : ''));
    options.metrics.forEach((_m, k) => {
      const now = nowTotals?.[metricStart + k];
      const before = beforeTotals?.[metricStart + k];
      totals.push(now ?? '', before ?? '', ...changes(now, before));
    });
    table.totals = totals;
  }
  return table;
}

/** The two periods' rows joined on their position in the period (with a time breakdown) and their keys. */
function joinSides(sides: readonly [Side, Side], keyColumns: readonly number[], time: TimeBreakdown): Joined[] {
  const positionOf = (item: Record<string, unknown>, range: DayRange): number | null => {
    if (!time) return null;
    const raw = unwrap(item[time]);
    const text = typeof raw === 'string' || typeof raw === 'number' ? String(raw).replace(/-/g, '') : '';
    if (time === 'day') return /^\d{8}$/.test(text) ? daysBetween(range.fromDate, text) : null;
    return /^\d{6}/.test(text) ? monthsBetween(range.fromDate, text) : null;
  };
  const joined = new Map<string, Joined>();
  sides.forEach((s, which) => {
    s.table.rows.forEach((row, i) => {
      const position = positionOf(s.items[i]!, s.range);
      const key = JSON.stringify([position, ...keyColumns.map((c) => row[c])]);
      let entry = joined.get(key);
      if (!entry) {
        entry = { position, rows: [undefined, undefined] };
        joined.set(key, entry);
      }
      entry.rows[which] = row;
    });
  });
  return [...joined.values()];
}

/** The joined rows by publisher (in the publishers' order), then position; `maxRows` of each publisher. */
function orderedEntries(
  joined: Joined[],
  time: TimeBreakdown,
  publisherColumn: number,
  publisherIds: readonly string[],
  maxRows: number | undefined,
): Joined[] {
  const publisherOf = (e: Joined) => String((e.rows[0] ?? e.rows[1])![publisherColumn] ?? '');
  const ranks = new Map<string, number>();
  for (const id of publisherIds) if (!ranks.has(id)) ranks.set(id, ranks.size);
  const rank = (e: Joined) => (publisherColumn < 0 ? 0 : (ranks.get(publisherOf(e)) ?? ranks.size));
  const position = (e: Joined) => (time ? (e.position ?? Number.MAX_SAFE_INTEGER) : 0);
  // Array.prototype.sort is stable: within a publisher and a position, the report's order stays.
  joined.sort((a, b) => rank(a) - rank(b) || position(a) - position(b));
  if (maxRows === undefined) return joined;
  const kept = new Map<number, number>();
  return joined.filter((e) => {
    const n = kept.get(rank(e)) ?? 0;
    kept.set(rank(e), n + 1);
    return n < maxRows;
  });
}

/** The day (or month) at `position` of a period as a Date, blank beyond its end. */
function dayCell(time: TimeBreakdown, range: DayRange, position: number | null, timeZone: string): Cell {
  if (position === null || position < 0) return '';
  if (time === 'day') {
    if (position > daysBetween(range.fromDate, range.toDate)) return '';
    const ms = periodStartMs('day', dayAfter(range.fromDate, position), timeZone);
    return ms === null ? '' : new Date(ms);
  }
  if (position > monthsBetween(range.fromDate, range.toDate)) return '';
  const total = +range.fromDate.slice(0, 4) * 12 + +range.fromDate.slice(4, 6) - 1 + position;
  const month = `${Math.floor(total / 12)}${String((total % 12) + 1).padStart(2, '0')}`;
  const ms = periodStartMs('month', month, timeZone);
  return ms === null ? '' : new Date(ms);
}

/** The comparison's header, and for each of the period's columns how it fills its cells of a joined row. */
function comparedColumns(
  header: readonly string[],
  metricStart: number,
  time: TimeBreakdown,
  options: CompareTableOptions,
): { outHeader: string[]; plan: Array<(e: Joined) => Cell[]> } {
  const outHeader: string[] = [];
  const plan: Array<(e: Joined) => Cell[]> = [];
  header.slice(0, metricStart).forEach((title, c) => {
    if (title === time) {
      outHeader.push(title, `${title}${PREVIOUS_SUFFIX}`);
      plan.push((e) => [
        dayCell(time, options.currentRange, e.position, options.timeZone),
        dayCell(time, options.earlierRange, e.position, options.timeZone),
      ]);
    } else {
      outHeader.push(title);
      plan.push((e) => [(e.rows[0] ?? e.rows[1])![c] ?? '']);
    }
  });
  options.metrics.forEach((m, k) => {
    const c = metricStart + k;
    outHeader.push(m, `${m}${PREVIOUS_SUFFIX}`, `${m}${CHANGE_SUFFIX}`, `${m}${CHANGE_PERCENT_SUFFIX}`);
    plan.push((e) => {
      const now = e.rows[0]?.[c];
      const before = e.rows[1]?.[c];
      return [now ?? '', before ?? '', ...changes(now, before)];
    });
  });
  return { outHeader, plan };
}

/** The kind of a comparison's column: a metric's own for its value, earlier value and change; percent for its change in %. */
export function compareColumnKind(header: string): ColumnKind {
  if (header.endsWith(CHANGE_PERCENT_SUFFIX)) return 'percent';
  for (const suffix of [PREVIOUS_SUFFIX, CHANGE_SUFFIX]) if (header.endsWith(suffix)) return columnKind(header.slice(0, -suffix.length));
  return columnKind(header);
}

/** The note on a comparison's header cell: the metric's meaning and which period or change it is. */
function compareNote(header: string, options: CompareTableOptions): string {
  const span = (r: DayRange) => `${dashedDay(r.fromDate)} to ${dashedDay(r.toDate)}`;
  const base = (suffix: string) => header.slice(0, -suffix.length);
  if (header.endsWith(CHANGE_PERCENT_SUFFIX))
    return `${base(CHANGE_PERCENT_SUFFIX)}: change in % of the earlier period's value; blank when that is 0 or missing`;
  if (header.endsWith(CHANGE_SUFFIX))
    return `${base(CHANGE_SUFFIX)}: change, ${span(options.currentRange)} minus ${span(options.earlierRange)}`;
  if (header.endsWith(PREVIOUS_SUFFIX)) {
    const name = base(PREVIOUS_SUFFIX);
    const what = DATE_BREAKDOWNS.has(name) ? `the ${name} of the earlier period at the same position (1st with 1st)` : metricNote(name);
    return `${what}; earlier period ${span(options.earlierRange)}`;
  }
  const note = metricNote(header);
  return note ? `${note}; ${span(options.currentRange)}` : '';
}

/** The block of cells "Run to sheet" and scheduled refreshes write for a comparison. */
export function compareToSheetBlock(
  current: ReportResult,
  earlier: ReportResult,
  options: CompareTableOptions & { currencyCode?: string; decDigits?: number },
): SheetBlock {
  const table = buildCompareTable(current, earlier, options);
  const values: Cell[][] = [table.header, ...table.rows, ...(table.totals ? [table.totals] : [])];
  const kinds = table.header.map(compareColumnKind);
  return {
    values,
    kinds,
    headerNotes: table.header.map((h) => compareNote(h, options)),
    numberFormats: kinds.map((k) => numberFormatOf(k, options.currencyCode, options.decDigits)),
    dataRows: table.rows.length,
    hasTotals: Boolean(table.totals),
  };
}
