/**
 * Contract: authentication and the token lifecycle (spec "Authentication", "States and
 * transitions", login limit in "Limits"; field notes on the login body and failed logins).
 */
import { apiGet, errorMessageOf, request } from './contract-client';
import { ANALYST_USER, DEMO_USER, TOKEN_HEADER, basicAuthorization, newEmulator, type EmulatorHandle } from '../support/emulator';

const DAY_MS = 86_400_000;
let emulator: EmulatorHandle;

function login(username: string, password: string, scheme = 'BASIC') {
  const authorization = basicAuthorization(username, password).replace(/^BASIC/, scheme);
  return request(`${emulator.baseUrl}/login`, { headers: { Authorization: authorization } });
}

beforeAll(async () => {
  emulator = await newEmulator();
});
beforeEach(async () => {
  await emulator.reset();
});
afterAll(async () => {
  await emulator.close();
});

describe('GET /login', () => {
  it('answers a JSON object whose token field is named like the token header', async () => {
    const result = await login(DEMO_USER.email, DEMO_USER.password);
    expect(result.status).toBe(200);
    expect(Object.keys(result.body)).toEqual([TOKEN_HEADER]);
    expect(result.body[TOKEN_HEADER]).toMatch(/^\S{16,}$/);
  });

  it('accepts the Basic scheme in any letter case', async () => {
    expect((await login(DEMO_USER.email, DEMO_USER.password, 'Basic')).status).toBe(200);
    expect((await login(ANALYST_USER.email, ANALYST_USER.password, 'basic')).status).toBe(200);
  });

  it('rejects a wrong password with 401 in the error envelope', async () => {
    const result = await login(DEMO_USER.email, 'wrong');
    expect(result.status).toBe(401);
    expect(errorMessageOf(result)).toMatch(/password/i);
  });

  it('rejects a missing Authorization header with 401', async () => {
    const result = await request(`${emulator.baseUrl}/login`);
    expect(result.status).toBe(401);
    errorMessageOf(result);
  });
});

describe('the token header', () => {
  it('is required on every other endpoint', async () => {
    for (const path of ['/publishers', '/countries', '/timezones', '/reports/main']) {
      const result = await apiGet(emulator, undefined, path);
      expect(result.status).toBe(401);
      expect(errorMessageOf(result)).toContain(TOKEN_HEADER);
    }
  });

  it('rejects an unknown token with 401', async () => {
    expect((await apiGet(emulator, 'not-a-token', '/publishers')).status).toBe(401);
  });

  it('keeps a token valid until just before 30 days and rejects it at 30 days', async () => {
    await emulator.setClock('2026-03-01T00:00:00Z');
    const token = await emulator.login(DEMO_USER.email, DEMO_USER.password);
    await emulator.advanceClock(30 * DAY_MS - 60_000);
    expect((await apiGet(emulator, token, '/publishers')).status).toBe(200);
    await emulator.advanceClock(60_000);
    const expired = await apiGet(emulator, token, '/publishers');
    expect(expired.status).toBe(401);
    expect(errorMessageOf(expired)).toMatch(/expired/i);
  });

  it('lets several tokens of one user stay valid at once', async () => {
    const first = await emulator.login(DEMO_USER.email, DEMO_USER.password);
    const second = await emulator.login(DEMO_USER.email, DEMO_USER.password);
    expect(first).not.toBe(second);
    expect((await apiGet(emulator, first, '/publishers')).status).toBe(200);
    expect((await apiGet(emulator, second, '/publishers')).status).toBe(200);
  });

  it('is revoked, with every earlier token of the user, when the password changes', async () => {
    const first = await emulator.login(DEMO_USER.email, DEMO_USER.password);
    const second = await emulator.login(DEMO_USER.email, DEMO_USER.password);
    await emulator.changePassword(DEMO_USER.username, 'new-password');
    expect((await apiGet(emulator, first, '/publishers')).status).toBe(401);
    const revoked = await apiGet(emulator, second, '/publishers');
    expect(revoked.status).toBe(401);
    expect(errorMessageOf(revoked)).toMatch(/revoked/i);
    await emulator.advanceClock(3_600_000); // past the login limit
    expect((await login(DEMO_USER.email, DEMO_USER.password)).status).toBe(401);
    const fresh = await emulator.login(DEMO_USER.email, 'new-password');
    expect((await apiGet(emulator, fresh, '/publishers')).status).toBe(200);
  });

  it('is revoked when the email changes, and the new email is the login name', async () => {
    const token = await emulator.login(DEMO_USER.email, DEMO_USER.password);
    await emulator.changeEmail(DEMO_USER.username, 'renamed@engage.example');
    expect((await apiGet(emulator, token, '/publishers')).status).toBe(401);
    const fresh = await emulator.login('renamed@engage.example', DEMO_USER.password);
    expect((await apiGet(emulator, fresh, '/publishers')).status).toBe(200);
  });

  it('of one user survives revoking another user', async () => {
    const demo = await emulator.login(DEMO_USER.email, DEMO_USER.password);
    const analyst = await emulator.login(ANALYST_USER.email, ANALYST_USER.password);
    await emulator.revoke(ANALYST_USER.username);
    expect((await apiGet(emulator, demo, '/publishers')).status).toBe(200);
    expect((await apiGet(emulator, analyst, '/publishers')).status).toBe(401);
  });
});

describe('the login limit of 2 per hour per user', () => {
  it('answers the third login within an hour with 429, rate-limit-msec-left and Retry-After', async () => {
    expect((await login(DEMO_USER.email, DEMO_USER.password)).status).toBe(200);
    await emulator.advanceClock(60_000);
    expect((await login(DEMO_USER.email, DEMO_USER.password)).status).toBe(200);
    const third = await login(DEMO_USER.email, DEMO_USER.password);
    expect(third.status).toBe(429);
    errorMessageOf(third);
    const waitMs = Number(third.headers.get('rate-limit-msec-left'));
    expect(waitMs).toBeGreaterThan(3_600_000 - 60_000 - 5_000);
    expect(waitMs).toBeLessThanOrEqual(3_600_000 - 60_000);
    expect(Number(third.headers.get('retry-after'))).toBe(Math.ceil(waitMs / 1000));
  });

  it('counts failed logins too', async () => {
    expect((await login(DEMO_USER.email, 'wrong')).status).toBe(401);
    expect((await login(DEMO_USER.email, 'wrong')).status).toBe(401);
    expect((await login(DEMO_USER.email, DEMO_USER.password)).status).toBe(429);
  });

  it('answers every login inside the window with 429, and allows one again once the hour has passed', async () => {
    await login(DEMO_USER.email, DEMO_USER.password);
    await login(DEMO_USER.email, DEMO_USER.password);
    expect((await login(DEMO_USER.email, DEMO_USER.password)).status).toBe(429);
    await emulator.advanceClock(30 * 60_000);
    expect((await login(DEMO_USER.email, DEMO_USER.password)).status).toBe(429);
    await emulator.advanceClock(30 * 60_000 + 1_000);
    expect((await login(DEMO_USER.email, DEMO_USER.password)).status).toBe(200);
  });

  it('is counted per user', async () => {
    await login(DEMO_USER.email, DEMO_USER.password);
    await login(DEMO_USER.email, DEMO_USER.password);
    expect((await login(ANALYST_USER.email, ANALYST_USER.password)).status).toBe(200);
  });
});
