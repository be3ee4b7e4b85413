/**
 * The core's Cache over CacheService: it wraps the cache handed to it, so callers decide which scope
 * (user, document) backs which cache.
 */
import type { Cache } from '../../core';

/** A CacheService cache; values above 100 KB are compressed and split by ChunkedCache in the core, not here. */
export class ServiceCache implements Cache {
  constructor(private readonly cache: GoogleAppsScript.Cache.Cache) {}
  get(key: string): string | null {
    return this.cache.get(key);
  }
  getAll(keys: string[]): Record<string, string> {
    return keys.length === 0 ? {} : this.cache.getAll(keys);
  }
  put(key: string, value: string, ttlSeconds: number): void {
    this.cache.put(key, value, ttlSeconds);
  }
  putAll(values: Record<string, string>, ttlSeconds: number): void {
    this.cache.putAll(values, ttlSeconds);
  }
  remove(key: string): void {
    this.cache.remove(key);
  }
  removeAll(keys: string[]): void {
    this.cache.removeAll(keys);
  }
}
