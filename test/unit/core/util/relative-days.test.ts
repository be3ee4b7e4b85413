/**
 * Days relative to today ("today", "yesterday", "NdaysAgo" and the month bounds): what text names
 * one, and which calendar day each names on the spreadsheet's clock, where the day there is not UTC's.
 */
import { readableDay } from '../../../../src/core/util/dates';
import { isAnotherDay, parseRelativeDay, relativeDayProblem, resolveRelativeDay } from '../../../../src/core/util/relative-days';

describe('parseRelativeDay', () => {
  it('reads the forms in any case, with spaces around them', () => {
    expect(['today', 'TODAY', ' Yesterday ', '0daysAgo', '7daysAgo', '7DAYSAGO', '365daysago', '007daysAgo'].map(parseRelativeDay)).toEqual(
      [
        { kind: 'daysAgo', days: 0 },
        { kind: 'daysAgo', days: 0 },
        { kind: 'daysAgo', days: 1 },
        { kind: 'daysAgo', days: 0 },
        { kind: 'daysAgo', days: 7 },
        { kind: 'daysAgo', days: 7 },
        { kind: 'daysAgo', days: 365 },
        { kind: 'daysAgo', days: 7 },
      ],
    );
    expect(['startOfMonth', 'STARTOFLASTMONTH', ' endOfLastMonth'].map(parseRelativeDay)).toEqual([
      { kind: 'startOfMonth' },
      { kind: 'startOfLastMonth' },
      { kind: 'endOfLastMonth' },
    ]);
  });

  it('names nothing for other text, numbers and dates', () => {
    for (const value of [
      '7dayago',
      '7dayAgo',
      '7 daysAgo',
      '-1daysAgo',
      '+1daysAgo',
      '1.5daysAgo',
      'daysAgo',
      'tomorrow',
      'to day',
      '2026-11-01',
      7,
      new Date(),
      undefined,
    ])
      expect([value, parseRelativeDay(value)]).toEqual([value, undefined]);
  });

  it('takes N from 0 to 36500 days', () => {
    expect(relativeDayProblem(parseRelativeDay('36500daysAgo')!)).toBeUndefined();
    expect(relativeDayProblem(parseRelativeDay('36501daysAgo')!)).toMatch(/more than 36,500 days/);
    expect(relativeDayProblem(parseRelativeDay('99999999999999999999daysAgo')!)).toMatch(/more than 36,500 days/);
  });
});

describe('resolveRelativeDay, on the spreadsheet clock', () => {
  const day = (text: string, nowIso: string, zone: string) =>
    readableDay(resolveRelativeDay(parseRelativeDay(text)!, Date.parse(nowIso), zone));
  const forms = ['today', 'yesterday', '0daysAgo', '7daysAgo', '31daysAgo', 'startOfMonth', 'startOfLastMonth', 'endOfLastMonth'];

  it('on New Year in Berlin while UTC is still in the old year', () => {
    expect(forms.map((f) => day(f, '2025-12-31T23:30:00Z', 'Europe/Berlin'))).toEqual([
      '2026-01-01',
      '2025-12-31',
      '2026-01-01',
      '2025-12-25',
      '2025-12-01',
      '2026-01-01',
      '2025-12-01',
      '2025-12-31',
    ]);
    // The same instant in UTC is still the last day of 2025.
    expect(forms.map((f) => day(f, '2025-12-31T23:30:00Z', 'UTC'))).toEqual([
      '2025-12-31',
      '2025-12-30',
      '2025-12-31',
      '2025-12-24',
      '2025-11-30',
      '2025-12-01',
      '2025-11-01',
      '2025-11-30',
    ]);
  });

  it('on 1 March, after a 28-day February, and across a change of the clocks', () => {
    expect(forms.map((f) => day(f, '2026-03-01T12:00:00Z', 'America/Los_Angeles'))).toEqual([
      '2026-03-01',
      '2026-02-28',
      '2026-03-01',
      '2026-02-22',
      '2026-01-29',
      '2026-03-01',
      '2026-02-01',
      '2026-02-28',
    ]);
    // 8 March 2026, 23:30 in Los Angeles (its clocks went forward that morning).
    expect(day('yesterday', '2026-03-09T06:30:00Z', 'America/Los_Angeles')).toBe('2026-03-07');
  });
});

describe('isAnotherDay', () => {
  it('compares calendar days in the zone, not 24 hours', () => {
    const at = (iso: string) => Date.parse(iso);
    // 23:59 and 00:01 in Berlin are two days, two minutes apart; 00:01 and 23:59 the same day.
    expect(isAnotherDay(at('2026-11-19T22:59:00Z'), at('2026-11-19T23:01:00Z'), 'Europe/Berlin')).toBe(true);
    expect(isAnotherDay(at('2026-11-19T23:01:00Z'), at('2026-11-20T22:59:00Z'), 'Europe/Berlin')).toBe(false);
    // The same two instants are one UTC day.
    expect(isAnotherDay(at('2026-11-19T22:59:00Z'), at('2026-11-19T23:01:00Z'), 'UTC')).toBe(false);
  });
});
