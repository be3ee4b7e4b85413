/**
 * A saved report's notices and alerts, as the user sets them: when to be told of its refreshes (on
 * failure, the default, which includes the recovery after one; after every refresh; or never), through
 * which channels (an email to the user who saved it, a webhook), and alert rules on its figures (a metric of the
 * Total row below or above a number; the latest settled day's figure against the day before or the
 * same weekday a week earlier, beyond a percentage; a key, such as a widget, whose metric drops to 0
 * from one day to the next). The rules are checked here against the report they watch, so a rule that
 * could never be evaluated is refused when it is saved, naming the field. Each channel brings its own
 * setting (channels/); where a channel's secret is kept (not in the definition) is notice-record.ts;
 * how rules are evaluated, alerts.ts. Pure: bundled into the sidebar too, which offers only what these rules allow.
 */
import * as z from '../../util/zod';
import type { ValidationProblem } from '../../errors';
import { effectiveBreakdowns, metricAvailabilityProblem } from '../../api/requests/report-fields';
import { metricLabel } from '../../api/requests/report-metrics';
import { blankTotals, RECOMPUTED_RATES } from '../../api/paging/publisher-totals';
import { selectsSeveral } from '../../api/requests/publisher-list';
import { ADDITIVE_METRICS, DATE_BREAKDOWNS, REPORT_SPECS, type ReportKind } from '../../spec';
import { hashText } from '../../util/hash';
import { daysBetween } from '../../util/dates';
import type { Period } from './period';
import { type SheetModeFields, writeModeOf } from './write-modes';
import { CHANNEL_IDS, type ChannelId, channelSettingShape, channelsOn, HOW_TO_TURN_ON_A_CHANNEL } from '../../channels/channels';

export const NOTICE_WHEN = ['failure', 'always', 'never'] as const;
export type NoticeWhen = (typeof NOTICE_WHEN)[number];
/** How many alert rules a saved report may have: each keeps a little state in the user's properties. */
export const ALERTS_MAX = 10;
/** Percentages that cannot pass 100: a share of requests or page views. */
const CAPPED_PERCENT_METRICS: ReadonlySet<string> = new Set([
  'viewabilityRate',
  'paidViewabilityRate',
  'organicViewabilityRate',
  'optInRateByReqs',
  'optInRateByPvs',
]);

const WHEN_RULE = "must be 'failure' (failures, and the recovery after one: the default), 'always' (every refresh too) or 'never'";

export const noticesSchema = z.strictObject(
  {
    when: z.optional(z.enum(NOTICE_WHEN, { error: WHEN_RULE })),
    /** Each channel's own setting, under its id (channels/). */
    ...channelSettingShape,
  },
  { error: `must be the notice settings: {${['when', ...CHANNEL_IDS].map((key) => `${key}?`).join(', ')}}` },
);
export type NoticeSettingsInput = z.infer<typeof noticesSchema>;

const metricName = () =>
  z
    .string({ error: 'must be a metric name such as "revenue"' })
    .check(z.trim(), z.minLength(1, { error: 'must be a metric name such as "revenue"' }));
const finiteNumber = (rule: string) => z.number({ error: rule }).check(z.refine(Number.isFinite, { error: rule }));

export const alertRuleSchema = z.discriminatedUnion(
  'kind',
  [
    /** The metric of the report's Total row below (or above) a number. */
    z.strictObject({ kind: z.literal('below'), metric: metricName(), value: finiteNumber('must be a number') }),
    z.strictObject({ kind: z.literal('above'), metric: metricName(), value: finiteNumber('must be a number') }),
    /** The latest settled day's figure against the day before, or the same weekday a week before, beyond a percentage. */
    z.strictObject({
      kind: z.literal('change'),
      metric: metricName(),
      against: z.enum(['previousDay', 'sameWeekday'], {
        error: "must be 'previousDay' (the day before) or 'sameWeekday' (the same weekday a week earlier)",
      }),
      percent: finiteNumber('must be a percentage such as 30'),
      /** Which way counts; default 'down'. */
      direction: z.optional(z.enum(['down', 'up', 'either'], { error: "must be 'down', 'up' or 'either'" })),
    }),
    /** A key (a widget, a country...) whose metric was above 0 the day before and is 0, or gone, on the latest settled day. */
    z.strictObject({
      kind: z.literal('zero'),
      metric: metricName(),
      key: z.string({ error: 'must be a breakdown of the report, such as "widget"' }),
    }),
  ],
  {
    error:
      "must be an alert rule: {kind: 'below' | 'above', metric, value}, {kind: 'change', metric, against, percent}, or {kind: 'zero', metric, key}",
  },
);
export type AlertRule = z.infer<typeof alertRuleSchema>;

export const alertsSchema = z
  .array(alertRuleSchema, { error: 'must be a list of alert rules' })
  .check(z.maxLength(ALERTS_MAX, { error: `has more than ${ALERTS_MAX} rules; a saved report may have at most ${ALERTS_MAX}` }));

/** What a report's notices come to, its defaults filled in. */
export interface NoticeSettings {
  when: NoticeWhen;
  /** The channels it is told through, in the channels' order. */
  channels: ChannelId[];
}

