/**
 * The general report (/reports/main) as a pure function of (publisher, query, emulator time): its
 * query checked, the daily facts of its range aggregated by the requested breakdowns (restated days
 * with their revised revenue), then filtered, sorted and paged as every report is.
 */
import { OPERATIONS } from '../operations';
import type { EntityRecord, SeedPublisher } from '../seed';
import {
  DAILY_DIMENSIONS,
  D,
  DAILY_FIELD_COUNT,
  MS_PER_DAY,
  dayFacts,
  dayNumberOf,
  publisherDimensions,
  type DailyDimension,
} from '../synthetic-data';
import { matchesText } from './filters';
import { MAIN_METRICS, type MetricDefinition, type MoneyContext } from './metrics';
import {
  bad,
  breakdownsParam,
  currencyParam,
  dayParam,
  DEFAULT_DEC_DIGITS,
  DOC_BREAKDOWN_WINDOW_MONTHS,
  FORBIDDEN_BREAKDOWN_PAIRS,
  formatDay,
  integerParam,
  MAIN_BREAKDOWNS,
  MAIN_DATA_DELAY_MS,
  MAIN_LIMIT,
  MAIN_MAX_BREAKDOWNS,
  MAX_DEC_DIGITS,
  orderParam,
  type Item,
  type Query,
} from './parameters';
import {
  cacheKey,
  dataClock,
  entityFieldKind,
  entityText,
  fieldBase,
  GroupTable,
  metricKeys,
  metricsJson,
  metricsOf,
  page,
  prepare,
  preparedCache,
  splitFilters,
  visibleFraction,
  type PreparedReport,
  type RowAccess,
} from './report-rows';

function monthNumberOfDay(dayNumber: number): number {
  const d = new Date(dayNumber * MS_PER_DAY);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

function formatMonth(monthNumber: number): string {
  return `${Math.floor(monthNumber / 12)}${String((monthNumber % 12) + 1).padStart(2, '0')}`;
}

/** The widget dimension's place in a day's facts. */
const WIDGET_DIMENSION = DAILY_DIMENSIONS.indexOf('widget');

/**
 * A day's fact rows with their revenue multiplied by `factor` (a restatement, admin API), and the rows
 * of a widget in `widgetFactors` by its own factor too; the cached facts stay as they are.
 */
function revisedFacts(
  facts: { values: Float64Array; dims: ArrayLike<number>[] },
  factor: number,
  widgetFactors: ReadonlyMap<string, number> | undefined,
  widgets: readonly EntityRecord[],
): Float64Array {
  const { values } = facts;
  if (factor === 1 && !widgetFactors) return values;
  const revised = Float64Array.from(values);
  const widgetOfRow = facts.dims[WIDGET_DIMENSION]!;
  for (let r = 0, offset = D.revenue; offset < revised.length; r++, offset += DAILY_FIELD_COUNT) {
    const rowFactor = factor * (widgetFactors?.get(widgets[widgetOfRow[r]!]!.id) ?? 1);
    if (rowFactor !== 1) revised[offset] = Math.round(revised[offset]! * rowFactor * 1e6) / 1e6;
  }
  return revised;
}

/** A general report's query, checked: its days, breakdowns, money, metrics and filters. */
interface MainReportRequest {
  fromDay: number;
  toDay: number;
  breakdowns: string[];
  money: MoneyContext;
  metrics: MetricDefinition[];
  filters: ReturnType<typeof splitFilters>;
}

/** A publisher's restated days (state.ts, the admin API): day number to its revenue's factor, and to each restated widget's. */
export interface RevenueRevisions {
  days: ReadonlyMap<number, number>;
  widgetDays: ReadonlyMap<number, ReadonlyMap<string, number>>;
}

const NO_REVISIONS: RevenueRevisions = { days: new Map(), widgetDays: new Map() };

/** The requested page of a general report, as JSON bytes, with the publisher's restated days. */
export function runMainReport(pub: SeedPublisher, query: Query, nowMs: number, revisions: RevenueRevisions = NO_REVISIONS): Buffer {
  const operation = OPERATIONS.mainReport;
  const request = mainReportRequest(query, nowMs);
  const { fromDay, toDay, breakdowns } = request;
  const build = (): PreparedReport => {
    const dimensionValues: Record<DailyDimension, EntityRecord[]> = publisherDimensions(pub);
    const table = aggregateDays(pub, request, dimensionValues, nowMs, revisions);
    return prepare(mainRowAccess(table, request, dimensionValues), request.filters.metric, query, operation);
  };
  // Restated days in the range change the answer: they are part of what a cached aggregation was built from.
  const inRange = ([day]: [number, unknown]) => day >= fromDay && day <= toDay;
  const restated = [
    ...[...revisions.days].filter(inRange),
    ...[...revisions.widgetDays].filter(inRange).map(([day, widgets]) => [day, [...widgets]]),
  ].sort((a, b) => (a[0] as number) - (b[0] as number));
  return page(preparedCache.get(cacheKey('main', pub, query, nowMs, [breakdowns, restated]), build), query, operation, MAIN_LIMIT);
}

/** Checks a general report's query, paging and sort included, before the (possibly long) aggregation. */
function mainReportRequest(query: Query, nowMs: number): MainReportRequest {
  const operation = OPERATIONS.mainReport;
  const fromDay = dayParam(query, 'fromDate', operation);
  const toDay = dayParam(query, 'toDate', operation);
  if (toDay < fromDay) throw bad(operation, `Parameter toDate (${formatDay(toDay)}) is before fromDate (${formatDay(fromDay)})`);
  const breakdowns = mainBreakdowns(query, fromDay, nowMs);
  const money: MoneyContext = {
    rateFromUsd: currencyParam(query, operation),
    decDigits: integerParam(query, 'decDigits', operation, DEFAULT_DEC_DIGITS, 0, MAX_DEC_DIGITS),
  };
  const metrics = MAIN_METRICS.filter((m) => m.available(breakdowns));
  const filters = splitFilters(
    query,
    operation,
    (field) => entityFieldKind(field, DAILY_DIMENSIONS, ['day', 'month']),
    metrics,
    MAIN_METRICS.map((m) => m.name),
  );
  integerParam(query, 'limit', operation, MAIN_LIMIT.default, 1, MAIN_LIMIT.max);
  integerParam(query, 'offset', operation, 0, 0, Number.MAX_SAFE_INTEGER);
  orderParam(query, operation);
  return { fromDay, toDay, breakdowns, money, metrics, filters };
}

/** The breakdowns asked for (day by default): at most MAIN_MAX_BREAKDOWNS, no forbidden pair, doc only in its window. */
function mainBreakdowns(query: Query, fromDay: number, nowMs: number): string[] {
  const operation = OPERATIONS.mainReport;
  const breakdowns = breakdownsParam(query, MAIN_BREAKDOWNS, operation) ?? ['day'];
  if (breakdowns.length > MAIN_MAX_BREAKDOWNS) {
    throw bad(operation, `Parameter breakdowns: at most ${MAIN_MAX_BREAKDOWNS} breakdowns, got ${breakdowns.length}`);
  }
  for (const [a, b] of FORBIDDEN_BREAKDOWN_PAIRS) {
    if (breakdowns.includes(a) && breakdowns.includes(b)) {
      throw bad(operation, `Parameter breakdowns: ${a} and ${b} cannot be combined`);
    }
  }
  if (breakdowns.includes('doc')) {
    const now = new Date(nowMs);
    const earliest = Math.floor(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - DOC_BREAKDOWN_WINDOW_MONTHS, now.getUTCDate()) / MS_PER_DAY,
    );
    if (fromDay < earliest) {
      throw bad(
        operation,
        `Parameter breakdowns: the doc breakdown is only available for the last ${DOC_BREAKDOWN_WINDOW_MONTHS} months (fromDate must be ${formatDay(earliest)} or later)`,
      );
    }
  }
  return breakdowns;
}

