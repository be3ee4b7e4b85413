/**
 * The add-on in the local host on a virtual clock, with the emulator's clock in step. The emulator
 * enforces the 30-requests-a-minute window on ITS clock, so the two clocks must agree. Without a
 * modelled network, the emulator's clock is frozen and moved with the host's: the host tells us every
 * move of virtual time (a Utilities.sleep of the add-on waiting for rate slots or a retry, or
 * advanceTime), and we move the frozen emulator clock by the same amount with a synchronous admin
 * call before the script goes on; a request then arrives when it is sent. With a modelled network
 * the emulator follows the host's clock instead: each request arrives at its virtual send time plus
 * a drawn latency, and its answer moves the host's clock to when it comes back. Real time plays no
 * part: the minutes a run takes are the minutes the add-on slept, waited or spent on round trips.
 */
import { createSyncFetch } from '../../dev/gas-host/fetch/sync-fetch';
import type { GasHostOptions } from '../../dev/gas-host';
import { startAddon, type AddonHarness } from './addon-host';
import type { Bundle } from './bundles';
import type { EmulatorHandle, LatencyRange } from './emulator';

/** Latency of each request on its way to the emulator and of its answer on the way back (see dev/emulator/README.md). */
export interface ModelledNetwork {
  arrival: LatencyRange;
  return?: LatencyRange;
  seed?: number;
}

/** 100 ms +- 100 ms each way: the network the benchmarks and the arrival-clock tests model. */
export const JITTERY_NETWORK: ModelledNetwork = { arrival: { minMs: 0, maxMs: 200 }, return: { minMs: 0, maxMs: 200 }, seed: 11 };

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

export async function startScheduledAddon(
  startIso: string,
  options: GasHostOptions = {},
  network?: ModelledNetwork,
  bundle?: Bundle | ((emulator: EmulatorHandle) => Promise<Bundle>),
): Promise<AddonHarness> {
  const sync = createSyncFetch({ defaultTimeoutMs: 10_000 });
  let adminUrl: string | undefined;
  const harness = await startAddon(
    {
      clock: 'virtual',
      startTime: new Date(startIso),
      maxColumns: 40,
      ...options,
      onTimeAdvance: (ms) => {
        if (!adminUrl) return;
        const answer = sync.fetch({
          url: `${adminUrl}/clock`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ advanceMs: ms }),
        });
        if (answer.status !== 200) throw new Error(`moving the emulator clock failed: ${answer.status} ${answer.body}`);
      },
    },
    bundle,
  );
  if (network) {
    await harness.emulator.setClock(startIso, { followClient: true });
    await harness.emulator.setLatency(network);
    return harness;
  }
  await harness.emulator.setClock(startIso, { frozen: true });
  adminUrl = harness.emulator.adminUrl;
  return harness;
}

/**
 * One scheduled add-on for a test file, signed in as the owner; `use` receives it. Each test starts
 * two virtual minutes later than the last (a fresh rate window), with no faults and an empty log.
 */
export function useScheduledAddon(startIso: string, options: GasHostOptions, use: (harness: AddonHarness) => void): void {
  let harness: AddonHarness;
  beforeAll(async () => {
    harness = await startScheduledAddon(startIso, options);
    harness.signIn();
    use(harness);
  });
  afterAll(async () => {
    await harness.close();
  });
  beforeEach(async () => {
    harness.host.advanceTime(2 * MINUTE_MS);
    await harness.emulator.clearFaults();
    await harness.emulator.clearRequests();
  });
}

/** Moves to the next hourly trigger run and lets it run; returns the virtual minutes the run took. */
export function nextTriggerRun(h: AddonHarness): { minutes: number; runs: number } {
  const due = Math.min(...h.host.triggers.map((t) => t.nextRunAt ?? Infinity));
  h.host.advanceTime(due - h.host.clock.now() - 1);
  const startedAt = h.host.clock.now() + 1;
  const runs = h.host.advanceTime(1);
  return { minutes: (h.host.clock.now() - startedAt) / MINUTE_MS, runs: runs.length };
}

/** The most requests that arrived within any 60 s, by the emulator's clock ("time" of its log). */
export function mostInAnyMinute(loggedTimes: string[]): number {
  const times = loggedTimes.map((t) => Date.parse(t)).sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= MINUTE_MS) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}
