/**
 * A published add-on at 9 a.m., in small: 4 documents of one deployment, 3 users each typing 10
 * formulas of their document's dashboard, 2 publishers, all recalculating at once on the real clock
 * against an emulator whose network takes 0 to 200 ms each way. Rate windows live in each document
 * (docs/shared-state.md), so documents never wait for one another; sized within each publisher's 30
 * report requests a minute, nothing fails, nothing is busy, the service refuses nothing, and each
 * distinct formula of a document costs exactly one request. `npm run bench` runs it at 20 documents.
 */
import { newEmulator, type EmulatorHandle } from '../support/emulator';
import { simulateRecalculation } from '../support/load-simulation';
import { JITTERY_NETWORK } from '../support/scheduled-host';

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await newEmulator();
  await emulator.setClock('2026-11-20T12:00:00Z');
  await emulator.setLatency(JITTERY_NETWORK);
});
afterAll(async () => {
  await emulator.close();
});

it('recalculates 4 documents x 3 users x 10 formulas at once with no failure, no busy error, no 429 and one request per distinct formula', async () => {
  const result = await simulateRecalculation(emulator, {
    documents: 4,
    usersPerDocument: 3,
    formulasPerUser: 10,
    publishers: 2,
    workersPerDocument: 3,
  });
  console.log(
    `load simulation: ${result.formulas} formulas in ${(result.wallMs / 1000).toFixed(1)} s, ${result.failed.length} failed, ${result.busy} busy, ${result.tooMany} answered 429, ${result.requests} requests for ${result.distinct} distinct; per publisher ${JSON.stringify(result.perPublisher)}`,
  );
  expect(result.formulas).toBe(120);
  expect(result.failed.map((r) => r.error)).toEqual([]);
  expect(result.busy).toBe(0);
  expect(result.tooMany).toBe(0);
  expect(result.distinct).toBe(40);
  expect({ requests: result.requests, repeated: result.repeated }).toEqual({ requests: result.distinct, repeated: [] });
  for (const p of result.perPublisher) expect(p.mostInAnyMinute).toBeLessThanOrEqual(30);
}, 120_000);
