/**
 * The document cache at its 1,000 items, under both rules a full Cache service may follow: keep the 900
 * entries farthest from expiry (Google's reference) or drop the oldest first (FIFO, what an experiment
 * saw). The cache starts with 420 entries of other state kept for hours, written before the add-on ran
 * (so the oldest), and a rate window of another publisher. The local host models each rule
 * (cacheEviction) and records what the rule drops; the built bundle runs against the emulator.
 *
 * While the results' ledger holds, results stay within their 500 items: the cache never fills and
 * nothing is evicted. Then the ledger entry is lost: the results it listed go untracked, new results
 * take a new 500, and the cache fills, so the rule applies. Whichever rule, every formula still gives
 * its rows (from the cache, or fetched again when its entries went), identical formulas still send one
 * set of requests, and the claims and rate windows survive: by expiry because they are kept for 6 hours
 * and results at most one, under FIFO because the budget keeps what overflows to fewer entries than the
 * older other state. Were results not kept within their budget, the rule would apply while the ledger
 * still holds (the first test fails). Hundreds of formulas are recalculated 25 at a time, as Sheets could
 * run them (30 executions at once per user); the identical ones, 12 at once.
 */
import { recalculateInBatches, startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID } from '../support/emulator';

const OTHER_STATE = 420;
const OTHER_RATE_WINDOW = 'engage.rate.reports.elsewhere';
const OWN_RATE_WINDOW = `engage.rate.reports.${BIG_PUBLISHER_ID}`;
const LEDGER = 'engage.r-ledger';
const SIX_HOURS_MS = 21_600_000;
/**
 * One cache entry each: with the large report's, more than the 500 results may take, and more than the
 * cache has room for beside the other state, were results not kept within their budget.
 */
const LOOKUPS = 560;
/** Written after the ledger is lost: enough to fill the cache beside the untracked results. */
const MORE_LOOKUPS = 200;

type Cells = Array<{ sheet: string; a1: string }>;

/** Lookup formulas in four columns, 15 rows apart (each result is a few rows). */
function lookupCells(sheet: string, count: number): Cells {
  return Array.from({ length: count }, (_, i) => ({ sheet, a1: `${['A', 'H', 'O', 'V'][i % 4]}${1 + Math.floor(i / 4) * 15}` }));
}

const bigReport = (from: string, to: string) =>
  `=ENGAGE_REPORT("${BIG_PUBLISHER_ID}", "${from}", "${to}", "day,country,platform,widget", "all")`;

