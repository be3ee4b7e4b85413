/**
 * The period a saved report covers, relative so that a refresh fetches fresh days: the last N days
 * (ending today or yesterday), this or last month, since a day, a fixed range, or for the hourly
 * reports the last N hours. Days of the general report are UTC days, as the API's "today" is (field
 * notes).
 */
import * as z from '../../util/zod';
import { dayAfter, formatDay, formatUtcHour, floorToHourMs, utcDayOf, MS_PER_HOUR } from '../../util/dates';

const dayText = z.string().check(z.regex(/^\d{8}$/, { error: 'must be a day as yyyyMMdd' }));

export const periodSchema = z.discriminatedUnion(
  'type',
  [
    /**
     * Today and the N-1 days before it (UTC days); with endingYesterday, the N whole days before today,
     * as the sidebar's "Yesterday" and "Last N days" presets (today's figures are partial).
     */
    z.strictObject({
      type: z.literal('lastDays'),
      days: z.int().check(z.minimum(1, { error: 'must be at least 1 day' }), z.maximum(366, { error: 'must be at most 366 days' })),
      endingYesterday: z.optional(z.boolean()),
    }),
    /** From the first of the current UTC month up to today. */
    z.strictObject({ type: z.literal('thisMonth') }),
    /** The whole previous UTC month. */
    z.strictObject({ type: z.literal('lastMonth') }),
    /** From a day up to today: a range that grows, the natural case for an incremental refresh. */
    z.strictObject({ type: z.literal('since'), fromDate: dayText }),
    z.strictObject({ type: z.literal('fixed'), fromDate: dayText, toDate: dayText }),
    /** Hourly reports: the last N whole hours up to the current one, UTC. */
    z.strictObject({
      type: z.literal('lastHours'),
      hours: z.int().check(z.minimum(1, { error: 'must be at least 1 hour' }), z.maximum(24, { error: 'must be at most 24 hours' })),
    }),
  ],
  { error: "must be a period: 'lastDays', 'thisMonth', 'lastMonth', 'since', 'fixed' or, for the hourly reports, 'lastHours'" },
);
export type Period = z.infer<typeof periodSchema>;

/** The period's bounds at `nowMs`: yyyyMMdd (inclusive) for the general report, yyyyMMddHH UTC (toDate exclusive) otherwise. */
export function resolvePeriod(period: Period, nowMs: number): { fromDate: string; toDate: string } {
  const today = formatDay(utcDayOf(nowMs));
  switch (period.type) {
    case 'lastDays': {
      const last = period.endingYesterday ? dayAfter(today, -1) : today;
      return { fromDate: dayAfter(last, -(period.days - 1)), toDate: last };
    }
    case 'thisMonth':
      return { fromDate: `${today.slice(0, 6)}01`, toDate: today };
    case 'lastMonth': {
      const lastOfPrevious = dayAfter(`${today.slice(0, 6)}01`, -1);
      return { fromDate: `${lastOfPrevious.slice(0, 6)}01`, toDate: lastOfPrevious };
    }
    case 'since':
      return { fromDate: period.fromDate, toDate: today };
    case 'fixed':
      return { fromDate: period.fromDate, toDate: period.toDate };
    case 'lastHours': {
      const currentHour = floorToHourMs(nowMs);
      return { fromDate: formatUtcHour(currentHour - (period.hours - 1) * MS_PER_HOUR), toDate: formatUtcHour(currentHour + MS_PER_HOUR) };
    }
  }
}
