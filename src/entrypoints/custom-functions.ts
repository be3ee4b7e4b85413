/**
 * The ENGAGE_* custom functions. Each is a thin shell: read the arguments the way Sheets passes them,
 * call the core, and turn any failure into an Error whose message Sheets shows under #ERROR!.
 * A custom function runs with the spreadsheet owner's sign-in, whoever types it, for what the owner
 * lets formulas in this spreadsheet use (every publisher, chosen ones or none: a publisher not allowed
 * is refused before anything is sent, and "all" means the allowed ones), and has 30 seconds in all; its
 * whole work (fetching, the table, the cache write) gets 27 of them, fetching the first 25, and the rest
 * is left for Sheets to take the result.
 */
import {
  type Cell,
  FORMULA_MAX_ROWS,
  FORMULA_TIME_BUDGET_MS,
  type LookupKind,
  optionalInteger,
  optionalList,
  optionalText,
  publisherArgumentText,
  type ReportInput,
  type ReportKind,
  requiredDate,
  requiredText,
  singleValue,
  WAVE_MARK_AFTER_WORK_MS,
} from '../core';
import { createAddon } from '../gas/wiring/addon-services';
import { ADDON_VERSION } from '../gas/adapters/version';
import { countWaveEnd } from '../gas/adapters/sheets/refresh-waves';
import { asOneSentence } from './user-errors';

type Arg = unknown;

/**
 * Runs a formula's work against its deadline; a failure becomes the sentence under #ERROR!. Its end,
 * success or failure, is counted in the refresh wave its `refresh` value names (Refresh all waits for
 * a wave's formulas before the next), within the 30 s (the work has 27 of them).
 */
export function runFormula(work: (deadlineAtMs: number) => Cell[][], refresh: unknown): Cell[][] {
  const deadlineAtMs = Date.now() + FORMULA_TIME_BUDGET_MS;
  let ok = false;
  try {
    const cells = asOneSentence(() => work(deadlineAtMs));
    ok = true;
    return cells;
  } finally {
    // By second 28 at the latest (a wait for the lock is cut to what is left): the last 2 s are Sheets'.
    countWaveEnd(refresh, ok, deadlineAtMs + WAVE_MARK_AFTER_WORK_MS);
  }
}

interface ReportArgs {
  entityId: Arg;
  fromDate: Arg;
  toDate: Arg;
  breakdowns: Arg;
  metrics: Arg;
  filter: Arg;
  sort: Arg;
  maxRows: Arg;
  currencyCode?: Arg;
  decDigits?: Arg;
  refresh: Arg;
}

/**
 * A report formula's arguments read the way Sheets passes them, in signature order, each problem
 * naming its argument: the core's input, and the row limit (from `minMaxRows`) and refresh value of
 * the formula's options.
 */
export function readReportArgs(args: ReportArgs, { minMaxRows }: { minMaxRows: number }) {
  // A range of publisher IDs is read cell by cell; one cell as any other text argument.
  const entityId = Array.isArray(args.entityId) ? publisherArgumentText(args.entityId) : args.entityId;
  const input: ReportInput = {
    entityId: requiredText(entityId, 'entityId', 'the publisher ID from ENGAGE_PUBLISHERS(), several IDs, or "all"'),
    fromDate: requiredDate(args.fromDate, 'fromDate'),
    toDate: requiredDate(args.toDate, 'toDate'),
  };
  const breakdowns = optionalList(args.breakdowns, 'breakdowns');
  if (breakdowns !== undefined) input.breakdowns = breakdowns;
  const metrics = optionalList(args.metrics, 'metrics', 'revenue,rpmByPvs');
  if (metrics !== undefined) input.metrics = metrics;
  const filter = optionalText(args.filter, 'filter');
  if (filter !== undefined) input.filter = filter;
  const sort = optionalText(args.sort, 'sort');
  if (sort !== undefined) input.sort = sort;
  const currencyCode = optionalText(args.currencyCode, 'currencyCode');
  if (currencyCode !== undefined) input.currencyCode = currencyCode;
  const decDigits = singleValue(args.decDigits, 'decDigits');
  if (decDigits !== undefined && decDigits !== '') input.decDigits = decDigits as number | string;
  const maxRows = optionalInteger(args.maxRows, 'maxRows', minMaxRows, FORMULA_MAX_ROWS);
  const refresh = singleValue(args.refresh, 'refresh') ?? null;
  return { input, options: { refresh, ...(maxRows !== undefined ? { maxRows } : {}) } };
}

function reportFormula(kind: ReportKind, args: ReportArgs): Cell[][] {
  return runFormula((deadlineAtMs) => {
    const { input, options } = readReportArgs(args, { minMaxRows: 1 });
    return createAddon({ inCustomFunction: true }).formulaReport(kind, input, { deadlineAtMs, ...options });
  }, args.refresh);
}

