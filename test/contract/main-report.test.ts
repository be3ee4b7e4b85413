/**
 * Contract: the general report GET /reports/main (spec "General report", "Common report
 * response", metric Availability and formulas, Limits; field notes on decDigits and totals).
 * The clock is pinned to a fixed day so dates are stable; it moves a minute before each test so
 * the 30-requests-per-minute report limit never interferes.
 */
import { apiGet, errorMessageOf, useSignedInEmulator, type QueryValues } from './contract-client';
import { BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, type EmulatorHandle } from '../support/emulator';
import { SUPPORTED_CURRENCY_CODES } from '../../src/core/util/currencies';

const NOW = '2026-06-15T12:00:00Z';
let emulator: EmulatorHandle;
let token: string;

function main(query: QueryValues) {
  return apiGet(emulator, token, '/reports/main', { entityId: MEDIUM_PUBLISHER_ID, fromDate: '20260501', toDate: '20260531', ...query });
}

async function expectBadParameter(query: QueryValues, parameter: string | RegExp) {
  const result = await main(query);
  expect(result.status).toBe(400);
  expect(result.body.moreInfo).toBe('getMainReport');
  expect(errorMessageOf(result)).toMatch(parameter);
}

useSignedInEmulator(NOW, (e, t) => {
  emulator = e;
  token = t;
});

describe('GET /reports/main parameters', () => {
  it('requires entityId, fromDate and toDate, naming the missing one', async () => {
    const missingEntity = await apiGet(emulator, token, '/reports/main', { fromDate: '20260501', toDate: '20260531' });
    expect(missingEntity.status).toBe(400);
    expect(errorMessageOf(missingEntity)).toMatch(/entityId/);
    await expectBadParameter({ fromDate: undefined }, /fromDate/);
    await expectBadParameter({ toDate: undefined }, /toDate/);
  });

  it('takes dates as yyyyMMdd and rejects other formats and impossible dates', async () => {
    await expectBadParameter({ fromDate: '2026-05-01' }, /fromDate.*yyyyMMdd/);
    await expectBadParameter({ toDate: '20260231' }, /toDate/);
    await expectBadParameter({ fromDate: '2026050100' }, /fromDate/);
  });

  it('rejects a toDate before the fromDate', async () => {
    await expectBadParameter({ fromDate: '20260510', toDate: '20260509' }, /toDate/);
  });

  it('includes both the fromDate and the toDate', async () => {
    const result = await main({ fromDate: '20260510', toDate: '20260512', sort: 'day', order: 'asc' });
    expect(result.body.items.map((i: { day: string }) => i.day)).toEqual(['20260510', '20260511', '20260512']);
  });
});

describe('breakdowns of the general report', () => {
  it('default to day, with day as yyyyMMdd', async () => {
    const result = await main({});
    expect(result.status).toBe(200);
    expect(result.body.totalItems).toBe(31);
    expect(Object.keys(result.body.items[0])[0]).toBe('day');
    expect(result.body.items[0].day).toMatch(/^202605\d\d$/);
  });

  it('give month as yyyyMM', async () => {
    const result = await main({ fromDate: '20260315', toDate: '20260514', breakdowns: 'month', sort: 'month', order: 'asc' });
    expect(result.body.items.map((i: { month: string }) => i.month)).toEqual(['202603', '202604', '202605']);
  });

  it('give every entity breakdown as an object with id and name', async () => {
    for (const breakdown of ['platform', 'referrer', 'country', 'section', 'widget', 'doc', 'partnerApp']) {
      const result = await main({ breakdowns: breakdown, limit: 3 });
      expect(result.status).toBe(200);
      expect(result.body.items[0][breakdown]).toEqual({ id: expect.any(String), name: expect.any(String) });
      expect(result.body.items[0].day).toBeUndefined();
    }
  });

  it('allow at most 4', async () => {
    expect((await main({ breakdowns: 'day,platform,country,widget' })).status).toBe(200);
    await expectBadParameter({ breakdowns: 'day,platform,country,widget,section' }, /breakdowns.*4/);
  });

  it('reject an unknown breakdown by name', async () => {
    await expectBadParameter({ breakdowns: 'day,browser' }, /breakdowns.*browser/);
  });

  it.each([
    ['day', 'month'],
    ['referrer', 'country'],
    ['referrer', 'doc'],
    ['country', 'doc'],
  ])('reject %s together with %s', async (a, b) => {
    await expectBadParameter({ breakdowns: `${a},${b}` }, new RegExp(`breakdowns.*${a}.*${b}`));
  });

  it('allow doc only for data within the last 12 months', async () => {
    expect((await main({ breakdowns: 'doc', fromDate: '20250616', toDate: '20250620' })).status).toBe(200);
    await expectBadParameter({ breakdowns: 'doc', fromDate: '20250614', toDate: '20250620' }, /doc.*12 months/);
  });
});

