/**
 * The pure pieces behind the sidebar's report builder: date presets, the equivalent formula text,
 * the builder request's conversion, and the external-ID tagging snippets.
 */
import { toReportInput } from '../../../src/core/builder-request';
import { hourWindowFrom, presetRange } from '../../../src/core/date-presets';
import { buildReportQuery } from '../../../src/core/report-request';
import { reportFormula } from '../../../src/core/formula-text';
import { taggingSnippets } from '../../../src/core/tagging-snippet';

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
    expect(() => buildReportQuery('realtime', { entityId: 'p', fromDate: before.fromDate, toDate: before.toDate }, { nowMs: NOW_MS })).not.toThrow();
    expect(hourWindowFrom('2026-11-20T13:00')).toMatchObject({ fromDate: '2026-11-20 13:00', toDate: '2026-11-21 13:00' });
  });
});

describe('reportFormula', () => {
  it('writes the arguments in the signature order with the refresh cell last', () => {
    const formula = reportFormula({ kind: 'main', entityId: 'pub"1', fromDate: '2026-11-01', toDate: '2026-11-07', breakdowns: ['day', 'country'], filter: 'revenue:gt:5', sort: 'revenue', order: 'asc', currencyCode: 'EUR', decDigits: 3 }, 'EngageRefresh');
    expect(formula).toBe('=ENGAGE_REPORT("pub""1","2026-11-01","2026-11-07","day,country","revenue:gt:5","revenue asc","","EUR",3,EngageRefresh)');
  });

  it('drops trailing empty arguments and takes no currency for realtime', () => {
    expect(reportFormula({ kind: 'realtime', entityId: 'p', fromDate: 'a', toDate: 'b', breakdowns: [] })).toBe('=ENGAGE_REALTIME_REPORT("p","a","b")');
  });
});

describe('toReportInput', () => {
  it('refuses an unknown report kind and keeps only the parameters a report takes', () => {
    expect(() => toReportInput({ kind: 'weekly' })).toThrow(/kind/);
    expect(toReportInput({ kind: 'realtime', entityId: 'p', fromDate: 'a', toDate: 'b', breakdowns: [], currencyCode: 'EUR', decDigits: 2 }).input).toEqual({ entityId: 'p', fromDate: 'a', toDate: 'b' });
  });
});

describe('taggingSnippets', () => {
  it('writes the globals, the container attributes and the AMP form, escaped', () => {
    const s = taggingSnippets({ externalId: 'a"</script><b>', externalSecondaryId: 'author-1' });
    expect(s.globalVariables).toContain('window.SVC_extId = "a\\"\\u003c/script\\u003e\\u003cb\\u003e";');
    expect(s.globalVariables).toContain('window.SVC_extIdSecondary = "author-1";');
    expect(s.containerAttributes).toContain('data-external-id="a&quot;&lt;/script&gt;&lt;b&gt;" data-external-secondary-id="author-1"');
    expect(s.amp).toMatch(/^<amp-embed [^]*data-external-id=/);
  });

  it('refuses an ID over 110 characters, naming it', () => {
    expect(() => taggingSnippets({ externalId: 'x'.repeat(111) })).toThrow(/externalId: is 111 characters long; Engage keeps at most 110/);
    expect(() => taggingSnippets({ externalId: 'x'.repeat(110) })).not.toThrow();
  });
});
