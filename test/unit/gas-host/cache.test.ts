/**
 * CacheService in the local host: lifetimes on the host clock, the documented limits (key 250
 * characters, value 100 KB, TTL up to 21,600 s, 1,000 items), and what a full cache drops under either
 * rule: the 900 farthest from expiry (Google's reference) or the oldest first (an experiment's FIFO).
 */
import { createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
function put(k, v, ttl) { CacheService.getDocumentCache().put(k, v, ttl); }
function get(k) { return CacheService.getDocumentCache().get(k); }
function putMany(n) { var c = CacheService.getScriptCache(); for (var i = 0; i < n; i++) c.put('k' + i, 'v', 60 + i); }
function putShortLived(n) { var c = CacheService.getScriptCache(); for (var i = 0; i < n; i++) c.put('k' + i, 'v', 21600 - i * 10); }
function rewrite(key) { CacheService.getScriptCache().put(key, 'again', 21600); }
function countScript(n) { var keys = []; for (var i = 0; i < n; i++) keys.push('k' + i); return Object.keys(CacheService.getScriptCache().getAll(keys)); }
function batch() { var c = CacheService.getUserCache(); c.putAll({ a: 'A', b: 'B' }); c.remove('a'); return c.getAll(['a', 'b']); }
`;

describe('CacheService', () => {
  it('stores and expires entries on the host clock', () => {
    const host = createGasHost({ clock: 'virtual' });
    host.load(BUNDLE);
    host.call('put', ['report', 'rows', 60]);
    host.call('put', ['default', 'rows']);
    host.advanceTime(59_000);
    expect(host.call('get', ['report'])).toBe('rows');
    host.advanceTime(2_000);
    expect(host.call('get', ['report'])).toBeNull();
    expect(host.call('get', ['default'])).toBe('rows');
    host.advanceTime(600_000);
    expect(host.call('get', ['default'])).toBeNull();
  });

  it('enforces key, value and lifetime limits', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(() => host.call('put', ['k'.repeat(251), 'v', 60])).toThrow('Argument too large: key');
    // "100KB" a value, read strictly: 100,000 bytes of UTF-8 fit, one more does not (nor 33,334 three-byte characters).
    expect(() => host.call('put', ['k', 'v'.repeat(100_001), 60])).toThrow('Argument too large: value');
    expect(() => host.call('put', ['k', '€'.repeat(33_334), 60])).toThrow('Argument too large: value');
    expect(() => host.call('put', ['k', 'v', 21601])).toThrow(/expirationInSeconds/);
    expect(() => host.call('put', ['k', 'v', 0])).toThrow(/expirationInSeconds/);
    host.call('put', ['k'.repeat(250), 'v'.repeat(100_000), 21600]);
  });

  it('keeps the 900 entries farthest from expiry past 1,000 items', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('putMany', [1001]);
    const kept = host.call('countScript', [1001]) as string[];
    expect(kept).toHaveLength(900);
    expect(kept).toContain('k1000');
    expect(kept).not.toContain('k0');
    // The host records what the rule dropped: the 101 nearest to expiry.
    expect(host.state.caches.evicted('script')).toEqual(Array.from({ length: 101 }, (_, i) => `k${i}`));
  });

  it('under FIFO drops the 100 oldest entries past 1,000 items, whatever their lifetime', () => {
    const host = createGasHost({ cacheEviction: 'fifo' });
    host.load(BUNDLE);
    host.call('putShortLived', [1001]);
    const kept = host.call('countScript', [1001]) as string[];
    expect(kept).toHaveLength(900);
    expect(kept).not.toContain('k100');
    expect(kept).toContain('k101');
    expect(kept).toContain('k1000');
    expect(host.state.caches.evicted('script')).toEqual(Array.from({ length: 101 }, (_, i) => `k${i}`));
  });

  it('under FIFO keeps an entry written again in its first place (creation time)', () => {
    const host = createGasHost({ cacheEviction: 'fifo' });
    host.load(BUNDLE);
    host.call('putMany', [1000]);
    host.call('rewrite', ['k0']);
    host.call('putMany', [1001]);
    expect(host.call('countScript', [1]) as string[]).toEqual([]);
  });

  it('by expiry keeps long-lived entries however old they are', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('putShortLived', [1001]);
    const kept = host.call('countScript', [1001]) as string[];
    expect(kept).toHaveLength(900);
    expect(kept).toContain('k0');
    expect(kept).not.toContain('k1000');
  });

  it('counts only live entries towards the 1,000', () => {
    const host = createGasHost({ clock: 'virtual', cacheEviction: 'fifo' });
    host.load(BUNDLE);
    host.call('putMany', [1000]);
    host.advanceTime(30 * 60_000);
    host.call('rewrite', ['fresh']);
    expect(host.call('countScript', [1000])).toEqual([]);
    expect(host.state.caches.allEntries().map((e) => e.key)).toEqual(['fresh']);
    // Expired entries make room without being evicted.
    expect(host.state.caches.evicted('script')).toEqual([]);
  });

  it('supports batch calls and test eviction', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.call('batch')).toEqual({ b: 'B' });
    host.call('put', ['x', 'y', 60]);
    host.evictCache('document', ['x']);
    expect(host.call('get', ['x'])).toBeNull();
    // The test hook is not the eviction rule.
    expect(host.state.caches.evicted(`document:${host.state.options.documentId}`)).toEqual([]);
    expect(host.counters['Cache.get']).toBe(1);
  });
});
