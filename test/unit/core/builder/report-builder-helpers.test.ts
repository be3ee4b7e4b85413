/**
 * The pure pieces behind the sidebar's report builder: date presets, the breakdown combination rules,
 * the equivalent formula text, the builder request's conversion, and the external-ID tagging snippets.
 */
import { type BuilderRequest, checkRunTarget, toReportInput, withPresetOfItsDates } from '../../../../src/core/builder/builder-request';
import { hourWindowFrom, presetRange, type RollingDayPreset } from '../../../../src/core/builder/date-presets';
import { buildReportQuery } from '../../../../src/core/api/requests/report-request';
import { reportFormula } from '../../../../src/core/builder/formula-text';
import { breakdownCombinationProblems } from '../../../../src/core/api/requests/report-fields';
import { taggingProblems, taggingSnippets } from '../../../../src/core/builder/tagging-snippet';

const NOW_MS = Date.UTC(2026, 10, 22, 0, 30); // 01:30 on 22 November in Berlin, 00:30 UTC

describe('presetRange', () => {
  it('gives calendar days in the spreadsheet zone, last N days ending yesterday', () => {
    expect(presetRange('main', 'last7', NOW_MS, 'Europe/Berlin')).toMatchObject({ fromDate: '2026-11-15', toDate: '2026-11-21' });
    expect(presetRange('main', 'today', NOW_MS, 'America/New_York')).toMatchObject({ fromDate: '2026-11-21', toDate: '2026-11-21' });
    expect(presetRange('main', 'lastMonth', NOW_MS, 'UTC')).toMatchObject({ fromDate: '2026-10-01', toDate: '2026-10-31' });
    expect(presetRange('main', 'thisMonth', NOW_MS, 'UTC')).toMatchObject({ fromDate: '2026-11-01', toDate: '2026-11-22' });
  });

  it('gives hourly reports a 24-hour UTC window that the core accepts, realtime inside 48 hours', () => {
    const last = presetRange('realtime', 'last24h', NOW_MS, 'Europe/Berlin');
    expect(last).toMatchObject({ fromDate: '2026-11-21 01:00', toDate: '2026-11-22 01:00' });
    const before = presetRange('realtime', 'previous24h', NOW_MS, 'UTC');
    expect(() =>
      buildReportQuery('realtime', { entityId: 'p', fromDate: before.fromDate, toDate: before.toDate }, { nowMs: NOW_MS }),
    ).not.toThrow();
    expect(hourWindowFrom('2026-11-20T13:00')).toMatchObject({ fromDate: '2026-11-20 13:00', toDate: '2026-11-21 13:00' });
  });
});

describe('withPresetOfItsDates', () => {
  const request = (preset: string, fromDate: string, toDate: string, kind = 'main') =>
    ({ kind, entityId: 'p', fromDate, toDate, breakdowns: ['day'], preset }) as BuilderRequest;

  it("keeps a preset whose days are the request's dates now, in the spreadsheet's zone", () => {
    const now = request('last7', '2026-11-15', '2026-11-21');
    expect(withPresetOfItsDates(now, NOW_MS, 'Europe/Berlin')).toBe(now);
    const custom = request('custom', '2026-01-01', '2026-01-31');
    expect(withPresetOfItsDates(custom, NOW_MS, 'Europe/Berlin')).toBe(custom);
    const hourly = request('last24h', '2026-11-21 01:00', '2026-11-22 01:00', 'realtime');
    expect(withPresetOfItsDates(hourly, NOW_MS, 'Europe/Berlin')).toBe(hourly);
  });

  it('leaves out a preset whose days are not the dates, keeping the dates', () => {
    // In New York it is still the 21st: "last7" there is 14 to 20 November, not the Berlin days sent.
    const sent = request('last7', '2026-11-15', '2026-11-21');
    const { preset: _preset, ...withoutPreset } = sent;
    expect(withPresetOfItsDates(sent, NOW_MS, 'America/New_York')).toEqual(withoutPreset);
    expect(withPresetOfItsDates(request('thisMonth', '2026-10-01', '2026-10-31'), NOW_MS, 'UTC').preset).toBeUndefined();
    expect(
      withPresetOfItsDates(request('last24h', '2026-11-20 01:00', '2026-11-21 01:00', 'realtime'), NOW_MS, 'UTC').preset,
    ).toBeUndefined();
    // Its formula then writes the dates, not relative days.
    expect(reportFormula(withPresetOfItsDates(sent, NOW_MS, 'America/New_York'))).toBe(
      '=ENGAGE_REPORT("p","2026-11-15","2026-11-21","day")',
    );
  });
});