function lookupFormula(kind: LookupKind, publisherId: Arg, refresh: Arg): Cell[][] {
  return runFormula((deadlineAtMs) => {
    const id =
      publisherId === undefined ? undefined : requiredText(publisherId, 'publisherId', 'the publisher ID from ENGAGE_PUBLISHERS()');
    return createAddon({ inCustomFunction: true }).formulaLookup(kind, id, {
      deadlineAtMs,
      refresh: singleValue(refresh, 'refresh') ?? null,
    });
  }, refresh);
}

/**
 * The Engage general report: one row per day (or month) and breakdown, with every page fetched.
 *
 * @param {string|range} entityId The publisher ID (hashed), as ENGAGE_PUBLISHERS() lists it; several as "id1,id2" or a range, or "all": every publisher formulas may use (the owner may allow only some, in the Engage sidebar under Account).
 * @param {date|string} fromDate First day: a date cell, text such as 2026-11-01, or a day relative to today (on the
 *   spreadsheet's clock): "today", "yesterday", "7daysAgo", "startOfMonth", "startOfLastMonth", "endOfLastMonth".
 * @param {date|string} toDate Last day, included; the same forms ("yesterday" for the days before today).
 * @param {string|range} breakdowns Optional. Up to 4 of day, month, platform, referrer, country, section, widget, doc, partnerApp,
 *   as "day,country" or a range. Default day.
 * @param {string|range} metrics Optional. Metric names as "revenue,rpmByPvs" or a range, or "all". Default paidPvs, totalPvs, revenue,
 *   rpmByPvs, paidClicks, paidCtrByPvs, viewabilityRate (by widget: the request twins).
 * @param {string} filter Optional. Conditions field:operator:value chained with ";", for example "revenue:gt:10;country.id:in:US,DE".
 * @param {string} sort Optional. A metric or field, for example "revenue", "revenue desc" or "-revenue". Default revenue, descending.
 * @param {number} maxRows Optional. At most this many rows (1 to 100000): for several publishers, of each publisher
 *   (with -publisher among the breakdowns, of the rows added together). Default: all.
 * @param {string} currencyCode Optional. Currency of revenue, for example EUR. Default USD.
 * @param {number} decDigits Optional. Decimal places of money figures, 0 to 6. Default 2.
 * @param {any} refresh Optional. Any cell; when its value changes the report is fetched again. EngageRefresh (the
 *   refresh cell) also moves relative dates to the new day: the first open of a new day changes it.
 * @return A header row, one row per result, and a Total row.
 * @customfunction
 */
export function ENGAGE_REPORT(
  entityId: Arg,
  fromDate: Arg,
  toDate: Arg,
  breakdowns?: Arg,
  metrics?: Arg,
  filter?: Arg,
  sort?: Arg,
  maxRows?: Arg,
  currencyCode?: Arg,
  decDigits?: Arg,
  refresh?: Arg,
): Cell[][] {
  return reportFormula('main', {
    entityId,
    fromDate,
    toDate,
    breakdowns,
    metrics,
    filter,
    sort,
    maxRows,
    currencyCode,
    decDigits,
    refresh,
  });
}

/**
 * The Engage external-ID report: metrics per external ID for up to 24 hours (hours in UTC).
 *
 * @param {string|range} entityId The publisher ID (hashed), as ENGAGE_PUBLISHERS() lists it; several as "id1,id2" or a range, or "all": every publisher formulas may use (the owner may allow only some, in the Engage sidebar under Account).
 * @param {date|string} fromDate Start hour (UTC): a date cell, or text yyyyMMddHH, yyyyMMdd or yyyy-MM-dd; a day
 *   relative to today ("yesterday", "2daysAgo") is that UTC day, from hour 00.
 * @param {date|string} toDate End hour (UTC), excluded; a date alone (or "yesterday", "2daysAgo") means hour 00 of the next day.
 *   At most 24 hours after fromDate.
 * @param {string|range} breakdowns Optional. externalId, widget, externalSecondaryId. externalId always comes first unless all three
 *   are listed.
 * @param {string|range} metrics Optional. Metric names as "revenue,reqsRpm" or a range, or "all". Default totalReqs, paidReqs,
 *   paidClicks, reqsPaidCtr, revenue, reqsRpm, widgetViewableImpressions.
 * @param {string} filter Optional. Conditions field:operator:value chained with ";".
 * @param {string} sort Optional. A metric or field, for example "revenue desc".
 * @param {number} maxRows Optional. At most this many rows (1 to 100000; of each publisher for several). Default: all.
 * @param {string} currencyCode Optional. Currency of revenue. Default USD.
 * @param {any} refresh Optional. Any cell; when its value changes the report is fetched again. EngageRefresh (the
 *   refresh cell) also moves relative dates to the new day: the first open of a new day changes it.
 * @return A header row, one row per result, and a Total row.
 * @customfunction
 */
