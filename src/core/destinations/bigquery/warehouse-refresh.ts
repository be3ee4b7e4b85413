/**
 * One scheduled refresh of a saved report whose destination is BigQuery. Its period is a backfill
 * (warehouse/backfill.ts): the days not loaded yet, oldest first. Each fetch asks Engage for several
 * days at once (broken down by day, so one request carries as many rows as a page holds), through the
 * same report source, rate budget and deadline as a sheet's refresh; its rows are then split by day,
 * and each day is loaded with loadReportDay, replacing that day's partition. The cursor moves past a
 * day only once its load job is done, and is saved at once in the report's status (both copies), so a
 * run stopped anywhere never loads a day twice on resuming; a failed fetch or load leaves the cursor
 * at that day (the table as it was) and the next run goes on from there.
 *
 * The hourly external-ID report is fetched one UTC hour per request (fromDate yyyyMMddHH, toDate the
 * next hour, exclusive): its items carry no hour (the spec's item has none, and a range's answer sums
 * its hours per ID), so a request of one hour is the only one whose rows are that hour's. A day is its
 * 24 hours fetched, each batch loaded with its hour as the TIMESTAMP `hour`, into the day's partition
 * like a general report's day; a day is loaded only once all its hours are fetched.
 *
 * Once every day of the period is loaded, later runs (at the report's schedule) load the days the
 * period gained since and again the last RESTATED_DAYS days, which Engage may still restate: a
 * restated day replaces its partition. A run that cannot finish (time, rate budget) loads what it can
 * and leaves the report due at the next hourly run.
 */
import { RUN_WRAP_UP_MS } from '../../budgets';
import type { BigQueryClient } from '../../warehouse/bigquery-client';
import type { Clock, SheetBlock } from '../../ports';
import { unwrap } from '../../api/responses/values';
import {
  compactDayOf,
  dashedDay,
  dayAfter,
  formatDay,
  formatUtcHour,
  MS_PER_HOUR,
  utcDayOf,
  utcMidnightMs,
  wallTimeInZone,
} from '../../util/dates';
import { hashText } from '../../util/hash';
import { REPORT_SPECS } from '../../spec';
import type { RowContext } from '../../warehouse/table-rows';
import {
  backfillView,
  type Backfill,
  expirationsOf,
  dayLoaded,
  daysForRun,
  loadCounted,
  LOADS_PER_WINDOW,
  loadsFreeAtMs,
  loadsLeft,
  startBackfill,
  withoutExpiredDays,
} from '../../warehouse/backfill';
import { expirationText, firstKeptDay } from '../../warehouse/expiration';
import { tableAddress } from '../../warehouse/destination';
import { loadReportDay, prepareReportTable } from '../../warehouse/report-load';
import type { PrepareResult } from '../../warehouse/day-load';
import { type Period, resolvePeriod } from '../../schedules/saved/period';
import { reportShapeOf } from './definition';
import { reportInputOf, type RefreshStatus, type SavedReport } from '../../schedules/saved/saved-reports';
import { tableOf } from '../../schedules/saved/destination-union';
import type { RefreshSummary, ReportSource } from '../../schedules/refresh/refresh-source';

/** Days a finished backfill loads again at each refresh: Engage may restate its most recent days. */
export const RESTATED_DAYS = 3;
/** A fetch covers as many days as about this many requests carry (fewer requests than one a day: pages run full). */
export const FETCH_CHUNK_REQUESTS = 10;
/** The most days one fetch covers: a month of rows held in memory at once. */
export const MAX_FETCH_DAYS = 31;

export interface WarehouseRefreshContext {
  report: SavedReport;
  /** The status the run writes at the end; its `backfill` is kept current here, day by day. */
  next: RefreshStatus;
  /** Saves the status as it stands, after each day loaded: the cursor survives a run that stops. */
  save: (status: RefreshStatus) => void;
  source: ReportSource;
  /** BigQuery's client, the destination's own (bigquery-destination.ts). */
  client: BigQueryClient;
  clock: Clock;
  startedAtMs: number;
  deadlineAtMs: number;
  summary: RefreshSummary;
}

