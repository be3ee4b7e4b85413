/**
 * The edge where a failure becomes what the user sees. Sheets shows a thrown Error's message under
 * #ERROR!, and google.script.run hands it to the sidebar's failure handler, so every entry point runs
 * its work through here and rethrows whatever failed as one sentence that says what to do next. It is
 * also the execution's end, where deferred work runs (src/gas/execution.ts).
 */
import { userMessage } from '../core';
import { asExecution } from '../gas/execution';

export function withUserMessage<T>(work: () => T): T {
  return asExecution(() => {
    try {
      return work();
    } catch (e) {
      throw new Error(userMessage(e));
    }
  });
}
