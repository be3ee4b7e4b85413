/**
 * The core's Lock over LockService: it wraps the lock handed to it (the user's or the document's).
 * Apps Script takes whole milliseconds, and releasing a lock not held would throw.
 */
import type { Lock } from '../../core';

export class ServiceLock implements Lock {
  constructor(private readonly lock: GoogleAppsScript.Lock.Lock) {}
  tryLock(timeoutMs: number): boolean {
    return this.lock.tryLock(Math.max(0, Math.floor(timeoutMs)));
  }
  releaseLock(): void {
    if (this.lock.hasLock()) this.lock.releaseLock();
  }
}
