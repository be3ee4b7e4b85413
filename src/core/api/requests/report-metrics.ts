/**
 * Which metrics a report shows. The API has no metrics parameter: it always sends every metric the
 * report and its breakdowns provide, and the add-on keeps the columns the user chose. A new sheet is
 * 26 columns wide and Sheets never adds columns for a formula's result, so by default a report shows
 * a short set of the metrics publishers look at first, small enough that every allowed breakdown
 * combination fits from column A; "all" shows everything. Also the friendly labels, meanings and
 * groups the sidebar's picker and the header notes use. Pure: bundled into the sidebar too.
 */
import type { ValidationProblem } from '../../errors';
import { metricAvailabilityProblem } from './report-fields';
import { unknownNameHint } from '../../util/names';
import { REPORT_SPECS, type ReportKind } from '../../spec';
import { quoted } from '../../util/text';

export type MetricGroup = 'traffic' | 'revenue' | 'clicks' | 'viewability' | 'video' | 'optIn';

/** The picker's groups, in the order it shows them. */
export const METRIC_GROUPS: ReadonlyArray<{ id: MetricGroup; title: string }> = [
  { id: 'traffic', title: 'Traffic' },
  { id: 'revenue', title: 'Revenue' },
  { id: 'clicks', title: 'Clicks and CTR' },
  { id: 'viewability', title: 'Viewability' },
  { id: 'video', title: 'Video' },
  { id: 'optIn', title: 'Opt-in' },
];

interface MetricInfo {
  group: MetricGroup;
  /** What the sidebar shows, and the header note of a written report. */
  label: string;
  /** The spec's meaning. */
  meaning: string;
}

/** Every metric of the three reports (spec item tables), by API name. */
export const METRIC_INFO: Readonly<Record<string, MetricInfo>> = {
  paidPvs: { group: 'traffic', label: 'Paid page views', meaning: 'page views with at least one paid link' },
  totalPvs: { group: 'traffic', label: 'Page views', meaning: 'page views with at least one link' },
  organicPvs: { group: 'traffic', label: 'Organic page views', meaning: 'page views with at least one organic link' },
  paidReqs: { group: 'traffic', label: 'Paid requests', meaning: 'paid widget requests' },
  totalReqs: { group: 'traffic', label: 'Requests', meaning: 'widget requests' },
  organicReqs: { group: 'traffic', label: 'Organic requests', meaning: 'organic widget requests' },
  revenue: { group: 'revenue', label: 'Revenue', meaning: 'total revenue' },
  rpmByPvs: { group: 'revenue', label: 'RPM (page views)', meaning: '(revenue / paidPvs) * 1000' },
  reqsRpm: { group: 'revenue', label: 'RPM (requests)', meaning: '(revenue / paidReqs) * 1000' },
  paidClicks: { group: 'clicks', label: 'Paid clicks', meaning: 'paid clicks' },
  organicClicks: { group: 'clicks', label: 'Organic clicks', meaning: 'organic clicks' },
  totalClicks: { group: 'clicks', label: 'Clicks', meaning: 'total clicks' },
  paidCtrByPvs: { group: 'clicks', label: 'Paid CTR (page views)', meaning: '(paidClicks / paidPvs) * 100' },
  totalCtrByPvs: { group: 'clicks', label: 'CTR (page views)', meaning: '(totalClicks / totalPvs) * 100' },
  organicCtrByPvs: { group: 'clicks', label: 'Organic CTR (page views)', meaning: '(organicClicks / organicPvs) * 100' },
  reqsPaidCtr: { group: 'clicks', label: 'Paid CTR (requests)', meaning: '(paidClicks / paidReqs) * 100' },
  reqsTotalCtr: { group: 'clicks', label: 'CTR (requests)', meaning: '(totalClicks / totalReqs) * 100' },
  reqsOrganicCtr: { group: 'clicks', label: 'Organic CTR (requests)', meaning: '(organicClicks / organicReqs) * 100' },
  videoRevenue: { group: 'video', label: 'Video revenue', meaning: 'net revenue from video' },
  videoPlays: { group: 'video', label: 'Video plays', meaning: 'number of video plays' },
  viewabilityRate: { group: 'viewability', label: 'Viewability', meaning: '(widget exposed / widget served) * 100' },
  paidViewabilityRate: { group: 'viewability', label: 'Paid viewability', meaning: '(paid widget exposed / paid widget served) * 100' },
  organicViewabilityRate: {
    group: 'viewability',
    label: 'Organic viewability',
    meaning: '(organic widget exposed / organic widget served) * 100',
  },
  viewableCtr: { group: 'viewability', label: 'Viewable CTR', meaning: '(totalClicks / [totalReqs * viewabilityRate]) * 100' },
  viewableOrganicCtr: {
    group: 'viewability',
    label: 'Viewable organic CTR',
    meaning: '(organicClicks / [organicReqs * organicViewabilityRate]) * 100',
  },
  viewablePaidCtr: { group: 'viewability', label: 'Viewable paid CTR', meaning: '(paidClicks / [paidReqs * paidViewabilityRate]) * 100' },
  viewableRpm: { group: 'viewability', label: 'Viewable RPM', meaning: 'revenue per 1,000 paid in-view requests' },
  widgetViewableImpressions: { group: 'viewability', label: 'In-view impressions', meaning: 'in-view impressions' },
  organicWidgetViewableImpressions: { group: 'viewability', label: 'Organic in-view impressions', meaning: 'organic in-view impressions' },
  paidWidgetViewableImpressions: { group: 'viewability', label: 'Paid in-view impressions', meaning: 'paid in-view impressions' },
  optInRateByReqs: { group: 'optIn', label: 'Opt-in rate (requests)', meaning: '(opt-in requests / total requests) * 100' },
  optInRateByPvs: { group: 'optIn', label: 'Opt-in rate (page views)', meaning: '(opt-in pageviews / total pageviews) * 100' },
};

