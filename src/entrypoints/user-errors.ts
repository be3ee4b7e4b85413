/**
 * The edge where a failure becomes what the user sees. Sheets shows a thrown Error's message under
 * #ERROR!, and google.script.run hands it to the sidebar's failure handler, so every entry point runs
 * its work through here and rethrows whatever failed as one sentence that says what to do next. It is
 * also the execution's end, where deferred work runs (src/gas/adapters/execution.ts). A sidebar's server
 * function goes through withUserMessage, which first refuses to run in a cell (outside-cells.ts): so
 * does any server function added later, by the same one line. The ENGAGE_* formulas, which belong in
 * cells, go through asOneSentence.
 */
import { userMessage } from '../core';
import { asExecution } from '../gas/adapters/execution';
import { outsideCells } from './outside-cells';

/**
 * A sidebar server function's work: refused when typed into a cell, else run with a failure rethrown
 * as its one sentence (`message`: the sidebar's report builder names fields by their labels).
 */
export function withUserMessage<T>(work: () => T, message: (error: unknown) => string = userMessage): T {
  outsideCells('sidebar');
  return asOneSentence(work, message);
}

/** Runs `work`, rethrowing a failure as its one sentence: the edge of the ENGAGE_* formulas, and of withUserMessage. */
export function asOneSentence<T>(work: () => T, message: (error: unknown) => string = userMessage): T {
  return asExecution(() => {
    try {
      return work();
    } catch (e) {
      throw new Error(message(e));
    }
  });
}
