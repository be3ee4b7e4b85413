/**
 * Executions running at once, per user, across every document of the add-on: what Apps Script's
 * quotas page limits as "Simultaneous executions per user: 30". Under the strict reading
 * (`executionsPerUserLimit`) one more is refused at its start with Google's message; under the kind
 * reading none is refused and the count is only observed (its peak, for tests and the bench).
 *
 * Which user an execution counts against: its own, except that a custom function counts against the
 * spreadsheet owner, as its user properties and daily quotas do (storeUser in document.ts). No page
 * says which user a formula's execution counts against (UNCONFIRMED); the add-on keeps to the limit
 * under either answer (docs/limits.md, Refresh all).
 */

import type { ReadingWitness } from '../protocol/strict';

/** Apps Script's quotas page: "Simultaneous executions per user: 30" (consumer and Workspace accounts alike). */
export const SIMULTANEOUS_EXECUTIONS_PER_USER = 30;
/** The quotas page's words for one execution more ("... most commonly occurs for custom functions ..."). */
export const TOO_MANY_EXECUTIONS_MESSAGE = 'There are too many scripts running simultaneously for this Google user account.';

/** The deployment's tally: kept there, so the executions of every document of one user add up. */
export interface ExecutionTally {
  /** Execution id -> the user it counts against, while it runs (admitted, in a worker or waiting for one). */
  readonly running: Map<number, string>;
  /** Per user: the most that ran at once since the last reset. */
  readonly peaks: Map<string, number>;
  /** Per user: how many were refused at their start. */
  readonly refused: Map<string, number>;
}

export function createExecutionTally(): ExecutionTally {
  return { running: new Map(), peaks: new Map(), refused: new Map() };
}

/** What a user's executions at once look like now: running, the peak since the last reset, and those refused. */
export interface ExecutionsAtOnceView {
  running: number;
  peak: number;
  refused: number;
}

export class ExecutionsAtOnce {
  constructor(
    private readonly tally: ExecutionTally,
    /** The strict reading: refuse past the limit. */
    private readonly limited: boolean,
    /** Told when the strict reading would refuse one the kind reading admits. */
    private readonly readings?: ReadingWitness,
    private readonly limit = SIMULTANEOUS_EXECUTIONS_PER_USER,
  ) {}

  /** Counts an execution that starts now against `user`; false (and not counted) when the strict reading refuses it. */
  admit(executionId: number, user: string): boolean {
    const running = this.running(user);
    if (running >= this.limit) this.readings?.differs('executionsPerUserLimit');
    if (this.limited && running >= this.limit) {
      this.tally.refused.set(user, (this.tally.refused.get(user) ?? 0) + 1);
      return false;
    }
    this.tally.running.set(executionId, user);
    this.tally.peaks.set(user, Math.max(this.tally.peaks.get(user) ?? 0, running + 1));
    return true;
  }

  /** The execution ended (or never ran): it no longer counts. */
  end(executionId: number): void {
    this.tally.running.delete(executionId);
  }

  running(user: string): number {
    let n = 0;
    for (const counted of this.tally.running.values()) if (counted === user) n++;
    return n;
  }

  view(user: string): ExecutionsAtOnceView {
    return { running: this.running(user), peak: this.tally.peaks.get(user) ?? 0, refused: this.tally.refused.get(user) ?? 0 };
  }

  /** Starts the peak and the refusals afresh (the peak from what runs now). */
  reset(): void {
    this.tally.peaks.clear();
    this.tally.refused.clear();
    for (const user of new Set(this.tally.running.values())) this.tally.peaks.set(user, this.running(user));
  }
}