export interface WarehouseRefresh {
  /** Days loaded by this run, and their rows. */
  daysLoaded: number;
  rows: number;
  requests: number;
  /** Every day of the pass is loaded. */
  done: boolean;
  /** Days are left but the window's loads are spent: the next may go from then (epoch ms). */
  waitUntilMs?: number;
  /** What the target cell shows. */
  block: SheetBlock;
}

/**
 * The days of `period` a BigQuery report loads at `nowMs`: none after today (UTC), which would be loaded
 * empty (a pass's last days are loaded again at the next, so today's are completed then). A period not
 * begun keeps its first day.
 */
export function loadablePeriod(period: Period, nowMs: number): { fromDate: string; toDate: string } {
  const days = resolvePeriod(period, nowMs);
  const today = formatDay(utcDayOf(nowMs));
  // The later of today and the first day (yyyyMMdd sorts as text).
  return days.toDate > today ? { ...days, toDate: [today, days.fromDate].sort()[1]! } : days;
}

/** What a BigQuery report's days hold, beside the period: a pass keyed otherwise starts again (planPass). */
export function backfillKey(
  report: Pick<SavedReport, 'destination' | 'kind' | 'entityId' | 'breakdowns' | 'metrics' | 'filter' | 'currencyCode' | 'decDigits'>,
): string {
  const given = tableOf(report);
  const table = given ? [given.projectId.trim(), given.datasetId.trim(), given.tableId.trim()] : [];
  const what = [
    table,
    report.kind,
    report.entityId,
    report.breakdowns,
    report.metrics,
    report.filter ?? '',
    report.currencyCode ?? '',
    report.decDigits ?? null,
  ];
  return hashText(JSON.stringify(what)).slice(0, 12);
}

/**
 * The pass a run works on: the backfill under way (its end following the period's), else, once it is
 * done, the days since the previous pass's last RESTATED_DAYS (loaded then while Engage could still
 * restate them, or while the day was not over) and the period's last RESTATED_DAYS. A period changed so
 * that the backfill's next day falls before it, or a report whose days now hold something else (`key`,
 * as an edit made while a run was under way leaves it), starts again at the period's first day. The
 * table's loads counted in the day's window go on whatever the pass (backfill.ts).
 */
export function planPass(previous: Backfill | undefined, period: { fromDate: string; toDate: string }, key?: string): Backfill {
  const { fromDate: from, toDate: to } = period;
  const keyed = key !== undefined ? { key } : {};
  if (previous === undefined) return { ...startBackfill(from, to), ...keyed };
  const window = previous.window ? { window: previous.window } : {};
  const otherContents = key !== undefined && previous.key !== undefined && previous.key !== key;
  if (previous.fromDay > to || otherContents) return { ...startBackfill(from, to), ...window, ...keyed };
  // What a day costs and the loads of the current window go on from pass to pass: the table is the same.
  const costs = {
    ...expirationsOf(previous),
    ...(previous.msPerDay !== undefined ? { msPerDay: previous.msPerDay } : {}),
    ...(previous.requestsPerDay !== undefined ? { requestsPerDay: previous.requestsPerDay } : {}),
    ...(previous.window ? { window: previous.window } : {}),
  };
  if (previous.nextDay !== undefined) {
    if (previous.nextDay < from) return { ...startBackfill(from, to), ...costs, ...keyed };
    return { ...previous, toDay: [previous.toDay, to].sort()[1]!, ...keyed };
  }
  const recent = dayAfter(to, -(RESTATED_DAYS - 1));
  const previousRecent = dayAfter(previous.toDay, -(RESTATED_DAYS - 1));
  // The earlier of the previous pass's last days and the period's, but not before the period (yyyyMMdd sorts as text).
  const first = [[previousRecent, recent].sort()[0]!, from].sort()[1]!;
  return { ...startBackfill(first, to), ...costs, ...keyed };
}

/** The hours of a UTC day the hourly report is fetched in, one request each. */
export const HOURS_PER_DAY = 24;

/** A day's items as loadReportDay takes them: one batch per fetch. */
type DayBatch = { items: readonly Record<string, unknown>[]; context: Omit<RowContext, 'day'> };

