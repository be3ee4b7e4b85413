/**
 * The end of one Apps Script execution, for work the core defers to it (the URL Fetch count's last
 * write, src/core/api/transport/daily-quota.ts). Apps Script loads the script afresh for every execution, so
 * what this module holds belongs to one execution. An execution Apps Script ends at its time limit
 * never reaches its end here; what was deferred is then lost, which the deferring code allows for.
 */

const atEnd: Array<() => void> = [];
let depth = 0;

/** Work to do when the execution ends, however it ends. */
export function onExecutionEnd(finish: () => void): void {
  atEnd.push(finish);
}

/** Runs an entry point's work; when the outermost one returns or throws, the deferred work runs (its failures are not the user's). */
export function asExecution<T>(work: () => T): T {
  depth++;
  try {
    return work();
  } finally {
    depth--;
    if (depth === 0) {
      for (const finish of atEnd.splice(0)) {
        try {
          finish();
        } catch {
          // A count that cannot be written is skipped (daily-quota.ts), never the user's failure.
        }
      }
    }
  }
}
