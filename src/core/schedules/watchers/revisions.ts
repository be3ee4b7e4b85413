/**
 * Restatements: Engage's figures settle after the fact (data arrive 2 to 4 hours late, the current day
 * is partial, revenue is restated after invalid-traffic reviews). For a saved daily general report
 * (broken down by day, no comparison), the first figures seen of each finished day and key are kept
 * per metric (first-figures.ts); when a later refresh brings a different figure for such a day and
 * key, a row goes to the sheet "Engage revisions" of the report's spreadsheet: when it was seen, the
 * report, the day, the keys, the metric, the first figure, the figure now, the change, and whether the
 * day's month is closed. A finished day is a UTC day before today that ended at least the spec's 4
 * hours ago (REPORT_DATA_DELAY_MAX_MS): before that its figures are still arriving.
 *
 * A saved report may mark months closed (`closedThrough`: every month up to that one, saved-reports.ts).
 * A revision of a day in a closed month is the one a month-end close must hear of: once the run's
 * writes are done, `onClosedMonthRevisions` is called once for each report of the run that found
 * such revisions, with them (the notices are wired there).
 *
 * The revisions sheet is made with a marker at the first revision: a user who deletes it turns
 * revisions off for the spreadsheet (nothing is compared or kept while it is off); making a sheet
 * named "Engage revisions" again turns them on. It keeps the latest REVISIONS_KEEP_ROWS rows.
 */
import type { Cell, OwnRows, OwnSheet, OwnSheets, SheetBlock } from '../../ports';
import { REPORT_DATA_DELAY_MAX_MS } from '../../spec';
import { calendarDayInZone, compactDayOf, formatDay, isDate, utcDayOf, zonedMidnightMs } from '../../util/dates';
import { hashText } from '../../util/hash';
import { PUBLISHER_BREAKDOWN } from '../../api/requests/publisher-list';
import { FIRST_FIGURES_SHEET, FirstFigures, type DayFigures } from './first-figures';
import { incrementalRange } from '../refresh/incremental';
import { resolvePeriod } from '../saved/period';
import type { ReportRunEvent, RunObserver } from '../refresh/run-events';
import { TIME_FORMAT } from './run-log';
import { type SavedReport, tracksRevisions } from '../saved/saved-reports';
import { writeModeOf } from '../saved/write-modes';
import type { Notice } from './notices';

export const REVISIONS_SHEET: OwnSheet = {
  name: 'Engage revisions',
  header: ['Seen', 'Report', 'Day', 'Keys', 'Metric', 'First seen', 'Now', 'Change', 'Month closed'],
  remembered: true,
};

/** The latest revisions the sheet keeps; older ones are dropped as new ones come. */
export const REVISIONS_KEEP_ROWS = 10_000;

/** A figure of a finished day that a refresh found changed. */
export interface Revision {
  reportId: string;
  reportName: string;
  /** The UTC day (yyyyMMdd). */
  day: string;
  /** The key columns as text, "" for a report by day alone. */
  keys: string;
  metric: string;
  /** The first figure seen of the day and key. */
  first: number;
  /** The figure before this refresh: the first, or an earlier revision's. */
  previous: number;
  now: number;
  seenAtMs: number;
  /** The day's month is closed for the report (its closedThrough). */
  inClosedMonth: boolean;
}

export interface RevisionTrackerOptions {
  /** Called once per report of a run that found revisions in its closed months, with those revisions. */
  onClosedMonthRevisions?: (revisions: Revision[], event: ReportRunEvent) => void;
}

/** The first UTC day (yyyyMMdd) whose figures may still change at `nowMs`: every day before it is finished. */
export function firstUnfinishedDay(nowMs: number): string {
  return formatDay(utcDayOf(nowMs - REPORT_DATA_DELAY_MAX_MS));
}

/** What the report's figures depend on besides the day and key: when it changes, its first figures start afresh. */
export function basisOf(report: SavedReport): string {
  const breakdowns = report.breakdowns && report.breakdowns.length > 0 ? report.breakdowns : ['day'];
  return hashText(JSON.stringify([report.entityId, report.filter ?? '', report.currencyCode ?? 'USD', report.decDigits ?? 2, breakdowns]));
}

