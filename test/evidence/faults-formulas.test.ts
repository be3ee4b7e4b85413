/**
 * Fault evidence for the custom functions: the built bundle in the local host against the
 * emulator's fault injection. A report of 3 pages (the external-ID report, 5,000 rows a page) is
 * first fetched cleanly; then the same formula with a new `refresh` value meets a 504 on page 2,
 * malformed JSON, dropped connections and 429 storms. Each case checks the rows or the message
 * under #ERROR! (with the trace ID of the failed request), the exact requests the emulator saw,
 * that nothing of a failed fetch spilled or was cached, and that the cached earlier result and the
 * cells around the formula were not touched. Clocks of host and emulator move together
 * (scheduled-host.ts), so waits cost no real time. The last part proves the defensive parsing: the
 * same formulas give identical rows whatever response shape (field-notes.md) the emulator serves.
 */
import type { AddonHarness } from '../support/addon-host';
import { BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, type FaultRule } from '../support/emulator';
import { MINUTE_MS, startScheduledAddon } from '../support/scheduled-host';

const START = '2026-11-20T12:00:00.000Z';
/** 13,655 rows of 24 hours: pages at offsets 0, 5000 and 10000. */
const REPORT = (refresh: string) =>
  `=ENGAGE_EXTERNALID_REPORT("${BIG_PUBLISHER_ID}", "2026111800", "2026111900", "externalId,widget", , , , , , "${refresh}")`;
const PAGE_2 = 'reports/externalId.*offset=5000';
const SHEET = 'Report';
const NEIGHBOURS = 'Z1:AB3';
let h: AddonHarness;
let baseline: unknown[][];
let neighbours: unknown[][];

beforeAll(async () => {
  h = await startScheduledAddon(START, { sheets: [SHEET, 'Small', 'Shapes'], maxRows: 20_000, maxColumns: 60 });
  h.signIn();
  // Data a user keeps beside the formula's output.
  for (const [a1, value] of [
    ['Z1', 'notes'],
    ['AA2', '42'],
    ['AB3', 'keep me'],
  ] as const)
    h.host.setCell(SHEET, a1, value);
  neighbours = h.host.getValues(SHEET, NEIGHBOURS);
  const clean = h.host.evaluateFormula(SHEET, 'A1', REPORT('clean'));
  expect(clean.error).toBeUndefined();
  baseline = clean.values!;
  expect(baseline.length).toBe(13_657);
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  // A fresh rate window on both clocks, and a clean log.
  h.host.advanceTime(2 * MINUTE_MS);
  await h.emulator.clearFaults();
  await h.emulator.clearRequests();
});

/** Evaluates the report formula with a new refresh value under the faults. */
async function underFaults(faults: FaultRule[], refresh: string) {
  await h.emulator.setFaults(faults);
  const result = h.host.evaluateFormula(SHEET, 'A1', REPORT(refresh));
  return { result, requests: await h.emulator.reportRequests() };
}

/** The sheet shows an error and nothing of the failed fetch; the cells around it are unchanged. */
function expectCleanFailure(result: ReturnType<AddonHarness['host']['evaluateFormula']>) {
  expect(result.value).toBe('#ERROR!');
  expect(
    h.host
      .getValues(SHEET, 'A2:C4')
      .flat()
      .every((v) => v === ''),
  ).toBe(true);
  expect(h.host.getValues(SHEET, NEIGHBOURS)).toEqual(neighbours);
}

/** After the fault is gone the same formula fetches again (nothing was cached) and shows every row. */
async function expectRecovers(refresh: string) {
  await h.emulator.clearFaults();
  await h.emulator.clearRequests();
  h.host.advanceTime(2 * MINUTE_MS);
  const again = h.host.evaluateFormula(SHEET, 'A1', REPORT(refresh));
  expect(again.values).toEqual(baseline);
  expect(await h.emulator.reportRequests()).toHaveLength(3);
}

