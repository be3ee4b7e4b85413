/**
 * Contract: the observed response shapes of field-notes.md, served on demand by a fault rule's
 * `shape`. The same request answered plainly and in each shape must carry the same data: every
 * field of report items, metricsSums and lookup entries wrapped as {"value": x}, or numbers as
 * strings with a dot or a comma as the decimal separator; totalItems, errors, login and the
 * recommendations endpoint keep their plain shape.
 */
import { apiGet, request } from './contract-client';
import { DEMO_API_KEY, DEMO_USER, MEDIUM_PUBLISHER_ID, newEmulator, type EmulatorHandle } from '../support/emulator';

let emulator: EmulatorHandle;
let token: string;

const REPORT = { entityId: MEDIUM_PUBLISHER_ID, fromDate: '20261101', toDate: '20261107', breakdowns: 'day,country', limit: 20 };
const report = () => apiGet(emulator, token, '/reports/main', REPORT);

beforeAll(async () => {
  emulator = await newEmulator();
  await emulator.setClock('2026-11-20T12:00:00Z', { frozen: true });
  token = await emulator.login(DEMO_USER.email, DEMO_USER.password);
});
beforeEach(async () => {
  await emulator.clearFaults();
});
afterAll(async () => {
  await emulator.close();
});

/** Each field's {"value": x} replaced by x. */
const unwrapRecord = (record: Record<string, { value: unknown }>) =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v.value]));

describe('shape "wrapped"', () => {
  it('wraps every field of every report item and of metricsSums, and nothing else', async () => {
    const plain = (await report()).body;
    await emulator.setFaults([{ match: '/reports/main', times: 5, shape: 'wrapped' }]);
    const wrapped = (await report()).body;

    expect(wrapped.totalItems).toBe(plain.totalItems);
    expect(wrapped.items).toHaveLength(20);
    expect(wrapped.items[0].revenue).toEqual({ value: plain.items[0].revenue });
    expect(wrapped.items[0].day).toEqual({ value: plain.items[0].day });
    expect(wrapped.items[0].country).toEqual({ value: plain.items[0].country });
    expect(wrapped.items.map(unwrapRecord)).toEqual(plain.items);
    expect(unwrapRecord(wrapped.metricsSums)).toEqual(plain.metricsSums);
  });

  it('wraps every field of lookup entries', async () => {
    const plain = (await apiGet(emulator, token, `/publishers/${MEDIUM_PUBLISHER_ID}/widgets`)).body;
    await emulator.setFaults([{ match: '/widgets', shape: 'wrapped' }]);
    const wrapped = (await apiGet(emulator, token, `/publishers/${MEDIUM_PUBLISHER_ID}/widgets`)).body;
    expect(wrapped.widgets[0].id).toEqual({ value: plain.widgets[0].id });
    expect(wrapped.widgets.map(unwrapRecord)).toEqual(plain.widgets);
  });
});

describe('shapes "stringNumbers" and "commaDecimals"', () => {
  it('send every number of items and metricsSums as text with a dot, and leave text fields alone', async () => {
    const plain = (await report()).body;
    await emulator.setFaults([{ match: '/reports/main', shape: 'stringNumbers' }]);
    const strings = (await report()).body;
    const item = strings.items[0];
    expect(typeof item.revenue).toBe('string');
    expect(Number(item.revenue)).toBe(plain.items[0].revenue);
    expect(item.day).toBe(plain.items[0].day);
    expect(item.country).toEqual(plain.items[0].country);
    expect(Object.values(strings.metricsSums).every((v) => typeof v === 'string')).toBe(true);
    expect(Number(strings.metricsSums.revenue)).toBe(plain.metricsSums.revenue);
    expect(typeof strings.totalItems).toBe('number');
  });

  it('write a comma as the decimal separator, combined with the wrapper when both are asked', async () => {
    const plain = (await report()).body;
    await emulator.setFaults([{ match: '/reports/main', shape: ['wrapped', 'commaDecimals'] }]);
    const comma = (await report()).body;
    const fractional = plain.items.findIndex((i: { revenue: number }) => !Number.isInteger(i.revenue));
    expect(fractional).toBeGreaterThanOrEqual(0);
    const revenue = comma.items[fractional].revenue.value as string;
    expect(revenue).toMatch(/^\d+,\d+$/);
    expect(Number(revenue.replace(',', '.'))).toBe(plain.items[fractional].revenue);
  });
});

describe('what keeps its shape', () => {
  it('leaves errors, login and the recommendations answer plain', async () => {
    await emulator.setFaults([{ shape: 'wrapped', times: 10 }]);
    const error = await apiGet(emulator, token, '/reports/main', { entityId: MEDIUM_PUBLISHER_ID });
    expect(error.status).toBe(400);
    expect(typeof error.body.errorMessage).toBe('string');
    const login = await emulator.login(DEMO_USER.email, DEMO_USER.password);
    expect(typeof login).toBe('string');
    const recs = await request(`${emulator.recsUrl}?key=${DEMO_API_KEY.key}&contentUrl=news.example&widgetJSId=APP_30&cors=true`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ keywords: ['shoes'] }),
    });
    expect(recs.status).toBe(200);
    expect(typeof recs.body.documents[0].pos).toBe('number');
  });

  it('refuses an unknown shape name', async () => {
    const answer = await request(`${emulator.adminUrl}/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([{ shape: 'xml' }]),
    });
    expect(answer.status).toBe(400);
  });
});
