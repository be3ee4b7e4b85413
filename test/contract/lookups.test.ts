/**
 * Contract: the lookups (spec "Endpoints / Lookups", field notes on the publisher list) and the
 * permission rules (a user sees only its publishers; 403 for someone else's, 404 for unknown).
 */
import { apiGet, errorMessageOf } from './contract-client';
import {
  ANALYST_PUBLISHER_ID,
  ANALYST_USER,
  BIG_PUBLISHER_ID,
  DEMO_USER,
  HOSTILE_PUBLISHER_ID,
  MEDIUM_PUBLISHER_ID,
  newEmulator,
  type EmulatorHandle,
} from '../support/emulator';

let emulator: EmulatorHandle;
let demoToken: string;
let analystToken: string;

beforeAll(async () => {
  emulator = await newEmulator();
  demoToken = await emulator.login(DEMO_USER.email, DEMO_USER.password);
  analystToken = await emulator.login(ANALYST_USER.email, ANALYST_USER.password);
});
afterAll(async () => {
  await emulator.close();
});

describe('GET /publishers', () => {
  it('lists exactly the publishers the user has permission to, each with id and name', async () => {
    const result = await apiGet(emulator, demoToken, '/publishers');
    expect(result.status).toBe(200);
    const ids = result.body.publishers.map((p: { id: string }) => p.id);
    expect(ids.sort()).toEqual([BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, HOSTILE_PUBLISHER_ID].sort());
    for (const publisher of result.body.publishers) {
      expect(publisher).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String) }));
    }
  });

  it('shows the analyst only its one publisher', async () => {
    const result = await apiGet(emulator, analystToken, '/publishers');
    expect(result.body.publishers.map((p: { id: string }) => p.id)).toEqual([ANALYST_PUBLISHER_ID]);
  });
});

describe('GET /publishers/{id}/widgets and /nativeapps', () => {
  it('lists the widgets of a permitted publisher', async () => {
    const result = await apiGet(emulator, demoToken, `/publishers/${BIG_PUBLISHER_ID}/widgets`);
    expect(result.status).toBe(200);
    expect(result.body.widgets.length).toBeGreaterThanOrEqual(8);
    expect(result.body.widgets[0]).toEqual(expect.objectContaining({ id: expect.stringMatching(/^APP_\d+$/), name: expect.any(String) }));
  });

  it('lists the native apps of a permitted publisher', async () => {
    const result = await apiGet(emulator, demoToken, `/publishers/${BIG_PUBLISHER_ID}/nativeapps`);
    expect(result.status).toBe(200);
    expect(result.body.nativeapps[0]).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String) }));
  });

  it('answers 404 for an unknown publisher', async () => {
    for (const path of ['widgets', 'nativeapps']) {
      const result = await apiGet(emulator, demoToken, `/publishers/0000000000000000/${path}`);
      expect(result.status).toBe(404);
      errorMessageOf(result);
    }
  });

  it('answers 403 for a publisher the user has no permission to', async () => {
    const result = await apiGet(emulator, demoToken, `/publishers/${ANALYST_PUBLISHER_ID}/widgets`);
    expect(result.status).toBe(403);
    errorMessageOf(result);
  });
});

describe('GET /countries and /timezones', () => {
  it('lists countries with id and name', async () => {
    const result = await apiGet(emulator, demoToken, '/countries');
    expect(result.status).toBe(200);
    expect(result.body.countries).toContainEqual(expect.objectContaining({ id: 'US', name: 'United States' }));
  });

  it('lists timezones with id and name', async () => {
    const result = await apiGet(emulator, demoToken, '/timezones');
    expect(result.status).toBe(200);
    expect(result.body.timezones).toContainEqual(expect.objectContaining({ id: 'America/New_York', name: expect.any(String) }));
  });
});

describe('reports for a publisher the user lacks', () => {
  it('answer 403', async () => {
    const query = { entityId: ANALYST_PUBLISHER_ID, fromDate: '20260101', toDate: '20260101' };
    const main = await apiGet(emulator, demoToken, '/reports/main', query);
    expect(main.status).toBe(403);
    expect(main.body.moreInfo).toBe('getMainReport');
    expect((await apiGet(emulator, demoToken, '/reports/externalId', query)).status).toBe(403);
    expect((await apiGet(emulator, demoToken, '/reports/main', { ...query, entityId: 'unknown-publisher' })).status).toBe(403);
  });
});