/** "country: US (United States); platform: 2 (Desktop)": the key columns of a row, an entity's id first. */
function keysText(header: readonly Cell[], columns: readonly number[], row: readonly Cell[]): string {
  const groups = new Map<string, string[]>();
  for (const c of columns) {
    const name = String(header[c]);
    const group = name.includes('.') ? name.slice(0, name.indexOf('.')) : name;
    const value = row[c];
    const text = isDate(value) ? value.toISOString() : String(value ?? '');
    const list = groups.get(group) ?? [];
    if (name.endsWith('.id')) list.unshift(text);
    else list.push(text);
    groups.set(group, list);
  }
  return [...groups].map(([group, [main, ...rest]]) => `${group}: ${main}${rest.length > 0 ? ` (${rest.join(', ')})` : ''}`).join('; ');
}

/** The finished days' figures of a written block from `fromDay` on (the rows a refresh fetched), and each metric's format. */
export function figuresOf(
  block: SheetBlock,
  options: { timeZone: string; breakdowns: readonly string[]; fromDay: string; before: string },
): { seen: DayFigures[]; formats: Record<string, string | null> } {
  const { timeZone } = options;
  const header = block.values[0] ?? [];
  const dayColumn = header.indexOf('day');
  const formats: Record<string, string | null> = {};
  if (dayColumn < 0) return { seen: [], formats };
  // The breakdowns' columns (an entity's id, name and other fields; the publisher of several), not a text column of another kind.
  const keyNames = new Set([...options.breakdowns, PUBLISHER_BREAKDOWN]);
  const keyColumns = block.kinds.flatMap((kind, c) => (kind === 'text' && keyNames.has(String(header[c]).split('.')[0]!) ? [c] : []));
  const metricColumns = block.kinds.flatMap((kind, c) => (kind === 'money' || kind === 'count' || kind === 'percent' ? [c] : []));
  for (const c of metricColumns) formats[String(header[c])] = block.numberFormats[c] ?? null;
  const dayOf = new Map<number, string>();
  const seen: DayFigures[] = [];
  for (const row of block.values.slice(1, 1 + block.dataRows)) {
    const cell = row[dayColumn];
    if (!isDate(cell)) continue;
    let day = dayOf.get(cell.getTime());
    if (day === undefined) dayOf.set(cell.getTime(), (day = formatDay(calendarDayInZone(cell.getTime(), timeZone))));
    if (day < options.fromDay || day >= options.before) continue;
    const figures: Record<string, number> = {};
    for (const c of metricColumns) {
      const value = row[c];
      if (typeof value === 'number' && Number.isFinite(value)) figures[String(header[c])] = value;
    }
    seen.push({ day, keys: keysText(header, keyColumns, row), figures });
  }
  return { seen, formats };
}

export class RevisionTracker implements RunObserver {
  private table: FirstFigures | undefined;
  private off: boolean | undefined;
  private readonly rows: OwnRows = { values: [], formats: [] };
  private readonly closed: Array<{ revisions: Revision[]; event: ReportRunEvent }> = [];

  constructor(
    private readonly sheets: OwnSheets,
    private readonly options: RevisionTrackerOptions = {},
  ) {}

