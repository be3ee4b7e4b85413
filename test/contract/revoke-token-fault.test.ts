/**
 * Contract: the `revokeToken` fault, which stands for a password change while a client is working:
 * the matching request and every later one with a token of that user get 401, and a new login works.
 */
import { apiGet, errorMessageOf } from './contract-client';
import { DEMO_USER, newEmulator, type EmulatorHandle } from '../support/emulator';

let emulator: EmulatorHandle;

beforeAll(async () => {
  emulator = await newEmulator();
});
afterAll(async () => {
  await emulator.close();
});

it('revokes the tokens of the requesting user on the Nth matching request, which answers 401', async () => {
  const token = await emulator.login(DEMO_USER.email, DEMO_USER.password);
  await emulator.setFaults([{ match: '/countries', onNth: 2, revokeToken: true }]);
  expect((await apiGet(emulator, token, '/countries')).status).toBe(200);
  const revoked = await apiGet(emulator, token, '/countries');
  expect(revoked.status).toBe(401);
  expect(errorMessageOf(revoked)).toMatch(/revoked/);
  expect((await apiGet(emulator, token, '/timezones')).status).toBe(401);
  const fresh = await emulator.login(DEMO_USER.email, DEMO_USER.password);
  expect((await apiGet(emulator, fresh, '/countries')).status).toBe(200);
});
