/**
 * The count of a refresh's formula ends (the core's wave-watch.ts) over this document's cache and lock:
 * a formula counting its end, and the driver's watch. A run that cannot reach this document's cache (a
 * trigger run without the document, or a spreadsheet opened by ID) has no watch: it waits a wave's
 * whole time instead (the core's refresh-driver.ts).
 */
import { countWaveEnd as countEnd, WaveWatch } from '../../../core';
import { blockingSleeper, systemClock } from '../system-time';
import { ServiceCache } from '../service-cache';
import { ServiceLock } from '../service-lock';

/**
 * A formula's end, counted in the wave its refresh value names; any other refresh value costs one
 * cache read. Never throws: a formula's result never depends on it, and a count that cannot be made
 * only makes the driver wait out the wave's time.
 */
export function countWaveEnd(refresh: unknown, ok: boolean, lockDeadlineAtMs: number): void {
  if (!(refresh instanceof Date)) return;
  try {
    const cache = CacheService.getDocumentCache();
    if (!cache) return;
    const documentLock = () => {
      const lock = LockService.getDocumentLock();
      return lock ? new ServiceLock(lock) : null;
    };
    countEnd(new ServiceCache(cache), documentLock, refresh.getTime(), ok, lockDeadlineAtMs, systemClock);
  } catch {
    // Counting is the driver's aid, never the formula's failure.
  }
}

/** A watch over this spreadsheet's waves, or undefined when its document cache is out of this execution's reach. */
export function waveWatchOf(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): WaveWatch | undefined {
  try {
    const active = SpreadsheetApp.getActiveSpreadsheet();
    if (!active || active.getId() !== spreadsheet.getId()) return undefined;
    const cache = CacheService.getDocumentCache();
    if (!cache) return undefined;
    const lock = LockService.getDocumentLock();
    return new WaveWatch(new ServiceCache(cache), lock ? new ServiceLock(lock) : null, systemClock, blockingSleeper);
  } catch {
    return undefined;
  }
}
