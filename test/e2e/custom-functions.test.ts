/**
 * End to end: the built bundle in the local Apps Script host, against a fresh emulator. Each ENGAGE_*
 * formula is typed into a cell as a user would, and the test reads the cell and the emulator's request
 * log: the rows shown, the requests sent, the message under #ERROR!.
 */
import fs from 'node:fs';
import path from 'node:path';
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { repoRoot } from '../support/paths';
import { BIG_PUBLISHER_ID, DEMO_API_KEY, MEDIUM_PUBLISHER_ID } from '../support/emulator';

const NOW = '2026-11-20T12:00:00Z';
const P = BIG_PUBLISHER_ID;
const SHEETS = Array.from({ length: 120 }, (_, i) => `S${i}`);
let h: AddonHarness;
let nextSheet = 0;

beforeAll(async () => {
  // Sheets of 1,000 rows, as Sheets makes them (a result that spills further adds rows), and wide enough for any report.
  h = await startAddon({ clock: 'virtual', startTime: new Date(NOW), maxColumns: 60, maxRows: 1000, sheets: SHEETS });
  await h.emulator.setClock(NOW);
  h.signIn();
  // ENGAGE_RECOMMENDATIONS uses the API key from the settings, not the sign-in.
  h.host.call('saveSettings', [{ apiKey: DEMO_API_KEY.key }], { user: OWNER });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.emulator.clearFaults();
  await h.emulator.clearRequests();
});

/** Types the formula into A1 of a sheet of its own (results spill) and evaluates it. */
function formula(text: string, user = OWNER) {
  return h.host.evaluateFormula(SHEETS[nextSheet++]!, 'A1', text, { user });
}

describe('ENGAGE_REPORT', () => {
  it('returns day dates that show the calendar day in the spreadsheet time zone', () => {
    const result = formula(`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-03")`);
    const days = result.values!.slice(1, -1).map((r) => r[0] as Date);
    const shown = days.map((d) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(d)).sort();
    expect(shown).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
  });

  it('takes dates from date cells and breakdowns from a range', async () => {
    const sheet = SHEETS[nextSheet++]!;
    h.host.setCell(sheet, 'BA1', new Date('2026-10-31T23:00:00Z')); // 1 November in Berlin
    h.host.setCell(sheet, 'BA2', new Date('2026-11-01T23:00:00Z'));
    h.host.setCell(sheet, 'BB1', 'day');
    h.host.setCell(sheet, 'BB2', 'platform');
    const result = h.host.evaluateFormula(sheet, 'A1', `=ENGAGE_REPORT("${P}", BA1, BA2, BB1:BB2)`);
    expect(result.error).toBeUndefined();
    expect(result.values![0]!.slice(0, 3)).toEqual(['day', 'platform.id', 'platform.name']);
    const sent = (await h.emulator.requests()).filter((r) => r.path.endsWith('/reports/main'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.query).toMatchObject({ fromDate: '20261101', toDate: '20261102', breakdowns: 'day,platform' });
  });

  it('fetches every page of a report over 10,000 rows: ceil(rows / 10000) requests', async () => {
    const result = formula(`=ENGAGE_REPORT("${P}", "2026-10-01", "2026-10-31", "day,country,platform,widget", , , , , , , "paging")`);
    expect(result.error).toBeUndefined();
    const rows = result.values!.length - 2;
    expect(rows).toBeGreaterThan(20000);
    const sent = (await h.emulator.requests()).filter((r) => r.path.endsWith('/reports/main'));
    expect(sent).toHaveLength(Math.ceil(rows / 10000));
  });

  it('answers a recalculation from the cache: zero new requests', async () => {
    const first = formula(`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-05", "day,platform")`);
    await h.emulator.clearRequests();
    const again = formula(`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-05", "day,platform")`);
    expect(again.values).toEqual(first.values);
    expect(await h.apiRequests()).toEqual([]);
  });

  it('fetches again when the refresh argument changes', async () => {
    formula(`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", , , , , , , , 1)`);
    formula(`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", , , , , , , , 2)`);
    expect((await h.apiRequests()).filter((r) => r.path.endsWith('/reports/main'))).toHaveLength(2);
  });

  it('fails within the time limit with a clear message when the rate-limit wait would not fit', async () => {
    await h.emulator.setFaults([{ match: 'reports/main', rateLimitMs: 45000, times: 5 }]);
    // Another publisher: the emulator and the add-on both remember the announced wait per publisher.
    const result = formula(`=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}", "2026-11-01", "2026-11-02", , , , , , , , "limited")`);
    expect(result.value).toBe('#ERROR!');
    expect(result.error).toMatch(/rate limit/i);
    expect(result.error).toMatch(/try again after \d\d:\d\d/);
    expect(result.error).not.toMatch(/Exceeded maximum execution time/);
  });

  it('shows the API error message and trace ID', async () => {
    await h.emulator.setFaults([
      { match: 'reports/main', status: 504 },
      { match: 'reports/main', status: 504, onNth: 2 },
      { match: 'reports/main', status: 504, onNth: 3 },
      { match: 'reports/main', status: 504, onNth: 4 },
      { match: 'reports/main', status: 504, onNth: 5 },
    ]);
    const result = formula(`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", , , , , , , , "timeout")`);
    const log = await h.emulator.requests();
    expect(result.value).toBe('#ERROR!');
    expect(result.error).toMatch(/took too long/);
    expect(result.error).toContain(`trace ID ${log[log.length - 1]!.traceId}`);
  });
});

describe('ENGAGE_VERSION', () => {
  it("shows the add-on's version from package.json, sending nothing", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const result = formula('=ENGAGE_VERSION()');
    expect(result.values).toEqual([[`Engage for Sheets ${version}`]]);
    expect(await h.emulator.requests()).toEqual([]);
  });
});