describe('a 504 on page 2 of 3', () => {
  it('is retried and the formula shows every row: 4 requests', async () => {
    const { result, requests } = await underFaults([{ match: PAGE_2, status: 504 }], '504-once');
    expect(result.values).toEqual(baseline);
    expect(requests.filter((r) => r.status === 504)).toHaveLength(1);
    expect(requests.filter((r) => r.query.offset === '5000')).toHaveLength(2);
    expect(requests).toHaveLength(4);
  });

  it('when it persists: #ERROR! with the trace ID of the last 504 after 5 attempts of page 2, nothing spilled or cached', async () => {
    const { result, requests } = await underFaults([{ match: PAGE_2, status: 504, times: 100 }], '504-always');
    expectCleanFailure(result);
    const timeouts = requests.filter((r) => r.status === 504);
    expect(timeouts).toHaveLength(5);
    expect(requests).toHaveLength(1 + 2 + 4);
    expect(result.error).toMatch(
      /^Engage took too long to answer \(Request timed out\): try again in a few minutes or ask for a shorter date range \[trace ID [^\]]+\]\.$/,
    );
    expect(result.error).toContain(`[trace ID ${timeouts[timeouts.length - 1]!.traceId}]`);
    await expectRecovers('504-always');
  });

  it('leaves the cached earlier result alone: recalculating the unchanged formula under the fault sends nothing', async () => {
    const text = `=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}", "2026-11-01", "2026-11-07", "day", , , , , , , "cached")`;
    const before = h.host.evaluateFormula('Small', 'A1', text).values;
    await h.emulator.clearRequests();
    await h.emulator.setFaults([{ match: 'reports/', status: 504, times: 100 }]);
    const cached = h.host.evaluateFormula('Small', 'A1', text);
    expect(cached.error).toBeUndefined();
    expect(cached.values).toEqual(before);
    expect(await h.emulator.reportRequests()).toEqual([]);
  });
});

describe('malformed JSON', () => {
  it('on page 2: #ERROR! saying the answer was not JSON, with its trace ID; not retried, nothing cached', async () => {
    const { result, requests } = await underFaults([{ match: PAGE_2, malformedJson: true }], 'malformed');
    expectCleanFailure(result);
    expect(requests).toHaveLength(3);
    const faulted = requests.find((r) => r.fault)!;
    expect(result.error).toBe(
      `Engage answered GET /reports/externalId in an unexpected form (the body is not JSON): try again later, and contact support if it persists [trace ID ${faulted.traceId}].`,
    );
    await expectRecovers('malformed');
  });
});

describe('dropped connections', () => {
  it('a drop on page 2 is retried (the whole batch, as UrlFetchApp.fetchAll fails as one) and every row arrives', async () => {
    const { result, requests } = await underFaults([{ match: PAGE_2, dropConnection: true }], 'drop-once');
    expect(result.values).toEqual(baseline);
    expect(requests.filter((r) => r.query.offset === '5000')).toHaveLength(2);
    expect(requests).toHaveLength(5);
  });

  it('when they persist: #ERROR! "Could not reach Engage" after 5 attempts, nothing spilled or cached', async () => {
    const { result, requests } = await underFaults([{ match: PAGE_2, dropConnection: true, times: 100 }], 'drop-always');
    expectCleanFailure(result);
    expect(result.error).toMatch(/^Could not reach Engage \(.+\): check the connection and try again in a moment\.$/);
    expect(requests.filter((r) => r.query.offset === '5000')).toHaveLength(5);
    expect(requests).toHaveLength(1 + 2 * 5);
  });
});

