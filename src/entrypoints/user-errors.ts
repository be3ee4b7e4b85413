/**
 * The edge where a failure becomes what the user sees. Sheets shows a thrown Error's message under
 * #ERROR!, and google.script.run hands it to the sidebar's failure handler, so every entry point runs
 * its work through here and rethrows whatever failed as one sentence that says what to do next. It is
 * also the execution's end, where deferred work runs (src/gas/execution.ts).
 */
import { userMessage } from '../core';
import { asExecution } from '../gas/execution';

/** Runs `work`, rethrowing a failure as its one sentence (`message`: the sidebar's report builder names fields by their labels). */
export function withUserMessage<T>(work: () => T, message: (error: unknown) => string = userMessage): T {
  return asExecution(() => {
    try {
      return work();
    } catch (e) {
      throw new Error(message(e));
    }
  });
}