describe.each(['expiry', 'fifo'] as const)('formula results in a document cache that evicts by %s', (rule) => {
  let h: AddonHarness;
  const cacheName = () => `document:${h.host.state.options.documentId}`;
  const documentCache = () => h.host.state.caches.byName(cacheName());
  const liveKeys = () => [...documentCache()].filter(([, e]) => e.expiresAt > h.host.now().getTime()).map(([k]) => k);
  const evicted = () => [...h.host.state.caches.evicted(cacheName())];
  const others = Array.from({ length: OTHER_STATE }, (_, i) => `other.${i}`);
  /** What each formula gave when first computed, by cell. */
  const expected = new Map<string, unknown[][]>();
  const at = (c: { sheet: string; a1: string }) => `${c.sheet}!${c.a1}`;
  const bigCells: Cells = [
    { sheet: 'Big', a1: 'A1' },
    { sheet: 'Big2', a1: 'A1' },
  ];
  const lookups = lookupCells('Small', LOOKUPS);
  const moreLookups = lookupCells('More', MORE_LOOKUPS);

  /** Under FIFO the oldest went first: other state only, in the order it was written. By expiry, those nearest to it: results only. */
  function expectRuleFollowed(dropped: string[]) {
    if (rule === 'fifo') expect(dropped).toEqual(others.slice(0, dropped.length));
    else expect(dropped.filter((k) => !k.startsWith('engage.r.'))).toEqual([]);
  }

  /** Computes formulas for the first time and keeps what they gave. */
  async function compute(cells: Cells, text: (i: number) => string) {
    for (const [i, c] of cells.entries()) h.host.setCell(c.sheet, c.a1, text(i));
    const results = await recalculateInBatches(h.host, cells);
    expect(results.filter((r) => r.error)).toEqual([]);
    for (const [i, c] of cells.entries()) expected.set(at(c), results[i]!.values);
    return results;
  }

  beforeAll(async () => {
    // Each kind of formula on a sheet of its own.
    h = await startAddon({ cacheEviction: rule, sheets: ['Big', 'Big2', 'Small', 'More', 'Same'], maxRows: 20_000, maxColumns: 40 });
    h.signIn();
    const now = h.host.now().getTime();
    for (const key of others) documentCache().set(key, { value: 'kept for hours', expiresAt: now + SIX_HOURS_MS });
    documentCache().set(OTHER_RATE_WINDOW, { value: '[1,2,3]', expiresAt: now + SIX_HOURS_MS });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('keeps results within their 500 items while their ledger holds: the cache never fills, so nothing is evicted', async () => {
    const [big] = await compute(bigCells.slice(0, 1), () => bigReport('2026-10-01', '2026-10-31'));
    expect(big!.values.length).toBeGreaterThan(20_000);
    const bigItems = liveKeys().filter((k) => k.startsWith('engage.r.')).length;
    expect(bigItems).toBeGreaterThan(10);
    await compute(lookups, (i) => `=ENGAGE_TIMEZONES("fill ${i}")`);

    // More result items were written than the cache has room for beside the other state: yet the rule never applied.
    const live = liveKeys();
    expect(OTHER_STATE + bigItems + LOOKUPS).toBeGreaterThan(1000);
    expect(evicted()).toEqual([]);
    // The results nearest to expiry made room within the 500 items: other state, results and the add-on's own entries
    // came to more than 900, under 1,000.
    expect(live.filter((k) => k.startsWith('engage.r.')).length).toBeLessThanOrEqual(500);
    expect(live.length).toBeGreaterThan(900);
    expect(live).toEqual(expect.arrayContaining([...others, OTHER_RATE_WINDOW, OWN_RATE_WINDOW, LEDGER]));

    // The latest results come from the cache: recalculating them sends nothing.
    await h.emulator.clearRequests();
    const again = await recalculateInBatches(h.host, lookups.slice(-100));
    expect(again.filter((r) => r.error)).toEqual([]);
    expect(await h.apiRequests()).toEqual([]);
  }, 240_000);

  it('fills the cache once the ledger is lost, and every formula still gives its rows; the rate windows survive', async () => {
    // The ledger goes (a cache may drop any entry early): the results it listed are no longer counted.
    h.host.evictCache('document', [LEDGER]);
    await compute(bigCells.slice(1), () => bigReport('2026-09-01', '2026-09-30'));
    await compute(moreLookups, (i) => `=ENGAGE_TIMEZONES("more ${i}")`);

    // The untracked results and the new ones together passed the 1,000 items: the rule applied, and more than once.
    const dropped = evicted();
    expect(dropped.length).toBeGreaterThan(200);
    expectRuleFollowed(dropped);
    expect(liveKeys()).toEqual(expect.arrayContaining([OTHER_RATE_WINDOW, OWN_RATE_WINDOW, LEDGER]));

    // The September report, the one result of several entries now cached, loses one of them early.
    const chunks = liveKeys().filter((k) => /^engage\.r\.[^.]+\.\d+$/.test(k));
    expect(chunks.length).toBeGreaterThan(10);
    h.host.evictCache('document', [chunks[3]!]);

    // Every formula gives the rows it gave first: from the cache, or fetched again when its entries went. Recalculated:
    // both reports, 50 old lookups (among the first results the expiry rule drops, after the oldest the budget removed),
    // the 50 latest, and 50 written since the loss.
    await h.emulator.clearRequests();
    const cells = [...bigCells, ...lookups.slice(100, 150), ...lookups.slice(-50), ...moreLookups.slice(0, 50)];
    const again = await recalculateInBatches(h.host, cells);
    expect(again.filter((r) => r.error)).toEqual([]);
    const differing = cells.filter((c, i) => JSON.stringify(again[i]!.values) !== JSON.stringify(expected.get(at(c))));
    expect(differing).toEqual([]);
    const requests = await h.apiRequests();
    const reportRequests = requests.filter((r) => r.path.includes('/reports/')).length;
    const lookupRequests = requests.length - reportRequests;
    // Both reports are fetched again: October's the budget removed to make room while the ledger held, September's lost a chunk.
    const pages = bigCells.reduce((sum, c) => sum + Math.ceil((expected.get(at(c))!.length - 2) / 10_000), 0);
    if (rule === 'fifo') {
      // Only other state was evicted: every lookup is still served from the cache.
      expect({ reportRequests, lookupRequests }).toEqual({ reportRequests: pages, lookupRequests: 0 });
    } else {
      // The 50 old lookups, whose entries the rule dropped, are fetched again; the latest ones are served.
      expect(reportRequests).toBe(pages);
      expect(lookupRequests).toBeGreaterThanOrEqual(50);
      expect(lookupRequests).toBeLessThan(100);
    }
    expectRuleFollowed(evicted());
    expect(liveKeys()).toEqual(expect.arrayContaining([OTHER_RATE_WINDOW, OWN_RATE_WINDOW, LEDGER]));
  }, 240_000);

  it('in a full cache still sends one set of requests for identical formulas recalculating at once, and keeps their claim', async () => {
    // Top the cache up to its 1,000 live items, so the result's write makes the rule apply while the claim is held.
    const now = h.host.now().getTime();
    for (let i = 0; liveKeys().length < 1000; i++) documentCache().set(`other.late.${i}`, { value: 'x', expiresAt: now + SIX_HOURS_MS });
    const droppedBefore = evicted().length;
    const text = `=ENGAGE_REPORT("${BIG_PUBLISHER_ID}", "2026-08-10", "2026-08-12", "day,country", , , , , , , "${rule}")`;
    const cells = Array.from({ length: 12 }, (_, i) => ({ sheet: 'Same', a1: `A${1 + i * 1500}` }));
    for (const c of cells) h.host.setCell(c.sheet, c.a1, text);
    await h.emulator.clearRequests();
    const results = await h.host.recalculate(cells);
    expect(results.filter((r) => r.error)).toEqual([]);
    expect((await h.emulator.reportRequests()).length).toBe(1);
    expect(evicted().length).toBeGreaterThan(droppedBefore);
    await h.emulator.clearRequests();
    expect(h.host.evaluateFormula('Same', 'A1').values).toEqual(results[0]!.values);
    expect(await h.apiRequests()).toEqual([]);
    expect(liveKeys()).toEqual(expect.arrayContaining([OTHER_RATE_WINDOW, OWN_RATE_WINDOW]));
    // No claim is left behind once the formulas are done.
    expect(liveKeys().filter((k) => k.startsWith('engage.claim.'))).toEqual([]);
  }, 240_000);
});
