import {
  currentSlotStart,
  describeSchedule,
  nextRunAfter,
  type Schedule,
  scheduleSchema,
} from '../../../../../src/core/schedules/saved/schedule';
import { scheduleView } from '../../../../../src/core/schedules/service/schedule-view';
import type { SavedReport } from '../../../../../src/core/schedules/saved/saved-reports';
import { Destinations } from '../../../../../src/core/schedules/refresh/destination';
import { sheetDestination } from '../../../../../src/core/destinations/sheet/sheet-destination';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('schedules', () => {
  it('runs hourly at the top of the next hour', () => {
    expect(iso(nextRunAfter({ every: 'hour' }, at('2026-11-20T12:34:00Z'), 'Europe/Berlin'))).toBe('2026-11-20T13:00:00.000Z');
  });

  it("runs every N hours at local hours that divide the day, in the sheet's zone", () => {
    // 13:34 UTC is 14:34 in Berlin; the next multiple of 6 there is 18:00 local = 17:00 UTC.
    expect(iso(nextRunAfter({ every: 'hours', hours: 6 }, at('2026-11-20T13:34:00Z'), 'Europe/Berlin'))).toBe('2026-11-20T17:00:00.000Z');
  });

  it("runs daily at an hour of the sheet's clock, across a daylight-saving change", () => {
    expect(iso(nextRunAfter({ every: 'day', hour: 6 }, at('2026-11-20T12:00:00Z'), 'America/New_York'))).toBe('2026-11-21T11:00:00.000Z');
    // New York leaves daylight saving on 2026-11-01: 06:00 local moves from 10:00 to 11:00 UTC.
    expect(iso(nextRunAfter({ every: 'day', hour: 6 }, at('2026-10-31T12:00:00Z'), 'America/New_York'))).toBe('2026-11-01T11:00:00.000Z');
  });

  it('runs weekly on a day at an hour', () => {
    // 2026-11-20 is a Friday; the next Monday 07:00 in Tokyo is 2026-11-22 22:00 UTC.
    expect(iso(nextRunAfter({ every: 'week', weekday: 'monday', hour: 7 }, at('2026-11-20T12:00:00Z'), 'Asia/Tokyo'))).toBe(
      '2026-11-22T22:00:00.000Z',
    );
  });

  it('puts a moment in the slot that started last', () => {
    expect(iso(currentSlotStart({ every: 'day', hour: 6 }, at('2026-11-20T04:00:00Z'), 'UTC'))).toBe('2026-11-19T06:00:00.000Z');
  });

  it('describes itself for the sidebar and rejects hours outside the day', () => {
    expect(describeSchedule({ every: 'week', weekday: 'monday', hour: 7 })).toBe('weekly on Monday at 07:00');
    expect(scheduleSchema.safeParse({ every: 'day', hour: 24 }).success).toBe(false);
    expect(scheduleSchema.safeParse({ every: 'hours', hours: 1 }).success).toBe(false);
  });
});

