/**
 * The sidebar's date presets turned into report bounds. The general report takes calendar days in
 * the spreadsheet's time zone ("yyyy-MM-dd", both ends included); the external-ID reports take UTC
 * hours with an exclusive end ("yyyy-MM-dd HH:00"), at most 24 hours, and the realtime report only
 * inside the last 48 hours. The text produced here is exactly what the ENGAGE_* formulas accept, so
 * the sidebar run and the inserted formula ask for the same period.
 */
import {
  addDays,
  calendarDayInZone,
  floorToHourMs,
  readableDay,
  utcDayOf,
  utcHourText,
  utcMidnightMs,
  type CalendarDay,
  MS_PER_DAY,
  MS_PER_HOUR,
} from '../util/dates';
import {
  daysAgoText,
  RELATIVE_END_OF_LAST_MONTH,
  RELATIVE_START_OF_LAST_MONTH,
  RELATIVE_START_OF_MONTH,
  RELATIVE_TODAY,
  RELATIVE_YESTERDAY,
} from '../util/relative-days';
import { HOURLY_REPORT_MAX_RANGE_HOURS, REALTIME_WINDOW_HOURS, type ReportKind } from '../spec';

export const DAY_PRESETS = ['today', 'yesterday', 'last7', 'last14', 'last30', 'thisMonth', 'lastMonth', 'custom'] as const;
export const HOUR_PRESETS = ['last24h', 'previous24h', 'yesterdayUtc', 'custom'] as const;
export type DayPreset = (typeof DAY_PRESETS)[number];
export type HourPreset = (typeof HOUR_PRESETS)[number];
export type DatePreset = DayPreset | HourPreset;
/** The general report's presets that move with time. */
export type RollingDayPreset = Exclude<DayPreset, 'custom'>;

/**
 * The bounds of each rolling preset as relative days (util/relative-days.ts), so an inserted formula
 * keeps the period rolling ("Last 14 days" stays the 14 days before today) without TODAY(), which
 * Google does not promise a custom function may take as an argument. The formula reads each on the
 * spreadsheet's clock, the day it is in the spreadsheet's zone: the days presetRange gives.
 */
export const ROLLING_PRESET_DAYS: Readonly<Record<RollingDayPreset, { fromDate: string; toDate: string }>> = {
  today: { fromDate: RELATIVE_TODAY, toDate: RELATIVE_TODAY },
  yesterday: { fromDate: RELATIVE_YESTERDAY, toDate: RELATIVE_YESTERDAY },
  last7: { fromDate: daysAgoText(7), toDate: RELATIVE_YESTERDAY },
  last14: { fromDate: daysAgoText(14), toDate: RELATIVE_YESTERDAY },
  last30: { fromDate: daysAgoText(30), toDate: RELATIVE_YESTERDAY },
  thisMonth: { fromDate: RELATIVE_START_OF_MONTH, toDate: RELATIVE_TODAY },
  lastMonth: { fromDate: RELATIVE_START_OF_LAST_MONTH, toDate: RELATIVE_END_OF_LAST_MONTH },
};

export function isRollingDayPreset(value: unknown): value is RollingDayPreset {
  return typeof value === 'string' && Object.keys(ROLLING_PRESET_DAYS).includes(value);
}

export const PRESET_LABELS: Record<DatePreset, string> = {
  today: 'Today (partial)',
  yesterday: 'Yesterday',
  last7: 'Last 7 days',
  last14: 'Last 14 days',
  last30: 'Last 30 days',
  thisMonth: 'This month',
  lastMonth: 'Last month',
  custom: 'Custom',
  last24h: 'Last 24 hours',
  previous24h: 'The 24 hours before',
  yesterdayUtc: 'Yesterday (UTC day)',
};

/** The presets offered for a report: calendar days for the general report, 24-hour UTC windows otherwise. */
export function presetsFor(kind: ReportKind): readonly DatePreset[] {
  if (kind === 'main') return DAY_PRESETS;
  // Realtime covers only 48 hours, so a whole past UTC day may already be partly out of reach.
  return kind === 'realtime' ? HOUR_PRESETS.filter((p) => p !== 'yesterdayUtc') : HOUR_PRESETS;
}

export interface DateRange {
  fromDate: string;
  toDate: string;
  /** One line for the sidebar: what the period covers, and in which zone. */
  description: string;
}