/** Per dimension, which value indexes pass the entity conditions (1) and which do not (0). */
function allowedValues(dimensionValues: Record<DailyDimension, EntityRecord[]>, filters: MainReportRequest['filters']): Uint8Array[] {
  return DAILY_DIMENSIONS.map((dimension) => {
    const values = dimensionValues[dimension];
    const pass = new Uint8Array(values.length).fill(1);
    for (const c of filters.entity.filter((f) => fieldBase(f.field) === dimension)) {
      values.forEach((v, i) => {
        if (!matchesText(c, entityText(c, v))) pass[i] = 0;
      });
    }
    return pass;
  });
}

/** The visible daily facts of the range that pass the filters, summed by the breakdowns' values. */
function aggregateDays(
  pub: SeedPublisher,
  request: MainReportRequest,
  dimensionValues: Record<DailyDimension, EntityRecord[]>,
  nowMs: number,
  revisions: RevenueRevisions,
): GroupTable {
  const { fromDay, toDay, breakdowns, filters } = request;
  const allowed = allowedValues(dimensionValues, filters);
  const restrictedDims = DAILY_DIMENSIONS.map((_, k) => k).filter((k) => allowed[k]!.includes(0));
  const dayConditions = filters.entity.filter((f) => f.field === 'day');
  const monthConditions = filters.entity.filter((f) => f.field === 'month');

  const firstMonth = monthNumberOfDay(fromDay);
  const radices: number[] = breakdowns.map((b) => {
    if (b === 'day') return toDay - fromDay + 1;
    if (b === 'month') return monthNumberOfDay(toDay) - firstMonth + 1;
    return dimensionValues[b as DailyDimension].length;
  });
  const dimIndexOf = breakdowns.map((b) => DAILY_DIMENSIONS.indexOf(b as DailyDimension));
  const table = new GroupTable(DAILY_FIELD_COUNT);
  const firstDataDay = Math.max(fromDay, dayNumberOf(pub.dataSince));
  const dataNowMs = dataClock(nowMs);
  const lastDataDay = Math.min(toDay, Math.floor(dataNowMs / MS_PER_DAY));
  for (let day = firstDataDay; day <= lastDataDay; day++) {
    const fraction = visibleFraction(day * MS_PER_DAY, MS_PER_DAY, dataNowMs, MAIN_DATA_DELAY_MS);
    if (fraction <= 0) continue;
    const dayText = formatDay(day);
    const month = monthNumberOfDay(day);
    if (!dayConditions.every((c) => matchesText(c, dayText))) continue;
    if (!monthConditions.every((c) => matchesText(c, formatMonth(month)))) continue;
    const facts = dayFacts(pub, day);
    const values = revisedFacts(facts, revisions.days.get(day) ?? 1, revisions.widgetDays.get(day), dimensionValues.widget);
    // Facts "arrive" in row order through the day, so the current day is a growing prefix.
    const visibleRows = Math.floor(facts.rowCount * fraction);
    rows: for (let r = 0; r < visibleRows; r++) {
      for (const k of restrictedDims) if (!allowed[k]![facts.dims[k]![r]!]) continue rows;
      let key = 0;
      for (let i = 0; i < breakdowns.length; i++) {
        const b = breakdowns[i];
        const part = b === 'day' ? day - fromDay : b === 'month' ? month - firstMonth : facts.dims[dimIndexOf[i]!]![r]!;
        key = key * radices[i]! + part;
      }
      const offset = table.offsetFor(key, () =>
        breakdowns.map((b, i) => (b === 'day' ? day : b === 'month' ? month : facts.dims[dimIndexOf[i]!]![r]!)),
      );
      table.add(offset, values, r * DAILY_FIELD_COUNT);
    }
  }
  return table;
}