export function noticeSettingsOf(report: { notices?: NoticeSettingsInput }): NoticeSettings {
  return { when: report.notices?.when ?? 'failure', channels: channelsOn(report.notices) };
}

/** Why a report's alerts could reach nobody (no channel on), or undefined. */
export function alertsWithoutChannel(report: { notices?: NoticeSettingsInput }): string | undefined {
  if (channelsOn(report.notices).length > 0) return undefined;
  return `are sent through the notices of the report: ${HOW_TO_TURN_ON_A_CHANNEL}`;
}

/** A short stable name for a rule: its state in the owner's notice record is kept under it, so a changed rule starts afresh. */
export function alertKey(rule: AlertRule): string {
  const { kind, metric } = rule;
  const rest =
    rule.kind === 'change' ? [rule.against, rule.percent, rule.direction ?? 'down'] : rule.kind === 'zero' ? [rule.key] : [rule.value];
  return hashText(JSON.stringify([kind, metric, ...rest])).slice(0, 8);
}

const percentText = (n: number) => `${n}%`;

/** The rule in words: "revenue (Total row) below 100", "paidReqs of a widget drops to 0". */
export function describeAlert(rule: AlertRule): string {
  const metric = rule.metric;
  switch (rule.kind) {
    case 'below':
    case 'above':
      return `${metric} (Total row) ${rule.kind} ${rule.value}`;
    case 'change': {
      const direction = rule.direction ?? 'down';
      const way = direction === 'down' ? 'drops' : direction === 'up' ? 'rises' : 'moves';
      const against = rule.against === 'previousDay' ? 'the day before' : 'the same weekday a week earlier';
      return `${metric} of the latest settled day ${way} by ${percentText(rule.percent)} or more against ${against}`;
    }
    case 'zero':
      return `${metric} of a ${rule.key} drops to 0 from one day to the next`;
  }
}

/** What the alert rules need of the report they watch. */
export interface WatchedReport {
  kind: ReportKind;
  entityId: string;
  period: Period;
  breakdowns?: string[];
  metrics?: string[];
  maxRows?: number;
  totals?: boolean;
  /** Its destination's write mode and incremental choice. */
  destination: SheetModeFields;
}

/** The report's metric columns: the chosen ones, or every metric its breakdowns give. */
function columnsOf(report: WatchedReport): string[] {
  if (report.metrics) return report.metrics;
  const breakdowns = effectiveBreakdowns(report.kind, report.breakdowns ?? []);
  return REPORT_SPECS[report.kind].metrics.filter((m) => metricAvailabilityProblem(report.kind, m, breakdowns) === null);
}

/** Whether a metric's figure over several rows can be known from the rows: a sum, or a rate from its summed parts. */
export function aggregatable(kind: ReportKind, metric: string, columns: readonly string[]): boolean {
  if (ADDITIVE_METRICS.has(metric)) return true;
  const rate = RECOMPUTED_RATES[kind][metric];
  return rate !== undefined && columns.includes(rate.numerator) && columns.includes(rate.denominator);
}

/**
 * The Total row the report writes: only when it replaces its rows (an append's snapshots and an
 * upsert's merged rows have none: totals of rates cannot be merged), and not when turned off.
 */
export function writesTotals(report: Pick<WatchedReport, 'totals' | 'destination'>): boolean {
  return writeModeOf(report) === 'replace' && report.totals !== false;
}

/** Days the period holds that a rule on settled days may use (today, still partial, left out); undefined when it grows. */
function settledDaysOf(period: Period): number | undefined {
  if (period.type === 'lastDays') return period.endingYesterday ? period.days : period.days - 1;
  if (period.type === 'fixed') return daysBetween(period.fromDate, period.toDate) + 1;
  return undefined;
}

/** Why a rule cannot watch the report: the field it names (none: the rule as a whole), and the reason. */
type RuleProblem = { field?: string; rule: string } | undefined;
const problem = (field: string | undefined, text: string): RuleProblem => (field ? { field, rule: text } : { rule: text });

/** What every rule is checked against: the report, its breakdowns and metric columns, whether it has several publishers. */
interface Watched {
  report: WatchedReport;
  breakdowns: string[];
  columns: string[];
  several: boolean;
}

/** A metric the report's kind does not have, or the report does not show. */
function metricProblem(rule: AlertRule, { report, columns }: Watched): RuleProblem {
  const spec = REPORT_SPECS[report.kind];
  if (!spec.metrics.includes(rule.metric)) return problem('metric', `'${rule.metric}' is not a metric of the ${spec.title}`);
  if (columns.includes(rule.metric)) return undefined;
  return problem(
    'metric',
    `'${rule.metric}' is not among the report's metrics (${columns.join(', ')}): add it to the report, or choose one of them`,
  );
}

