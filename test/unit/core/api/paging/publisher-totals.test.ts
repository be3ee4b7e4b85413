import { blankTotals, combineMetricsSums } from '../../../../../src/core/api/paging/publisher-totals';

describe('combineMetricsSums (the Total row of a report of several publishers)', () => {
  const a = { paidPvs: 1000, totalPvs: 2000, revenue: 5.25, rpmByPvs: 5.25, paidClicks: 10, paidCtrByPvs: 1, viewabilityRate: 60 };
  const b = { paidPvs: 3000, totalPvs: 4000, revenue: 3.5, rpmByPvs: 1.17, paidClicks: 90, paidCtrByPvs: 3, viewabilityRate: 40 };

  it('sums counts and money, and recomputes rates from the summed parts instead of summing them', () => {
    const sums = combineMetricsSums('main', [a, b])!;
    expect(sums).toMatchObject({ paidPvs: 4000, totalPvs: 6000, revenue: 8.75, paidClicks: 100 });
    // (5.25 + 3.5) / 4000 * 1000, rounded as money; (10 + 90) / 4000 * 100.
    expect(sums.rpmByPvs).toBe(2.19);
    expect(sums.paidCtrByPvs).toBeCloseTo(2.5, 10);
  });

  it('leaves out rates whose parts are not metrics, and metrics a publisher did not send', () => {
    const sums = combineMetricsSums('main', [a, { ...b, totalPvs: undefined }])!;
    expect(sums).not.toHaveProperty('viewabilityRate');
    expect(sums).not.toHaveProperty('totalPvs');
    expect(sums).not.toHaveProperty('totalCtrByPvs');
    expect(blankTotals('main')).toEqual([
      'viewabilityRate',
      'paidViewabilityRate',
      'organicViewabilityRate',
      'viewableCtr',
      'viewableOrganicCtr',
      'viewablePaidCtr',
      'viewableRpm',
      'optInRateByReqs',
      'optInRateByPvs',
    ]);
    expect(blankTotals('externalId')).toEqual(['reqsRpm']);
    expect(blankTotals('realtime')).toEqual(['reqsRpm']);
  });

  it('rounds money to the report decimals, reads wrapped and text numbers, and gives no rate over a zero denominator', () => {
    const sums = combineMetricsSums(
      'main',
      [
        { revenue: { value: '1,005' }, paidPvs: 0 },
        { revenue: '2.0049', paidPvs: 0 },
      ],
      3,
    )!;
    expect(sums.revenue).toBe(3.01);
    expect(sums).not.toHaveProperty('rpmByPvs');
  });

  it("recomputes the hourly reports' CTRs and has no sums when no publisher sent any", () => {
    const sums = combineMetricsSums('externalId', [
      { paidReqs: 100, paidClicks: 1, reqsPaidCtr: 1, reqsRpm: 9 },
      { paidReqs: 300, paidClicks: 9, reqsPaidCtr: 3, reqsRpm: 1 },
    ])!;
    expect(sums.reqsPaidCtr).toBeCloseTo(2.5, 10);
    expect(sums).not.toHaveProperty('reqsRpm');
    expect(combineMetricsSums('main', [undefined, undefined])).toBeUndefined();
  });
});
