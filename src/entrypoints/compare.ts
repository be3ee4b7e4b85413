/**
 * ENGAGE_COMPARE, the general report beside an earlier period. A function of its own rather than an
 * argument of ENGAGE_REPORT: `refresh` stays the last argument of every ENGAGE_* formula (formulas
 * users already wrote, and the sidebar's Insert formula, rely on it), and the result has another
 * shape (four columns per metric). A thin shell like the other custom functions: read the arguments
 * the way Sheets passes them and call the core, which checks compareWith with the report's own rules
 * before anything is sent. entityId takes several publishers as ENGAGE_REPORT does.
 */
import type { Cell } from '../core';
import { createAddon } from '../gas/wiring/addon-services';
import { readReportArgs, runFormula } from './custom-functions';

type Arg = unknown;

/**
 * The Engage general report compared with an earlier period: each metric beside its earlier value and the change, joined on the breakdowns.
 *
 * @param {string|range} entityId The publisher ID (hashed), as ENGAGE_PUBLISHERS() lists it; several as "id1,id2" or a range, or "all": every publisher formulas may use (the owner may allow only some, in the Engage sidebar under Account); several make one table with publisher.id and publisher.name in front.
 * @param {date|string} fromDate First day: a date cell, text such as 2026-11-01, or a day relative to today (on the
 *   spreadsheet's clock): "today", "yesterday", "7daysAgo", "startOfMonth", "startOfLastMonth", "endOfLastMonth".
 * @param {date|string} toDate Last day, included; the same forms ("yesterday" for the days before today).
 * @param {string|range} compareWith "previous" (as many days just before; whole months: as many months before), "year" (the same dates a year earlier; 29 February as 28 February), "yearWeekday" (the same weekdays a year earlier: 364 days before, so each day lines up with the same weekday; not with the month breakdown), or an earlier period as "2026-10-01..2026-10-07" or a range of two date cells. It must end before fromDate.
 * @param {string|range} breakdowns Optional. Up to 4 of day, month, platform, referrer, country, section, widget, doc, partnerApp. With day or month the periods align by position: day 1 with day 1. Default day.
 * @param {string|range} metrics Optional. Metric names as "revenue,rpmByPvs" or a range, or "all". Default totalPvs, revenue, rpmByPvs, paidCtrByPvs (by widget: the request twins).
 * @param {string} filter Optional. Conditions field:operator:value chained with ";", applied to both periods.
 * @param {string} sort Optional. A metric or field, for example "revenue desc": the order of this period's rows. Default revenue, descending.
 * @param {number} maxRows Optional. At most this many rows (0 to 100000; of each publisher for several); the totals still cover every row, and 0 shows the Total row alone. Default: all.
 * @param {string} currencyCode Optional. Currency of revenue, for example EUR. Default USD.
 * @param {number} decDigits Optional. Decimal places of money figures, 0 to 6. Default 2.
 * @param {any} refresh Optional. Any cell; when its value changes both periods are fetched again. EngageRefresh (the
 *   refresh cell) also moves relative dates to the new day: the first open of a new day changes it.
 * @return A header row (each metric m as m, m.previous, m.change, m.change%), one row per result, and a Total row from each period's sums.
 * @customfunction
 */
export function ENGAGE_COMPARE(
  entityId: Arg,
  fromDate: Arg,
  toDate: Arg,
  compareWith: Arg,
  breakdowns?: Arg,
  metrics?: Arg,
  filter?: Arg,
  sort?: Arg,
  maxRows?: Arg,
  currencyCode?: Arg,
  decDigits?: Arg,
  refresh?: Arg,
): Cell[][] {
  return runFormula((deadlineAtMs) => {
    const args = { entityId, fromDate, toDate, breakdowns, metrics, filter, sort, maxRows, currencyCode, decDigits, refresh };
    // maxRows 0 keeps the Total row alone: both periods are fetched whole whatever maxRows is.
    const { input, options } = readReportArgs(args, { minMaxRows: 0 });
    return createAddon({ inCustomFunction: true }).formulaCompare(input, compareWith, { deadlineAtMs, ...options });
  }, refresh);
}
