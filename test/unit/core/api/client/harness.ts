/**
 * A client wired to counting fakes, for the unit tests of src/core. The clock starts at
 * 2026-11-22 12:00 UTC; the sleeper advances it; jitter is fixed at 0.5 so waits are predictable.
 */
import type { EngageClientOptions } from '../../../../../src/core/api/client/client-options';
import { EngageClient } from '../../../../../src/core/api/client/engage-client';
import { FakeCache, FakeLock, FakeStore, FakeTransport, ManualClock, ManualSleeper, type FakeHandler } from '../../../../support/fakes';

export const BASE_URL = 'https://api.example.test/engage/v2';
export const PUBLISHER = 'a1b2c3d4e5';

export function harness(handler?: FakeHandler, overrides: Partial<EngageClientOptions> = {}) {
  const clock = new ManualClock();
  const sleeper = new ManualSleeper(clock);
  const transport = new FakeTransport(handler);
  const store = new FakeStore();
  const lock = new FakeLock();
  const cache = new FakeCache(clock);
  const client = new EngageClient({
    baseUrl: BASE_URL,
    transport,
    clock,
    sleeper,
    store,
    lock,
    cache,
    random: () => 0.5,
    token: 'tok-123',
    ...overrides,
  });
  return { client, clock, sleeper, transport, store, lock, cache };
}
