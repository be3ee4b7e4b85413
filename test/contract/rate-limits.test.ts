/**
 * Contract: the reporting limit (30 report requests per minute per publisher, sliding window) and
 * the unique-variants limit (100,000 per hour for external-ID reports), both answered 429 with
 * `rate-limit-msec-left` and `Retry-After`; per the field notes every request inside the window
 * also gets 429. The emulator counts a variant as one hourly external-ID fact row served to the
 * publisher; serving the same data again within the hour costs nothing.
 */
import { apiGet, errorMessageOf, type HttpResult } from './contract-client';
import {
  BIG_PUBLISHER_ID,
  DEMO_USER,
  HOSTILE_PUBLISHER_ID,
  MEDIUM_PUBLISHER_ID,
  newEmulator,
  type EmulatorHandle,
} from '../support/emulator';

let emulator: EmulatorHandle;
let token: string;

function smallReport(entityId = MEDIUM_PUBLISHER_ID) {
  return apiGet(emulator, token, '/reports/main', { entityId, fromDate: '20260601', toDate: '20260601' });
}

function expectRateLimited(result: HttpResult, maxWaitMs: number) {
  expect(result.status).toBe(429);
  errorMessageOf(result);
  const waitMs = Number(result.headers.get('rate-limit-msec-left'));
  expect(waitMs).toBeGreaterThan(0);
  expect(waitMs).toBeLessThanOrEqual(maxWaitMs);
  expect(result.headers.get('retry-after')).toBe(String(Math.ceil(waitMs / 1000)));
  return waitMs;
}

beforeAll(async () => {
  emulator = await newEmulator();
});
beforeEach(async () => {
  await emulator.reset();
  await emulator.setClock('2026-06-15T12:00:00Z');
  token = await emulator.login(DEMO_USER.email, DEMO_USER.password);
});
afterAll(async () => {
  await emulator.close();
});

describe('the reporting limit of 30 requests per minute per publisher', () => {
  it('answers the 31st report request within a minute with 429 and the wait in ms and seconds', async () => {
    for (let i = 0; i < 30; i++) expect((await smallReport()).status).toBe(200);
    expectRateLimited(await smallReport(), 60_000);
  });

  it('answers every request inside the window with 429 and lets one through when the oldest leaves the window', async () => {
    for (let i = 0; i < 30; i++) await smallReport();
    const waitMs = expectRateLimited(await smallReport(), 60_000);
    await emulator.advanceClock(waitMs - 2_000);
    expectRateLimited(await smallReport(), 2_000);
    await emulator.advanceClock(2_500);
    expect((await smallReport()).status).toBe(200);
  });

  it('counts each publisher separately and counts all three reports', async () => {
    for (let i = 0; i < 10; i++) await smallReport();
    for (let i = 0; i < 10; i++) {
      await apiGet(emulator, token, '/reports/externalId', { entityId: MEDIUM_PUBLISHER_ID, fromDate: '2026061000', toDate: '2026061001' });
    }
    for (let i = 0; i < 10; i++) {
      await apiGet(emulator, token, '/reports/realtime/externalId', {
        entityId: MEDIUM_PUBLISHER_ID,
        fromDate: '2026061500',
        toDate: '2026061501',
      });
    }
    expect((await smallReport()).status).toBe(429);
    expect((await smallReport(HOSTILE_PUBLISHER_ID)).status).toBe(200);
  });

  it('does not count lookups or logins', async () => {
    for (let i = 0; i < 30; i++) await smallReport();
    expect((await apiGet(emulator, token, '/publishers')).status).toBe(200);
    expect((await apiGet(emulator, token, `/publishers/${MEDIUM_PUBLISHER_ID}/widgets`)).status).toBe(200);
  });
});

describe('the unique-variants limit of 100,000 per hour', () => {
  function dayOfVariants(day: string) {
    return apiGet(emulator, token, '/reports/externalId', { entityId: BIG_PUBLISHER_ID, fromDate: day, toDate: day, limit: 1 });
  }

  it('answers external-ID reports with 429 once 100,000 distinct variants were served within the hour', async () => {
    // One day of the big publisher is about 23,000 hourly fact rows: the limit falls on the sixth day.
    const days = ['20260601', '20260602', '20260603', '20260604', '20260605', '20260606', '20260607'];
    const statuses: number[] = [];
    let limited: HttpResult | undefined;
    for (const day of days) {
      const result = await dayOfVariants(day);
      statuses.push(result.status);
      if (result.status === 429) {
        limited = result;
        break;
      }
    }
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(limited).toBeDefined();
    expect(limited!.body.errorMessage).toMatch(/variants/i);
    expectRateLimited(limited!, 3_600_000);
    // The general report is not subject to the variants limit.
    expect((await smallReport(BIG_PUBLISHER_ID)).status).toBe(200);
  });

  it('does not count the same data twice within the hour', async () => {
    for (let i = 0; i < 8; i++) expect((await dayOfVariants('20260601')).status).toBe(200);
  });
});