/** How the general report reads a row of its table: a breakdown's text, and the item it answers with. */
function mainRowAccess(table: GroupTable, request: MainReportRequest, dimensionValues: Record<DailyDimension, EntityRecord[]>): RowAccess {
  const { breakdowns, metrics, money } = request;
  const entityOf = (row: number, b: string): EntityRecord =>
    dimensionValues[b as DailyDimension][table.parts[row]![breakdowns.indexOf(b)]!]!;
  const access: RowAccess = {
    table,
    metrics,
    money,
    breakdowns,
    entityText: (row, b, attribute) => {
      const part = table.parts[row]![breakdowns.indexOf(b)]!;
      if (b === 'day') return formatDay(part);
      if (b === 'month') return formatMonth(part);
      return entityOf(row, b)[attribute];
    },
    buildItem: (row) => {
      const item: Item = {};
      breakdowns.forEach((b, i) => {
        const part = table.parts[row]![i]!;
        if (b === 'day') item.day = formatDay(part);
        else if (b === 'month') item.month = formatMonth(part);
        else {
          const entity = dimensionValues[b as DailyDimension][part]!;
          item[b] = { id: entity.id, name: entity.name };
        }
      });
      return Object.assign(item, metricsOf(access, table.sums, row * table.fieldCount));
    },
  };
  access.itemJson = mainItemJson(access, dimensionValues);
  return access;
}

/** `JSON.stringify(buildItem(row))` of the general report, each breakdown value's text made once. */
function mainItemJson(access: RowAccess, dimensionValues: Record<DailyDimension, EntityRecord[]>): (row: number) => string {
  const { table, breakdowns } = access;
  const keys = metricKeys(access);
  const made = breakdowns.map(() => new Map<number, string>());
  const fieldJson = (b: string, part: number): string => {
    const value =
      b === 'day'
        ? formatDay(part)
        : b === 'month'
          ? formatMonth(part)
          : { id: dimensionValues[b as DailyDimension][part]!.id, name: dimensionValues[b as DailyDimension][part]!.name };
    return `${JSON.stringify(b)}:${JSON.stringify(value)}`;
  };
  return (row) => {
    const parts = table.parts[row]!;
    const fields = new Array<string>(breakdowns.length);
    for (let i = 0; i < breakdowns.length; i++) {
      const part = parts[i]!;
      let text = made[i]!.get(part);
      if (text === undefined) {
        text = fieldJson(breakdowns[i]!, part);
        made[i]!.set(part, text);
      }
      fields[i] = text;
    }
    return `{${[...fields, ...metricsJson(access, keys, table.sums, row * table.fieldCount)].join(',')}}`;
  };
}

/** How the general report reads its rows for `query` at `nowMs` (the item JSON's test compares its two ways of writing an item). */
export function mainReportAccess(pub: SeedPublisher, query: Query, nowMs: number): RowAccess {
  const request = mainReportRequest(query, nowMs);
  const dimensionValues: Record<DailyDimension, EntityRecord[]> = publisherDimensions(pub);
  return mainRowAccess(aggregateDays(pub, request, dimensionValues, nowMs, NO_REVISIONS), request, dimensionValues);
}
