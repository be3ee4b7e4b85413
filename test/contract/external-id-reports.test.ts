/**
 * Contract: the hourly external-ID report and the realtime external-ID report (spec "External-ID
 * report", "Realtime external-ID report", Limits; field notes: hours are UTC, toDate exclusive, a
 * date alone for toDate is hour 00 of the next day). The clock is pinned to 2026-06-15 12:00 UTC.
 */
import { apiGet, errorMessageOf, useSignedInEmulator, type QueryValues } from './contract-client';
import { BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, type EmulatorHandle } from '../support/emulator';

let emulator: EmulatorHandle;
let token: string;
type Row = Record<string, any>;

const HOURLY_METRICS = [
  'totalReqs',
  'paidReqs',
  'organicReqs',
  'totalClicks',
  'paidClicks',
  'organicClicks',
  'reqsTotalCtr',
  'reqsPaidCtr',
  'reqsOrganicCtr',
  'revenue',
  'reqsRpm',
  'videoRevenue',
  'widgetViewableImpressions',
  'organicWidgetViewableImpressions',
  'paidWidgetViewableImpressions',
];
const REALTIME_METRICS = ['paidReqs', 'paidClicks', 'reqsPaidCtr', 'revenue', 'reqsRpm', 'totalPvs'];

function hourly(query: QueryValues) {
  return apiGet(emulator, token, '/reports/externalId', {
    entityId: MEDIUM_PUBLISHER_ID,
    fromDate: '20260610',
    toDate: '20260610',
    ...query,
  });
}

function realtime(query: QueryValues) {
  return apiGet(emulator, token, '/reports/realtime/externalId', {
    entityId: MEDIUM_PUBLISHER_ID,
    fromDate: '2026061400',
    toDate: '2026061500',
    ...query,
  });
}

async function expect400(result: Promise<{ status: number; body: any }>, parameter: RegExp) {
  const answer = await result;
  expect(answer.status).toBe(400);
  expect(errorMessageOf(answer as any)).toMatch(parameter);
}

useSignedInEmulator('2026-06-15T12:00:00Z', (e, t) => {
  emulator = e;
  token = t;
});

describe('GET /reports/externalId (hourly)', () => {
  it('breaks down by externalId by default, with the spec metrics', async () => {
    const result = await hourly({});
    expect(result.status).toBe(200);
    expect(result.body.totalItems).toBeGreaterThan(0);
    const item = result.body.items[0];
    expect(Object.keys(item)).toEqual(['externalId', ...HOURLY_METRICS]);
    expect(Object.keys(result.body.metricsSums)).toEqual(HOURLY_METRICS);
  });

  it('gives external IDs of at most 110 characters', async () => {
    const items: Row[] = (await hourly({ limit: 5000, breakdowns: 'externalId,externalSecondaryId' })).body.items;
    expect(items.every((i) => i.externalId.length > 0 && i.externalId.length <= 110)).toBe(true);
    expect(items.every((i) => i.externalSecondaryId.length > 0 && i.externalSecondaryId.length <= 110)).toBe(true);
  });

  it('takes yyyyMMddHH or yyyyMMdd and rejects other forms, naming the parameter', async () => {
    expect((await hourly({ fromDate: '2026061000', toDate: '2026061012' })).status).toBe(200);
    await expect400(hourly({ fromDate: '2026-06-10' }), /fromDate/);
    await expect400(hourly({ toDate: '2026061024' }), /toDate/);
    await expect400(hourly({ fromDate: undefined }), /fromDate/);
  });

  it('reads a toDate date alone as hour 00 of the next day', async () => {
    const dateOnly = (await hourly({ fromDate: '20260610', toDate: '20260610', limit: 5000 })).body;
    const hours = (await hourly({ fromDate: '2026061000', toDate: '2026061100', limit: 5000 })).body;
    expect(dateOnly).toEqual(hours);
  });

  it('treats toDate as exclusive', async () => {
    const first = (await hourly({ fromDate: '2026061000', toDate: '2026061001' })).body.metricsSums;
    const second = (await hourly({ fromDate: '2026061001', toDate: '2026061002' })).body.metricsSums;
    const both = (await hourly({ fromDate: '2026061000', toDate: '2026061002' })).body.metricsSums;
    expect(both.paidClicks).toBe(first.paidClicks + second.paidClicks);
    expect(both.totalReqs).toBe(first.totalReqs + second.totalReqs);
  });

  it('allows a range of at most 24 hours, after fromDate', async () => {
    expect((await hourly({ fromDate: '2026061005', toDate: '2026061105' })).status).toBe(200);
    await expect400(hourly({ fromDate: '2026061005', toDate: '2026061106' }), /24 hours/);
    await expect400(hourly({ fromDate: '2026061005', toDate: '2026061005' }), /toDate/);
  });

  it('returns 500 items by default and allows up to 5000', async () => {
    const big = await apiGet(emulator, token, '/reports/externalId', {
      entityId: BIG_PUBLISHER_ID,
      fromDate: '20260610',
      toDate: '20260610',
    });
    expect(big.body.totalItems).toBeGreaterThan(500);
    expect(big.body.items).toHaveLength(500);
    expect((await hourly({ limit: 5000 })).status).toBe(200);
    await expect400(hourly({ limit: 5001 }), /limit/);
  });

  it('always includes externalId, first, when other breakdowns are asked for', async () => {
    const item = (await hourly({ breakdowns: 'widget' })).body.items[0];
    expect(Object.keys(item).slice(0, 2)).toEqual(['externalId', 'widget']);
    expect(item.widget).toEqual({ id: expect.any(String), name: expect.any(String) });
  });

  it('puts another breakdown first only when all are listed explicitly', async () => {
    const item = (await hourly({ breakdowns: 'widget,externalId' })).body.items[0];
    expect(Object.keys(item).slice(0, 2)).toEqual(['widget', 'externalId']);
  });

  it('rejects an unknown breakdown', async () => {
    await expect400(hourly({ breakdowns: 'country' }), /breakdowns.*country/);
  });

  it('converts revenue with currencyCode', async () => {
    const usd = (await hourly({})).body.metricsSums;
    const gbp = (await hourly({ currencyCode: 'GBP' })).body.metricsSums;
    expect(gbp.revenue).not.toBe(usd.revenue);
    expect(gbp.revenue / usd.revenue).toBeCloseTo(0.79, 2);
    await expect400(hourly({ currencyCode: 'ABC' }), /currencyCode/);
  });

  it('filters and sorts by externalId', async () => {
    const items: Row[] = (await hourly({ filter: 'externalId:contains:SPORTS', sort: 'externalId', order: 'asc', limit: 5000 })).body.items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.externalId.includes('sports'))).toBe(true);
    expect(items.map((i) => i.externalId)).toEqual(items.map((i) => i.externalId).sort());
  });

  it('shows an external ID only 48 hours after it was first injected (the realtime report shows it at once)', async () => {
    const range = { fromDate: '2026061400', toDate: '2026061500', limit: 5000 };
    const hourlyIds = new Set((await hourly(range)).body.items.map((i: Row) => i.externalId));
    const realtimeIds = new Set((await realtime(range)).body.items.map((i: Row) => i.externalId));
    expect(realtimeIds.size).toBeGreaterThan(hourlyIds.size);
    expect([...hourlyIds].every((id) => realtimeIds.has(id))).toBe(true);
  });
});