describe('breakdownCombinationProblems', () => {
  it('finds every forbidden pair of the general report, in the spec order', () => {
    expect(breakdownCombinationProblems('main', ['day', 'country'])).toEqual([]);
    expect(breakdownCombinationProblems('main', ['month', 'day'])).toEqual([{ rule: 'pair', pair: ['day', 'month'] }]);
    expect(breakdownCombinationProblems('main', ['doc', 'country', 'referrer'])).toEqual([
      { rule: 'pair', pair: ['referrer', 'country'] },
      { rule: 'pair', pair: ['referrer', 'doc'] },
      { rule: 'pair', pair: ['country', 'doc'] },
    ]);
  });

  it('allows four breakdowns and refuses a fifth, the count first', () => {
    expect(breakdownCombinationProblems('main', ['day', 'platform', 'section', 'widget'])).toEqual([]);
    expect(breakdownCombinationProblems('main', ['day', 'platform', 'section', 'widget', 'month'])).toEqual([
      { rule: 'count', count: 5, max: 4 },
      { rule: 'pair', pair: ['day', 'month'] },
    ]);
  });

  it('has no combination rule for the hourly reports', () => {
    expect(breakdownCombinationProblems('externalId', ['externalId', 'widget', 'externalSecondaryId'])).toEqual([]);
    expect(breakdownCombinationProblems('realtime', ['widget', 'externalId', 'externalSecondaryId'])).toEqual([]);
  });
});