/** What one fetch of days brought: each day's batches, the requests spent, and whether the rate budget stopped it. */
interface FetchedDays {
  byDay: Map<string, DayBatch[]>;
  requests: number;
  stopped: boolean;
}

/** The UTC hours of a day (yyyyMMdd) as the hourly report's bounds: [fromDate, toDate) per hour, and the hour's start. */
export function hoursOfDay(day: string): Array<{ fromDate: string; toDate: string; startMs: number }> {
  const midnightMs = utcMidnightMs(compactDayOf(day));
  return Array.from({ length: HOURS_PER_DAY }, (_, h) => {
    const startMs = midnightMs + h * MS_PER_HOUR;
    return { fromDate: formatUtcHour(startMs), toDate: formatUtcHour(startMs + MS_PER_HOUR), startMs };
  });
}

/** The day (yyyyMMdd) an item of a report broken down by day is for. */
function dayOf(item: Record<string, unknown>): string {
  const day = unwrap(item.day);
  return typeof day === 'string' || typeof day === 'number' ? String(day) : '';
}

/** How many days the next fetch covers: one to learn the cost, then as many as FETCH_CHUNK_REQUESTS carry. */
function daysPerFetch(backfill: Backfill, msLeft: number): number {
  const perDay = backfill.requestsPerDay;
  const byRequests = perDay === undefined ? 1 : Math.max(1, Math.floor(FETCH_CHUNK_REQUESTS / Math.max(perDay, 0.01)));
  return Math.min(byRequests, MAX_FETCH_DAYS, daysForRun(backfill, { msLeft, requestsLeft: Number.MAX_SAFE_INTEGER }));
}

/** The general report's days first to last in one query (broken down by day), its items split by their day. */
function fetchDays(context: WarehouseRefreshContext, first: string, last: string): FetchedDays {
  const { report, source, startedAtMs, deadlineAtMs } = context;
  const query = source.buildQuery(report.kind, reportInputOf(report, startedAtMs, { fromDate: first, toDate: last }));
  const { result, requests } = source.run(query, { deadlineAtMs });
  const byDay = new Map<string, DayBatch[]>();
  for (const item of result.items) {
    const day = dayOf(item);
    let batches = byDay.get(day);
    if (!batches) byDay.set(day, (batches = [{ items: [], context: { publisherId: report.entityId } }]));
    (batches[0]!.items as Record<string, unknown>[]).push(item);
  }
  return { byDay, requests, stopped: result.stoppedBecause === 'rateLimit' };
}

/**
 * The hourly report's days first to last, one request per UTC hour, each hour's items a batch with
 * its hour. Stops (the days unloaded) when the rate budget or the deadline comes before the last hour.
 */
function fetchHours(context: WarehouseRefreshContext, first: string, last: string): FetchedDays {
  const { report, source, clock, startedAtMs, deadlineAtMs } = context;
  const byDay = new Map<string, DayBatch[]>();
  let requests = 0;
  for (let day = first; day <= last; day = dayAfter(day, 1)) {
    const batches: DayBatch[] = [];
    for (const hour of hoursOfDay(day)) {
      if (clock.now() >= deadlineAtMs) return { byDay, requests, stopped: true };
      const range = { fromDate: hour.fromDate, toDate: hour.toDate };
      const { result, requests: spent } = source.run(source.buildQuery(report.kind, reportInputOf(report, startedAtMs, range)), {
        deadlineAtMs,
      });
      requests += spent;
      if (result.stoppedBecause === 'rateLimit') return { byDay, requests, stopped: true };
      batches.push({ items: result.items, context: { publisherId: report.entityId, hourStartMs: hour.startMs } });
    }
    byDay.set(day, batches);
  }
  return { byDay, requests, stopped: false };
}