describe('GET /reports/realtime/externalId', () => {
  it('returns the realtime metrics only, revenue in USD whatever currencyCode says', async () => {
    const result = await realtime({});
    expect(result.status).toBe(200);
    expect(Object.keys(result.body.items[0])).toEqual(['externalId', ...REALTIME_METRICS]);
    const eur = await realtime({ currencyCode: 'EUR' });
    expect(eur.body.metricsSums.revenue).toBe(result.body.metricsSums.revenue);
  });

  it('answers only inside the last 48 hours (UTC)', async () => {
    expect((await realtime({ fromDate: '2026061312', toDate: '2026061412' })).status).toBe(200);
    await expect400(realtime({ fromDate: '2026061311', toDate: '2026061411' }), /fromDate.*48 hours/);
  });

  it('reads a date alone as hour 00, and as hour 00 of the next date for toDate', async () => {
    const dateOnly = (await realtime({ fromDate: '20260614', toDate: '20260614', limit: 5000 })).body;
    const hours = (await realtime({ fromDate: '2026061400', toDate: '2026061500', limit: 5000 })).body;
    expect(dateOnly).toEqual(hours);
  });

  it('has no data beyond now (minus the freshness lag)', async () => {
    expect((await realtime({ fromDate: '2026061513', toDate: '2026061600' })).body.totalItems).toBe(0);
    expect((await realtime({ fromDate: '2026061510', toDate: '2026061511' })).body.totalItems).toBeGreaterThan(0);
  });

  it('allows a range of at most 24 hours', async () => {
    await expect400(realtime({ fromDate: '2026061400', toDate: '2026061501' }), /24 hours/);
  });

  it('returns 1000 items by default and allows up to 5000', async () => {
    const big = await apiGet(emulator, token, '/reports/realtime/externalId', {
      entityId: BIG_PUBLISHER_ID,
      fromDate: '2026061400',
      toDate: '2026061500',
    });
    expect(big.body.totalItems).toBeGreaterThan(1000);
    expect(big.body.items).toHaveLength(1000);
    await expect400(realtime({ limit: 5001 }), /limit/);
  });

  it('puts externalId first unless all breakdowns are listed explicitly', async () => {
    expect(Object.keys((await realtime({ breakdowns: 'widget' })).body.items[0]).slice(0, 2)).toEqual(['externalId', 'widget']);
    expect(Object.keys((await realtime({ breakdowns: 'widget,externalId' })).body.items[0]).slice(0, 2)).toEqual(['widget', 'externalId']);
  });

  it('computes reqsPaidCtr and reqsRpm from the row counts', async () => {
    const item = (await realtime({})).body.items[0];
    expect(item.reqsPaidCtr).toBeCloseTo((item.paidClicks / item.paidReqs) * 100, 3);
    expect(item.reqsRpm).toBeCloseTo((item.revenue / item.paidReqs) * 1000, 0);
  });
});
