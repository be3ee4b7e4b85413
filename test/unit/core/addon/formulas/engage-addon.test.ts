/**
 * EngageAddon's formula results with counting fakes: what is cached for how long and in how many
 * entries, how a formula waits for another execution's claim instead of fetching again, that the cache
 * write is skipped when too little time is left, and that dates survive the cache.
 */
import { EngageAddon } from '../../../../../src/core/addon/formulas/engage-addon';
import { CACHE_WRITE_ALLOWANCE_MS, ENCODE_MS_PER_1000_CELLS, RESULT_MAX_ITEMS } from '../../../../../src/core/addon/formulas/formula-cache';
import type { Compressor } from '../../../../../src/core/ports';
import { REPORT_SPECS } from '../../../../../src/core/spec';
import {
  FakeCache,
  FakeCompressor,
  FakeLock,
  FakeStore,
  FakeTransport,
  jsonResponse,
  ManualClock,
  ManualSleeper,
  reportHandler,
} from '../../../../support/fakes';

const BASE = 'https://api.example.com/engage/v2';

function setup(rows: number, item?: (i: number) => Record<string, unknown>, compressor: Compressor = new FakeCompressor()) {
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12));
  const sleeper = new ManualSleeper(clock);
  const userStore = new FakeStore();
  const documentCache = new FakeCache(clock);
  const puts = documentCache.writes;
  const transport = new FakeTransport(reportHandler(rows, item));
  const userLock = new FakeLock();
  const documentLock = new FakeLock();
  const addon = new EngageAddon({
    transport,
    userStore,
    documentCache,
    compressor,
    userLock,
    documentLock,
    clock,
    sleeper,
    random: () => 0.5,
    timeZone: 'Europe/Berlin',
    inCustomFunction: true,
  });
  userStore.set('engage.settings', JSON.stringify({ reportingBaseUrl: BASE }));
  userStore.set('engage.token', JSON.stringify({ token: 'tok', source: 'pasted', obtainedAtMs: clock.now() }));
  return { clock, sleeper, documentCache, puts, transport, addon, userStore, userLock, documentLock };
}

/** Result entries written (manifests and chunks), not the claim or the ledger. */
const resultPuts = (puts: Array<{ key: string; ttl: number }>) => puts.filter((p) => p.key.startsWith('engage.r.'));

/** A wide item: 20 metrics, as a real report row has, with values that do not repeat. */
const wideItem = (i: number) =>
  Object.fromEntries([['day', '20261101'], ...Array.from({ length: 20 }, (_, m) => [`m${m}`, (i * 7919 + m * 104_729) % 1_000_003])]);

const input = { entityId: 'pub', fromDate: '20261101', toDate: '20261107' };

