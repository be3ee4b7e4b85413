/**
 * When a saved report is refreshed: hourly, every N hours, daily at an hour, or weekly on a day at
 * an hour, all in the spreadsheet's time zone (a user who says "daily at 6" means 6 on their sheet's
 * clock). A schedule divides time into slots; a report is due once per slot, so it is never refreshed
 * twice in one window however often the hourly trigger runs. The trigger itself fires once an hour
 * at a fuzzy minute, so a slot is served by the first run on or after its start.
 */
import * as z from '../util/zod';
import { addDays, calendarDayInZone, utcMidnightMs, zonedTimeToEpochMs, MS_PER_HOUR } from '../util/dates';

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const hourOfDay = z
  .int({ error: 'must be a whole hour from 0 to 23' })
  .check(z.minimum(0, { error: 'must be a whole hour from 0 to 23' }), z.maximum(23, { error: 'must be a whole hour from 0 to 23' }));

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
  ],
  { error: "must say how often: every 'hour', 'hours' (with hours), 'day' (with hour) or 'week' (with weekday and hour)" },
);

export type Schedule = z.infer<typeof scheduleSchema>;

/** The longest gap between two slots of any schedule, plus a day of slack for daylight-saving shifts. */
const LONGEST_SEARCH_DAYS = 8;

function startsSlot(schedule: Schedule, localHour: number, weekday: number): boolean {
  switch (schedule.every) {
    case 'hour':
      return true;
    case 'hours':
      return localHour % schedule.hours === 0;
    case 'day':
      return localHour === schedule.hour;
    case 'week':
      return localHour === schedule.hour && WEEKDAYS[weekday] === schedule.weekday;
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
      if (!startsSlot(schedule, hour, weekday)) continue;
      const at = zonedTimeToEpochMs(day, hour, timeZone);
      if (starts.length === 0 || at > starts[starts.length - 1]!) starts.push(at);
    }
  }
  return starts;
}

/** The first slot start strictly after `afterMs`. */
export function nextRunAfter(schedule: Schedule, afterMs: number, timeZone: string): number {
  const next = slotStarts(schedule, afterMs, timeZone, 1, LONGEST_SEARCH_DAYS).find((t) => t > afterMs);
  // Unreachable for valid schedules (every schedule has a slot within a week); an hour keeps it safe.
  return next ?? afterMs + MS_PER_HOUR;
}

/** The start of the slot that contains `atMs`: the latest slot start at or before it. */
export function currentSlotStart(schedule: Schedule, atMs: number, timeZone: string): number {
  const starts = slotStarts(schedule, atMs, timeZone, LONGEST_SEARCH_DAYS, 1).filter((t) => t <= atMs);
  return starts.length > 0 ? starts[starts.length - 1]! : atMs;
}

/** "every hour", "every 6 hours", "daily at 06:00", "weekly on Monday at 06:00" (times in the sheet's zone). */
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
  }
}
