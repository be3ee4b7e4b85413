/**
 * Evaluates a saved report's alert rules on the block a refresh just wrote, with no request of its
 * own: the figures it compares are the report's own rows. A threshold reads the Total row (or, where
 * the report writes none, the rows added up as the Total row would be: counts and amounts summed,
 * rates from their summed parts). A change compares the latest settled day with the day before, or
 * with the same weekday a week before: a day is settled once it ended SETTLE_HOURS ago (Engage's
 * data arrive 2 to 4 hours late, so the hours before would show a false drop), and today, partial,
 * never counts. A "drops to 0" rule names each key (a widget, a country) whose metric was above 0 on
 * the day before that settled day and is 0, or has no row, on it. Days are UTC days, as Engage's; a
 * day cell shows that calendar day on the spreadsheet's clock. A rule whose figures the block cannot
 * give (the period does not reach back far enough, a rate over no traffic) is unknown and leaves its
 * state as it was.
 * A change that fires says what drove it, from the same rows (change-drivers.ts), when the
 * context brings the saved report's fields.
 */
import type { Cell, SheetBlock } from '../../ports';
import { RECOMPUTED_RATES } from '../../api/paging/publisher-totals';
import { PUBLISHER_BREAKDOWN } from '../../api/requests/publisher-list';
import { ADDITIVE_METRICS, type ReportKind } from '../../spec';
import { calendarDayInZone, dayAfter, formatDay, isDate, MS_PER_HOUR, utcDayOf } from '../../util/dates';
import { hashText } from '../../util/hash';
import type { AlertRule } from '../saved/notice-settings';
import { resolvePeriod, type Period } from '../saved/period';
import { type AlertReport, explainChange } from './change-drivers';

/** Hours after a UTC day ends before its figures are compared: the spec's data arrive up to 4 hours late. */
export const SETTLE_HOURS = 4;

/** Keys a notice names at most; the rest are counted. */
const KEYS_NAMED = 10;

export type AlertOutcome =
  | {
      state: 'fires';
      detail: string;
      keys?: Array<{ hash: string; label: string }>;
      days?: { day: string; earlier: string };
      /** A change's drivers, or the formula that finds them (change-drivers.ts). */
      explained?: string;
    }
  | { state: 'clear' }
  | { state: 'unknown'; why: string };

export interface AlertContext {
  block: SheetBlock;
  kind: ReportKind;
  period: Period;
  nowMs: number;
  /** The spreadsheet's zone, in which day cells show their day. */
  timeZone: string;
  /** The saved report's own fields: a change's notice names its drivers by them (change-drivers.ts). */
  report?: AlertReport;
}

type Row = readonly Cell[];

const numberOf = (cell: Cell | undefined): number | undefined => (typeof cell === 'number' && Number.isFinite(cell) ? cell : undefined);
/** A figure as a notice shows it: at most 2 decimals, grouped thousands. */
export const figureText = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/**
 * A metric over rows, as a Total row would give it: a lone row's own value, a sum of counts and
 * amounts, a rate from its parts summed; undefined when the rows cannot give it. `noRowsIsZero`: a day
 * without rows had none of a count or an amount.
 */
function figureOf(
  kind: ReportKind,
  metric: string,
  rows: readonly Row[],
  column: (name: string) => number,
  noRowsIsZero = false,
): number | undefined {
  const sum = (name: string) => {
    const at = column(name);
    if (at < 0) return undefined;
    let total = 0;
    let seen = false;
    for (const row of rows) {
      const value = numberOf(row[at]);
      if (value !== undefined) {
        total += value;
        seen = true;
      }
    }
    return seen ? total : undefined;
  };
  if (rows.length === 0) return noRowsIsZero && ADDITIVE_METRICS.has(metric) ? 0 : undefined;
  if (rows.length === 1 && column(metric) >= 0) return numberOf(rows[0]![column(metric)]);
  if (ADDITIVE_METRICS.has(metric)) return sum(metric);
  const rate = RECOMPUTED_RATES[kind][metric];
  if (!rate) return undefined;
  const numerator = sum(rate.numerator);
  const denominator = sum(rate.denominator);
  return numerator === undefined || denominator === undefined || denominator === 0 ? undefined : (numerator / denominator) * rate.factor;
}