/**
 * The default set: traffic, revenue and RPM, paid clicks and CTR, and one viewability figure, listed
 * in the spec's order, which is the order of their columns (defaultMetrics). Realtime has only six
 * metrics and shows them all.
 */
const DEFAULT_METRICS: Readonly<Record<ReportKind, readonly string[]>> = {
  main: ['paidPvs', 'totalPvs', 'revenue', 'rpmByPvs', 'paidClicks', 'paidCtrByPvs', 'viewabilityRate'],
  externalId: ['totalReqs', 'paidReqs', 'paidClicks', 'reqsPaidCtr', 'revenue', 'reqsRpm', 'widgetViewableImpressions'],
  realtime: REPORT_SPECS.realtime.metrics,
};
/** The general report by widget counts requests, not page views: its default takes the request twin of each. */
const WIDGET_TWINS: Readonly<Record<string, string>> = {
  totalPvs: 'totalReqs',
  paidPvs: 'paidReqs',
  rpmByPvs: 'reqsRpm',
  paidCtrByPvs: 'reqsPaidCtr',
};

/** The word that asks for every metric. */
export const ALL_METRICS = 'all';

/** The metrics the API sends for this report and these (effective) breakdowns, in the spec's order. */
export function availableMetrics(kind: ReportKind, breakdowns: readonly string[]): string[] {
  return REPORT_SPECS[kind].metrics.filter((m) => metricAvailabilityProblem(kind, m, breakdowns) === null);
}

/**
 * The default set for this report and these (effective) breakdowns, in the spec's order: the order
 * of "all" and of the sidebar's choice too, so the same metrics always make the same columns.
 */
export function defaultMetrics(kind: ReportKind, breakdowns: readonly string[]): string[] {
  const byWidget = kind === 'main' && breakdowns.includes('widget');
  const wanted = new Set(DEFAULT_METRICS[kind].map((m) => (byWidget ? (WIDGET_TWINS[m] ?? m) : m)));
  return availableMetrics(kind, breakdowns).filter((m) => wanted.has(m));
}

export function metricLabel(metric: string): string {
  return METRIC_INFO[metric]?.label ?? metric;
}

/** "RPM (page views): (revenue / paidPvs) * 1000", the header note of a metric column. */
export function metricNote(metric: string): string {
  const info = METRIC_INFO[metric];
  return info ? `${info.label}: ${info.meaning}` : '';
}

/**
 * The metrics a user asked for: undefined (omitted, an empty cell) is the default set, "all" every
 * metric (as the API sends them), otherwise names from text "revenue,rpmByPvs" or a list, matched
 * without regard to case and returned in the API's spelling, in the order given. Unknown names,
 * names listed twice, metrics the breakdowns do not provide and a list with no name are problems,
 * reported before anything is sent.
 */
export function resolveMetrics(
  kind: ReportKind,
  given: string | readonly string[] | undefined,
  breakdowns: readonly string[],
): { metrics: string[] | typeof ALL_METRICS; problems: ValidationProblem[] } {
  if (given === undefined) return { metrics: defaultMetrics(kind, breakdowns), problems: [] };
  const spec = REPORT_SPECS[kind];
  const problems: ValidationProblem[] = [];
  const problem = (message: string) => problems.push({ argument: 'metrics', message: `metrics: ${message}` });
  const names = (typeof given === 'string' ? given.split(',') : given.flatMap((g) => String(g).split(',')))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length === 0) {
    problem(
      `lists no metric: name at least one (such as "revenue,${spec.metrics.includes('rpmByPvs') ? 'rpmByPvs' : 'reqsRpm'}"), write "${ALL_METRICS}", or leave it empty for the default set`,
    );
    return { metrics: [], problems };
  }
  if (names.some((n) => n.toLowerCase() === ALL_METRICS)) {
    if (names.length > 1) problem(`"${ALL_METRICS}" already means every metric: write it alone`);
    return { metrics: ALL_METRICS, problems };
  }
  const metrics: string[] = [];
  let listed = false;
  for (const name of names) {
    const known = spec.metrics.find((m) => m.toLowerCase() === name.toLowerCase());
    if (!known) {
      // The whole list once per message: it is long.
      const hint = unknownNameHint(name, spec.metrics, !listed);
      listed ||= hint.startsWith(' (use ');
      problem(`${quoted(name)} is not a metric of the ${spec.title}${hint}`);
    } else if (metrics.includes(known)) problem(`'${known}' is listed twice`);
    else {
      const unavailable = metricAvailabilityProblem(kind, known, breakdowns);
      if (unavailable) problem(`'${known}' ${unavailable}`);
      else metrics.push(known);
    }
  }
  return { metrics, problems };
}