  afterReport(event: ReportRunEvent): void {
    const { report } = event;
    // An append's block holds every kept snapshot, earlier figures of the same days among them: the
    // run's own rows are what Engage says now.
    const block = writeModeOf(report) === 'append' ? (event.fetched ?? event.block) : event.block;
    if (event.outcome !== 'refreshed' || !block || !tracksRevisions(report)) return;
    this.off ??= this.sheets.state(REVISIONS_SHEET) === 'deleted';
    if (this.off) return;
    const timeZone = event.spreadsheet.timeZone;
    const period = resolvePeriod(report.period, event.startedAtMs);
    // An incremental refresh fetched only its latest days: the rows before them were read back from the sheet.
    const fetched = report.destination.incremental
      ? incrementalRange(report.period, event.previous.fetchedThrough, event.startedAtMs)
      : period;
    const { seen, formats } = figuresOf(block, {
      timeZone,
      breakdowns: report.breakdowns ?? [],
      fromDay: fetched.fromDate,
      before: firstUnfinishedDay(event.startedAtMs),
    });
    this.table ??= FirstFigures.fromRows(this.sheets.read(FIRST_FIGURES_SHEET));
    const changes = this.table.observe(report.id, basisOf(report), seen, event.endedAtMs, period.fromDate);
    if (changes.length === 0) return;
    const closedThrough = report.destination.closedThrough?.replace('-', '');
    // By day, then key; a row's metrics in the report's column order (the sort is stable).
    changes.sort((a, b) => (a.day === b.day ? (a.keys < b.keys ? -1 : a.keys > b.keys ? 1 : 0) : a.day < b.day ? -1 : 1));
    const revisions: Revision[] = changes.map((change) => ({
      ...change,
      reportId: report.id,
      reportName: report.name,
      seenAtMs: event.endedAtMs,
      inClosedMonth: closedThrough !== undefined && change.day.slice(0, 6) <= closedThrough,
    }));
    for (const r of revisions) {
      const format = formats[r.metric] ?? null;
      this.rows.values.push([
        new Date(r.seenAtMs),
        r.reportName,
        new Date(zonedMidnightMs(compactDayOf(r.day), timeZone)),
        r.keys === '' ? '(none)' : r.keys,
        r.metric,
        r.first,
        r.now,
        // Twelve significant digits: the difference of two decimals, without a binary fraction's tail.
        Number((r.now - r.first).toPrecision(12)),
        r.inClosedMonth ? 'closed' : '',
      ]);
      this.rows.formats.push([TIME_FORMAT, null, 'yyyy-mm-dd', null, null, format, format, format, null]);
    }
    const inClosedMonths = revisions.filter((r) => r.inClosedMonth);
    if (inClosedMonths.length > 0) this.closed.push({ revisions: inClosedMonths, event });
  }

  /**
   * The revisions are written, then the figures they were compared with (should that fail, the next
   * run finds the same revisions again: written twice rather than lost), then the closed months are told.
   */
  afterRun(): void {
    // The first failure is thrown at the end, once every closed month was told: each report's notice on
    // its own, so one that fails never keeps the others from being sent, nor a failed write the notices.
    let failure: { error: unknown } | undefined;
    try {
      if (this.rows.values.length > 0) {
        this.sheets.append(
          REVISIONS_SHEET,
          { values: this.rows.values.splice(0), formats: this.rows.formats.splice(0) },
          REVISIONS_KEEP_ROWS,
        );
      }
      if (this.table?.isChanged) this.sheets.replace(FIRST_FIGURES_SHEET, this.table.toRows());
    } catch (error) {
      failure = { error };
    }
    for (const { revisions, event } of this.closed.splice(0)) {
      try {
        this.options.onClosedMonthRevisions?.(revisions, event);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

/** The most revised figures a closed-month notice lists; the rest are in the revisions sheet. */
export const CLOSED_MONTH_NOTICE_LINES = 10;

/**
 * What a report's owner is told when a refresh restated figures of months the report closed: which
 * months, each figure's day, keys, metric, first figure and now (the first CLOSED_MONTH_NOTICE_LINES),
 * and where the rest are. One notice per report and run (RevisionTracker calls once per report).
 */
export function closedMonthNotice(revisions: readonly Revision[]): Notice {
  const months = [...new Set(revisions.map((r) => `${r.day.slice(0, 4)}-${r.day.slice(4, 6)}`))].sort();
  const name = revisions[0]?.reportName ?? '';
  const day = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
  const change = (r: Revision) => {
    const by = Number((r.now - r.first).toPrecision(12));
    const percent = r.first !== 0 ? ` (${by > 0 ? '+' : ''}${((by / r.first) * 100).toFixed(1)}%)` : '';
    return `${by > 0 ? '+' : ''}${by}${percent}`;
  };
  const shown = revisions
    .slice(0, CLOSED_MONTH_NOTICE_LINES)
    .map((r) => `${day(r.day)}${r.keys ? `, ${r.keys}` : ''}: ${r.metric} was ${r.first} when first seen, now ${r.now}, ${change(r)}`);
  const more = revisions.length - shown.length;
  return {
    subject: `figures of closed month${months.length > 1 ? 's' : ''} ${months.join(', ')} changed in "${name}"`,
    lines: [
      `A refresh on ${new Date(revisions[0]?.seenAtMs ?? 0).toISOString()} found ${revisions.length} figure${revisions.length === 1 ? '' : 's'} of ${months.join(', ')} different from when first seen, in month${months.length > 1 ? 's' : ''} you closed for this report.`,
      ...shown,
      ...(more > 0 ? [`…and ${more} more.`] : []),
      `Every revision is in the sheet "${REVISIONS_SHEET.name}" of the spreadsheet.`,
    ],
  };
}