/** The block's header, data rows and Total row, and its columns by name. */
function readBlock(block: SheetBlock) {
  const header = (block.values[0] ?? []).map(String);
  const rows = block.values.slice(1, 1 + block.dataRows);
  const totals = block.hasTotals ? block.values[1 + block.dataRows] : undefined;
  return { rows, totals, column: (name: string) => header.indexOf(name) };
}

const dashed = (day: string) => `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;

/** The latest settled UTC day (yyyyMMdd) the period holds, and the earlier day a rule compares it with. */
function settledDays(context: AlertContext, back: number): { day: string; earlier: string } | { why: string } {
  const { fromDate, toDate } = resolvePeriod(context.period, context.nowMs);
  const settled = dayAfter(formatDay(utcDayOf(context.nowMs - SETTLE_HOURS * MS_PER_HOUR)), -1);
  const day = [settled, toDate].sort()[0]!;
  const earlier = dayAfter(day, -back);
  if (earlier < fromDate) return { why: `the period does not reach back to ${dashed(earlier)}, the day ${dashed(day)} is compared with` };
  return { day, earlier };
}

/** The rows of each day (yyyyMMdd): a day cell shows its UTC day on the spreadsheet's clock. */
function rowsByDay(rows: readonly Row[], dayColumn: number, timeZone: string): Map<string, Row[]> {
  const byDay = new Map<string, Row[]>();
  for (const row of rows) {
    const cell = row[dayColumn];
    const day = isDate(cell)
      ? formatDay(calendarDayInZone(cell.getTime(), timeZone))
      : typeof cell === 'string'
        ? cell.replace(/-/g, '')
        : '';
    let list = byDay.get(day);
    if (!list) byDay.set(day, (list = []));
    list.push(row);
  }
  return byDay;
}

export function evaluateAlert(rule: AlertRule, context: AlertContext): AlertOutcome {
  const { rows, totals, column } = readBlock(context.block);
  const metric = rule.metric;
  if (column(metric) < 0) return { state: 'unknown', why: `the report has no column ${metric}` };
  if (rule.kind === 'below' || rule.kind === 'above') {
    const fromTotals = totals ? numberOf(totals[column(metric)]) : undefined;
    const value = fromTotals ?? figureOf(context.kind, metric, rows, column);
    if (value === undefined) return { state: 'unknown', why: `no total of ${metric}` };
    const holds = rule.kind === 'below' ? value < rule.value : value > rule.value;
    return holds
      ? { state: 'fires', detail: `${metric} is ${figureText(value)} (Total row), ${rule.kind} ${figureText(rule.value)}` }
      : { state: 'clear' };
  }
  const dayColumn = column('day');
  if (dayColumn < 0) return { state: 'unknown', why: 'the report has no day column' };
  const days = settledDays(context, rule.kind === 'change' && rule.against === 'sameWeekday' ? 7 : 1);
  if ('why' in days) return { state: 'unknown', why: days.why };
  const byDay = rowsByDay(rows, dayColumn, context.timeZone);
  const latest = byDay.get(days.day) ?? [];
  const earlier = byDay.get(days.earlier) ?? [];
  if (rule.kind === 'change') return changeOutcome(rule, context, { days, latest, earlier, column });
  // A key is its id (or its text), with its publisher's in a report of several.
  const idColumn = column(`${rule.key}.id`) >= 0 ? column(`${rule.key}.id`) : column(rule.key);
  if (idColumn < 0) return { state: 'unknown', why: `the report has no ${rule.key} column` };
  const nameColumn = column(`${rule.key}.name`);
  const publisherColumn = column(`${PUBLISHER_BREAKDOWN}.id`);
  const keyOf = (row: Row) => `${publisherColumn >= 0 ? `${String(row[publisherColumn])}/` : ''}${String(row[idColumn])}`;
  const group = (list: readonly Row[]) => {
    const byKey = new Map<string, Row[]>();
    for (const row of list) {
      const key = keyOf(row);
      let rowsOfKey = byKey.get(key);
      if (!rowsOfKey) byKey.set(key, (rowsOfKey = []));
      rowsOfKey.push(row);
    }
    return byKey;
  };
  const before = group(earlier);
  const now = group(latest);
  const dropped: Array<{ hash: string; label: string }> = [];
  for (const [key, rowsBefore] of before) {
    const was = figureOf(context.kind, metric, rowsBefore, column);
    if (was === undefined || was <= 0) continue;
    const is = figureOf(context.kind, metric, now.get(key) ?? [], column, true);
    if (is !== 0) continue;
    const first = rowsBefore[0]!;
    const name = nameColumn >= 0 ? String(first[nameColumn]) : '';
    const id = String(first[idColumn]);
    dropped.push({ hash: hashText(key).slice(0, 6), label: name && name !== id ? `${name} (${id})` : id });
  }
  if (dropped.length === 0) return { state: 'clear' };
  return { state: 'fires', detail: droppedText(rule, days, dropped), keys: dropped, days };
}

/** A change rule's outcome on the two days' rows; its notice's drivers from the same rows (change-drivers.ts). */
function changeOutcome(
  rule: Extract<AlertRule, { kind: 'change' }>,
  context: AlertContext,
  on: { days: { day: string; earlier: string }; latest: Row[]; earlier: Row[]; column: (name: string) => number },
): AlertOutcome {
  const { days, latest, earlier, column } = on;
  const metric = rule.metric;
  const now = figureOf(context.kind, metric, latest, column, true);
  const before = figureOf(context.kind, metric, earlier, column, true);
  if (now === undefined || before === undefined || before === 0) {
    return { state: 'unknown', why: `no ${metric} to compare on ${dashed(days.earlier)}` };
  }
  const changePercent = ((now - before) / Math.abs(before)) * 100;
  const direction = rule.direction ?? 'down';
  const holds =
    direction === 'down'
      ? changePercent <= -rule.percent
      : direction === 'up'
        ? changePercent >= rule.percent
        : Math.abs(changePercent) >= rule.percent;
  if (!holds) return { state: 'clear' };
  const sign = changePercent > 0 ? '+' : '';
  const explained =
    context.report && context.kind === 'main'
      ? explainChange({
          report: context.report,
          metric,
          against: rule.against,
          column,
          latest,
          earlier,
          totals: { earlier: before, current: now },
          days,
        })
      : undefined;
  return {
    state: 'fires',
    detail: `${metric} was ${figureText(now)} on ${dashed(days.day)} against ${figureText(before)} on ${dashed(days.earlier)} (${sign}${figureText(changePercent)}%)`,
    ...(explained ? { explained } : {}),
  };
}

/** "paidReqs dropped to 0 on 2026-11-19, from above 0 on 2026-11-18, for widget Sidebar (APP_12)". */
export function droppedText(
  rule: Extract<AlertRule, { kind: 'zero' }>,
  days: { day: string; earlier: string },
  keys: ReadonlyArray<{ label: string }>,
): string {
  const labels = keys.slice(0, KEYS_NAMED).map((k) => k.label);
  const more = keys.length > KEYS_NAMED ? ` and ${keys.length - KEYS_NAMED} more` : '';
  const which = keys.length === 1 ? `${rule.key} ${labels[0]}` : `${keys.length} ${rule.key}s: ${labels.join(', ')}${more}`;
  return `${rule.metric} dropped to 0 on ${dashed(days.day)}, from above 0 on ${dashed(days.earlier)}, for ${which}`;
}
