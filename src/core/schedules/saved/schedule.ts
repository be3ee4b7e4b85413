/**
 * When a saved report is refreshed: hourly, every N hours, daily at an hour, weekly on a day at an
 * hour, or monthly on a day at an hour, all in the spreadsheet's time zone (a user who says "daily at
 * 6" means 6 on their sheet's clock). A monthly day past the month's end (the 31st in April, the 29th
 * to 31st in February) is the month's last day, so "the 31st" is month close in every month. A schedule divides time into slots; a report is due once per slot, so it is never refreshed
 * twice in one window however often the hourly trigger runs. The trigger itself fires once an hour
 * at a fuzzy minute, so a slot is served by the first run on or after its start.
 */
import * as z from '../../util/zod';
import {
  addDays,
  type CalendarDay,
  calendarDayInZone,
  daysInMonth,
  utcMidnightMs,
  zonedTimeToEpochMs,
  MS_PER_HOUR,
} from '../../util/dates';

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const hourOfDay = z
  .int({ error: 'must be a whole hour from 0 to 23' })
  .check(z.minimum(0, { error: 'must be a whole hour from 0 to 23' }), z.maximum(23, { error: 'must be a whole hour from 0 to 23' }));

/** The highest day of a monthly schedule, which means the last day of every month. */
export const MAX_DAY_OF_MONTH = 31;
const DAY_OF_MONTH_RULE = 'must be a whole day of the month from 1 to 31 (31 is the last day of every month)';

export const scheduleSchema = z.discriminatedUnion(
  'every',
  [
    z.strictObject({ every: z.literal('hour') }),
    z.strictObject({
      every: z.literal('hours'),
      /** Divides the day: slots start at local hours 0, N, 2N, ... */
      hours: z
        .int({ error: 'must be a whole number of hours from 2 to 12' })
        .check(
          z.minimum(2, { error: 'must be a whole number of hours from 2 to 12' }),
          z.maximum(12, { error: 'must be a whole number of hours from 2 to 12' }),
        ),
    }),
    z.strictObject({ every: z.literal('day'), hour: hourOfDay }),
    z.strictObject({
      every: z.literal('week'),
      weekday: z.enum(WEEKDAYS, { error: `must be one of ${WEEKDAYS.join(', ')}` }),
      hour: hourOfDay,
    }),
    z.strictObject({
      every: z.literal('month'),
      /** The day of the month; past the month's end (31 in April, 29 to 31 in February), its last day. */
      day: z
        .int({ error: DAY_OF_MONTH_RULE })
        .check(z.minimum(1, { error: DAY_OF_MONTH_RULE }), z.maximum(MAX_DAY_OF_MONTH, { error: DAY_OF_MONTH_RULE })),
      hour: hourOfDay,
    }),
  ],
  {
    error:
      "must say how often: every 'hour', 'hours' (with hours), 'day' (with hour), 'week' (with weekday and hour) or 'month' (with day and hour)",
  },
);

export type Schedule = z.infer<typeof scheduleSchema>;

/**
 * The longest gap between two slots of a schedule, plus a day of slack for daylight-saving shifts: a
 * week for the weekly one, 31 days for the monthly one (the 1st of January to the 1st of February).
 * The monthly one alone searches that far, so the hourly trigger's other schedules cost no more.
 */
const searchDays = (schedule: Schedule) => (schedule.every === 'month' ? 32 : 8);

/** The day a monthly schedule runs in the month of `day`: its day, or the month's last day when the month is shorter. */
function monthlyDay(schedule: { day: number }, day: CalendarDay): number {
  return Math.min(schedule.day, daysInMonth(day.year, day.month));
}

function startsSlot(schedule: Schedule, localHour: number, day: CalendarDay, weekday: number): boolean {
  switch (schedule.every) {
    case 'hour':
      return true;
    case 'hours':
      return localHour % schedule.hours === 0;
    case 'day':
      return localHour === schedule.hour;
    case 'week':
      return localHour === schedule.hour && WEEKDAYS[weekday] === schedule.weekday;
    case 'month':
      return localHour === schedule.hour && day.day === monthlyDay(schedule, day);
  }
}

/**
 * Slot starts in `timeZone` around `aroundMs`, in time order: local wall-clock hours from `daysBack`
 * days before its calendar day through `daysAhead` days after. A wall hour skipped by daylight saving
 * maps to the first instant after the gap, and a repeated one counts once.
 */
function slotStarts(schedule: Schedule, aroundMs: number, timeZone: string, daysBack: number, daysAhead: number): number[] {
  const today = calendarDayInZone(aroundMs, timeZone);
  const starts: number[] = [];
  for (let offset = -daysBack; offset <= daysAhead; offset++) {
    const day = addDays(today, offset);
    const weekday = new Date(utcMidnightMs(day)).getUTCDay();
    for (let hour = 0; hour < 24; hour++) {
      if (!startsSlot(schedule, hour, day, weekday)) continue;
      const at = zonedTimeToEpochMs(day, hour, timeZone);
      if (starts.length === 0 || at > starts[starts.length - 1]!) starts.push(at);
    }
  }
  return starts;
}

/** The first slot start strictly after `afterMs`. */
export function nextRunAfter(schedule: Schedule, afterMs: number, timeZone: string): number {
  const next = slotStarts(schedule, afterMs, timeZone, 1, searchDays(schedule)).find((t) => t > afterMs);
  // Unreachable for valid schedules (every schedule has a slot within its search); an hour keeps it safe.
  return next ?? afterMs + MS_PER_HOUR;
}

/** The start of the slot that contains `atMs`: the latest slot start at or before it. */
export function currentSlotStart(schedule: Schedule, atMs: number, timeZone: string): number {
  const starts = slotStarts(schedule, atMs, timeZone, searchDays(schedule), 1).filter((t) => t <= atMs);
  return starts.length > 0 ? starts[starts.length - 1]! : atMs;
}

/** "1st", "2nd", "3rd", "11th", "22nd". */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The day of a monthly schedule in words: "the 15th", "the 30th (or the last day)", "the last day".
 * Days 29 and 30 say that shorter months use their last day; 31 is the last day of every month.
 */
export function describeDayOfMonth(day: number): string {
  if (day >= MAX_DAY_OF_MONTH) return 'the last day';
  return day > 28 ? `the ${ordinal(day)} (or the last day)` : `the ${ordinal(day)}`;
}

/**
 * "every hour", "every 6 hours", "daily at 06:00", "weekly on Monday at 06:00", "monthly on the 15th
 * at 06:00", "monthly on the last day at 06:00" (times in the sheet's zone).
 */
export function describeSchedule(schedule: Schedule): string {
  const at = (hour: number) => `${hour < 10 ? '0' : ''}${hour}:00`;
  switch (schedule.every) {
    case 'hour':
      return 'every hour';
    case 'hours':
      return `every ${schedule.hours} hours`;
    case 'day':
      return `daily at ${at(schedule.hour)}`;
    case 'week':
      return `weekly on ${schedule.weekday[0]!.toUpperCase()}${schedule.weekday.slice(1)} at ${at(schedule.hour)}`;
    case 'month':
      return `monthly on ${describeDayOfMonth(schedule.day)} at ${at(schedule.hour)}`;
  }
}
