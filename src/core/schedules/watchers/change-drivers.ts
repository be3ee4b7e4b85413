/**
 * What a change alert's notice says of why: the top drivers of the change, split exactly
 * (explain/decomposition.ts) from the report's own rows of the two days it compared, keyed by its
 * breakdowns other than the day (and the publisher in a report of several), so it costs no request:
 *   "revenue −31% vs the same weekday a week before: widget Sidebar (APP_12) −$820.00 (62%), ..."
 * A report by day only has no keys to split by: its notice offers the ENGAGE_EXPLAIN formula that
 * splits the same two days by widget (or platform, or country: the first that has the metric), as
 * it does when its rows cannot give the split (a ratio without its numerator and denominator).
 * Metrics that cannot be split exactly (the viewability and opt-in rates) get neither.
 */
import type { Cell } from '../../ports';
import { PUBLISHER_BREAKDOWN } from '../../api/requests/publisher-list';
import { quoteFormulaText } from '../../builder/formula-text';
import { decomposeChange, type Effect, type KeyParts, type PeriodParts } from '../../explain/decomposition';
import { type ExplainedMetric, metricOnBreakdowns, readExplainedMetric } from '../../explain/explained-metric';
import { DATE_BREAKDOWNS, MONEY_METRICS } from '../../spec';

/** Drivers a notice names; the rest are one "other" part. */
export const NOTICE_DRIVERS = 3;
/** What the formula a report by day only is offered splits by, in order of preference. */
const OFFERED_BREAKDOWNS = ['widget', 'platform', 'country'];

/** The saved report's fields an explanation reads. */
export interface AlertReport {
  entityId: string;
  breakdowns?: readonly string[];
  filter?: string;
  currencyCode?: string;
  decDigits?: number;
}

export interface ChangeToExplain {
  report: AlertReport;
  metric: string;
  against: 'previousDay' | 'sameWeekday';
  /** The block's columns by name. */
  column: (name: string) => number;
  latest: ReadonlyArray<readonly Cell[]>;
  earlier: ReadonlyArray<readonly Cell[]>;
  /** The metric on each day as the alert read it. */
  totals: { earlier: number; current: number };
  /** yyyyMMdd. */
  days: { day: string; earlier: string };
}

