/**
 * Fault evidence on the real clock: a custom function has 30 seconds in all, and UrlFetchApp cannot
 * cut a slow request short. When the first page of a 3-page report takes 14 s, the pages after it
 * would end past the 25 s the add-on gives itself, so the formula fails at once with a sentence that
 * says Engage is slow and what to do, instead of being killed by Apps Script at 30 s with "Exceeded
 * maximum execution time". (A single request slower than 30 s is ended by Apps Script whatever the
 * add-on does; the host reproduces that too.)
 */
import { performance } from 'node:perf_hooks';
import { startAddon, type AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID } from '../support/emulator';

const NOW = '2026-11-20T12:00:00Z';
const FIRST_PAGE_LATENCY_MS = 14_000;
let h: AddonHarness;

beforeAll(async () => {
  h = await startAddon({ maxRows: 20_000, maxColumns: 40 });
  await h.emulator.setClock(NOW);
  h.signIn();
});
afterAll(async () => {
  await h.close();
});

it('fails clearly well within 30 s when the first page is so slow that the rest would not fit', async () => {
  await h.emulator.setFaults([{ match: 'reports/externalId.*offset=0', latencyMs: FIRST_PAGE_LATENCY_MS }]);
  const started = performance.now();
  const result = h.host.evaluateFormula(
    'Sheet1',
    'A1',
    `=ENGAGE_EXTERNALID_REPORT("${BIG_PUBLISHER_ID}", "2026111800", "2026111900", "externalId,widget")`,
  );
  const elapsedMs = performance.now() - started;
  expect(result.value).toBe('#ERROR!');
  expect(result.error).toMatch(/^Engage is answering slowly \(a request took 1\d\.\d s, and \d+\.\d s were left\)/);
  expect(result.error).toMatch(/try again in a few minutes, or ask for fewer rows/);
  expect(elapsedMs).toBeLessThan(20_000);
  // Only the slow first page was asked for: the two others would have come back too late.
  expect((await h.apiRequests()).filter((r) => r.path.endsWith('/reports/externalId'))).toHaveLength(1);
}, 40_000);
