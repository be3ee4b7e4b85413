/**
 * The add-on in the local host on a virtual clock, with the emulator's clock frozen and moved in
 * step. The emulator enforces the 30-requests-a-minute window on ITS clock, so the two clocks must
 * agree: the host tells us every move of virtual time (a Utilities.sleep of the add-on waiting for
 * rate slots or a retry, or advanceTime), and we move the frozen emulator clock by the same amount
 * with a synchronous admin call before the script goes on. Real time plays no part: the minutes a
 * run takes are the minutes the add-on slept or waited, exactly as on the real platform.
 */
import { createSyncFetch } from '../../dev/gas-host/sync-fetch';
import type { GasHostOptions } from '../../dev/gas-host';
import { startAddon, type AddonHarness } from './addon-host';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

export async function startScheduledAddon(startIso: string, options: GasHostOptions = {}): Promise<AddonHarness> {
  const sync = createSyncFetch({ defaultTimeoutMs: 10_000 });
  let adminUrl: string | undefined;
  const harness = await startAddon({
    clock: 'virtual',
    startTime: new Date(startIso),
    maxColumns: 40,
    ...options,
    onTimeAdvance: (ms) => {
      if (!adminUrl) return;
      const answer = sync.fetch({ url: `${adminUrl}/clock`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: ms }) });
      if (answer.status !== 200) throw new Error(`moving the emulator clock failed: ${answer.status} ${answer.body}`);
    },
  });
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
