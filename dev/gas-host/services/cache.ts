/**
 * CacheService: the user's, the document's and the script's caches. Values are strings; limits,
 * expiry and the eviction of a full cache are the host state's (state/cache.ts).
 */
import type { StoreScope } from '../protocol/protocol';
import { fromRealm, type FacadeKit } from './kit';

export function cacheService(kit: FacadeKit) {
  const { ops } = kit;
  const ttlOf = (ttl: number | undefined) => (ttl === undefined ? undefined : Number(ttl));
  const cache = (scope: StoreScope) =>
    kit.api('Cache', {
      get: (key: string) => ops.cacheGet(scope, String(key)),
      getAll: (keys: string[]) => ops.cacheGetAll(scope, (fromRealm(keys) as unknown[]).map(String)),
      put: (key: string, value: unknown, ttl?: number) => {
        ops.cachePut(scope, { [String(key)]: String(value) }, ttlOf(ttl));
      },
      putAll: (values: Record<string, unknown>, ttl?: number) => {
        const entries = Object.entries(fromRealm(values) as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
        ops.cachePut(scope, Object.fromEntries(entries), ttlOf(ttl));
      },
      remove: (key: string) => {
        ops.cacheRemove(scope, [String(key)]);
      },
      removeAll: (keys: string[]) => {
        ops.cacheRemove(scope, (fromRealm(keys) as unknown[]).map(String));
      },
    });
  return kit.api('CacheService', {
    getUserCache: () => (kit.guard('cache', 'CacheService.getUserCache'), cache('user')),
    // Outside a document (a trigger's run in the strict reading): "null is returned".
    getDocumentCache: () => (kit.guard('cache', 'CacheService.getDocumentCache'), kit.request.withoutDocument ? null : cache('document')),
    getScriptCache: () => (kit.guard('cache', 'CacheService.getScriptCache'), cache('script')),
  });
}