describe('metric availability per breakdown', () => {
  it('has pageview metrics and no request metrics without the widget breakdown', async () => {
    const item = (await main({ breakdowns: 'day' })).body.items[0];
    expect(item).toEqual(
      expect.objectContaining({ paidPvs: expect.any(Number), totalPvs: expect.any(Number), organicPvs: expect.any(Number) }),
    );
    expect(item).not.toHaveProperty('paidReqs');
    expect(item).not.toHaveProperty('totalReqs');
    expect(item).not.toHaveProperty('organicReqs');
  });

  it('has request metrics and no pageview metrics with the widget breakdown', async () => {
    const result = await main({ breakdowns: 'widget' });
    for (const target of [result.body.items[0], result.body.metricsSums]) {
      expect(target).toEqual(
        expect.objectContaining({ paidReqs: expect.any(Number), totalReqs: expect.any(Number), organicReqs: expect.any(Number) }),
      );
      expect(target).not.toHaveProperty('paidPvs');
      expect(target).not.toHaveProperty('totalPvs');
      expect(target).not.toHaveProperty('organicPvs');
    }
  });

  it('has no opt-in metrics with the doc breakdown', async () => {
    expect((await main({ breakdowns: 'day' })).body.items[0]).toHaveProperty('optInRateByReqs');
    const item = (await main({ breakdowns: 'doc' })).body.items[0];
    expect(item).not.toHaveProperty('optInRateByReqs');
    expect(item).not.toHaveProperty('optInRateByPvs');
  });

  it('has every "All" metric whatever the breakdown', async () => {
    const all = [
      'revenue',
      'rpmByPvs',
      'reqsRpm',
      'paidClicks',
      'organicClicks',
      'totalClicks',
      'paidCtrByPvs',
      'totalCtrByPvs',
      'organicCtrByPvs',
      'reqsPaidCtr',
      'reqsTotalCtr',
      'reqsOrganicCtr',
      'videoRevenue',
      'videoPlays',
      'viewabilityRate',
      'paidViewabilityRate',
      'organicViewabilityRate',
      'viewableCtr',
      'viewableOrganicCtr',
      'viewablePaidCtr',
      'viewableRpm',
    ];
    for (const breakdowns of ['day', 'widget', 'doc']) {
      const item = (await main({ breakdowns })).body.items[0];
      for (const metric of all) expect(typeof item[metric]).toBe('number');
    }
  });
});

describe('derived metrics', () => {
  it('follow the spec formulas from the row counts', async () => {
    const day = (await main({ decDigits: 6 })).body.items[0];
    expect(day.totalClicks).toBe(day.paidClicks + day.organicClicks);
    expect(day.rpmByPvs).toBeCloseTo((day.revenue / day.paidPvs) * 1000, 4);
    expect(day.paidCtrByPvs).toBeCloseTo((day.paidClicks / day.paidPvs) * 100, 3);
    expect(day.totalCtrByPvs).toBeCloseTo((day.totalClicks / day.totalPvs) * 100, 3);
    expect(day.organicCtrByPvs).toBeCloseTo((day.organicClicks / day.organicPvs) * 100, 3);
    const widget = (await main({ breakdowns: 'widget', decDigits: 6 })).body.items[0];
    expect(widget.reqsRpm).toBeCloseTo((widget.revenue / widget.paidReqs) * 1000, 4);
    expect(widget.reqsPaidCtr).toBeCloseTo((widget.paidClicks / widget.paidReqs) * 100, 3);
    expect(widget.reqsTotalCtr).toBeCloseTo((widget.totalClicks / widget.totalReqs) * 100, 3);
    expect(widget.reqsOrganicCtr).toBeCloseTo((widget.organicClicks / widget.organicReqs) * 100, 3);
    expect(widget.viewableCtr).toBeCloseTo((widget.totalClicks / (widget.totalReqs * widget.viewabilityRate)) * 100, 3);
    expect(widget.viewablePaidCtr).toBeCloseTo((widget.paidClicks / (widget.paidReqs * widget.paidViewabilityRate)) * 100, 3);
    expect(widget.viewableOrganicCtr).toBeCloseTo((widget.organicClicks / (widget.organicReqs * widget.organicViewabilityRate)) * 100, 3);
  });

  it('in metricsSums come from summed counts, not from summed ratios', async () => {
    const result = await main({ limit: 100, decDigits: 6 });
    const sums = result.body.metricsSums;
    const items = result.body.items as Array<Record<string, number>>;
    const total = (name: string) => items.reduce((sum, i) => sum + i[name]!, 0);
    expect(sums.paidPvs).toBe(total('paidPvs'));
    expect(sums.paidClicks).toBe(total('paidClicks'));
    expect(sums.revenue).toBeCloseTo(total('revenue'), 3);
    expect(sums.paidCtrByPvs).toBeCloseTo((sums.paidClicks / sums.paidPvs) * 100, 3);
    expect(sums.paidCtrByPvs).not.toBeCloseTo(total('paidCtrByPvs'), 1);
  });
});

