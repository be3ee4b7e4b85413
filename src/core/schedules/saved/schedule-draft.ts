/**
 * From the report builder to a saved report: "Save to schedule" keeps the report the sidebar built
 * (the same BuilderRequest that "Run to sheet" and "Insert formula" use) with a period that moves, so
 * each refresh fetches fresh days instead of the dates the builder showed when it was saved. The
 * general report's presets become their rolling twins ("Last 7 days" stays the 7 days before today,
 * "This month" this month); a custom range stays fixed unless the user lets it grow up to today. The
 * hourly reports refresh a rolling 24-hour UTC window. Also the sentences the sidebar shows about a
 * saved report's period. Pure: bundled into the sidebar and used by the server's tests alike.
 */
import type { BuilderRequest } from '../../builder/builder-request';
import type { DatePreset } from '../../builder/date-presets';
import { effectiveBreakdowns } from '../../api/requests/report-fields';
import { defaultMetrics } from '../../api/requests/report-metrics';
import type { SavedReportInput } from './saved-reports';
import type { Schedule } from './schedule';
import { REPORT_SPECS, type ReportKind } from '../../spec';
import { resolvePeriod, type Period } from './period';
import { dashedDay } from '../../util/dates';
import type { WriteMode } from './write-modes';

/** The hourly reports are refreshed over the last 24 whole UTC hours, the most one request may cover. */
export const HOURLY_SCHEDULE_HOURS = 24;

/** Days of the "Last N days" presets. */
const PRESET_DAYS: Partial<Record<DatePreset, number>> = { yesterday: 1, last7: 7, last14: 14, last30: 30 };

/** "yyyy-MM-dd" (the builder's custom dates) to "yyyyMMdd" (a saved period's). */
function compactDay(text: string): string {
  return text.slice(0, 10).replace(/-/g, '');
}

/**
 * The moving period of a preset. `custom` is the builder's own range ("yyyy-MM-dd"), kept fixed, or
 * growing from its first day when `growing` is set.
 */
export function periodForPreset(
  kind: ReportKind,
  preset: DatePreset,
  custom?: { fromDate: string; toDate: string; growing?: boolean },
): Period {
  if (REPORT_SPECS[kind].hourly) return { type: 'lastHours', hours: HOURLY_SCHEDULE_HOURS };
  if (preset === 'today') return { type: 'lastDays', days: 1 };
  if (preset === 'thisMonth') return { type: 'thisMonth' };
  if (preset === 'lastMonth') return { type: 'lastMonth' };
  const days = PRESET_DAYS[preset];
  if (days !== undefined) return { type: 'lastDays', days, endingYesterday: true };
  const fromDate = compactDay(custom?.fromDate ?? '');
  if (custom?.growing) return { type: 'since', fromDate };
  return { type: 'fixed', fromDate, toDate: compactDay(custom?.toDate ?? '') };
}

/** What the builder shows of a period: the report type, the preset, and a custom range with its growing choice. */
export interface PeriodChoice {
  kind: ReportKind;
  preset: DatePreset;
  /** The custom range as typed ("yyyy-MM-dd"), when the general report's preset is custom. */
  custom?: { fromDate: string; toDate: string; growing?: boolean };
}

function sameChoice(a: PeriodChoice, b: PeriodChoice): boolean {
  const custom = (c: PeriodChoice) => (c.custom ? [c.custom.fromDate, c.custom.toDate, c.custom.growing === true] : null);
  return a.kind === b.kind && a.preset === b.preset && JSON.stringify(custom(a)) === JSON.stringify(custom(b));
}

/**
 * The period "Save to schedule" saves for the builder's choice. While a saved report is edited, its
 * own period stays as long as the builder still shows the choice the report opened with: a period no
 * preset matches ("the 10 days before today", "the last 6 hours") opens as its days now, a custom
 * range, which saved as such would become those fixed days. Once the period is changed in the
 * builder, the builder's choice is saved.
 */
export function schedulePeriod(choice: PeriodChoice, kept?: { period: Period; shown: PeriodChoice }): Period {
  if (kept && sameChoice(kept.shown, choice)) return kept.period;
  return periodForPreset(choice.kind, choice.preset, choice.custom);
}

/** What a saved period covers at each refresh, in words ("the 7 days before today (UTC days)"). */
export function describePeriod(period: Period): string {
  switch (period.type) {
    case 'lastDays':
      if (period.endingYesterday) return period.days === 1 ? 'yesterday (UTC day)' : `the ${period.days} days before today (UTC days)`;
      return period.days === 1 ? 'today so far (UTC day)' : `the last ${period.days} days up to today (UTC days)`;
    case 'thisMonth':
      return 'this month up to today (UTC days)';
    case 'lastMonth':
      return 'last month (UTC days)';
    case 'since':
      return `from ${dashedDay(period.fromDate)} up to today (UTC days)`;
    case 'fixed':
      return `${dashedDay(period.fromDate)} to ${dashedDay(period.toDate)}, always the same days`;
    case 'lastHours':
      return `the last ${period.hours} hours up to the current one (UTC)`;
  }
}

