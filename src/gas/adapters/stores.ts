/**
 * Key-value, cache and lock adapters over PropertiesService, CacheService and LockService, plus the
 * clock and the blocking sleeper. Each wraps an object handed to it, so callers decide which scope
 * (user, document, script) backs which port.
 */
import type { Cache, Clock, ListableStore, Lock, Sleeper } from '../../core';

/** A properties store (strings only, 9 KB per value, 500 KB in all). */
export class PropertiesStore implements ListableStore {
  constructor(private readonly properties: GoogleAppsScript.Properties.Properties) {}
  get(key: string): string | null {
    return this.properties.getProperty(key);
  }
  set(key: string, value: string): void {
    this.properties.setProperty(key, value);
  }
  remove(key: string): void {
    this.properties.deleteProperty(key);
  }
  entries(): Record<string, string> {
    return this.properties.getProperties();
  }
}

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

export class ServiceLock implements Lock {
  constructor(private readonly lock: GoogleAppsScript.Lock.Lock) {}
  tryLock(timeoutMs: number): boolean {
    return this.lock.tryLock(Math.max(0, Math.floor(timeoutMs)));
  }
  releaseLock(): void {
    if (this.lock.hasLock()) this.lock.releaseLock();
  }
}

export const systemClock: Clock = { now: () => Date.now() };

export const blockingSleeper: Sleeper = {
  sleep(ms: number): void {
    if (ms > 0) Utilities.sleep(Math.ceil(ms));
  },
};
