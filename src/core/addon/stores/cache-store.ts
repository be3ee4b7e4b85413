/**
 * A cache used as the key-value store of shared state that may be lost without harm (the report rate
 * windows): every write keeps the value for the same time.
 */
import type { Cache, KeyValueStore } from '../../ports';

export class CacheStore implements KeyValueStore {
  constructor(
    private readonly cache: Cache,
    private readonly ttlSeconds: number,
  ) {}
  get(key: string): string | null {
    return this.cache.get(key);
  }
  set(key: string, value: string): void {
    this.cache.put(key, value, this.ttlSeconds);
  }
  remove(key: string): void {
    this.cache.remove(key);
  }
}