describe('answers without a charset', () => {
  it('reads a UTF-8 answer whose Content-Type names no charset as UTF-8', async () => {
    // getContentText() without a charset follows the Content-Type's, and Google documents no default
    // for an answer that names none: the host then reads the bytes as ISO-8859-1, so only a script that
    // names UTF-8 gets "Türkiye" back.
    await h.emulator.setFaults([{ match: '/countries', noCharset: true }]);
    const result = formula('=ENGAGE_COUNTRIES("no charset")');
    expect((await h.emulator.requests()).map((r) => r.status)).toEqual([200]);
    const names = result.values!.map((row) => row[1]);
    expect(names).toContain('Türkiye');
    expect(names.join('')).not.toContain('Ã');
  });
});

describe('bad arguments', () => {
  const cases: Array<[string, RegExp]> = [
    ['=ENGAGE_REPORT()', /^entityId: is required/],
    [`=ENGAGE_REPORT("${P}")`, /^fromDate: is required/],
    [`=ENGAGE_REPORT("${P}", "2026-11-01")`, /^toDate: is required/],
    [`=ENGAGE_REPORT("${P}", "2026-13-01", "2026-11-02")`, /^fromDate: /],
    [`=ENGAGE_REPORT("${P}", "2026-11-05", "2026-11-01")`, /(fromDate|toDate)/],
    [`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", "day,month")`, /^breakdowns: 'day' and 'month' cannot be combined/],
    [`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", "referrer,country")`, /^breakdowns: 'referrer' and 'country' cannot be combined/],
    [`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", "day,platform,country,section,widget")`, /^breakdowns: .*at most 4/],
    [`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", "hour")`, /^breakdowns: /],
    [`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", , , "revenue:gtx:1")`, /^filter: /],
    [`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", , , , "nonsense")`, /^sort: /],
    [`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", , , , , 0)`, /^maxRows: 0 must be from 1 to 100000/],
    [`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", , , , , 1000000000)`, /^maxRows: /],
    [`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", , , , , , "EURO")`, /^currencyCode: /],
    [`=ENGAGE_REPORT("${P}", "2026-11-01", "2026-11-02", , , , , , , 7)`, /^decDigits: /],
    [`=ENGAGE_EXTERNALID_REPORT("${P}", "2026111900", "2026112101")`, /24 hours/],
    [`=ENGAGE_REALTIME_REPORT("${P}", "2026110100", "2026110112")`, /48 hours/],
    [`=ENGAGE_REALTIME_REPORT("${P}", "2026112000", "2026112012", "country")`, /^breakdowns: /],
    [`=ENGAGE_REALTIME_REPORT("${P}", "2026111900", "2026112001")`, /24 hours/],
    [`=ENGAGE_WIDGETS()`, /^publisherId: is required/],
    [`=ENGAGE_REPORT(TRUE, "2026-11-01", "2026-11-02")`, /^entityId: must be text/],
  ];

  it.each(cases)('%s is refused before any request', async (text, message) => {
    const result = formula(text);
    expect(result.value).toBe('#ERROR!');
    expect(result.error).toMatch(message);
    expect(await h.apiRequests()).toEqual([]);
  });
});

describe('every lookup', () => {
  it.each([
    ['=ENGAGE_PUBLISHERS("l")', '/engage/v2/publishers'],
    [`=ENGAGE_WIDGETS("${P}", "l")`, `/engage/v2/publishers/${P}/widgets`],
    [`=ENGAGE_NATIVEAPPS("${P}", "l")`, `/engage/v2/publishers/${P}/nativeapps`],
    ['=ENGAGE_COUNTRIES("l")', '/engage/v2/countries'],
    ['=ENGAGE_TIMEZONES("l")', '/engage/v2/timezones'],
  ])('%s asks %s once and lists id and name first', async (text, apiPath) => {
    const result = formula(text);
    expect(result.values![0]!.slice(0, 2)).toEqual(['id', 'name']);
    expect(result.values!.length).toBeGreaterThan(1);
    expect((await h.apiRequests()).map((r) => r.path)).toEqual([apiPath]);
  });
});
