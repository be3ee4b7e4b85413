/**
 * The Cache service's stores with their limits: every cache by name (`script`, `user:<email>`,
 * `document:<id>`) lives in the deployment, so the script cache and each user's cache are shared by
 * every document. A cache holds about 1,000 items; writing past that drops entries by the eviction
 * rule the host was given. Entries expire on the host clock.
 */
import type { HostClock } from '../../shared/clock';
import { GasException, type CacheOps, type ExecutionInfo, type ServedOps, type StoreScope } from '../protocol/protocol';
import { storeName, storeUser, type DocumentIdentity } from './document';

export interface CacheEntry {
  value: string;
  expiresAt: number;
}

/** Every cache by name (`script`, `user:<email>`, `document:<id>`), as the deployment holds them. */
export type CachesByName = Map<string, Map<string, CacheEntry>>;

export const CACHE_KEY_LIMIT_CHARS = 250;
/** "100KB" a value, as Google documents it, read strictly: 100,000 bytes of UTF-8, not 102,400. */
export const CACHE_VALUE_LIMIT_BYTES = 100_000;
export const CACHE_MAX_TTL_SECONDS = 21600;
export const CACHE_DEFAULT_TTL_SECONDS = 600;
/** The Cache service's reference: about 1,000 items per cache; when full, the 900 farthest from expiry are kept. */
export const CACHE_CAPACITY_ITEMS = 1000;
export const CACHE_KEPT_AFTER_EVICTION = 900;

/**
 * Which entries a full cache drops: 'expiry' keeps the 900 farthest from expiry (Google's reference);
 * 'fifo' drops the oldest entries, about 100 at once, as a public experiment observed ("removes items
 * based on creation time, ignoring recent access"). An entry written again keeps its creation time,
 * which is the stricter reading for keys that are rewritten all the time.
 */
export type CacheEviction = 'expiry' | 'fifo';

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** What the eviction rule dropped from each cache, by store: shared by every document's view of a shared cache. */
const evictedByStore = new WeakMap<Map<string, CacheEntry>, string[]>();

export class CacheStores {
  constructor(
    private readonly caches: CachesByName,
    private readonly document: DocumentIdentity,
    private readonly eviction: CacheEviction,
    private readonly clock: HostClock,
  ) {}

  byName(name: string): Map<string, CacheEntry> {
    let store = this.caches.get(name);
    if (!store) this.caches.set(name, (store = new Map()));
    return store;
  }

  /** Every entry of every cache (user caches of each user, document, script), expired ones included: for scans of what is held. */
  allEntries(): Array<{ cache: string; key: string; value: string; expiresAt: number }> {
    return [...this.caches].flatMap(([cache, store]) =>
      [...store].map(([key, entry]) => ({ cache, key, value: entry.value, expiresAt: entry.expiresAt })),
    );
  }

  /**
   * The keys a full cache dropped by its eviction rule, in the order they went: not those that expired,
   * were removed, or went by the `evict` test hook. Tests read it to see whether, and how, the rule applied.
   */
  evicted(name: string): readonly string[] {
    return evictedByStore.get(this.byName(name)) ?? [];
  }

  /** Test hook: drops cache entries ("entries may go earlier"). Without keys, the whole cache; `user` defaults to the owner. */
  evict(scope: StoreScope, keys?: string[], user?: string): void {
    const store = this.byName(storeName(this.document, scope, user ?? this.document.owner));
    if (!keys) store.clear();
    else for (const key of keys) store.delete(key);
  }

  private storeFor(execution: ExecutionInfo, scope: StoreScope): Map<string, CacheEntry> {
    return this.byName(storeName(this.document, scope, storeUser(this.document, execution)));
  }

  private read(store: Map<string, CacheEntry>, key: string): string | null {
    const entry = store.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.clock.now()) {
      store.delete(key);
      return null;
    }
    return entry.value;
  }

  /** A Map keeps the order keys were first set in: that order is the entries' creation order. */
  private write(store: Map<string, CacheEntry>, key: string, value: string, ttlSeconds: number): void {
    store.set(key, { value, expiresAt: this.clock.now() + ttlSeconds * 1000 });
    if (store.size <= CACHE_CAPACITY_ITEMS) return;
    const now = this.clock.now();
    let kept = [...store].filter(([, e]) => e.expiresAt > now);
    if (kept.length > CACHE_CAPACITY_ITEMS) {
      if (this.eviction === 'fifo') kept = kept.slice(kept.length - CACHE_KEPT_AFTER_EVICTION);
      else {
        const farthest = new Set(
          [...kept]
            .sort((a, b) => b[1].expiresAt - a[1].expiresAt)
            .slice(0, CACHE_KEPT_AFTER_EVICTION)
            .map(([k]) => k),
        );
        kept = kept.filter(([k]) => farthest.has(k));
      }
    }
    const keptKeys = new Set(kept.map(([k]) => k));
    const dropped = [...store].filter(([k, e]) => e.expiresAt > now && !keptKeys.has(k)).map(([k]) => k);
    if (dropped.length > 0) {
      const record = evictedByStore.get(store) ?? [];
      record.push(...dropped);
      evictedByStore.set(store, record);
    }
    store.clear();
    for (const [k, e] of kept) store.set(k, e);
  }

  private checkEntry(key: string, value: string, ttlSeconds: number): void {
    if (key.length > CACHE_KEY_LIMIT_CHARS) throw new GasException('Argument too large: key');
    if (utf8Bytes(value) > CACHE_VALUE_LIMIT_BYTES) throw new GasException('Argument too large: value');
    if (!(ttlSeconds >= 1 && ttlSeconds <= CACHE_MAX_TTL_SECONDS)) {
      throw new GasException(`Invalid argument: expirationInSeconds (must be between 1 and ${CACHE_MAX_TTL_SECONDS})`);
    }
  }

  readonly ops: ServedOps<keyof CacheOps> = {
    cacheGet: (execution, scope, key) => this.read(this.storeFor(execution, scope), key),
    cacheGetAll: (execution, scope, keys) => {
      const store = this.storeFor(execution, scope);
      const out: Record<string, string> = {};
      for (const key of keys) {
        const value = this.read(store, key);
        if (value !== null) out[key] = value;
      }
      return out;
    },
    cachePut: (execution, scope, entries, ttlSeconds = CACHE_DEFAULT_TTL_SECONDS) => {
      const store = this.storeFor(execution, scope);
      const list = Object.entries(entries);
      // All or nothing: every entry is checked before any is written.
      for (const [key, value] of list) this.checkEntry(key, value, ttlSeconds);
      for (const [key, value] of list) this.write(store, key, value, ttlSeconds);
    },
    cacheRemove: (execution, scope, keys) => {
      const store = this.storeFor(execution, scope);
      for (const key of keys) store.delete(key);
    },
  };
}
