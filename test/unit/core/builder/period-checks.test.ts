/**
 * What the report builder flags about a custom period before a run: a period in the future, and a
 * first day outside the doc breakdown's 12 months.
 */
import { customDaysCheck, hourWindowCheck } from '../../../../src/core/builder/period-checks';

// 01:30 on 25 November in Berlin, 00:30 in UTC.
const NOW_MS = Date.UTC(2026, 10, 25, 0, 30);

describe('customDaysCheck', () => {
  it('refuses a period that starts after today, and notes one that ends after it', () => {
    expect(customDaysCheck('2026-11-26', '2026-11-30', [], NOW_MS, 'Europe/Berlin')).toEqual({
      problem: 'The period starts after today (2026-11-25), so it has no data yet: choose an earlier first day.',
    });
    expect(customDaysCheck('2026-11-20', '2026-11-30', [], NOW_MS, 'Europe/Berlin')).toEqual({
      note: 'Days after today (2026-11-25) have no data yet.',
    });
    expect(customDaysCheck('2026-11-20', '2026-11-25', [], NOW_MS, 'Europe/Berlin')).toEqual({});
  });

  it("takes the UTC day as today when it is later than the spreadsheet's (the API's days are UTC days)", () => {
    // 16:30 on 24 November in Los Angeles, already the 25th in UTC: the 25th may have data.
    expect(customDaysCheck('2026-11-25', '2026-11-25', [], Date.UTC(2026, 10, 25, 0, 30), 'America/Los_Angeles')).toEqual({});
  });

  it('refuses a first day before the doc breakdown covers, naming the earliest day', () => {
    expect(customDaysCheck('2025-11-01', '2025-11-30', ['day', 'doc'], NOW_MS, 'Europe/Berlin')).toEqual({
      problem: 'The doc breakdown covers only the last 12 months: choose a first day from 2025-11-25 on.',
    });
    expect(customDaysCheck('2025-11-01', '2025-11-30', ['day'], NOW_MS, 'Europe/Berlin')).toEqual({});
  });
});

describe('hourWindowCheck', () => {
  it('refuses a window that starts after the current hour', () => {
    expect(hourWindowCheck('2026-11-25 01:00', NOW_MS)).toEqual({
      problem: 'The window starts after the current hour (2026-11-25 00:00 UTC), so it has no data yet: choose an earlier first hour.',
    });
    expect(hourWindowCheck('2026-11-25 00:00', NOW_MS)).toEqual({});
  });
});