/**
 * The bounds of a preset at `nowMs`. "Last N days" ends yesterday, because today's figures are still
 * partial. Custom ranges are not a preset: the sidebar passes the user's own bounds.
 */
export function presetRange(kind: ReportKind, preset: Exclude<DatePreset, 'custom'>, nowMs: number, timeZone: string): DateRange {
  if (kind === 'main') {
    const today = calendarDayInZone(nowMs, timeZone);
    const days = (from: CalendarDay, to: CalendarDay, what: string): DateRange => ({
      fromDate: readableDay(from),
      toDate: readableDay(to),
      description: `${what}: ${readableDay(from)}${from === to ? '' : ` to ${readableDay(to)}`} (${timeZone})`,
    });
    const yesterday = addDays(today, -1);
    switch (preset) {
      case 'today':
        return days(today, today, 'Today');
      case 'yesterday':
        return days(yesterday, yesterday, 'Yesterday');
      case 'last7':
        return days(addDays(today, -7), yesterday, 'Last 7 days');
      case 'last14':
        return days(addDays(today, -14), yesterday, 'Last 14 days');
      case 'last30':
        return days(addDays(today, -30), yesterday, 'Last 30 days');
      case 'thisMonth':
        return days({ ...today, day: 1 }, today, 'This month');
      case 'lastMonth': {
        const lastOfPrevious = addDays({ ...today, day: 1 }, -1);
        return days({ ...lastOfPrevious, day: 1 }, lastOfPrevious, 'Last month');
      }
      default:
        throw new Error(`The preset '${preset}' is for the hourly reports`);
    }
  }
  // Hourly reports: whole UTC hours, toDate exclusive. The current hour counts as the window's end.
  const endMs = floorToHourMs(nowMs) + MS_PER_HOUR;
  const window = (fromMs: number, what: string): DateRange => ({
    fromDate: utcHourText(fromMs),
    toDate: utcHourText(fromMs + HOURLY_REPORT_MAX_RANGE_HOURS * MS_PER_HOUR),
    description: `${what}: ${utcHourText(fromMs)} to ${utcHourText(fromMs + HOURLY_REPORT_MAX_RANGE_HOURS * MS_PER_HOUR)} UTC (end excluded)`,
  });
  switch (preset) {
    case 'last24h':
      return window(endMs - 24 * MS_PER_HOUR, 'Last 24 hours');
    case 'previous24h': {
      // Realtime keeps 48 hours counted from the start of the current hour: start inside that window.
      const earliestMs = floorToHourMs(nowMs) - REALTIME_WINDOW_HOURS * MS_PER_HOUR;
      return window(kind === 'realtime' ? Math.max(earliestMs, endMs - 48 * MS_PER_HOUR) : endMs - 48 * MS_PER_HOUR, 'The 24 hours before');
    }
    case 'yesterdayUtc':
      return window(utcMidnightMs(utcDayOf(nowMs)) - MS_PER_DAY, 'Yesterday (UTC)');
    default:
      throw new Error(`The preset '${preset}' is for the general report`);
  }
}

/**
 * Whether `fromDate` and `toDate` are the days (or hours) the preset gives at `nowMs`; "custom" is any
 * dates. A request carries both: a run asks for its dates, an inserted formula writes a rolling
 * preset's relative days, so a request whose two disagree (built before midnight and sent after, or
 * not built by the sidebar) would give two different reports.
 */
export function presetMatchesDates(
  kind: ReportKind,
  preset: DatePreset,
  dates: { fromDate: string; toDate: string },
  nowMs: number,
  timeZone: string,
): boolean {
  if (preset === 'custom') return true;
  const range = presetRange(kind, preset, nowMs, timeZone);
  return range.fromDate === dates.fromDate && range.toDate === dates.toDate;
}

/** A custom 24-hour UTC window starting at a "yyyy-MM-ddTHH:mm" (datetime-local) value, or undefined. */
export function hourWindowFrom(startText: string): DateRange | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2})/.exec(startText.trim());
  if (!m) return undefined;
  const fromMs = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]));
  if (Number.isNaN(fromMs)) return undefined;
  const toMs = fromMs + HOURLY_REPORT_MAX_RANGE_HOURS * MS_PER_HOUR;
  return {
    fromDate: utcHourText(fromMs),
    toDate: utcHourText(toMs),
    description: `${utcHourText(fromMs)} to ${utcHourText(toMs)} UTC (end excluded)`,
  };
}