describe('EngageAddon.formulaReport', () => {
  it('answers the second identical formula from the document cache without a request', () => {
    const { addon, transport, clock } = setup(7);
    const first = addon.formulaReport('main', input, { deadlineAtMs: clock.now() + 25_000 });
    const second = addon.formulaReport('main', input, { deadlineAtMs: clock.now() + 25_000 });
    expect(second).toEqual(first);
    expect(transport.requestCount).toBe(1);
  });

  it('keeps a 20,000-row result for the whole hour, compressed into a few entries written in one putAll', () => {
    const { addon, puts, clock, documentCache, transport } = setup(20_000, wideItem);
    const values = addon.formulaReport('main', { ...input, breakdowns: 'day', metrics: 'all' }, { deadlineAtMs: clock.now() + 27_000 });
    expect(values.length).toBe(20_002);
    const written = resultPuts(puts);
    expect(new Set(written.map((p) => p.ttl))).toEqual(new Set([3600]));
    // 20,000 rows of 22 columns are some 2.6 MB of JSON: in 96 KB entries uncompressed that would be 28 or more.
    expect(written.length).toBeLessThanOrEqual(20 * 1.5);
    expect(documentCache.putAlls).toBe(1);
    clock.advance(59 * 60_000);
    expect(addon.formulaReport('main', { ...input, breakdowns: 'day', metrics: 'all' }, { deadlineAtMs: clock.now() + 27_000 })).toEqual(
      values,
    );
    expect(transport.requestCount).toBe(2);
  });

  it.each([
    ['externalId', 1800, { entityId: 'pub', fromDate: '2026111912', toDate: '2026112012' }],
    ['realtime', 300, { entityId: 'pub', fromDate: '2026111912', toDate: '2026112012' }],
    ['main', 3600, input],
  ] as const)("keeps the %s report's result for %i seconds, as documented, and fetches it again after", (kind, seconds, kindInput) => {
    const { addon, puts, clock, transport } = setup(7);
    const first = addon.formulaReport(kind, kindInput, { deadlineAtMs: clock.now() + 25_000 });
    expect(transport.requests[0]!.url).toContain(`${REPORT_SPECS[kind].path}?`);
    expect(new Set(resultPuts(puts).map((p) => p.ttl))).toEqual(new Set([seconds]));
    clock.advance((seconds - 1) * 1000);
    expect(addon.formulaReport(kind, kindInput, { deadlineAtMs: clock.now() + 25_000 })).toEqual(first);
    expect(transport.requestCount).toBe(1);
    clock.advance(2000);
    expect(addon.formulaReport(kind, kindInput, { deadlineAtMs: clock.now() + 25_000 })).toEqual(first);
    expect(transport.requestCount).toBe(2);
  });

  it('skips the cache write when fetching left too little time before the deadline, and still returns the rows', () => {
    const rows = 10_000;
    const needMs = (((rows + 2) * 22) / 1000) * ENCODE_MS_PER_1000_CELLS + CACHE_WRITE_ALLOWANCE_MS;
    /** A formula whose one page takes `answerMs` to arrive; returns how many result entries it cached. */
    const run = (answerMs: number) => {
      const env = setup(rows, wideItem);
      const serve = reportHandler(rows, wideItem);
      env.transport.setHandler((request, index) => {
        env.clock.advance(answerMs);
        return serve(request, index);
      });
      const deadlineAtMs = env.clock.now() + 27_000;
      const values = env.addon.formulaReport('main', { ...input, breakdowns: 'day', metrics: 'all' }, { deadlineAtMs });
      expect(values.length).toBe(rows + 2);
      expect(deadlineAtMs - env.clock.now()).toBe(27_000 - answerMs);
      return resultPuts(env.puts).length;
    };
    // The answer leaves 3 s: encoding and writing (estimated at about 1.4 s) fit, so the result is cached.
    expect(3000).toBeGreaterThan(needMs);
    expect(run(24_000)).toBeGreaterThan(0);
    // The answer leaves 1.1 s: nothing is cached, and the rows are returned all the same.
    expect(1100).toBeLessThan(needMs);
    expect(run(25_900)).toBe(0);
  });

  it('returns a result too big for the cache without caching it, and fetches it again next time', () => {
    const huge: Compressor = {
      compress: () => 'x'.repeat((RESULT_MAX_ITEMS + 1) * 96_000),
      decompress: () => {
        throw new Error('never cached');
      },
    };
    const { addon, puts, clock, transport } = setup(7, undefined, huge);
    const first = addon.formulaReport('main', input, { deadlineAtMs: clock.now() + 27_000 });
    expect(first.length).toBe(9);
    expect(resultPuts(puts)).toEqual([]);
    expect(addon.formulaReport('main', input, { deadlineAtMs: clock.now() + 27_000 })).toEqual(first);
    expect(transport.requestCount).toBe(2);
  });

  /** Runs the formula once, then empties the cache: returns what the result's entries were and its claim key. */
  function learnEntries(env: ReturnType<typeof setup>) {
    const values = env.addon.formulaReport('main', input, { deadlineAtMs: env.clock.now() + 25_000 });
    const entries = resultPuts(env.puts).map((p) => [p.key, env.documentCache.get(p.key)!] as const);
    for (const [key] of entries) env.documentCache.remove(key);
    const manifestKey = entries.find(([key]) => !key.slice('engage.r.'.length).includes('.'))![0];
    return { values, entries, claimKey: `engage.claim.${manifestKey}`, requestsBefore: env.transport.requestCount };
  }

  it('waits for another execution that claimed the same request, and sends nothing itself', () => {
    const env = setup(7);
    const { values, entries, claimKey, requestsBefore } = learnEntries(env);
    env.documentCache.put(claimKey, String(env.clock.now() + 20_000), 900);
    let slept = 0;
    const sleep = env.sleeper.sleep.bind(env.sleeper);
    env.sleeper.sleep = (ms: number) => {
      sleep(ms);
      if (++slept === 3) {
        // The claimant finishes: its result appears, then its claim goes.
        for (const [key, value] of entries) env.documentCache.put(key, value, 3600);
        env.documentCache.remove(claimKey);
      }
    };
    expect(env.addon.formulaReport('main', input, { deadlineAtMs: env.clock.now() + 25_000 })).toEqual(values);
    expect(env.transport.requestCount).toBe(requestsBefore);
    expect(slept).toBe(3);
  });

  it('gives up waiting with a clear message when the claimant does not finish in time, sending nothing', () => {
    const env = setup(7);
    const { claimKey, requestsBefore } = learnEntries(env);
    env.documentCache.put(claimKey, String(env.clock.now() + 60_000), 900);
    expect(() => env.addon.formulaReport('main', input, { deadlineAtMs: env.clock.now() + 5_000 })).toThrow(
      /still loading: try again in a few seconds/,
    );
    expect(env.transport.requestCount).toBe(requestsBefore);
  });

  it('fetches itself when the claimant gave up (its claim is past its deadline)', () => {
    const env = setup(7);
    const { values, claimKey, requestsBefore } = learnEntries(env);
    env.documentCache.put(claimKey, String(env.clock.now() - 1), 900);
    expect(env.addon.formulaReport('main', input, { deadlineAtMs: env.clock.now() + 25_000 })).toEqual(values);
    expect(env.transport.requestCount).toBe(requestsBefore + 1);
  });
});

