/**
 * The document cache under both rules a full Cache service may follow: keep the 900 entries farthest
 * from expiry (Google's reference) or drop the oldest first (FIFO, what an experiment saw). The add-on
 * keeps its formula results within 500 entries, so with more results than that written the cache never
 * fills: a long-lived entry beside them (a 6-hour stand-in, and the add-on's own rate window) survives, the latest results are served
 * from the cache, and identical formulas still send one set of requests. The local host models each
 * rule (cacheEviction); the built bundle runs against the emulator.
 */
import { startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID } from '../support/emulator';

const RATE_WINDOW_KEY = 'engage.rate.sentinel';
/** One cache entry each: with the large report's, more than the 500 results may take. */
const LOOKUPS = 490;

describe.each(['expiry', 'fifo'] as const)('formula results in a document cache that evicts by %s', (rule) => {
  let h: AddonHarness;
  const documentCache = () => h.host.state.caches.byName(`document:${h.host.state.options.documentId}`);
  const liveEntries = () => [...documentCache()].filter(([, e]) => e.expiresAt > h.host.now().getTime());

  beforeAll(async () => {
    // Formulas on separate sheets: the local host's spill bookkeeping scans the whole sheet per result.
    h = await startAddon({ cacheEviction: rule, sheets: ['Big', 'Small', 'Same'], maxRows: 20_000, maxColumns: 40 });
    h.signIn();
    // Written first, so under FIFO it is the oldest entry; kept 6 hours, as shared rate windows are.
    documentCache().set(RATE_WINDOW_KEY, { value: '[1,2,3]', expiresAt: h.host.now().getTime() + 21_600_000 });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('keeps results within their budget, so the long-lived entry beside them is never evicted', async () => {
    // A large report, then more small results than the budget holds.
    const big = h.host.evaluateFormula(
      'Big',
      'A1',
      `=ENGAGE_REPORT("${BIG_PUBLISHER_ID}", "2026-10-01", "2026-10-31", "day,country,platform,widget", "all")`,
    );
    expect(big.error).toBeUndefined();
    expect(big.values.length).toBeGreaterThan(20_000);
    const bigItems = liveEntries().filter(([k]) => k.startsWith('engage.r.')).length;
    expect(bigItems).toBeGreaterThan(10);
    const cells = Array.from({ length: LOOKUPS }, (_, i) => ({
      sheet: 'Small',
      a1: `${['A', 'H', 'O', 'V'][i % 4]}${1 + Math.floor(i / 4) * 15}`,
    }));
    for (const [i, c] of cells.entries()) h.host.setCell(c.sheet, c.a1, `=ENGAGE_TIMEZONES("fill ${i}")`);
    const filled = await h.host.recalculate(cells);
    expect(filled.filter((r) => r.error)).toEqual([]);

    const live = liveEntries();
    const results = live.filter(([k]) => k.startsWith('engage.r.'));
    // More entries of results were written than the budget holds: the nearest to expiry made room.
    expect(bigItems + LOOKUPS).toBeGreaterThan(500);
    expect(results.length).toBeLessThanOrEqual(500);
    // The cache never came near its 1,000 items, so neither eviction rule ever applied.
    expect(live.length).toBeLessThan(600);
    expect(live.map(([k]) => k)).toContain(RATE_WINDOW_KEY);
    // And the add-on's own rate window of the publisher, written when the large report was fetched.
    expect(live.map(([k]) => k)).toContain(`engage.rate.reports.${BIG_PUBLISHER_ID}`);

    // The latest results come from the cache: recalculating them sends nothing.
    await h.emulator.clearRequests();
    const again = await h.host.recalculate(cells.slice(-100));
    expect(again.filter((r) => r.error)).toEqual([]);
    expect(await h.apiRequests()).toEqual([]);
  }, 240_000);

  it('still sends one set of requests for identical formulas recalculating at once, and serves them after', async () => {
    const text = `=ENGAGE_REPORT("${BIG_PUBLISHER_ID}", "2026-11-10", "2026-11-12", "day,country", , , , , , , "${rule}")`;
    const cells = Array.from({ length: 12 }, (_, i) => ({ sheet: 'Same', a1: `A${1 + i * 1500}` }));
    for (const c of cells) h.host.setCell(c.sheet, c.a1, text);
    await h.emulator.clearRequests();
    const results = await h.host.recalculate(cells);
    expect(results.filter((r) => r.error)).toEqual([]);
    expect((await h.emulator.reportRequests()).length).toBe(1);
    await h.emulator.clearRequests();
    expect(h.host.evaluateFormula('Same', 'A1').values).toEqual(results[0]!.values);
    expect(await h.apiRequests()).toEqual([]);
    expect(liveEntries().map(([k]) => k)).toContain(RATE_WINDOW_KEY);
    // No claim is left behind once the formulas are done.
    expect(liveEntries().filter(([k]) => k.startsWith('engage.claim.'))).toEqual([]);
  }, 120_000);
});
