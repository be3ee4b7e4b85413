import { createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
function put(k, v, ttl) { CacheService.getDocumentCache().put(k, v, ttl); }
function get(k) { return CacheService.getDocumentCache().get(k); }
function putMany(n) { var c = CacheService.getScriptCache(); for (var i = 0; i < n; i++) c.put('k' + i, 'v', 60 + i); }
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
    expect(() => host.call('put', ['k', 'v'.repeat(100 * 1024 + 1), 60])).toThrow('Argument too large: value');
    expect(() => host.call('put', ['k', 'v', 21601])).toThrow(/expirationInSeconds/);
    expect(() => host.call('put', ['k', 'v', 0])).toThrow(/expirationInSeconds/);
    host.call('put', ['k'.repeat(250), 'v'.repeat(100 * 1024), 21600]);
  });

  it('keeps the 900 entries farthest from expiry past 1,000 items', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('putMany', [1001]);
    const kept = host.call('countScript', [1001]) as string[];
    expect(kept).toHaveLength(900);
    expect(kept).toContain('k1000');
    expect(kept).not.toContain('k0');
  });

  it('supports batch calls and test eviction', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    expect(host.call('batch')).toEqual({ b: 'B' });
    host.call('put', ['x', 'y', 60]);
    host.evictCache('document', ['x']);
    expect(host.call('get', ['x'])).toBeNull();
    expect(host.counters['Cache.get']).toBe(1);
  });
});
