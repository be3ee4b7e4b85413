import { currentSlotStart, describeSchedule, nextRunAfter, scheduleSchema } from '../../../../src/core/schedules/schedule';

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