export interface ScheduleDraft {
  name: string;
  period: Period;
  schedule: Schedule;
  target: { sheetName: string; cell: string };
  incremental?: boolean;
  /** How each run meets the rows in the sheet, and the rows an append or upsert keeps (write-modes.ts). */
  writeMode?: WriteMode;
  maxStoredRows?: number;
  paused?: boolean;
  /** Months closed through ("2026-10"), for a daily general report (revisions.ts). */
  closedThrough?: string;
}

/**
 * The saved report for a builder request: the same publisher, breakdowns, metrics, filter, sort,
 * currency, decimals and row limit, so a refresh asks for what "Run to sheet" asked for. The server validates it again.
 */
export function savedReportFromBuilder(request: BuilderRequest, draft: ScheduleDraft): SavedReportInput {
  const spec = REPORT_SPECS[request.kind];
  const report: SavedReportInput = {
    name: draft.name.trim(),
    kind: request.kind,
    entityId: request.entityId,
    period: draft.period,
    destination: {
      kind: 'sheet',
      target: { sheetName: draft.target.sheetName.trim(), cell: draft.target.cell.trim().toUpperCase() },
    },
    schedule: draft.schedule,
  };
  const { destination } = report;
  // No breakdown means the report by day, which is also what an omitted one asks for.
  if (request.breakdowns.length > 0) report.breakdowns = [...request.breakdowns];
  // Stored even when it is the default set: a saved report without metrics shows every metric.
  report.metrics = request.metrics
    ? [...request.metrics]
    : defaultMetrics(request.kind, effectiveBreakdowns(request.kind, request.breakdowns));
  if (request.filter) report.filter = request.filter;
  if (request.sort) report.sort = request.order ? `${request.sort} ${request.order}` : request.sort;
  if (spec.acceptsCurrency && request.currencyCode) report.currencyCode = request.currencyCode;
  if (spec.acceptsDecDigits && typeof request.decDigits === 'number') report.decDigits = request.decDigits;
  if (request.kind === 'main' && request.compareWith) report.compareWith = request.compareWith;
  if (request.maxRows !== undefined) report.maxRows = request.maxRows;
  if (draft.writeMode && draft.writeMode !== 'replace') destination.writeMode = draft.writeMode;
  if (draft.maxStoredRows !== undefined) destination.maxStoredRows = draft.maxStoredRows;
  if (draft.incremental) destination.incremental = true;
  if (draft.paused) report.paused = true;
  if (draft.closedThrough?.trim()) destination.closedThrough = draft.closedThrough.trim();
  return report;
}

/** "yyyyMMdd" or "yyyyMMddHH" (a saved period's bounds) as the builder writes them ("yyyy-MM-dd", "yyyy-MM-dd HH:00"). */
function builderDate(compact: string): string {
  const day = dashedDay(compact);
  return compact.length > 8 ? `${day} ${compact.slice(8, 10)}:00` : day;
}

/**
 * A saved report as the builder shows it, to change the report itself: the request (its dates those
 * of the period now) with the preset the period moves as, and whether a custom range grows to today.
 * A "last N days" the presets do not offer becomes its days now, as a custom range; saving it again
 * keeps the saved period unless the period is changed in the builder (schedulePeriod).
 */
export function builderRequestOfSaved(report: SavedReportInput, nowMs: number): { request: BuilderRequest; growing: boolean } {
  const { fromDate, toDate } = resolvePeriod(report.period, nowMs);
  const request: BuilderRequest = {
    kind: report.kind,
    entityId: report.entityId,
    fromDate: builderDate(fromDate),
    toDate: builderDate(toDate),
    breakdowns: [...(report.breakdowns ?? [])],
    preset: presetOfPeriod(report.period),
  };
  if (report.metrics) request.metrics = [...report.metrics];
  if (report.filter) request.filter = report.filter;
  if (report.sort) {
    const [field, order] = report.sort.trim().split(/\s+/);
    request.sort = field!;
    if (order === 'asc' || order === 'desc') request.order = order;
  }
  if (report.currencyCode) request.currencyCode = report.currencyCode;
  if (report.decDigits !== undefined) request.decDigits = report.decDigits;
  if (report.maxRows !== undefined) request.maxRows = report.maxRows;
  if (report.compareWith) request.compareWith = report.compareWith;
  return { request, growing: report.period.type === 'since' };
}

/** The builder's preset a saved period moves as (the inverse of periodForPreset), "custom" for a range of days. */
export function presetOfPeriod(period: Period): DatePreset {
  switch (period.type) {
    case 'lastHours':
      return 'last24h';
    case 'thisMonth':
    case 'lastMonth':
      return period.type;
    case 'lastDays': {
      if (!period.endingYesterday) return period.days === 1 ? 'today' : 'custom';
      const preset = (Object.keys(PRESET_DAYS) as DatePreset[]).find((p) => PRESET_DAYS[p] === period.days);
      return preset ?? 'custom';
    }
    default:
      return 'custom';
  }
}