describe('currencyCode and decDigits', () => {
  it('convert revenue figures at a fixed rate (USD by default)', async () => {
    const usd = (await main({ decDigits: 6 })).body.metricsSums;
    const eur = (await main({ decDigits: 6, currencyCode: 'EUR' })).body.metricsSums;
    const rate = eur.revenue / usd.revenue;
    expect(rate).toBeGreaterThan(0.5);
    expect(rate).toBeLessThan(1.5);
    expect(rate).not.toBeCloseTo(1, 3);
    expect(eur.videoRevenue / usd.videoRevenue).toBeCloseTo(rate, 4);
    expect(eur.rpmByPvs / usd.rpmByPvs).toBeCloseTo(rate, 3);
    expect(eur.paidClicks).toBe(usd.paidClicks);
  });

  it('reject an unknown currency naming currencyCode', async () => {
    await expectBadParameter({ currencyCode: 'XYZ' }, /currencyCode/);
  });

  it("convert into exactly the add-on's list of currencies (the spec names none), refusing other real currencies", async () => {
    for (const code of SUPPORTED_CURRENCY_CODES) expect([code, (await main({ currencyCode: code })).status]).toEqual([code, 200]);
    for (const code of ['CHF', 'SEK', 'XAF']) await expectBadParameter({ currencyCode: code }, /currencyCode/);
    const listed = /supported: ([A-Z, ]+)\)/.exec(errorMessageOf(await main({ currencyCode: 'NOK' })))![1]!.split(', ');
    expect(listed.sort()).toEqual([...SUPPORTED_CURRENCY_CODES].sort());
  });

  it('round every money figure to decDigits places, 2 by default', async () => {
    const decimals = (n: number) => (String(n).split('.')[1] ?? '').length;
    const byDefault = (await main({})).body.items as Array<Record<string, number>>;
    const zero = (await main({ decDigits: 0 })).body.items as Array<Record<string, number>>;
    const six = (await main({ decDigits: 6 })).body.items as Array<Record<string, number>>;
    for (const metric of ['revenue', 'rpmByPvs', 'reqsRpm', 'videoRevenue', 'viewableRpm']) {
      expect(Math.max(...byDefault.map((i) => decimals(i[metric]!)))).toBeLessThanOrEqual(2);
      expect(zero.every((i) => Number.isInteger(i[metric]))).toBe(true);
      expect(Math.max(...six.map((i) => decimals(i[metric]!)))).toBeGreaterThan(2);
      expect(Math.max(...six.map((i) => decimals(i[metric]!)))).toBeLessThanOrEqual(6);
    }
  });

  it('reject decDigits outside 0 to 6', async () => {
    await expectBadParameter({ decDigits: 7 }, /decDigits/);
    await expectBadParameter({ decDigits: -1 }, /decDigits/);
    await expectBadParameter({ decDigits: 'two' }, /decDigits/);
  });
});

