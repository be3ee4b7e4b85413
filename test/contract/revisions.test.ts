/**
 * Contract of the emulator's restatements (dev/emulator/README.md, "Admin API"): revising a past
 * day's revenue of a publisher changes that day's revenue, and the money rates computed from it, in
 * every breakdown of the general report, and nothing else: other days, other publishers and the
 * counts stay as they were. Revisions compound, are listed, and a bad one is refused naming the field.
 */
import { apiGet, request, useSignedInEmulator } from './contract-client';
import { BIG_PUBLISHER_ID, MEDIUM_PUBLISHER_ID, type EmulatorHandle } from '../support/emulator';

const NOW = '2026-11-20T12:00:00Z';
let emulator: EmulatorHandle;
let token: string;

useSignedInEmulator(NOW, (e, t) => {
  emulator = e;
  token = t;
});

interface Row {
  day: string;
  country?: { id: string };
  revenue: number;
  rpmByPvs: number;
  paidPvs: number;
}

async function days(entityId: string, breakdowns = 'day'): Promise<Row[]> {
  const result = await apiGet(emulator, token, '/reports/main', {
    entityId,
    fromDate: '20261110',
    toDate: '20261112',
    breakdowns,
    sort: 'day',
    order: 'asc',
    limit: 1000,
    decDigits: 6,
  });
  expect(result.status).toBe(200);
  return result.body.items;
}

afterEach(async () => {
  await emulator.clearRevisions();
});

describe('POST /__admin/revisions', () => {
  it("changes one past day's revenue of one publisher by the factor, and its money rates with it", async () => {
    const before = await days(MEDIUM_PUBLISHER_ID);
    const otherBefore = await days(BIG_PUBLISHER_ID);
    await emulator.reviseRevenue(MEDIUM_PUBLISHER_ID, '20261111', 0.8);
    const after = await days(MEDIUM_PUBLISHER_ID);

    expect(after[1]!.revenue).toBeCloseTo(before[1]!.revenue * 0.8, 3);
    expect(after[1]!.rpmByPvs).toBeCloseTo(before[1]!.rpmByPvs * 0.8, 3);
    expect(after[1]!.paidPvs).toBe(before[1]!.paidPvs);
    expect([after[0], after[2]]).toEqual([before[0], before[2]]);
    expect(await days(BIG_PUBLISHER_ID)).toEqual(otherBefore);
  });

  it('restates every breakdown of the day alike, compounds, and lists what it holds', async () => {
    const byCountry = await days(MEDIUM_PUBLISHER_ID, 'day,country');
    await emulator.reviseRevenue(MEDIUM_PUBLISHER_ID, '2026-11-12', 0.5);
    await emulator.reviseRevenue(MEDIUM_PUBLISHER_ID, '20261112', 0.5);
    const revised = await days(MEDIUM_PUBLISHER_ID, 'day,country');
    const sum = (rows: Row[]) => rows.filter((r) => r.day === '20261112').reduce((total, r) => total + r.revenue, 0);
    expect(sum(revised)).toBeCloseTo(sum(byCountry) * 0.25, 2);
    expect(revised.filter((r) => r.day !== '20261112')).toEqual(byCountry.filter((r) => r.day !== '20261112'));
    const listed = await request(`${emulator.adminUrl}/revisions`);
    expect(listed.body).toEqual({ revisions: [{ publisherId: MEDIUM_PUBLISHER_ID, day: '20261112', revenueFactor: 0.25 }] });
  });

  it("with a widget, changes only that widget's revenue of the day, in every breakdown", async () => {
    const byWidget = async () =>
      (
        await apiGet(emulator, token, '/reports/main', {
          entityId: MEDIUM_PUBLISHER_ID,
          fromDate: '20261112',
          toDate: '20261112',
          breakdowns: 'widget',
          limit: 1000,
          decDigits: 6,
        })
      ).body as { items: Array<{ widget: { id: string }; revenue: number; paidReqs: number }> };
    const before = await byWidget();
    const byDay = await days(MEDIUM_PUBLISHER_ID);
    const widget = before.items[0]!.widget.id;
    await emulator.reviseRevenue(MEDIUM_PUBLISHER_ID, '20261112', 0.5, widget);
    const after = await byWidget();
    const revenueOf = (r: typeof before, id: string) => r.items.find((i) => i.widget.id === id)!;
    expect(revenueOf(after, widget).revenue).toBeCloseTo(revenueOf(before, widget).revenue * 0.5, 4);
    expect(revenueOf(after, widget).paidReqs).toBe(revenueOf(before, widget).paidReqs);
    for (const item of before.items.filter((i) => i.widget.id !== widget)) expect(revenueOf(after, item.widget.id)).toEqual(item);
    // The day's total fell by half the widget's revenue, whatever the breakdown.
    const revisedDay = (await days(MEDIUM_PUBLISHER_ID))[2]!;
    expect(revisedDay.revenue).toBeCloseTo(byDay[2]!.revenue - revenueOf(before, widget).revenue * 0.5, 4);
    const listed = await request(`${emulator.adminUrl}/revisions`);
    expect(listed.body).toEqual({
      revisions: [{ publisherId: MEDIUM_PUBLISHER_ID, day: '20261112', revenueFactor: 0.5, widgetId: widget }],
    });
  });

  it('refuses an unknown publisher, an impossible day and a factor that is not positive', async () => {
    const post = (body: unknown) =>
      request(`${emulator.adminUrl}/revisions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ publisherId: 'nobody', day: '20261111', revenueFactor: 0.9 })).status).toBe(404);
    expect((await post({ publisherId: MEDIUM_PUBLISHER_ID, day: '20261111', revenueFactor: 0.9, widgetId: 'nowidget' })).status).toBe(404);
    const badDay = await post({ publisherId: MEDIUM_PUBLISHER_ID, day: '20261131', revenueFactor: 0.9 });
    expect(badDay.status).toBe(400);
    expect(badDay.body.errorMessage).toMatch(/day/);
    const badFactor = await post({ publisherId: MEDIUM_PUBLISHER_ID, day: '20261111', revenueFactor: 0 });
    expect(badFactor.status).toBe(400);
    expect(badFactor.body.errorMessage).toMatch(/revenueFactor/);
    expect((await request(`${emulator.adminUrl}/revisions`)).body).toEqual({ revisions: [] });
  });
});
