/**
 * The edge where a failure becomes what the user sees. Sheets shows a thrown Error's message under
 * #ERROR!, and google.script.run hands it to the sidebar's failure handler, so every entry point runs
 * its work through here and rethrows whatever failed as one sentence that says what to do next.
 */
import { userMessage } from '../core';

export function withUserMessage<T>(work: () => T): T {
  try {
    return work();
  } catch (e) {
    throw new Error(userMessage(e));
  }
}