export function ENGAGE_EXTERNALID_REPORT(
  entityId: Arg,
  fromDate: Arg,
  toDate: Arg,
  breakdowns?: Arg,
  metrics?: Arg,
  filter?: Arg,
  sort?: Arg,
  maxRows?: Arg,
  currencyCode?: Arg,
  refresh?: Arg,
): Cell[][] {
  return reportFormula('externalId', { entityId, fromDate, toDate, breakdowns, metrics, filter, sort, maxRows, currencyCode, refresh });
}

/**
 * The Engage realtime external-ID report: the last 48 hours (UTC), up to 30 minutes late, revenue in USD.
 *
 * @param {string|range} entityId The publisher ID (hashed), as ENGAGE_PUBLISHERS() lists it; several as "id1,id2" or a range, or "all": every publisher formulas may use (the owner may allow only some, in the Engage sidebar under Account).
 * @param {date|string} fromDate Start hour (UTC) within the last 48 hours: yyyyMMddHH, or a date or "today" (hour 00).
 * @param {date|string} toDate End hour (UTC), excluded; a date alone (or "today") means hour 00 of the next day.
 *   At most 24 hours after fromDate.
 * @param {string|range} breakdowns Optional. externalId, widget, externalSecondaryId.
 * @param {string|range} metrics Optional. Some of paidReqs, paidClicks, reqsPaidCtr, revenue, reqsRpm, totalPvs, as "revenue,reqsRpm"
 *   or a range, or "all". Default all six.
 * @param {string} filter Optional. Conditions field:operator:value chained with ";".
 * @param {string} sort Optional. A metric or field, for example "revenue desc".
 * @param {number} maxRows Optional. At most this many rows (1 to 100000; of each publisher for several). Default: all.
 * @param {any} refresh Optional. Any cell; when its value changes the report is fetched again. EngageRefresh (the
 *   refresh cell) also moves relative dates to the new day: the first open of a new day changes it.
 * @return A header row, one row per result, and a Total row.
 * @customfunction
 */
export function ENGAGE_REALTIME_REPORT(
  entityId: Arg,
  fromDate: Arg,
  toDate: Arg,
  breakdowns?: Arg,
  metrics?: Arg,
  filter?: Arg,
  sort?: Arg,
  maxRows?: Arg,
  refresh?: Arg,
): Cell[][] {
  return reportFormula('realtime', { entityId, fromDate, toDate, breakdowns, metrics, filter, sort, maxRows, refresh });
}

/**
 * The publishers formulas may report on, with their IDs for the entityId argument: those the owner's sign-in sees, or the owner's chosen ones.
 *
 * @param {any} refresh Optional. Any cell; when its value changes the list is fetched again.
 * @return A header row (id, name, ...) and one row per publisher.
 * @customfunction
 */
export function ENGAGE_PUBLISHERS(refresh?: Arg): Cell[][] {
  return lookupFormula('publishers', undefined, refresh);
}

/**
 * The widgets of a publisher.
 *
 * @param {string} publisherId The publisher ID (hashed), as ENGAGE_PUBLISHERS() lists it.
 * @param {any} refresh Optional. Any cell; when its value changes the list is fetched again.
 * @return A header row (id, name, ...) and one row per widget.
 * @customfunction
 */
export function ENGAGE_WIDGETS(publisherId: Arg, refresh?: Arg): Cell[][] {
  return lookupFormula('widgets', publisherId ?? '', refresh);
}

/**
 * The native apps of a publisher.
 *
 * @param {string} publisherId The publisher ID (hashed), as ENGAGE_PUBLISHERS() lists it.
 * @param {any} refresh Optional. Any cell; when its value changes the list is fetched again.
 * @return A header row (id, name, ...) and one row per native app.
 * @customfunction
 */
export function ENGAGE_NATIVEAPPS(publisherId: Arg, refresh?: Arg): Cell[][] {
  return lookupFormula('nativeApps', publisherId ?? '', refresh);
}

/**
 * All countries, with the IDs that reports and filters use.
 *
 * @param {any} refresh Optional. Any cell; when its value changes the list is fetched again.
 * @return A header row (id, name, ...) and one row per country.
 * @customfunction
 */
export function ENGAGE_COUNTRIES(refresh?: Arg): Cell[][] {
  return lookupFormula('countries', undefined, refresh);
}

/**
 * All time zones.
 *
 * @param {any} refresh Optional. Any cell; when its value changes the list is fetched again.
 * @return A header row (id, name, ...) and one row per time zone.
 * @customfunction
 */
export function ENGAGE_TIMEZONES(refresh?: Arg): Cell[][] {
  return lookupFormula('timezones', undefined, refresh);
}

/**
 * The version of Engage for Sheets this spreadsheet runs. It sends nothing and uses no sign-in, so it
 * always computes: the installation check uses it to see how Sheets runs formulas here.
 *
 * @param {any} refresh Optional. Any value; it changes nothing but makes Sheets compute the formula again.
 * @return "Engage for Sheets" and the version.
 * @customfunction
 */
export function ENGAGE_VERSION(refresh?: Arg): Cell[][] {
  return runFormula(() => [[`Engage for Sheets ${ADDON_VERSION}`]], refresh);
}