describe('429 storms', () => {
  it('waits out announced waits that fit, sending page 2 again only after each: 2 extra requests for 2 refusals', async () => {
    const before = h.host.clock.now();
    const { result, requests } = await underFaults([{ match: PAGE_2, rateLimitMs: 4000, times: 2 }], '429-fits');
    expect(result.values).toEqual(baseline);
    expect(requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect(requests).toHaveLength(3 + 2);
    // The two waits of 4 s passed on the clock (the add-on slept them), and no retry came early.
    expect(h.host.clock.now() - before).toBeGreaterThanOrEqual(8000);
    const times = requests.filter((r) => r.query.offset === '5000').map((r) => Date.parse(r.time));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(4000);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(4000);
  });

  it('gives "try again after" at once when the announced wait does not fit the 25 s: exactly one request', async () => {
    // Another publisher, so the wait the add-on remembers does not reach the other tests.
    await h.emulator.setFaults([{ match: 'reports/main', rateLimitMs: 45_000, times: 100 }]);
    const result = h.host.evaluateFormula(
      'Small',
      'A1',
      `=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}", "2026-11-01", "2026-11-07", , , , , , , , "storm")`,
    );
    expect(result.value).toBe('#ERROR!');
    expect(result.error).toMatch(
      /^Engage's rate limit was reached \(Rate limit exceeded \(injected fault\)\): try again after \d\d:\d\d:\d\d UTC \[trace ID [^\]]+\]\.$/,
    );
    const refused = await h.emulator.reportRequests();
    expect(refused).toHaveLength(1);
    // The time named is the request's time plus the announced 45 s.
    const retryAt = /try again after (\d\d:\d\d:\d\d)/.exec(result.error!)![1];
    expect(retryAt).toBe(new Date(Date.parse(refused[0]!.time) + 45_000).toISOString().slice(11, 19));
    // A second try inside the announced window sends nothing: the add-on remembers the wait.
    const again = h.host.evaluateFormula(
      'Small',
      'A1',
      `=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}", "2026-11-01", "2026-11-07", , , , , , , , "storm-2")`,
    );
    expect(again.error).toMatch(/try again after/);
    expect(await h.emulator.reportRequests()).toHaveLength(1);
  });
});

describe('response shapes seen by real clients', () => {
  const GENERAL = (refresh: string) =>
    `=ENGAGE_REPORT("${MEDIUM_PUBLISHER_ID}", "2026-11-01", "2026-11-07", "day,country", , , , , "EUR", 2, "${refresh}")`;
  const WIDGETS = (refresh: string) => `=ENGAGE_WIDGETS("${BIG_PUBLISHER_ID}", "${refresh}")`;
  const shapes: Array<FaultRule['shape']> = ['wrapped', 'stringNumbers', 'commaDecimals', ['wrapped', 'commaDecimals']];

  it.each(shapes.map((s) => [Array.isArray(s) ? s.join(' and ') : s!, s]))(
    '%s: the same formulas give identical rows, totals and dates',
    async (name, shape) => {
      h.host.advanceTime(2 * MINUTE_MS);
      const plainGeneral = h.host.evaluateFormula('Shapes', 'A1', GENERAL(`plain ${name}`)).values!;
      const plainWidgets = h.host.evaluateFormula('Shapes', 'AD1', WIDGETS(`plain ${name}`)).values!;
      expect(plainGeneral[plainGeneral.length - 1]![0]).toBe('Total');
      expect(plainGeneral[1]![0]).toBeInstanceOf(Date);

      await h.emulator.setFaults([{ shape, times: 10_000 }]);
      await h.emulator.clearRequests();
      const general = h.host.evaluateFormula('Shapes', 'A1', GENERAL(`shaped ${name}`));
      const widgets = h.host.evaluateFormula('Shapes', 'AD1', WIDGETS(`shaped ${name}`));
      // The 3-page report once, in the combined shape (it is the costly one).
      const report = Array.isArray(shape) ? h.host.evaluateFormula(SHEET, 'A1', REPORT(`shaped ${name}`)) : undefined;

      // Every answer really came in the shape.
      const log = await h.emulator.requests();
      expect(log).toHaveLength(report ? 5 : 2);
      expect(log.every((r) => r.fault !== undefined && r.status === 200)).toBe(true);
      expect(general.values).toEqual(plainGeneral);
      expect(widgets.values).toEqual(plainWidgets);
      if (report) expect(report.values).toEqual(baseline);
    },
  );
});
