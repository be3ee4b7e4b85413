/**
 * Many executions at once: 30 identical ENGAGE_REPORT formulas recalculating together (each its own
 * execution in a worker thread of the local host, sharing the document cache and lock) must send one
 * set of requests, not one per cell. 30, the most Apps Script runs at once for one user ("Simultaneous
 * executions per user: 30"): the strict reading refuses more. Real clock: waiting formulas really wait.
 */
import { startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID } from '../support/emulator';

let h: AddonHarness;
beforeAll(async () => {
  h = await startAddon({ maxColumns: 40, maxRows: 12000 });
  h.signIn();
});
afterAll(async () => {
  await h.close();
});

it('sends one request set for 30 identical formulas recalculating at once', async () => {
  const text = `=ENGAGE_REPORT("${BIG_PUBLISHER_ID}", "2026-11-10", "2026-11-12", "day,country")`;
  // One formula every 200 rows of column A, so that no result spills onto another formula.
  const cells = Array.from({ length: 30 }, (_, i) => ({ sheet: 'Sheet1', a1: `A${1 + i * 200}` }));
  for (const c of cells) h.host.setCell(c.sheet, c.a1, text);
  await h.emulator.clearRequests();
  const results = await h.host.recalculate(cells);
  expect(results.filter((r) => r.error)).toEqual([]);
  expect(new Set(results.map((r) => JSON.stringify(r.values))).size).toBe(1);
  expect(results[0]!.values!.length).toBeGreaterThan(10);
  // What the add-on sent, by execution: one execution fetched, the 29 others waited for its result.
  // (A request the transport lost and the retry policy sent again would still be that one execution's
  // request set; the log says which, should this ever fail.)
  const fetches = h.host.fetchLog.filter((f) => f.url.includes('/reports/main'));
  const answered = fetches.filter((f) => f.status !== undefined);
  expect({
    executions: [...new Set(fetches.map((f) => f.executionId))].length,
    answered: answered.length,
    log: fetches.map((f) => ({ execution: f.executionId, status: f.status, error: f.error })),
  }).toMatchObject({ executions: 1, answered: 1 });
});
