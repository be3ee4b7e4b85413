/**
 * An execution stopped while it waits for a host operation (out of time, as a busy machine can make
 * it: the real-time backstop fires while the main thread has not served the operation yet) leaves that
 * operation's answer to arrive late. The next execution in the same worker must not take it for the
 * answer to its own first operation.
 */
import { createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
/** @customfunction */
function WARM() { return 'warm'; }
/** @customfunction */
function FIRST() { return CacheService.getDocumentCache().get('nothing here') || 'none'; }
/** @customfunction */
function ZONE() { return SpreadsheetApp.getActiveSpreadsheet().getSpreadsheetTimeZone(); }
`;

/** Keeps this thread busy, as other work on a loaded machine would. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // nothing: the main thread serves no operation meanwhile
  }
}

it("drops a stopped execution's late answer: the next execution in that worker gets its own", async () => {
  // One worker, so the next execution runs where the stopped one ran; a custom function has 300 ms.
  const host = createGasHost({ concurrency: 1, customFunctionLimitMs: 300, timeZone: 'Europe/Berlin' });
  host.load(BUNDLE);
  try {
    // The worker started and compiled the bundle before the test's own executions (a function run, not
    // a formula: starting the worker takes longer than a formula's 300 ms).
    expect((await host.callConcurrently([{ functionName: 'WARM' }])).map((o) => o.value)).toEqual(['warm']);

    host.setCell(undefined, 'A2', '=FIRST()');
    host.setCell(undefined, 'A3', '=ZONE()');
    const pass = host.recalculate();
    // FIRST's cache read waits for this thread, which is busy past FIRST's 300 ms and the backstop's 1 s after them.
    busy(2_500);
    const results = await pass;
    const byCell = Object.fromEntries(results.map((r) => [r.a1, r.error ?? r.value]));
    expect(byCell.A2).toBe('Exceeded maximum execution time');
    expect(byCell.A3).toBe('Europe/Berlin');
  } finally {
    await host.close();
  }
});
