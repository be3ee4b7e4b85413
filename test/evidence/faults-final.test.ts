/**
 * Fetch failures no retry can mend, through the built bundle in the local host: an address outside
 * the manifest's urlFetchWhitelist, the user's spent daily URL Fetch quota, and a host name that does
 * not resolve. Each is final after exactly one fetch attempt (the host's fetch log counts attempts,
 * refused ones included), with one sentence a user can act on, no wait, no request to Engage and no
 * result cached. The host refuses as Apps Script does (dev/gas-host/README.md); the whitelist is the
 * one the build wrote into dist/appsscript.json from the tests' deployment (test/fixtures/tests.deploy.json),
 * whose hosts end in .invalid: a name that never resolves (RFC 6761), so the DNS failure is certain.
 */
import { type AddonHarness, OWNER } from '../support/addon-host';
import { BIG_PUBLISHER_ID } from '../support/emulator';
import { builtDeployment } from '../support/paths';
import { HOUR_MS, MINUTE_MS, startScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';
const DEPLOYMENT = builtDeployment();

/** The host's record of one execution's fetch attempts. */
function attemptsOf(h: AddonHarness, executionId: number | undefined) {
  return h.host.fetchLog.filter((f) => f.executionId === executionId).map((f) => ({ host: f.host, status: f.status, error: f.error }));
}

/** Formula results the add-on cached in the document cache. */
function cachedResults(h: AddonHarness): string[] {
  return h.host.state.caches
    .allEntries()
    .filter((e) => e.cache.startsWith('document') && e.key.startsWith('engage.r.'))
    .map((e) => e.key);
}

/** Settings as if saved under an earlier deployment: saveSettings would refuse an address outside today's whitelist. */
function storeReportingAddress(h: AddonHarness, url: string): void {
  const props = h.host.properties('user', OWNER);
  props.set('engage.settings', JSON.stringify({ ...JSON.parse(props.get('engage.settings') ?? '{}'), reportingBaseUrl: url }));
}

describe('with the usual quotas', () => {
  let h: AddonHarness;
  beforeAll(async () => {
    h = await startScheduledAddon(START);
    h.signIn();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    h.host.advanceTime(2 * MINUTE_MS);
    await h.emulator.clearRequests();
  });

  it('gives up on an address outside the whitelist after one attempt, names the allowed prefixes, and caches nothing', async () => {
    storeReportingAddress(h, 'https://elsewhere.example.org/engage/v2');
    const cachedBefore = cachedResults(h);
    const startedAt = h.host.clock.now();
    const result = h.host.evaluateFormula('Sheet1', 'A1', '=ENGAGE_COUNTRIES("whitelist")');
    expect(result.value).toBe('#ERROR!');
    expect(result.error).toBe(
      `Apps Script refused to call https://elsewhere.example.org/engage/v2/countries because this add-on may only call addresses that start with ${DEPLOYMENT.urlFetchWhitelist.join(' or ')}: check the address in the Engage sidebar under Account > Settings.`,
    );
    expect(attemptsOf(h, result.executionId)).toEqual([
      {
        host: 'elsewhere.example.org',
        status: undefined,
        error:
          'Request to https://elsewhere.example.org/engage/v2/countries failed because the URL has not been whitelisted in the script manifest.',
      },
    ]);
    expect(h.host.clock.now()).toBe(startedAt); // no backoff was slept
    expect(await h.apiRequests()).toEqual([]);
    expect(cachedResults(h)).toEqual(cachedBefore);

    // Back on an allowed address, the same formula fetches: no failure was kept in its place.
    h.configure();
    const again = h.host.evaluateFormula('Sheet1', 'A1', '=ENGAGE_COUNTRIES("whitelist")');
    expect(again.error).toBeUndefined();
    expect((await h.apiRequests()).map((r) => r.path)).toEqual(['/engage/v2/countries']);
  });

  it('gives up on a host name that does not resolve after one attempt, naming the host', async () => {
    // The deployment's default address, which a user who never changed the settings calls.
    h.host.call('saveSettings', [{ reportingBaseUrl: '' }], { user: OWNER });
    const cachedBefore = cachedResults(h);
    const startedAt = h.host.clock.now();
    const result = h.host.evaluateFormula('Sheet1', 'A1', '=ENGAGE_TIMEZONES("dns")');
    const host = new URL(DEPLOYMENT.reportingBaseUrl).host;
    expect(host).toMatch(/\.invalid$/);
    expect(result.error).toBe(
      `The host ${host} could not be found (a DNS error), so Engage was not asked: check the address in the Engage sidebar under Account > Settings.`,
    );
    expect(attemptsOf(h, result.executionId)).toEqual([
      { host, status: undefined, error: `DNS error: ${DEPLOYMENT.reportingBaseUrl}/timezones` },
    ]);
    expect(h.host.clock.now()).toBe(startedAt);
    expect(cachedResults(h)).toEqual(cachedBefore);
    // Run to sheet and the sidebar's lookups fail the same way, once.
    const before = h.host.fetchLog.length;
    expect(() => h.host.call('listPublishers', [], { user: OWNER })).toThrow(`The host ${host} could not be found (a DNS error)`);
    expect(h.host.fetchLog.length).toBe(before + 1);
    h.configure();
  });
});

describe('when the daily URL Fetch quota is spent', () => {
  /** The host's quota for these tests: the add-on's own count (20,000 for a consumer account) does not see the user's other scripts. */
  const CALLS_LEFT_TODAY = 4;
  let h: AddonHarness;
  beforeAll(async () => {
    h = await startScheduledAddon(START, { urlFetchCallsPerDay: CALLS_LEFT_TODAY });
    h.signIn(); // 1 call
  });
  afterAll(async () => {
    await h.close();
  });

  it('stops after the one attempt Apps Script refuses, says when the quota resets, then refuses without an attempt until it does', async () => {
    for (const lookup of ['ENGAGE_PUBLISHERS', 'ENGAGE_COUNTRIES', 'ENGAGE_TIMEZONES']) {
      expect(h.host.evaluateFormula('Sheet1', 'A1', `=${lookup}("q")`).error).toBeUndefined();
    }
    h.host.advanceTime(HOUR_MS);
    await h.emulator.clearRequests();
    const cachedBefore = cachedResults(h);
    // Quotas reset 24 hours after the first request of the window: the sign-in at 12:00.
    const message =
      "Apps Script's daily quota of 20,000 URL fetches for this Google account is used up, so Engage was not asked: try again after 2026-11-21 12:00:00 UTC.";

    const refused = h.host.evaluateFormula('Sheet1', 'A1', `=ENGAGE_WIDGETS("${BIG_PUBLISHER_ID}")`);
    expect(refused.error).toBe(message);
    expect(attemptsOf(h, refused.executionId)).toEqual([
      { host: expect.stringMatching(/^127\.0\.0\.1:/), status: undefined, error: 'Service invoked too many times for one day: urlfetch.' },
    ]);

    const next = h.host.evaluateFormula('Sheet1', 'A1', `=ENGAGE_NATIVEAPPS("${BIG_PUBLISHER_ID}")`);
    expect(next.error).toBe(message);
    expect(attemptsOf(h, next.executionId)).toEqual([]);
    expect(await h.apiRequests()).toEqual([]);
    expect(cachedResults(h)).toEqual(cachedBefore);

    // The Account tab shows the quota as spent, and when it comes back.
    const state = h.host.call('getSidebarState', [], { user: OWNER }) as {
      quota: { urlFetch: { used: number; limit: number; resetAt: string } };
    };
    expect(state.quota.urlFetch).toEqual({ used: 20_000, limit: 20_000, resetAt: '2026-11-21T12:00:00.000Z' });

    h.host.advanceTime(23 * HOUR_MS);
    const tomorrow = h.host.evaluateFormula('Sheet1', 'A1', `=ENGAGE_WIDGETS("${BIG_PUBLISHER_ID}")`);
    expect(tomorrow.error).toBeUndefined();
    expect((await h.apiRequests()).map((r) => r.path)).toEqual([`/engage/v2/publishers/${BIG_PUBLISHER_ID}/widgets`]);
  });
});
