/**
 * The host refuses what Apps Script refuses: a fetch outside the manifest's urlFetchWhitelist (loopback
 * excepted, for the emulator), the URL Fetch call after a user's daily quota (20,000 on consumer
 * accounts, configurable), a 21st trigger of a user (20 per user per script, quotas page), and a trigger
 * run once the user's daily trigger runtime (90 minutes) is spent. Daily quotas are per user and reset
 * 24 hours after the first use ("Quotas are per user and reset 24 hours after the first request").
 */
import { createGasHost } from '../../../dev/gas-host';
import { isLoopback } from '../../../dev/gas-host/fetch/url-whitelist';
import { isLoopbackUrl } from '../../../src/core/deployment';
import { startTestHttpServer, type TestHttpServer } from '../../support/gas-http-server';

const BUNDLE = `
function status(url) { return UrlFetchApp.fetch(url, { muteHttpExceptions: true }).getResponseCode(); }
function statuses(urls) { return UrlFetchApp.fetchAll(urls.map(function (u) { return { url: u, muteHttpExceptions: true }; })).map(function (r) { return r.getResponseCode(); }); }
function install() { return ScriptApp.newTrigger('work').timeBased().everyHours(1).create().getUniqueId(); }
function work() { Utilities.sleep(200000); var p = PropertiesService.getUserProperties(); p.setProperty('runs', String(Number(p.getProperty('runs') || 0) + 1)); }
`;
const DAY_MS = 24 * 3_600_000;
const MINUTE_MS = 60_000;

describe('the urlFetchWhitelist of the manifest', () => {
  const manifest = { urlFetchWhitelist: ['https://reports.example.net/engage/v2/', 'https://*.recs.example.net/v1'] };

  it("refuses an address outside it before sending, with Apps Script's words and the URL without its query", () => {
    const host = createGasHost({ manifest });
    host.load(BUNDLE);
    expect(() => host.call('status', ['https://elsewhere.example.org/engage/v2/publishers?key=secret'])).toThrow(
      'Request to https://elsewhere.example.org/engage/v2/publishers? failed because the URL has not been whitelisted in the script manifest.',
    );
    // One attempt is logged, nothing was sent and nothing counted against the quota.
    expect(host.fetchLog.map((f) => [f.host, f.status, f.error !== undefined])).toEqual([['elsewhere.example.org', undefined, true]]);
    expect(host.counters['http.requests'] ?? 0).toBe(0);
    expect(host.state.quotas.dailyUse('owner@example.com', 'urlFetch').used).toBe(0);
  });

  it('exempts the loopback addresses the add-on accepts over plain http, and only those (localhost, [::1], 127.0.0.0/8)', () => {
    const cases: Array<[string, boolean]> = [
      ['http://127.0.0.1:8787/engage/v2', true],
      ['http://127.42.7.255/x', true],
      ['http://localhost:8080/x', true],
      ['http://[::1]:9/x', true],
      ['http://127.256.0.1/x', false],
      ['http://127.1/x', false],
      ['http://localhost.example.org/x', false],
      ['http://10.0.0.1/x', false],
    ];
    expect(cases.map(([url]) => [url, isLoopback(url)])).toEqual(cases);
    expect(cases.map(([url]) => [url, isLoopbackUrl(url)])).toEqual(cases);
  });

  it("refuses a whole fetchAll when one of its addresses is outside, and matches by Google's prefix rules", () => {
    const host = createGasHost({ manifest });
    host.load(BUNDLE);
    expect(() => host.call('statuses', [['https://reports.example.net/engage/v2/x', 'https://reports.example.net/engage/v3/x']])).toThrow(
      /engage\/v3\/x failed because the URL has not been whitelisted/,
    );
    expect(() => host.call('status', ['https://recs.example.net/v1/recommendations'])).toThrow(/not been whitelisted/); // "*." needs a subdomain
    expect(() => host.call('status', ['https://reports.example.net/Engage/v2/x'])).toThrow(/not been whitelisted/); // paths compare with case
    expect(host.counters['http.requests'] ?? 0).toBe(0);
  });

  describe('with a local server', () => {
    let server: TestHttpServer;
    beforeAll(async () => {
      server = await startTestHttpServer();
    });
    afterAll(() => server.close());

    it('lets loopback addresses through whatever it says, and everything through without a whitelist', () => {
      const host = createGasHost({ manifest });
      host.load(BUNDLE);
      expect(host.call('status', [`${server.baseUrl}/status/200`])).toBe(200);
      const open = createGasHost();
      open.load(BUNDLE);
      expect(() => open.call('status', ['https://engage.invalid/x'])).toThrow(/^DNS error: https:\/\/engage.invalid\/x$/);
    });

    it("refuses the call after the daily quota with Apps Script's words, per user, until 24 hours after the first call", () => {
      const host = createGasHost({ clock: 'virtual', startTime: Date.UTC(2026, 10, 20, 12), urlFetchCallsPerDay: 3 });
      host.load(BUNDLE);
      const url = `${server.baseUrl}/status/200`;
      expect(host.call('statuses', [[url, url]])).toEqual([200, 200]);
      host.advanceTime(20 * 3_600_000);
      expect(() => host.call('statuses', [[url, url]])).toThrow('Service invoked too many times for one day: urlfetch.');
      expect(host.call('status', [url])).toBe(200);
      expect(() => host.call('status', [url])).toThrow('Service invoked too many times for one day: urlfetch.');
      expect(host.counters['http.requests']).toBe(3);
      // Another user has a quota of their own.
      expect(host.call('status', [url], { user: 'editor@example.com' })).toBe(200);
      // 24 hours after the first call of the window, not at midnight, the count starts again.
      host.advanceTime(4 * 3_600_000 - 1);
      expect(() => host.call('status', [url])).toThrow(/too many times for one day/);
      host.advanceTime(1);
      expect(host.call('status', [url])).toBe(200);
    });

    it("counts a custom function's calls against the spreadsheet owner, like its user properties", () => {
      const host = createGasHost({ urlFetchCallsPerDay: 1 });
      host.load(`${BUNDLE}\n/** @customfunction */\nfunction FETCHSTATUS(url) { return status(url); }`);
      expect(
        host.evaluateFormula('Sheet1', 'A1', `=FETCHSTATUS("${server.baseUrl}/status/200")`, { user: 'editor@example.com' }).value,
      ).toBe(200);
      expect(host.state.quotas.dailyUse('owner@example.com', 'urlFetch').used).toBe(1);
      expect(() => host.call('status', [`${server.baseUrl}/status/200`])).toThrow(/too many times for one day/);
    });
  });

  it('will not load a manifest whose whitelist Apps Script would not save', () => {
    expect(() => createGasHost({ manifest: { urlFetchWhitelist: ['http://reports.example.net/engage/v2/'] } })).toThrow(
      /URLs must use the HTTPS scheme/,
    );
    expect(() => createGasHost({ manifest: { urlFetchWhitelist: ['https://reports.example.net'] } })).toThrow(/non-empty path/);
    expect(() => createGasHost({ manifest: { urlFetchWhitelist: ['https://*.*.example.net/x'] } })).toThrow(/at most one leading/);
  });
});

