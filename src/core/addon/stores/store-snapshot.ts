/**
 * One read of a property store for a use case that looks at many of its keys. Apps Script counts every
 * getProperty against the 50,000 property reads and writes a day (consumer), so asking which report
 * holds a cell, key by key, would cost a read per saved report's definition and status on every focus of
 * the sidebar. The first look here takes every entry with one getProperties; later looks read that
 * copy. Writes go through to the store and into the copy, so the use case sees its own. Another
 * execution's writes after the first look are not seen: where they matter, take a new snapshot (Run to
 * sheet takes one before fetching and another before writing).
 */
import type { ListableStore } from '../../ports';

export class StoreSnapshot implements ListableStore {
  private copy: Map<string, string> | undefined;

  constructor(private readonly store: ListableStore) {}

  get(key: string): string | null {
    return this.entriesRead().get(key) ?? null;
  }

  set(key: string, value: string): void {
    this.store.set(key, value);
    this.copy?.set(key, value);
  }

  remove(key: string): void {
    this.store.remove(key);
    this.copy?.delete(key);
  }

  entries(): Record<string, string> {
    return Object.fromEntries(this.entriesRead());
  }

  private entriesRead(): Map<string, string> {
    if (!this.copy) this.copy = new Map(Object.entries(this.store.entries()));
    return this.copy;
  }
}