describe('monthly schedules', () => {
  /** The first `count` runs after `fromIso`, each the next after the one before. */
  function runs(schedule: Schedule, fromIso: string, count: number, timeZone: string): string[] {
    const out: string[] = [];
    let after = at(fromIso);
    for (let i = 0; i < count; i++) {
      after = nextRunAfter(schedule, after, timeZone);
      out.push(iso(after));
    }
    return out;
  }

  it('runs on the 31st as the last day of a 28-, a 31- and a 30-day month, at the hour of the sheet’s clock', () => {
    // Berlin is UTC+1 until 2027-03-28 and UTC+2 after: 06:00 there is 05:00 UTC, then 04:00 UTC.
    expect(runs({ every: 'month', day: 31, hour: 6 }, '2027-01-31T05:00:00Z', 4, 'Europe/Berlin')).toEqual([
      '2027-02-28T05:00:00.000Z',
      '2027-03-31T04:00:00.000Z',
      '2027-04-30T04:00:00.000Z',
      '2027-05-31T04:00:00.000Z',
    ]);
  });

  it('runs on the 29th and 30th, or on the last day of a shorter February, in a leap year and in another', () => {
    expect(runs({ every: 'month', day: 30, hour: 0 }, '2027-01-01T00:00:00Z', 4, 'UTC')).toEqual([
      '2027-01-30T00:00:00.000Z',
      '2027-02-28T00:00:00.000Z',
      '2027-03-30T00:00:00.000Z',
      '2027-04-30T00:00:00.000Z',
    ]);
    expect(runs({ every: 'month', day: 29, hour: 23 }, '2028-01-30T00:00:00Z', 2, 'UTC')).toEqual([
      '2028-02-29T23:00:00.000Z',
      '2028-03-29T23:00:00.000Z',
    ]);
    expect(runs({ every: 'month', day: 30, hour: 12 }, '2028-02-01T00:00:00Z', 1, 'UTC')).toEqual(['2028-02-29T12:00:00.000Z']);
  });

  it('runs on a day every month has once a month, the 1st a full 31 days after the last', () => {
    // Tokyo is UTC+9 all year: the 1st at 07:00 there is 22:00 UTC the day before.
    expect(runs({ every: 'month', day: 1, hour: 7 }, '2026-12-31T22:00:00Z', 3, 'Asia/Tokyo')).toEqual([
      '2027-01-31T22:00:00.000Z',
      '2027-02-28T22:00:00.000Z',
      '2027-03-31T22:00:00.000Z',
    ]);
    expect(runs({ every: 'month', day: 15, hour: 9 }, '2026-11-20T12:00:00Z', 1, 'America/New_York')).toEqual(['2026-12-15T14:00:00.000Z']);
  });

  it('takes a day whose hour daylight saving skips at the first instant after the gap', () => {
    // Berlin skips 02:00 on 2027-03-28: the slot starts at 03:00 summer time, 01:00 UTC.
    expect(runs({ every: 'month', day: 28, hour: 2 }, '2027-03-01T00:00:00Z', 1, 'Europe/Berlin')).toEqual(['2027-03-28T01:00:00.000Z']);
  });

  it('puts a moment in the month’s slot that started last, even three weeks after it', () => {
    expect(iso(currentSlotStart({ every: 'month', day: 31, hour: 6 }, at('2027-03-20T12:00:00Z'), 'UTC'))).toBe('2027-02-28T06:00:00.000Z');
    expect(iso(currentSlotStart({ every: 'month', day: 1, hour: 0 }, at('2027-03-31T23:00:00Z'), 'UTC'))).toBe('2027-03-01T00:00:00.000Z');
  });

  it('describes the day in words, saying where a shorter month uses its last day', () => {
    const say = (day: number) => describeSchedule({ every: 'month', day, hour: 6 });
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 28].map(say)).toEqual(
      ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '28th'].map((d) => `monthly on the ${d} at 06:00`),
    );
    expect(say(29)).toBe('monthly on the 29th (or the last day) at 06:00');
    expect(say(30)).toBe('monthly on the 30th (or the last day) at 06:00');
    expect(say(31)).toBe('monthly on the last day at 06:00');
  });

  it.each([
    ['day 0', { day: 0, hour: 6 }, 'day'],
    ['day 32', { day: 32, hour: 6 }, 'day'],
    ['a fraction of a day', { day: 1.5, hour: 6 }, 'day'],
    ['a day as text', { day: '15', hour: 6 }, 'day'],
    ['no day', { hour: 6 }, 'day'],
    ['hour 24', { day: 15, hour: 24 }, 'hour'],
    ['a weekday too', { day: 15, hour: 6, weekday: 'monday' }, ''],
  ])('refuses %s, naming the field', (_what, fields, field) => {
    const parsed = scheduleSchema.safeParse({ every: 'month', ...fields });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues[0]!;
    if (field) {
      expect(issue.path).toEqual([field]);
      expect(issue.message).toMatch(
        field === 'day' ? /^must be a whole day of the month from 1 to 31/ : /^must be a whole hour from 0 to 23$/,
      );
    } else expect(issue.code).toBe('unrecognized_keys');
  });
});

describe('scheduleView: the next run of a report never refreshed', () => {
  it('is due now, to fill it, and then its first slot: a daily 06:00 schedule saved at 10:45 runs again tomorrow at 06:00', () => {
    const savedAtMs = Date.parse('2026-11-20T09:45:00Z'); // 10:45 in Berlin
    const report = {
      id: 'r1',
      ownerId: 'u1',
      createdAtMs: savedAtMs,
      updatedAtMs: savedAtMs,
      name: 'Daily revenue',
      schedule: { every: 'day', hour: 6 },
      destination: { kind: 'sheet', target: { sheetName: 'Scheduled', cell: 'B2' } },
    } as unknown as SavedReport;
    const context = {
      me: 'u1',
      signedIn: true,
      timeZone: 'Europe/Berlin',
      nowMs: savedAtMs + 60_000,
      destinations: new Destinations([sheetDestination()]),
    };
    const view = scheduleView(report, {}, context);
    expect(view.status.nextRun).toBe('2026-11-20T09:45:00.000Z');
    expect(view.status.slotAfter).toBe('2026-11-21T05:00:00.000Z'); // 06:00 in Berlin
    // Once refreshed, its next run is ahead and no slot after it is added.
    const refreshed = scheduleView(report, { lastAttemptAtMs: savedAtMs, nextRunAtMs: Date.parse('2026-11-21T05:00:00Z') }, context);
    expect(refreshed.status.slotAfter).toBeUndefined();
  });
});