/** A threshold on the Total row that can never be reached, or a Total the report cannot give. */
function totalRuleProblem(rule: Extract<AlertRule, { kind: 'below' | 'above' }>, { report, columns, several }: Watched): RuleProblem {
  const { metric } = rule;
  const label = metricLabel(metric);
  if (rule.kind === 'below' && rule.value <= 0) return problem('value', `${rule.value} can never be reached: ${label} is never below 0`);
  if (rule.kind === 'above' && rule.value < 0)
    return problem('value', `${rule.value} would hold at every refresh: ${label} is never below 0`);
  if (rule.kind === 'above' && CAPPED_PERCENT_METRICS.has(metric) && rule.value >= 100) {
    return problem('value', `${rule.value} can never be passed: ${label} is a percentage of at most 100`);
  }
  if (several && blankTotals(report.kind).includes(metric)) {
    return problem(
      'metric',
      `'${metric}' has no total in a report of several publishers (its parts are not metrics): choose a count, an amount or an RPM`,
    );
  }
  if (writesTotals(report)) return undefined;
  if (report.maxRows !== undefined) return problem('metric', 'needs the Total row with maxRows: the rows kept are not the whole report');
  if (aggregatable(report.kind, metric, columns)) return undefined;
  return problem(
    'metric',
    `'${metric}' cannot be totalled from the rows without the Total row: keep the Total row, or choose a count or an amount`,
  );
}

/** A change that can never be reached. */
function percentProblem(rule: Extract<AlertRule, { kind: 'change' }>): RuleProblem {
  if (!(rule.percent > 0)) return problem('percent', `${rule.percent} must be more than 0`);
  if ((rule.direction ?? 'down') === 'down' && rule.percent > 100)
    return problem('percent', `${rule.percent} can never be reached: a figure cannot drop by more than 100%`);
  return undefined;
}

/** A period too short to hold the day a change compares with. */
function periodProblem(rule: Extract<AlertRule, { kind: 'change' }>, period: Period): RuleProblem {
  const needed = rule.against === 'previousDay' ? 2 : 8;
  const days = settledDaysOf(period);
  if (days === undefined || days >= needed) return undefined;
  const compared = rule.against === 'previousDay' ? 'a day and the one before' : 'a day and the same weekday a week before';
  return problem('against', `needs a period of at least ${needed} finished days (${compared}); this one has ${days}`);
}

/** Why a day-by-day rule (a change, a drop to 0) cannot watch the report. */
function dayRuleProblem(
  rule: Extract<AlertRule, { kind: 'change' | 'zero' }>,
  { report, breakdowns, columns, several }: Watched,
): RuleProblem {
  const threshold = rule.kind === 'change' ? percentProblem(rule) : undefined;
  if (threshold) return threshold;
  if (report.kind !== 'main' || !breakdowns.includes('day')) {
    return problem(undefined, 'needs the general report broken down by day: its rows by day give the figures it compares');
  }
  if (report.maxRows !== undefined)
    return problem(undefined, 'cannot be combined with maxRows: rows left out would look like figures that dropped');
  let group = ['day'];
  if (rule.kind === 'zero') {
    const keys = breakdowns.filter((b) => !DATE_BREAKDOWNS.has(b));
    if (!keys.includes(rule.key)) {
      return problem(
        'key',
        keys.length > 0
          ? `must be one of the report's breakdowns other than day (${keys.join(', ')})`
          : 'needs the report broken down by day and by a key, such as widget',
      );
    }
    group = ['day', rule.key];
  }
  // One row per group only when the report has no other breakdown and one publisher; otherwise its rows are added up.
  const oneRowEach = !several && breakdowns.every((b) => group.includes(b));
  if (!oneRowEach && !aggregatable(report.kind, rule.metric, columns)) {
    return problem(
      'metric',
      `'${rule.metric}' cannot be added up over the report's rows of a day: choose a count or an amount, or a rate with its parts among the metrics`,
    );
  }
  return rule.kind === 'change' ? periodProblem(rule, report.period) : undefined;
}

/**
 * Why each rule cannot watch this report, naming the field (`alerts.0.metric`...): an unknown metric,
 * one the report does not show, an impossible threshold, a day-by-day rule on a report without days,
 * a row limit that would make missing rows look like drops. Empty when every rule can be evaluated.
 */
export function alertProblems(report: WatchedReport, rules: readonly AlertRule[]): ValidationProblem[] {
  const watched: Watched = {
    report,
    breakdowns: effectiveBreakdowns(report.kind, report.breakdowns ?? []),
    columns: columnsOf(report),
    several: selectsSeveral(report.entityId),
  };
  const seen = new Map<string, number>();
  const sameRule = (rule: AlertRule, i: number): RuleProblem => {
    const key = alertKey(rule);
    if (seen.has(key)) return problem(undefined, `is the same rule as alerts.${seen.get(key)}`);
    seen.set(key, i);
    return undefined;
  };
  const problems: ValidationProblem[] = [];
  rules.forEach((rule, i) => {
    const found =
      metricProblem(rule, watched) ??
      sameRule(rule, i) ??
      (rule.kind === 'below' || rule.kind === 'above' ? totalRuleProblem(rule, watched) : dayRuleProblem(rule, watched));
    if (!found) return;
    const argument = found.field ? `alerts.${i}.${found.field}` : `alerts.${i}`;
    problems.push({ argument, message: `${argument}: ${found.rule}` });
  });
  return problems;
}