describe('where EngageAddon keeps shared state', () => {
  it("keeps the report rate window in the document cache for the cache's longest time, under the document lock", () => {
    const { addon, puts, clock, documentLock, userLock } = setup(7);
    addon.formulaReport('main', input, { deadlineAtMs: clock.now() + 25_000 });
    const windowPuts = puts.filter((p) => p.key === 'engage.rate.reports.pub').map(({ key, ttl }) => ({ key, ttl }));
    // Reserved before the request, settled after it.
    expect(windowPuts).toEqual([
      { key: 'engage.rate.reports.pub', ttl: 21_600 },
      { key: 'engage.rate.reports.pub', ttl: 21_600 },
    ]);
    // The claim, the reservation and its settlement, then the result's entry in the cache budget.
    expect(documentLock.tryLocks).toBe(4);
    expect(documentLock.releases).toBe(4);
    // The user lock guards only the daily URL Fetch count: one update for the one request.
    expect(userLock.tryLocks).toBe(1);
    // 29 of the 30 slots are left: 29 requests fit now, 30 do not.
    const budget = addon.session.reportSource();
    expect(budget.budgetFreeAtMs('pub', 29)).toBe(clock.now());
    expect(budget.budgetFreeAtMs('pub', 30)).toBeGreaterThan(clock.now());
  });

  it("keeps the login guard in the signing-in user's properties, under the user lock", () => {
    const { addon, transport, puts, userStore, userLock, documentLock } = setup(7);
    transport.setHandler(() => jsonResponse(200, { 'SVC-TOKEN-V1': 'new-token' }));
    addon.session.signIn('ann@example.com', 'pw');
    expect(JSON.parse(userStore.values.get('engage.rate.login.ann@example.com')!).t).toHaveLength(1);
    // The login guard's reservation and settlement, and the daily URL Fetch count of the one request.
    expect(userLock.tryLocks).toBe(3);
    expect(documentLock.tryLocks).toBe(0);
    expect(puts.filter((p) => p.key.startsWith('engage.rate.'))).toEqual([]);
  });
});