describe('reportFormula', () => {
  it('writes the arguments in the signature order with the refresh cell last', () => {
    const formula = reportFormula(
      {
        kind: 'main',
        entityId: 'pub"1',
        fromDate: '2026-11-01',
        toDate: '2026-11-07',
        breakdowns: ['day', 'country'],
        filter: 'revenue:gt:5',
        sort: 'revenue',
        order: 'asc',
        currencyCode: 'EUR',
        decDigits: 3,
      },
      'EngageRefresh',
    );
    expect(formula).toBe(
      '=ENGAGE_REPORT("pub""1","2026-11-01","2026-11-07","day,country","","revenue:gt:5","revenue asc","","EUR",3,EngageRefresh)',
    );
  });

  it('writes a rolling preset as relative days, never TODAY(), so the formula keeps the period rolling, and the row limit as maxRows', () => {
    const request = { kind: 'main' as const, entityId: 'p', fromDate: '2026-11-08', toDate: '2026-11-21', breakdowns: ['day'] };
    expect(reportFormula({ ...request, preset: 'last14', maxRows: 250 })).toBe(
      '=ENGAGE_REPORT("p","14daysAgo","yesterday","day","","","",250)',
    );
    const bounds = (preset: RollingDayPreset) =>
      /^=ENGAGE_REPORT\("p",("[^"]*"),("[^"]*"),/.exec(reportFormula({ ...request, preset }))!.slice(1);
    expect(
      (['today', 'yesterday', 'last7', 'last14', 'last30', 'thisMonth', 'lastMonth'] as const).map((preset) => [preset, ...bounds(preset)]),
    ).toEqual([
      ['today', '"today"', '"today"'],
      ['yesterday', '"yesterday"', '"yesterday"'],
      ['last7', '"7daysAgo"', '"yesterday"'],
      ['last14', '"14daysAgo"', '"yesterday"'],
      ['last30', '"30daysAgo"', '"yesterday"'],
      ['thisMonth', '"startOfMonth"', '"today"'],
      ['lastMonth', '"startOfLastMonth"', '"endOfLastMonth"'],
    ]);
    // The comparison of a rolling preset rolls too.
    expect(reportFormula({ ...request, preset: 'last7', compareWith: 'previous' }, 'EngageRefresh', true)).toBe(
      '=ENGAGE_COMPARE("p","7daysAgo","yesterday","previous","day","","","","","","",EngageRefresh)',
    );
    // A custom range stays as the days chosen.
    expect(reportFormula(request)).toBe('=ENGAGE_REPORT("p","2026-11-08","2026-11-21","day")');
  });

  it('drops trailing empty arguments and takes no currency for realtime', () => {
    expect(reportFormula({ kind: 'realtime', entityId: 'p', fromDate: 'a', toDate: 'b', breakdowns: [] })).toBe(
      '=ENGAGE_REALTIME_REPORT("p","a","b")',
    );
  });
});

describe('toReportInput', () => {
  it('refuses an unknown report kind and keeps only the parameters a report takes', () => {
    expect(() => toReportInput({ kind: 'weekly' })).toThrow(/kind/);
    expect(
      toReportInput({ kind: 'realtime', entityId: 'p', fromDate: 'a', toDate: 'b', breakdowns: [], currencyCode: 'EUR', decDigits: 2 })
        .input,
    ).toEqual({ entityId: 'p', fromDate: 'a', toDate: 'b' });
  });

  it('returns the row limit beside the input, and refuses a preset the report type does not offer', () => {
    const main = { kind: 'main', entityId: 'p', fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: [] };
    expect(toReportInput({ ...main, maxRows: 100, preset: 'last7' })).toEqual({
      kind: 'main',
      input: { entityId: 'p', fromDate: '2026-11-01', toDate: '2026-11-07' },
      maxRows: 100,
    });
    expect(() => toReportInput({ ...main, maxRows: 0 })).toThrow(/^maxRows: must be a whole number from 1 to 100,000$/);
    expect(toReportInput({ ...main, preset: 'custom' }).kind).toBe('main');
    expect(() => toReportInput({ ...main, preset: 'fortnight' })).toThrow(/^preset: must be one of today, yesterday, last7/);
    expect(() => toReportInput({ ...main, kind: 'realtime', preset: 'today' })).toThrow(
      /^preset: must be one of last24h, previous24h, custom for this report$/,
    );
  });
});

describe('taggingSnippets', () => {
  it('writes the globals, the container attributes and the AMP form, escaped', () => {
    const s = taggingSnippets({ externalId: 'a"</script><b>', externalSecondaryId: 'author-1' });
    expect(s.globalVariables).toContain('window.SVC_extId = "a\\"\\u003c/script\\u003e\\u003cb\\u003e";');
    expect(s.globalVariables).toContain('window.SVC_extIdSecondary = "author-1";');
    expect(s.containerAttributes).toContain('data-external-id="a&quot;&lt;/script&gt;&lt;b&gt;" data-external-secondary-id="author-1"');
    expect(s.amp).toMatch(/^<amp-embed [\s\S]*data-external-id=/);
  });

  it('refuses an ID over 110 characters, naming it', () => {
    expect(() => taggingSnippets({ externalId: 'x'.repeat(111) })).toThrow(/externalId: is 111 characters long; Engage keeps at most 110/);
    expect(() => taggingSnippets({ externalId: 'x'.repeat(110) })).not.toThrow();
  });
});

describe('toReportInput types', () => {
  const base = { kind: 'main', entityId: 'p', fromDate: '2026-11-01', toDate: '2026-11-07' };

  it('refuses fields that are not text instead of turning them into "[object Object]"', () => {
    expect(() => toReportInput({ ...base, entityId: 653 })).toThrow(/^entityId: must be text, not a number/);
    expect(() => toReportInput({ ...base, fromDate: { day: 1 } })).toThrow(/^fromDate: must be text, not a object/);
    expect(() => toReportInput({ ...base, filter: ['revenue:gt:1'] })).toThrow(/^filter: must be text, not a list/);
  });

  it('refuses breakdowns that are not a list of names, rather than dropping them', () => {
    expect(() => toReportInput({ ...base, breakdowns: 'day,month' })).toThrow(/^breakdowns: must be a list of breakdown names/);
    expect(() => toReportInput({ ...base, breakdowns: ['day', 3] })).toThrow(/^breakdowns: must be a list/);
  });

  it("names order when it is not 'asc' or 'desc', and passes it with the sort", () => {
    expect(() => toReportInput({ ...base, sort: 'revenue', order: 'sideways' })).toThrow(/^order: must be 'asc' or 'desc'/);
    expect(toReportInput({ ...base, sort: 'revenue', order: 'asc' }).input).toMatchObject({ sort: 'revenue', order: 'asc' });
  });

  it('writes a formula for a request without breakdowns', () => {
    expect(reportFormula({ kind: 'main', entityId: 'p', fromDate: 'a', toDate: 'b' } as never)).toBe('=ENGAGE_REPORT("p","a","b")');
  });
});

describe('checkRunTarget', () => {
  it('accepts the three targets', () => {
    expect(checkRunTarget({ type: 'newSheet' })).toEqual({ type: 'newSheet' });
    expect(checkRunTarget({ type: 'existingSheet', sheetName: 'Data' })).toEqual({ type: 'existingSheet', sheetName: 'Data' });
    expect(checkRunTarget({ type: 'activeCell', sheetName: 'ignored' })).toEqual({ type: 'activeCell' });
  });

  it.each([
    [null, /^target: must be a new sheet, an existing sheet or the active cell/],
    [{ type: 'existingSheet' }, /^target: needs the name of the sheet/],
    [{ type: 'newSheet', sheetName: 42 }, /^target: the sheet name must be text/],
    [{ type: 'newSheet', sheetName: 'S'.repeat(101) }, /^target: the sheet name must be at most 100 characters/],
    [{ type: 'newSheet', sheetName: 'Re\u0000port' }, /^target: the sheet name contains a control character \(U\+0000\)/],
  ])('refuses %j', (target, message) => {
    expect(() => checkRunTarget(target)).toThrow(message);
  });
});

describe('taggingProblems', () => {
  it('refuses control characters in an ID', () => {
    expect(taggingProblems({ externalId: 'story\u0000-1' })[0]!.message).toBe(
      'externalId: contains a control character (U+0000), which a page cannot carry as an ID',
    );
  });
});