type Row = readonly Cell[];
const numberOf = (cell: Cell | undefined) => (typeof cell === 'number' && Number.isFinite(cell) ? cell : 0);
const dashed = (day: string) => `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;
const MINUS = '\u2212';

/** A signed figure: money in the report's currency ("−$820.00"), others to the split's decimals. */
function signed(n: number, metric: ExplainedMetric, currency: string): string {
  const digits = metric.decimals;
  let text: string;
  if (MONEY_METRICS.has(metric.name) && metric.shape.kind === 'additive') {
    try {
      const options = { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits } as const;
      text = Math.abs(n).toLocaleString('en-US', options);
    } catch {
      text = `${Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency}`;
    }
  } else {
    text = Math.abs(n).toLocaleString('en-US', { maximumFractionDigits: digits });
  }
  return `${n < 0 ? MINUS : n > 0 ? '+' : ''}${text}`;
}

const percentText = (p: number) => `${p < 0 ? MINUS : p > 0 ? '+' : ''}${Math.abs(Math.round(p))}%`;

/** The key columns: each breakdown but the day's, the publisher's first where the block has it. */
function keyColumns(report: AlertReport, column: (name: string) => number) {
  const names = (report.breakdowns ?? []).filter((b) => !DATE_BREAKDOWNS.has(b) && b !== PUBLISHER_BREAKDOWN);
  if (column(`${PUBLISHER_BREAKDOWN}.id`) >= 0) names.unshift(PUBLISHER_BREAKDOWN);
  return names.map((name) => {
    const id = column(`${name}.id`) >= 0 ? column(`${name}.id`) : column(name);
    return { name, id, label: column(`${name}.name`) };
  });
}

/** The two days' parts of each key, or undefined when a column is missing. */
function keyParts(change: ChangeToExplain, metric: ExplainedMetric): KeyParts<string>[] | undefined {
  const { column } = change;
  const keys = keyColumns(change.report, column);
  if (keys.length === 0 || keys.some((k) => k.id < 0)) return undefined;
  const parts = metric.shape.kind === 'ratio' ? [metric.numerator!, metric.denominator!] : [metric.name];
  const at = parts.map(column);
  if (at.some((i) => i < 0)) return undefined;
  const byKey = new Map<string, KeyParts<string>>();
  const add = (rows: ReadonlyArray<Row>, which: 'earlier' | 'current') => {
    for (const row of rows) {
      const id = keys.map((k) => String(row[k.id])).join('\u0000');
      let entry = byKey.get(id);
      if (!entry) {
        const label = keys
          .map((k) => {
            const name = k.label >= 0 ? String(row[k.label] ?? '') : '';
            const own = String(row[k.id]);
            return `${k.name} ${name && name !== own ? `${name} (${own})` : own}`;
          })
          .join(' · ');
        byKey.set(id, (entry = { key: label, id }));
      }
      const before: PeriodParts = entry[which] ?? { numerator: 0, denominator: 0 };
      entry[which] = {
        numerator: before.numerator + numberOf(row[at[0]!]),
        denominator: before.denominator + (at.length > 1 ? numberOf(row[at[1]!]) : 1),
      };
    }
  };
  add(change.earlier, 'earlier');
  add(change.latest, 'current');
  return [...byKey.values()];
}

/** The formula that splits the same two days, for a report whose rows cannot. */
function offerFormula(change: ChangeToExplain, metric: ExplainedMetric): string | undefined {
  const by = OFFERED_BREAKDOWNS.find((b) => metricOnBreakdowns(metric, [b]) === undefined);
  if (!by) return undefined;
  const { day, earlier } = change.days;
  const args = [change.report.entityId, dashed(day), dashed(day), `${dashed(earlier)}..${dashed(earlier)}`, metric.name, by].map(
    quoteFormulaText,
  );
  const filter = change.report.filter?.trim() ? `, "", ${quoteFormulaText(change.report.filter.trim())}` : '';
  return `To see which ${by} moved it, run =ENGAGE_EXPLAIN(${args.join(', ')}${filter}) in a cell`;
}

/** The notice's line on what drove a change, or undefined when the metric cannot be split exactly. */
export function explainChange(change: ChangeToExplain): string | undefined {
  const metric = readExplainedMetric(change.metric, change.report.decDigits ?? 2);
  if ('argument' in metric) return undefined;
  const keys = keyParts(change, metric);
  if (!keys) return offerFormula(change, metric);
  const split = decomposeChange({ shape: metric.shape, keys, totals: change.totals, decimals: metric.decimals, topN: NOTICE_DRIVERS });
  const currency = change.report.currencyCode || 'USD';
  const total = split.total.change;
  const part = (label: string, effect: Effect) => {
    const percent = total !== 0 ? Math.round((effect.change / total) * 100) : 0;
    const share = total !== 0 ? ` (${percent < 0 ? MINUS : ''}${Math.abs(percent)}%` : ' (';
    const mixRate =
      effect.mix !== undefined
        ? `${share === ' (' ? '' : ': '}mix ${signed(effect.mix, metric, currency)}, rate ${signed(effect.rate!, metric, currency)}`
        : '';
    const inside = `${share}${mixRate})`;
    return `${label} ${signed(effect.change, metric, currency)}${inside === ' ()' ? '' : inside}`;
  };
  const parts = split.drivers.map((d) => part(d.key, d.effect));
  if (split.other.keys > 0) parts.push(part(`the other ${split.other.keys}`, split.other));
  else if (split.other.change !== 0) parts.push(part('rounding of the totals', split.other));
  const { earlier, current } = change.totals;
  const percent = earlier !== 0 ? ` ${percentText(((current - earlier) / Math.abs(earlier)) * 100)}` : '';
  const against = change.against === 'sameWeekday' ? 'the same weekday a week before' : 'the day before';
  return `${metric.name}${percent} (${signed(total, metric, currency)}) vs ${against}: ${parts.join(', ')}`;
}
