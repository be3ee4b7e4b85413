/**
 * The emulator writes a general report's items as JSON text directly (main-report.ts, itemJson), without
 * building each item as an object first. Its text must be exactly JSON.stringify of the item: every row
 * of reports by each kind of breakdown, with hostile names, money in another currency and decimals, and
 * a ratio metric whose denominator may be zero.
 */
import { mainReportAccess } from '../../../dev/emulator/model/reports/main-report';
import { findPublisher, HOSTILE_PUBLISHER_ID, MEDIUM_PUBLISHER_ID } from '../../../dev/emulator/model/seed';

const NOW = Date.parse('2026-11-20T15:30:00Z');

it.each([
  [
    MEDIUM_PUBLISHER_ID,
    { fromDate: '20261101', toDate: '20261120', breakdowns: 'day,country,platform', metrics: 'revenue,totalReqs,rpm,ctr' },
  ],
  [
    MEDIUM_PUBLISHER_ID,
    { fromDate: '20260101', toDate: '20261120', breakdowns: 'month,widget', metrics: 'revenue', currencyCode: 'EUR', decDigits: '4' },
  ],
  [
    HOSTILE_PUBLISHER_ID,
    { fromDate: '20261110', toDate: '20261120', breakdowns: 'section,doc', metrics: 'paidClicks,revenue,viewability' },
  ],
  [HOSTILE_PUBLISHER_ID, { fromDate: '20261119', toDate: '20261120', metrics: 'totalReqs' }],
])('writes every item of %s %j as JSON.stringify would', (publisherId, query) => {
  const access = mainReportAccess(findPublisher(publisherId)!, query, NOW);
  expect(access.itemJson).toBeDefined();
  expect(access.table.size).toBeGreaterThan(0);
  for (let row = 0; row < access.table.size; row++) {
    const json = access.itemJson!(row);
    if (json !== JSON.stringify(access.buildItem(row))) expect({ row, json }).toEqual({ row, json: JSON.stringify(access.buildItem(row)) });
  }
});
