/**
 * ENGAGE_EXPLAIN, why a metric changed: its change between a period and an earlier one split
 * exactly by key (a widget, a platform and country, a publisher), largest part first. A thin shell
 * like ENGAGE_COMPARE, whose periods, compareWith, fetching and cache it shares: read the arguments
 * the way Sheets passes them and call the core, which checks them all before anything is sent.
 */
import {
  type Cell,
  optionalList,
  optionalText,
  publisherArgumentText,
  type ReportInput,
  requiredDate,
  requiredText,
  singleValue,
} from '../core';
import { createAddon } from '../gas/wiring/addon-services';
import { runFormula } from './custom-functions';

type Arg = unknown;

/**
 * Why a metric of the Engage general report changed against an earlier period: its change split exactly by key, largest first.
 *
 * @param {string|range} entityId The publisher ID (hashed), as ENGAGE_PUBLISHERS() lists it; several as "id1,id2" or a range, or "all": every publisher formulas may use, each publisher one more key (publisher.id and publisher.name in front).
 * @param {date|string} fromDate First day: a date cell, text such as 2026-11-01, or a day relative to today (on the
 *   spreadsheet's clock): "today", "yesterday", "7daysAgo", "startOfMonth", "startOfLastMonth", "endOfLastMonth".
 * @param {date|string} toDate Last day, included; the same forms ("yesterday" for the days before today).
 * @param {string|range} compareWith As ENGAGE_COMPARE's: "previous" (as many days just before), "year", "yearWeekday" (364 days before), or an earlier period as "2026-10-01..2026-10-07" or a range of two date cells. It must end before fromDate.
 * @param {string} metric One metric: additive (revenue, paidClicks, totalPvs, paidReqs …: each key's part is its own difference) or a ratio of two of them (rpmByPvs, reqsRpm, the CTRs: each key's part split into mix and rate).
 * @param {string|range} breakdowns What to split by, up to 4 of platform, referrer, country, section, widget, doc, partnerApp, such as "widget" or "platform,country" (not day or month: ENGAGE_COMPARE shows change over time).
 * @param {number} topN Optional. The keys shown on their own, 1 to 1000; the rest make the Other row. Default 10.
 * @param {string} filter Optional. Conditions field:operator:value chained with ";", applied to both periods.
 * @param {any} refresh Optional. Any cell; when its value changes both periods are fetched again.
 * @return A header row, the top keys (this period, the earlier one, the key's part of the change, its share in %, and for a ratio its mix and rate), an Other row and a Total row that add up exactly.
 * @customfunction
 */
export function ENGAGE_EXPLAIN(
  entityId: Arg,
  fromDate: Arg,
  toDate: Arg,
  compareWith: Arg,
  metric: Arg,
  breakdowns?: Arg,
  topN?: Arg,
  filter?: Arg,
  refresh?: Arg,
): Cell[][] {
  return runFormula((deadlineAtMs) => {
    const publishers = Array.isArray(entityId) ? publisherArgumentText(entityId) : entityId;
    const report: ReportInput = {
      entityId: requiredText(publishers, 'entityId', 'the publisher ID from ENGAGE_PUBLISHERS(), several IDs, or "all"'),
      fromDate: requiredDate(fromDate, 'fromDate'),
      toDate: requiredDate(toDate, 'toDate'),
    };
    const by = optionalList(breakdowns, 'breakdowns', 'platform,country');
    if (by !== undefined) report.breakdowns = by;
    const conditions = optionalText(filter, 'filter');
    if (conditions !== undefined) report.filter = conditions;
    const input = { report, compareWith, metric: singleValue(metric, 'metric'), topN: singleValue(topN, 'topN') };
    return createAddon({ inCustomFunction: true }).formulaExplain(input, {
      deadlineAtMs,
      refresh: singleValue(refresh, 'refresh') ?? null,
    });
  }, refresh);
}
