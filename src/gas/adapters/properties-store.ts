/**
 * The core's ListableStore over PropertiesService: it wraps the properties object handed to it, so
 * callers decide which scope (user, document, script) backs which store.
 */
import type { ListableStore } from '../../core';

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