export function refreshIntoBigQuery(context: WarehouseRefreshContext): WarehouseRefresh {
  const { report, next, save, source, client, clock, startedAtMs, deadlineAtMs, summary } = context;
  const destination = tableOf(report)!;
  const shape = reportShapeOf(report);
  const hourly = REPORT_SPECS[report.kind].hourly;
  let backfill = planPass(next.backfill, loadablePeriod(report.period, startedAtMs), backfillKey(report));
  next.backfill = backfill;
  let daysLoaded = 0;
  let rows = 0;
  let requests = 0;
  // Loads of days already fetched may finish in part of the run's wrap-up time; no fetch starts after the deadline.
  const loadDeadlineAtMs = deadlineAtMs + RUN_WRAP_UP_MS / 2;
  // The dataset and the table are checked (or the table made) by the run's first load, then taken as they are.
  let prepared: PrepareResult | undefined;
  while (backfill.nextDay !== undefined) {
    const fetchStartMs = clock.now();
    // No more days than the table's loads left in the window (backfill.ts: BigQuery's daily quota).
    // The hourly report: one day per fetch (its 24 requests), loaded before the next day is asked for.
    let days = Math.min(
      daysPerFetch(backfill, deadlineAtMs - fetchStartMs),
      loadsLeft(backfill, fetchStartMs),
      hourly ? 1 : MAX_FETCH_DAYS,
    );
    if (days === 0) break;
    // Within the rate budget before the deadline: fewer days, or none this run.
    const perDay = backfill.requestsPerDay ?? (hourly ? HOURS_PER_DAY : 1);
    while (days > 1 && source.budgetFreeAtMs(report.entityId, Math.ceil(days * perDay)) > deadlineAtMs) days = Math.floor(days / 2);
    if (source.budgetFreeAtMs(report.entityId, Math.max(1, Math.ceil(days * perDay))) > deadlineAtMs) break;
    if (!prepared) {
      // The table made ready before its first day of the run, and the pass cut to what BigQuery keeps of it.
      prepared = prepareReportTable(client, destination, shape, loadDeadlineAtMs);
      backfill = keptPass(backfill, prepared, loadablePeriod(report.period, startedAtMs).fromDate, loadDeadlineAtMs);
      next.backfill = backfill;
      if (backfill.nextDay === undefined) break;
    }
    const first = backfill.nextDay;
    let last = dayAfter(first, days - 1);
    if (last > backfill.toDay) last = backfill.toDay;
    const fetched = hourly ? fetchHours(context, first, last) : fetchDays(context, first, last);
    const { byDay, requests: spent } = fetched;
    summary.requests += spent;
    requests += spent;
    if (fetched.stopped) break;
    const fetchMsPerDay = (clock.now() - fetchStartMs) / days;
    for (let day = first; day <= last; day = dayAfter(day, 1)) {
      const loadStartMs = clock.now();
      backfill = loadCounted(backfill, loadStartMs);
      next.backfill = backfill;
      const loaded = loadReportDay(client, {
        destination,
        report: shape,
        day,
        batches: byDay.get(day) ?? [{ items: [], context: { publisherId: report.entityId } }],
        deadlineAtMs: loadDeadlineAtMs,
        nowMs: loadStartMs,
        attemptStamp: String(startedAtMs),
        ...(prepared ? { prepared } : {}),
      });
      prepared = loaded.prepared;
      // A job sent again for BigQuery's rate limit counted too; a staged day's copy twice, against the
      // table's copy jobs of the day (BigQuery allows fewer copies than loads: dev/bigquery/model/quotas.ts).
      const more = loaded.tableJobsSent - 1 + (loaded.staged ? 1 : 0);
      if (more > 0) backfill = loadCounted(backfill, clock.now(), more);
      backfill = dayLoaded(backfill, day, { ms: fetchMsPerDay + (clock.now() - loadStartMs), requests: spent / days });
      next.backfill = backfill;
      save(next);
      daysLoaded++;
      rows += loaded.rows;
    }
  }
  const waitUntilMs = backfill.nextDay !== undefined ? loadsFreeAtMs(backfill, clock.now()) : undefined;
  return {
    daysLoaded,
    rows,
    requests,
    done: backfill.nextDay === undefined,
    ...(waitUntilMs !== undefined ? { waitUntilMs } : {}),
    block: statusBlock(tableAddress(destination), backfill),
  };
}

