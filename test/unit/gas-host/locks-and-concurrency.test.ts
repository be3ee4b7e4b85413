import { createGasHost } from '../../../dev/gas-host';
import { startTestHttpServer, type TestHttpServer } from '../../support/gas-http-server';

const BUNDLE = `
/** @customfunction */
function REPORT(url) {
  var cache = CacheService.getDocumentCache();
  var hit = cache.get(url);
  if (hit) return hit;
  var lock = LockService.getDocumentLock();
  lock.waitLock(20000);
  try {
    hit = cache.get(url);            // re-read: another execution may have filled it while we waited
    if (hit) return hit;
    var body = UrlFetchApp.fetch(url).getContentText();
    cache.put(url, body, 600);
    return body;
  } finally {
    lock.releaseLock();
  }
}
/** @customfunction */
function NOLOCK(url) {
  var cache = CacheService.getDocumentCache();
  var hit = cache.get(url);
  if (hit) return hit;
  var body = UrlFetchApp.fetch(url).getContentText();
  cache.put(url, body, 600);
  return body;
}
/** @customfunction */
function HOLD(ms) {
  var lock = LockService.getScriptLock();
  lock.waitLock(10000);
  var start = Date.now();
  Utilities.sleep(ms);
  var end = Date.now();
  lock.releaseLock();
  return start + ':' + end;
}
function tryOnce() { return LockService.getScriptLock().tryLock(100); }
function waitBriefly() { LockService.getScriptLock().waitLock(100); }
function holdAndCheck() { var l = LockService.getDocumentLock(); l.waitLock(100); return l.hasLock(); }
`;

describe('locks and concurrent executions', () => {
  let server: TestHttpServer;
  beforeAll(async () => {
    server = await startTestHttpServer();
  });
  afterAll(() => server.close());

  it('sends one request for 20 identical formulas recalculating at once (lock, then re-read the cache)', async () => {
    const host = createGasHost({ concurrency: 10 });
    host.load(BUNDLE);
    const url = `${server.baseUrl}/slow/150`;
    for (let row = 1; row <= 20; row++) host.setCell(undefined, `A${row}`, `=REPORT("${url}")`);
    try {
      const results = await host.recalculate();
      expect(results).toHaveLength(20);
      expect(results.every((r) => r.value === 'slow 150')).toBe(true);
      expect(host.fetchLog.filter((e) => e.url === url)).toHaveLength(1);
    } finally {
      await host.close();
    }
  });

  it('without the lock, identical formulas racing each send their own request', async () => {
    const host = createGasHost({ concurrency: 5 });
    host.load(BUNDLE);
    const url = `${server.baseUrl}/slow/200`;
    const cells = [1, 2, 3, 4, 5].map((row) => ({ a1: `A${row}` }));
    for (const cell of cells) host.setCell(undefined, cell.a1, `=NOLOCK("${url}")`);
    try {
      await host.recalculate(cells);
      expect(host.fetchLog.filter((e) => e.url === url).length).toBeGreaterThan(1);
    } finally {
      await host.close();
    }
  });

  it('never lets two executions hold the script lock at once', async () => {
    const host = createGasHost({ concurrency: 4 });
    host.load(BUNDLE);
    try {
      const outcomes = await host.callConcurrently([1, 2, 3, 4].map(() => ({ functionName: 'HOLD', args: [100] })));
      const spans = outcomes.map((o) => String(o.value).split(':').map(Number) as [number, number]).sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
    } finally {
      await host.close();
    }
  });

  it('times out waitLock with the real message and tryLock with false while another execution holds the lock', async () => {
    const host = createGasHost({ concurrency: 3 });
    host.load(BUNDLE);
    try {
      // Warm three workers first, so the contenders start at once even on a loaded machine.
      await host.callConcurrently([1, 2, 3].map(() => ({ functionName: 'holdAndCheck' })));
      const holding = host.callConcurrently([{ functionName: 'HOLD', args: [800] }]);
      // Start the contenders only once the first execution really holds the lock.
      while (host.state.locks.holder('script') === undefined) await new Promise((r) => setTimeout(r, 5));
      const [tried, waited] = await host.callConcurrently([{ functionName: 'tryOnce' }, { functionName: 'waitBriefly' }]);
      const [held] = await holding;
      expect(held!.ok).toBe(true);
      expect(tried!.value).toBe(false);
      expect(waited!.error!.message).toBe('Lock timeout: another process was holding the lock for too long.');
    } finally {
      await host.close();
    }
  });

  it('releases locks when an execution ends', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.call('holdAndCheck')).toBe(true);
    expect(host.call('holdAndCheck')).toBe(true);
  });
});