describe('trigger quotas', () => {
  it("refuses a 21st trigger of a user with Apps Script's words (20 per user per script, in any document)", () => {
    const host = createGasHost();
    host.load(BUNDLE);
    for (let i = 0; i < 20; i++) {
      host.state.triggers.records.push({
        id: `other-${i}`,
        handlerFunction: 'work',
        eventType: 'CLOCK',
        user: 'owner@example.com',
        documentId: `other-document-${i}`,
        intervalMs: 3_600_000,
        nextRunAt: Date.now() + 3_600_000,
      });
    }
    expect(() => host.call('install')).toThrow(
      'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
    );
    expect(host.call('install', [], { user: 'editor@example.com' })).toEqual(expect.any(String));
  });

  it("stops running a user's triggers once their daily trigger runtime is spent, and cuts a run at what is left", () => {
    const host = createGasHost({ clock: 'virtual', startTime: Date.UTC(2026, 10, 20, 12), triggerRuntimePerDayMs: 10 * MINUTE_MS });
    host.load(BUNDLE);
    host.call('install');
    const runs = host.advanceTime(4 * 3_600_000);
    // Each run sleeps 200 s: three fit in 10 minutes (600 s), the third only just; the fourth finds nothing left.
    expect(runs.map((r) => [r.ok, r.error ?? ''])).toEqual([
      [true, ''],
      [true, ''],
      [true, ''],
      [false, 'Service using too much computer time for one day'],
    ]);
    expect(host.properties('user').get('runs')).toBe('3');
    expect(host.state.quotas.dailyUse('owner@example.com', 'triggerRuntime').used).toBe(600_000);
    host.advanceTime(DAY_MS);
    expect(Number(host.properties('user').get('runs'))).toBeGreaterThan(3);
  });

  it('ends a trigger run that would pass the runtime left, as it ends one past 6 minutes', () => {
    const host = createGasHost({ clock: 'virtual', startTime: Date.UTC(2026, 10, 20, 12), triggerRuntimePerDayMs: 5 * MINUTE_MS });
    host.load(BUNDLE);
    host.call('install');
    const runs = host.advanceTime(2 * 3_600_000);
    expect(runs[0]).toMatchObject({ ok: true });
    expect(runs[1]).toMatchObject({ ok: false, error: 'Exceeded maximum execution time' });
    expect(host.properties('user').get('runs')).toBe('1');
  });
});
