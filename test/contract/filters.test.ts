/**
 * Contract: the filter language of all reports (spec "Filters"; field notes: `;` is AND,
 * contains ignores case, metricsSums cover every filtered row). Each operator gets its own test.
 */
import { apiGet, errorMessageOf, useSignedInEmulator, type QueryValues } from './contract-client';
import { MEDIUM_PUBLISHER_ID, type EmulatorHandle } from '../support/emulator';

let emulator: EmulatorHandle;
let token: string;
type Row = Record<string, any>;

function main(query: QueryValues) {
  return apiGet(emulator, token, '/reports/main', {
    entityId: MEDIUM_PUBLISHER_ID,
    fromDate: '20260501',
    toDate: '20260531',
    limit: 10000,
    ...query,
  });
}

async function rows(query: QueryValues): Promise<Row[]> {
  const result = await main(query);
  expect(result.status).toBe(200);
  return result.body.items;
}

async function expectFilterRejected(filter: string, problem: RegExp) {
  const result = await main({ filter });
  expect(result.status).toBe(400);
  expect(errorMessageOf(result)).toMatch(/filter/);
  expect(result.body.errorMessage).toMatch(problem);
}

useSignedInEmulator('2026-06-15T12:00:00Z', (e, t) => {
  emulator = e;
  token = t;
});

describe('filter operators', () => {
  it('eq keeps rows whose metric equals the number', async () => {
    const all = await rows({ breakdowns: 'country' });
    const target = all[3]!.paidClicks;
    const kept = await rows({ breakdowns: 'country', filter: `paidClicks:eq:${target}` });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((r) => r.paidClicks === target)).toBe(true);
  });

  it('gt keeps rows above the number', async () => {
    const all = await rows({});
    const median = [...all.map((r) => r.revenue)].sort((a, b) => a - b)[Math.floor(all.length / 2)];
    const kept = await rows({ filter: `revenue:gt:${median}` });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((r) => r.revenue > median)).toBe(true);
    expect(all.filter((r) => r.revenue > median)).toHaveLength(kept.length);
  });

  it('lt keeps rows below the number', async () => {
    const all = await rows({ breakdowns: 'country' });
    const threshold = all[Math.floor(all.length / 2)]!.paidClicks;
    const kept = await rows({ breakdowns: 'country', filter: `paidClicks:lt:${threshold}` });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((r) => r.paidClicks < threshold)).toBe(true);
  });

  it('between keeps rows within both bounds, inclusive', async () => {
    const kept = await rows({ breakdowns: 'day', filter: 'day:between:20260510,20260512' });
    expect(kept.map((r) => r.day).sort()).toEqual(['20260510', '20260511', '20260512']);
  });

  it('in keeps rows whose field is in the list; a plain entity name matches its id', async () => {
    const kept = await rows({ breakdowns: 'country', filter: 'country:in:US,CA' });
    expect(kept.map((r) => r.country.id).sort()).toEqual(['CA', 'US']);
  });

  it('not_in drops rows whose field is in the list', async () => {
    const kept = await rows({ breakdowns: 'country', filter: 'country.id:not_in:US,CA' });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.some((r) => ['US', 'CA'].includes(r.country.id))).toBe(false);
  });

  it('contains matches text ignoring case, e.g. country.name', async () => {
    const kept = await rows({ breakdowns: 'country', filter: 'country.name:contains:UNITED' });
    expect(kept.map((r) => r.country.name).sort()).toEqual(['United Kingdom', 'United States']);
  });

  it('not_contains drops rows whose text contains the value', async () => {
    const kept = await rows({ breakdowns: 'country', filter: 'country.name:not_contains:united' });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.some((r) => /united/i.test(r.country.name))).toBe(false);
  });
});

describe('filter chains and totals', () => {
  it('combine conditions joined by ; with AND', async () => {
    const all = await rows({ breakdowns: 'day,country' });
    const expected = all.filter((r) => ['US', 'DE'].includes(r.country.id) && r.paidClicks > 20);
    const kept = await rows({ breakdowns: 'day,country', filter: 'country:in:US,DE;paidClicks:gt:20' });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBe(expected.length);
    expect(kept.every((r) => ['US', 'DE'].includes(r.country.id) && r.paidClicks > 20)).toBe(true);
  });

  it('count and sum only the filtered rows in totalItems and metricsSums', async () => {
    const result = await main({ breakdowns: 'country', filter: 'country:in:US,CA', limit: 1 });
    const unfiltered = (await rows({ breakdowns: 'country' })).filter((r) => ['US', 'CA'].includes(r.country.id));
    expect(result.body.totalItems).toBe(2);
    expect(result.body.items).toHaveLength(1);
    expect(result.body.metricsSums.paidClicks).toBe(unfiltered[0]!.paidClicks + unfiltered[1]!.paidClicks);
  });

  it('filter by an entity that is not a breakdown, narrowing the aggregated rows', async () => {
    const all = await rows({ breakdowns: 'day' });
    const usOnly = await rows({ breakdowns: 'day', filter: 'country:in:US' });
    expect(usOnly).toHaveLength(all.length);
    const sum = (list: Row[]) => list.reduce((s, r) => s + r.paidClicks, 0);
    expect(sum(usOnly)).toBeLessThan(sum(all));
  });
});

describe('malformed filters', () => {
  it('are rejected with 400 naming the problem', async () => {
    await expectFilterRejected('revenue', /form <field>:<operator>:<value>/);
    await expectFilterRejected('revenue:bigger:5', /unknown operator "bigger"/);
    await expectFilterRejected('revenue:gt:lots', /not a number/);
    await expectFilterRejected('revenue:between:5', /two numbers/);
    await expectFilterRejected('revenue:gt:', /no value/);
    await expectFilterRejected('revenue:gt:5;', /empty condition/);
    await expectFilterRejected('colour:in:red', /unknown field "colour"/);
    await expectFilterRejected('country.name:gt:5', /compares numbers/);
    await expectFilterRejected('revenue:contains:5', /compares text/);
  });

  it('are rejected when they name a metric the breakdowns do not offer', async () => {
    const result = await main({ breakdowns: 'widget', filter: 'paidPvs:gt:5' });
    expect(result.status).toBe(400);
    expect(errorMessageOf(result)).toMatch(/paidPvs.*not available/);
  });
});
