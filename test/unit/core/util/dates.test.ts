import {
  calendarDayInZone,
  compactDay,
  dashedDay,
  dayAfter,
  daysBetween,
  formatUtcHour,
  hourBoundMs,
  parseDateText,
  readableDay,
  readableUtcHour,
  subtractMonths,
  utcHourText,
  zonedMidnightMs,
} from '../../../../src/core/util/dates';

describe('parseDateText', () => {
  it('reads yyyyMMdd and yyyy-MM-dd as calendar days', () => {
    expect(parseDateText('20240229', false)).toEqual({ kind: 'day', day: { year: 2024, month: 2, day: 29 } });
    expect(parseDateText('2024-02-29', false)).toEqual({ kind: 'day', day: { year: 2024, month: 2, day: 29 } });
    expect(parseDateText(20240301, false)).toEqual({ kind: 'day', day: { year: 2024, month: 3, day: 1 } });
  });
  it('refuses impossible dates', () => {
    expect(parseDateText('20230229', false)).toBeNull();
    expect(parseDateText('2024-13-01', false)).toBeNull();
  });
  it('reads yyyyMMddHH only where hours are allowed', () => {
    expect(parseDateText('2024010105', false)).toBeNull();
    expect(parseDateText('2024010105', true)).toEqual({ kind: 'hour', day: { year: 2024, month: 1, day: 1 }, hour: 5 });
    expect(parseDateText('2024010124', true)).toBeNull();
  });
});

describe('hourBoundMs', () => {
  it('takes a date alone as hour 00, and as hour 00 of the next day when it ends a range', () => {
    const day = parseDateText('20261121', true)!;
    expect(formatUtcHour(hourBoundMs(day, false))).toBe('2026112100');
    expect(formatUtcHour(hourBoundMs(day, true))).toBe('2026112200');
  });
});

describe('zonedMidnightMs', () => {
  it.each([
    ['UTC', '2026-03-29T00:00:00.000Z'],
    ['Europe/Berlin', '2026-03-28T23:00:00.000Z'],
    ['America/Los_Angeles', '2026-03-29T07:00:00.000Z'],
    ['Asia/Kolkata', '2026-03-28T18:30:00.000Z'],
    ['Pacific/Kiritimati', '2026-03-28T10:00:00.000Z'],
  ])('gives the instant a sheet in %s shows as 2026-03-29 00:00', (zone, iso) => {
    const ms = zonedMidnightMs({ year: 2026, month: 3, day: 29 }, zone);
    expect(new Date(ms).toISOString()).toBe(iso);
    expect(calendarDayInZone(ms, zone)).toEqual({ year: 2026, month: 3, day: 29 });
  });

  it('stays on the right day across a daylight-saving change', () => {
    // Europe/Berlin switches to summer time at 02:00 on 2026-03-29; New York on 2026-03-08.
    expect(new Date(zonedMidnightMs({ year: 2026, month: 3, day: 30 }, 'Europe/Berlin')).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(new Date(zonedMidnightMs({ year: 2026, month: 3, day: 8 }, 'America/New_York')).toISOString()).toBe('2026-03-08T05:00:00.000Z');
  });

  it('gives the first instant of a day whose midnight does not exist', () => {
    // America/Santiago skipped 00:00-01:00 on 2024-09-08.
    const ms = zonedMidnightMs({ year: 2024, month: 9, day: 8 }, 'America/Santiago');
    expect(calendarDayInZone(ms, 'America/Santiago')).toEqual({ year: 2024, month: 9, day: 8 });
    expect(calendarDayInZone(ms - 1, 'America/Santiago')).toEqual({ year: 2024, month: 9, day: 7 });
  });
});

describe('subtractMonths', () => {
  it('keeps the day and clamps to the end of a shorter month', () => {
    expect(subtractMonths({ year: 2026, month: 11, day: 22 }, 12)).toEqual({ year: 2025, month: 11, day: 22 });
    expect(subtractMonths({ year: 2024, month: 3, day: 31 }, 1)).toEqual({ year: 2024, month: 2, day: 29 });
  });
});

describe('days as text', () => {
  it('writes a day yyyy-MM-dd from a calendar day or from yyyyMMdd, and back', () => {
    expect(readableDay({ year: 2026, month: 3, day: 7 })).toBe('2026-03-07');
    expect(dashedDay('20260307')).toBe('2026-03-07');
    expect(dashedDay('2026030713')).toBe('2026-03-07');
    expect(compactDay('2026-03-07')).toBe('20260307');
    expect(compactDay('2026-03-07 13:00')).toBe('20260307');
  });

  it('writes the UTC hour as the builder takes it, and as messages show it', () => {
    const at = Date.UTC(2026, 10, 20, 13, 45);
    expect(utcHourText(at)).toBe('2026-11-20 13:00');
    expect(readableUtcHour(at)).toBe('2026-11-20 13:00 UTC');
  });

  it('counts and moves yyyyMMdd days across months, years and 29 February', () => {
    expect(daysBetween('20260301', '20260307')).toBe(6);
    expect(daysBetween('20240228', '20240301')).toBe(2);
    expect(daysBetween('20261231', '20261201')).toBe(-30);
    expect(dayAfter('20240228', 1)).toBe('20240229');
    expect(dayAfter('20260101', -1)).toBe('20251231');
  });
});
