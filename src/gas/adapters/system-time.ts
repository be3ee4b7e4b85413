/**
 * The core's Clock and Sleeper in Apps Script: the system's time, and Utilities.sleep, which blocks the
 * execution (Apps Script has no timers).
 */
import type { Clock, Sleeper } from '../../core';

export const systemClock: Clock = { now: () => Date.now() };

export const blockingSleeper: Sleeper = {
  sleep(ms: number): void {
    if (ms > 0) Utilities.sleep(Math.ceil(ms));
  },
};