describe('limit, offset, sort and order', () => {
  it('return 500 items by default and allow up to 10000', async () => {
    const result = await main({ breakdowns: 'day,country,section' });
    expect(result.body.totalItems).toBeGreaterThan(500);
    expect(result.body.items).toHaveLength(500);
    expect((await main({ breakdowns: 'day,country,section', limit: 10000 })).body.items.length).toBe(
      Math.min(result.body.totalItems, 10000),
    );
    await expectBadParameter({ limit: 10001 }, /limit/);
    await expectBadParameter({ limit: 0 }, /limit/);
  });

  it('page with offset without repeating or skipping a row', async () => {
    const query = { breakdowns: 'day,country,platform', sort: 'paidClicks' };
    const all = (await main({ ...query, limit: 3000 })).body;
    const first = (await main({ ...query, limit: 700 })).body;
    const second = (await main({ ...query, limit: 700, offset: 700 })).body;
    expect([...first.items, ...second.items]).toEqual(all.items.slice(0, 1400));
    expect(second.totalItems).toBe(all.totalItems);
    expect((await main({ ...query, offset: all.totalItems })).body.items).toEqual([]);
    await expectBadParameter({ offset: -1 }, /offset/);
  });

  it('sort by revenue descending by default', async () => {
    const revenues = (await main({})).body.items.map((i: { revenue: number }) => i.revenue);
    expect(revenues).toEqual([...revenues].sort((a, b) => b - a));
  });

  it('sort ascending on request, by any metric', async () => {
    const clicks = (await main({ sort: 'totalClicks', order: 'asc' })).body.items.map((i: { totalClicks: number }) => i.totalClicks);
    expect(clicks).toEqual([...clicks].sort((a, b) => a - b));
    await expectBadParameter({ order: 'up' }, /order/);
  });

  it('sort by an entity field such as country.name', async () => {
    const names = (await main({ breakdowns: 'country', sort: 'country.name', order: 'asc' })).body.items.map(
      (i: { country: { name: string } }) => i.country.name,
    );
    expect(names).toEqual([...names].sort());
  });

  it('reject sorting by a field that is not in the rows, naming sort', async () => {
    await expectBadParameter({ sort: 'country.name' }, /sort/);
    await expectBadParameter({ sort: 'paidReqs' }, /sort/);
  });
});

describe('totals and data', () => {
  it('count every row in totalItems and sum every row in metricsSums, beyond the page', async () => {
    const page = (await main({ breakdowns: 'day,country', limit: 10 })).body;
    const full = (await main({ breakdowns: 'day,country', limit: 10000 })).body;
    expect(page.totalItems).toBe(full.items.length);
    expect(page.metricsSums.paidClicks).toBe(full.items.reduce((s: number, i: { paidClicks: number }) => s + i.paidClicks, 0));
  });

  it('are consistent across breakdowns', async () => {
    const byDay = (await main({ breakdowns: 'day' })).body.metricsSums;
    const byCountry = (await main({ breakdowns: 'country' })).body.metricsSums;
    expect(byCountry.paidClicks).toBe(byDay.paidClicks);
    expect(byCountry.revenue).toBeCloseTo(byDay.revenue, 1);
  });

  it('answer the same request with the same data', async () => {
    const first = (await main({ breakdowns: 'day,country', limit: 50 })).body;
    const second = (await main({ breakdowns: 'day,country', limit: 50 })).body;
    expect(second).toEqual(first);
  });

  it('run up to now: today is partial and tomorrow is empty', async () => {
    const days = (await main({ fromDate: '20260613', toDate: '20260616', sort: 'day', order: 'asc' })).body.items;
    expect(days.map((d: { day: string }) => d.day)).toEqual(['20260613', '20260614', '20260615']);
    expect(days[2].paidClicks).toBeLessThan(days[1].paidClicks * 0.7);
  });

  it('let the big publisher page past 10,000 rows for 31 days of day x country x platform x widget', async () => {
    const result = await main({ entityId: BIG_PUBLISHER_ID, breakdowns: 'day,country,platform,widget', limit: 1 });
    expect(result.body.totalItems).toBeGreaterThan(10000);
  });

  it('give the big publisher a report of more than 25,000 rows (day x country x platform x section)', async () => {
    const result = await main({ entityId: BIG_PUBLISHER_ID, breakdowns: 'day,country,platform,section', limit: 1 });
    expect(result.body.totalItems).toBeGreaterThan(25000);
  });
});