/**
 * The pass as BigQuery keeps the table (`prepared`, as this run found or made it): begun again from the
 * period's first day when the table had to be made though days were loaded (it expired, or was
 * deleted, and they with it); without the days whose partitions are gone by `untilMs` (the run's last
 * load), which are neither loaded nor counted as loaded; with when the table itself goes, for the
 * Schedules tab.
 */
export function keptPass(backfill: Backfill, prepared: PrepareResult, periodFrom: string, untilMs: number): Backfill {
  let pass = backfill;
  // A pass of the recent days only (the backfill done) or one under way: the days before it were in the table made again.
  if (prepared.created && (backfillView(pass).loadedDays > 0 || pass.fromDay > periodFrom)) {
    const { fromDay: _from, nextDay: _next, expiredBefore: _expired, ...kept } = pass;
    pass = { ...kept, ...startBackfill([periodFrom, pass.toDay].sort()[0]!, pass.toDay) };
  }
  const { partitionExpirationMs, tableExpiresAtMs } = prepared.keeping;
  pass = { ...pass };
  delete pass.partitionExpirationMs;
  delete pass.tableExpiresAtMs;
  if (tableExpiresAtMs !== undefined) pass.tableExpiresAtMs = tableExpiresAtMs;
  if (partitionExpirationMs === undefined) return pass;
  pass.partitionExpirationMs = partitionExpirationMs;
  return withoutExpiredDays(pass, firstKeptDay(partitionExpirationMs, untilMs));
}

/** "2026-11-21 06:30" on the spreadsheet's clock, as the Schedules tab's other times. */
function localTime(ms: number, timeZone: string): string {
  const w = wallTimeInZone(ms, timeZone);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}`;
}

/** The status text of a BigQuery report: the table, the days loaded of the pass's, what is left. */
export function warehouseProgress(backfill: Backfill | undefined, now?: { nowMs: number; timeZone: string }): string | undefined {
  if (!backfill) return undefined;
  const view = backfillView(backfill);
  const range = `${dashedDay(backfill.fromDay)} to ${dashedDay(backfill.toDay)}`;
  const notes = expiryNotes(backfill, now?.timeZone ?? 'UTC');
  if (view.done) return `BigQuery: ${view.totalDays} of ${view.totalDays} days loaded (${range})${notes}`;
  const freeAtMs = now ? loadsFreeAtMs(backfill, now.nowMs) : undefined;
  const paused =
    freeAtMs !== undefined && now
      ? `; paused until ${localTime(freeAtMs, now.timeZone)}: Engage sends at most ${LOADS_PER_WINDOW.toLocaleString('en-US')} loads a day into one table (BigQuery allows 1,500)`
      : '';
  return `BigQuery: ${view.loadedDays} of ${view.totalDays} days loaded (${range}); ${view.leftDays} left, next ${view.nextDay}${paused}${notes}`;
}

/** What BigQuery deletes by itself, as the Schedules tab warns of it: the table's own end, and days already gone. */
function expiryNotes(backfill: Backfill, timeZone: string): string {
  const gone =
    backfill.expiredBefore !== undefined && backfill.partitionExpirationMs !== undefined
      ? `; days before ${dashedDay(backfill.expiredBefore)} are not in the table: BigQuery deletes each day's partition ${expirationText(backfill.partitionExpirationMs)} after the day`
      : '';
  const table =
    backfill.tableExpiresAtMs !== undefined
      ? `; BigQuery deletes this table, every day loaded with it, at ${localTime(backfill.tableExpiresAtMs, timeZone)} (its expiration time): remove or extend the table's expiration in BigQuery to keep it`
      : '';
  return gone + table;
}

/** The small table the target cell shows: where the rows went and how far the load is. */
function statusBlock(table: string, backfill: Backfill): SheetBlock {
  const view = backfillView(backfill);
  return {
    values: [
      ['BigQuery table', 'From', 'To', 'Days loaded', 'Days left', 'Next day'],
      [table, dashedDay(backfill.fromDay), dashedDay(backfill.toDay), view.loadedDays, view.leftDays, view.nextDay ?? ''],
    ],
    kinds: ['text', 'text', 'text', 'count', 'count', 'text'],
    numberFormats: [null, null, null, '0', '0', null],
    dataRows: 1,
    hasTotals: false,
  };
}
