/**
 * The three reports as pure functions of (publisher, query parameters, emulator time): parameter
 * validation with the spec's defaults and bounds, then aggregation of the synthetic fact tables by
 * the requested breakdowns, metric filtering, sorting, paging and metricsSums. Entity conditions of a
 * filter (country, day, externalId, ...) select facts before aggregation, so they work whether or
 * not the field is a breakdown; metric conditions select aggregated rows. Nothing here knows about
 * HTTP or tokens: errors are ApiError values and rate limiting happens in the app.
 */
import { ApiError } from '../../shared/api-error';
import { OPERATIONS } from './operations';
import {
  checkOperatorFits,
  FilterSyntaxError,
  matchesNumber,
  matchesText,
  parseFilter,
  type FieldKind,
  type FilterCondition,
} from './filters';
import { EXTERNAL_ID_METRICS, MAIN_METRICS, REALTIME_METRICS, metricValue, type MetricDefinition, type MoneyContext } from './metrics';
import { CURRENCY_RATES_FROM_USD, type EntityRecord, type SeedPublisher } from './seed';
import {
  DAILY_DIMENSIONS,
  D,
  DAILY_FIELD_COUNT,
  HOURLY_FIELD_COUNT,
  Lru,
  MS_PER_DAY,
  MS_PER_HOUR,
  articlePublishHour,
  articleSlug,
  dayFacts,
  dayNumberOf,
  hourFacts,
  publisherDimensions,
  secondarySlug,
  type DailyDimension,
} from './synthetic-data';

export type Query = Record<string, unknown>;
type Operation = (typeof OPERATIONS)[keyof typeof OPERATIONS];
type Item = Record<string, unknown>;

export interface ReportResponse {
  items: Item[];
  totalItems: number;
  metricsSums: Record<string, number>;
}

export const MAIN_LIMIT = { default: 500, max: 10000 } as const;
export const EXTERNAL_ID_LIMIT = { default: 500, max: 5000 } as const;
export const REALTIME_LIMIT = { default: 1000, max: 5000 } as const;
export const MAIN_MAX_BREAKDOWNS = 4;
export const MAIN_BREAKDOWNS = ['day', 'month', 'platform', 'referrer', 'country', 'section', 'widget', 'doc', 'partnerApp'] as const;
export const EXTERNAL_ID_BREAKDOWNS = ['externalId', 'widget', 'externalSecondaryId'] as const;
export const FORBIDDEN_BREAKDOWN_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['day', 'month'],
  ['referrer', 'country'],
  ['referrer', 'doc'],
  ['country', 'doc'],
];
export const DEFAULT_DEC_DIGITS = 2;
export const MAX_DEC_DIGITS = 6;
export const DOC_BREAKDOWN_WINDOW_MONTHS = 12;
export const MAX_EXTERNAL_ID_RANGE_MS = 24 * MS_PER_HOUR;
export const REALTIME_WINDOW_MS = 48 * MS_PER_HOUR;
/** Daily data lags by 2 to 4 hours; the emulator uses 3. */
export const MAIN_DATA_DELAY_MS = 3 * MS_PER_HOUR;
export const HOURLY_DATA_DELAY_MS = 2 * MS_PER_HOUR;
export const REALTIME_DATA_DELAY_MS = 30 * 60 * 1000;
/** External IDs appear in the hourly report only 48 hours after they were first injected. */
export const EXTERNAL_ID_INJECTION_DELAY_MS = 48 * MS_PER_HOUR;

// ---------------------------------------------------------------------------------------------
// Parameters

function bad(operation: Operation, message: string): ApiError {
  return new ApiError(400, operation, message);
}

/** A query parameter as one string; a repeated parameter keeps its last value. */
function single(query: Query, name: string): string | undefined {
  const value = query[name];
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (last === undefined || last === null) return undefined;
  return String(last);
}

function required(query: Query, name: string, operation: Operation, format: string): string {
  const value = single(query, name);
  if (value === undefined || value.trim() === '') throw bad(operation, `Missing required parameter ${name} (${format})`);
  return value.trim();
}

function integerParam(query: Query, name: string, operation: Operation, fallback: number, min: number, max: number): number {
  const text = single(query, name);
  if (text === undefined || text.trim() === '') return fallback;
  if (!/^-?\d+$/.test(text.trim())) throw bad(operation, `Parameter ${name} must be a whole number, got "${text}"`);
  const value = Number(text);
  if (value < min || value > max) throw bad(operation, `Parameter ${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function orderParam(query: Query, operation: Operation): 'asc' | 'desc' {
  const text = single(query, 'order');
  if (text === undefined || text === '') return 'desc';
  const lower = text.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') throw bad(operation, `Parameter order must be asc or desc, got "${text}"`);
  return lower;
}

function breakdownsParam(query: Query, allowed: readonly string[], operation: Operation): string[] | undefined {
  const value = query.breakdowns;
  if (value === undefined) return undefined;
  const joined = (Array.isArray(value) ? value : [value]).map(String).join(',');
  if (joined.trim() === '') return undefined;
  const list = joined.split(',').map((b) => b.trim());
  for (const b of list) {
    if (b === '') throw bad(operation, 'Parameter breakdowns has an empty entry (check for a stray comma)');
    if (!allowed.includes(b)) {
      throw bad(operation, `Parameter breakdowns: unknown breakdown "${b}" (allowed: ${allowed.join(', ')})`);
    }
  }
  const duplicate = list.find((b, i) => list.indexOf(b) !== i);
  if (duplicate) throw bad(operation, `Parameter breakdowns lists "${duplicate}" twice`);
  return list;
}

function currencyParam(query: Query, operation: Operation): number {
  const text = single(query, 'currencyCode');
  if (text === undefined || text === '') return 1;
  const rate = CURRENCY_RATES_FROM_USD[text.toUpperCase()];
  if (rate === undefined) {
    throw bad(
      operation,
      `Parameter currencyCode: unsupported currency "${text}" (supported: ${Object.keys(CURRENCY_RATES_FROM_USD).join(', ')})`,
    );
  }
  return rate;
}

function isValidDate(year: number, month: number, day: number, hour = 0): boolean {
  const d = new Date(Date.UTC(year, month - 1, day, hour));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day && d.getUTCHours() === hour;
}

function dayParam(query: Query, name: string, operation: Operation): number {
  const text = required(query, name, operation, 'format yyyyMMdd');
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!match || !isValidDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
    throw bad(operation, `Parameter ${name} must be a date in format yyyyMMdd, got "${text}"`);
  }
  return dayNumberOf(text);
}

/**
 * An hourly bound in ms since the epoch (UTC). A date alone is hour 00 of that date; for toDate it
 * is hour 00 of the next date, so `fromDate=D&toDate=D` covers the whole day D.
 */
function hourParam(query: Query, name: 'fromDate' | 'toDate', operation: Operation): number {
  const text = required(query, name, operation, 'format yyyyMMddHH or yyyyMMdd');
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})?$/.exec(text);
  const hour = match?.[4] === undefined ? 0 : Number(match[4]);
  if (!match || !isValidDate(Number(match[1]), Number(match[2]), Number(match[3]), hour)) {
    throw bad(operation, `Parameter ${name} must be in format yyyyMMddHH or yyyyMMdd (UTC), got "${text}"`);
  }
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), hour);
  return match[4] === undefined && name === 'toDate' ? ms + MS_PER_DAY : ms;
}

export function formatDay(dayNumber: number): string {
  return new Date(dayNumber * MS_PER_DAY).toISOString().slice(0, 10).replace(/-/g, '');
}

export function formatHour(ms: number): string {
  return new Date(ms).toISOString().slice(0, 13).replace(/[-T]/g, '');
}

// ---------------------------------------------------------------------------------------------
// Shared row handling

/**
 * Aggregated rows: one entry per distinct breakdown key, with base-count sums kept in one flat
 * typed array (allocating an object per row made a 25,000-row report several times slower).
 */
class GroupTable {
  readonly indexByKey = new Map<number, number>();
  readonly keys: number[] = [];
  readonly parts: number[][] = [];
  sums: Float64Array;

  constructor(readonly fieldCount: number) {
    this.sums = new Float64Array(fieldCount * 1024);
  }

  get size(): number {
    return this.keys.length;
  }

  /** The offset in `sums` of the row with this key, creating it when new. */
  offsetFor(key: number, makeParts: () => number[]): number {
    let index = this.indexByKey.get(key);
    if (index === undefined) {
      index = this.keys.length;
      this.indexByKey.set(key, index);
      this.keys.push(key);
      this.parts.push(makeParts());
      if ((index + 1) * this.fieldCount > this.sums.length) {
        const grown = new Float64Array(this.sums.length * 2);
        grown.set(this.sums);
        this.sums = grown;
      }
    }
    return index * this.fieldCount;
  }

  add(offset: number, values: Float64Array, valuesOffset: number): void {
    for (let f = 0; f < this.fieldCount; f++) this.sums[offset + f]! += values[valuesOffset + f]!;
  }

  /** Base counts summed over the given rows. */
  total(rows: number[]): Float64Array {
    const total = new Float64Array(this.fieldCount);
    for (const row of rows) {
      const base = row * this.fieldCount;
      for (let f = 0; f < this.fieldCount; f++) total[f]! += this.sums[base + f]!;
    }
    return total;
  }
}

interface RowAccess {
  table: GroupTable;
  metrics: MetricDefinition[];
  money: MoneyContext;
  breakdowns: readonly string[];
  /** The text of a breakdown field (`day`, `country`, `country.name`, `externalId`) of a row. */
  entityText: (row: number, breakdown: string, attribute: 'id' | 'name') => string;
  buildItem: (row: number) => Item;
}

function metricOf(access: RowAccess, name: string): MetricDefinition | undefined {
  return access.metrics.find((m) => m.name === name);
}

function applyMetricFilters(access: RowAccess, conditions: FilterCondition[]): number[] {
  const rows: number[] = [];
  const checks = conditions.map((c) => ({ c, metric: metricOf(access, c.field)! }));
  const { table, money } = access;
  for (let row = 0; row < table.size; row++) {
    const offset = row * table.fieldCount;
    if (checks.every(({ c, metric }) => matchesNumber(c, metricValue(metric, table.sums, offset, money)))) rows.push(row);
  }
  return rows;
}

function sortRows(access: RowAccess, rows: number[], query: Query, operation: Operation): number[] {
  const order = orderParam(query, operation);
  const sortField = single(query, 'sort')?.trim() || 'revenue';
  const { table, money, breakdowns } = access;
  let sortValue: (row: number) => number | string;
  const metric = metricOf(access, sortField);
  if (metric) {
    sortValue = (row) => metricValue(metric, table.sums, row * table.fieldCount, money);
  } else {
    const [base = '', attribute, ...rest] = sortField.split('.');
    const plain = base === 'day' || base === 'month' || base === 'externalId' || base === 'externalSecondaryId';
    const validAttribute = attribute === undefined || (!plain && (attribute === 'id' || attribute === 'name'));
    if (!breakdowns.includes(base) || rest.length > 0 || !validAttribute) {
      throw bad(
        operation,
        `Parameter sort: cannot sort by "${sortField}" (use a metric of this report, or a breakdown field such as ${breakdowns.join(', ')})`,
      );
    }
    const which = attribute === 'name' ? 'name' : 'id';
    sortValue = (row) => access.entityText(row, base, which);
  }
  const direction = order === 'asc' ? 1 : -1;
  const keyed = rows.map((row) => ({ row, value: sortValue(row), key: table.keys[row]! }));
  keyed.sort((a, b) => {
    if (a.value < b.value) return -direction;
    if (a.value > b.value) return direction;
    // Ties keep the breakdown order so paging never repeats or skips a row.
    return a.key - b.key;
  });
  return keyed.map((k) => k.row);
}

function metricsOf(access: RowAccess, sums: Float64Array, offset: number): Item {
  const out: Item = {};
  for (const m of access.metrics) out[m.name] = metricValue(m, sums, offset, access.money);
  return out;
}

/** A report aggregated, filtered and sorted: every page of it is a slice. */
interface PreparedReport {
  access: RowAccess;
  sortedRows: number[];
  metricsSums: Item;
  variantKeys: number[];
  /**
   * Each row's item as JSON, filled as pages are served. A real service answers pages in parallel;
   * this process is single-threaded, so a page is assembled from ready-made text instead of being
   * built and serialised again, to keep parallel page requests about as fast as one.
   */
  itemJson: (string | undefined)[];
  /** Pages already served, by "offset:limit", as the bytes sent: asking for a page again costs nothing. */
  pageBodies: Map<string, Buffer>;
}

// Paging through a big report asks for the same aggregation several times; keep the last few.
const PREPARED_CACHE_ENTRIES = 8;
const preparedCache = new Lru<PreparedReport>(PREPARED_CACHE_ENTRIES);

/**
 * Data visibility moves in whole minutes, so that pages of one report fetched a few seconds apart
 * see the same rows (and can share one aggregation).
 */
const DATA_CLOCK_STEP_MS = 60_000;

function dataClock(nowMs: number): number {
  return Math.floor(nowMs / DATA_CLOCK_STEP_MS) * DATA_CLOCK_STEP_MS;
}

function prepare(
  access: RowAccess,
  metricConditions: FilterCondition[],
  query: Query,
  operation: Operation,
  variantKeys: number[] = [],
): PreparedReport {
  const rows = metricConditions.length > 0 ? applyMetricFilters(access, metricConditions) : [...access.table.keys.keys()];
  const sortedRows = sortRows(access, rows, query, operation);
  return {
    access,
    sortedRows,
    metricsSums: metricsOf(access, access.table.total(rows), 0),
    variantKeys,
    itemJson: [],
    pageBodies: new Map(),
  };
}

/** One page of a prepared report: the UTF-8 bytes of a ReportResponse's JSON. */
function page(prepared: PreparedReport, query: Query, operation: Operation, limits: { default: number; max: number }): Buffer {
  const limit = integerParam(query, 'limit', operation, limits.default, 1, limits.max);
  const offset = integerParam(query, 'offset', operation, 0, 0, Number.MAX_SAFE_INTEGER);
  const cached = prepared.pageBodies.get(`${offset}:${limit}`);
  if (cached) return cached;
  const rows = prepared.sortedRows.slice(offset, offset + limit);
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let json = prepared.itemJson[row];
    if (json === undefined) {
      json = JSON.stringify(prepared.access.buildItem(row));
      prepared.itemJson[row] = json;
    }
    parts[i] = json;
  }
  const body = Buffer.from(
    `{"items":[${parts.join(',')}],"totalItems":${prepared.sortedRows.length},"metricsSums":${JSON.stringify(prepared.metricsSums)}}`,
    'utf8',
  );
  prepared.pageBodies.set(`${offset}:${limit}`, body);
  return body;
}

function cacheKey(kind: string, pub: SeedPublisher, query: Query, nowMs: number, extra: unknown[]): string {
  const text = (name: string) => single(query, name) ?? '';
  return JSON.stringify([
    kind,
    pub.id,
    text('fromDate'),
    text('toDate'),
    text('filter'),
    text('sort'),
    text('order'),
    text('currencyCode'),
    text('decDigits'),
    dataClock(nowMs),
    ...extra,
  ]);
}

interface SplitFilters {
  entity: FilterCondition[];
  metric: FilterCondition[];
}

function splitFilters(
  query: Query,
  operation: Operation,
  entityKinds: (field: string) => FieldKind | undefined,
  metrics: MetricDefinition[],
  allMetricNames: string[],
): SplitFilters {
  const expression = single(query, 'filter');
  if (expression === undefined || expression.trim() === '') return { entity: [], metric: [] };
  try {
    const conditions = parseFilter(expression);
    const split: SplitFilters = { entity: [], metric: [] };
    for (const c of conditions) {
      if (metrics.some((m) => m.name === c.field)) {
        checkOperatorFits(c, 'number');
        split.metric.push(c);
        continue;
      }
      if (allMetricNames.includes(c.field)) {
        throw new FilterSyntaxError(`filter on ${c.field}: that metric is not available with the chosen breakdowns`);
      }
      const kind = entityKinds(c.field);
      if (!kind) throw new FilterSyntaxError(`filter on unknown field "${c.field}"`);
      checkOperatorFits(c, kind);
      split.entity.push(c);
    }
    return split;
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw bad(operation, `Parameter filter: ${error.message}`);
    throw error;
  }
}

/** Which value of an entity a filter field compares: plain name or `.id` is the id, `.name` the name. */
function entityText(condition: FilterCondition, entity: EntityRecord): string {
  return condition.field.endsWith('.name') ? entity.name : entity.id;
}

function entityFieldKind(field: string, entities: readonly string[], numericText: readonly string[]): FieldKind | undefined {
  if (numericText.includes(field)) return 'numericText';
  const [base, attribute, ...rest] = field.split('.');
  if (!base || rest.length > 0 || !entities.includes(base)) return undefined;
  if (attribute !== undefined && attribute !== 'id' && attribute !== 'name') return undefined;
  return 'text';
}

function fieldBase(field: string): string {
  return field.split('.')[0]!;
}

// ---------------------------------------------------------------------------------------------
// General report

function monthNumberOfDay(dayNumber: number): number {
  const d = new Date(dayNumber * MS_PER_DAY);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

function formatMonth(monthNumber: number): string {
  return `${Math.floor(monthNumber / 12)}${String((monthNumber % 12) + 1).padStart(2, '0')}`;
}

/** Share of a period's facts that have "arrived" by the emulator's now, given the data delay. */
function visibleFraction(periodStartMs: number, periodMs: number, nowMs: number, delayMs: number): number {
  return Math.min(1, Math.max(0, (nowMs - delayMs - periodStartMs) / periodMs));
}

/** A day's fact rows with their revenue multiplied by `factor` (a restatement, admin API); the cached facts stay as they are. */
function revisedFacts(values: Float64Array, factor: number): Float64Array {
  if (factor === 1) return values;
  const revised = Float64Array.from(values);
  for (let offset = D.revenue; offset < revised.length; offset += DAILY_FIELD_COUNT) {
    revised[offset] = Math.round(revised[offset]! * factor * 1e6) / 1e6;
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

/**
 * The requested page of a general report, as JSON bytes. `revenueFactors` are the publisher's
 * restated days (day number to the factor their revenue was revised by: state.ts, the admin API).
 */
export function runMainReport(
  pub: SeedPublisher,
  query: Query,
  nowMs: number,
  revenueFactors: ReadonlyMap<number, number> = new Map(),
): Buffer {
  const operation = OPERATIONS.mainReport;
  const request = mainReportRequest(query, nowMs);
  const { fromDay, toDay, breakdowns } = request;
  const build = (): PreparedReport => {
    const dimensionValues: Record<DailyDimension, EntityRecord[]> = publisherDimensions(pub);
    const table = aggregateDays(pub, request, dimensionValues, nowMs, revenueFactors);
    return prepare(mainRowAccess(table, request, dimensionValues), request.filters.metric, query, operation);
  };
  // Restated days in the range change the answer: they are part of what a cached aggregation was built from.
  const restated = [...revenueFactors].filter(([day]) => day >= fromDay && day <= toDay).sort((a, b) => a[0] - b[0]);
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
  revenueFactors: ReadonlyMap<number, number>,
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
    const values = revisedFacts(facts.values, revenueFactors.get(day) ?? 1);
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
  return access;
}

// ---------------------------------------------------------------------------------------------
// External-ID reports (hourly and realtime)

export interface ExternalIdReportResult {
  /** The page as JSON bytes. */
  response: Buffer;
  /** Identifiers of the hourly facts the answer covered, for the unique-variants limit. */
  variantKeys: number[];
}

/** Encodes (hour, fact row) as one number; rows per hour stay far below this. */
export const VARIANT_ROWS_PER_HOUR = 8192;

/** An externalId report's query, checked: its hours, breakdowns, money, metrics, filters and page limits. */
interface ExternalIdRequest {
  realtime: boolean;
  operation: (typeof OPERATIONS)['externalIdReport' | 'realtimeReport'];
  fromMs: number;
  toMs: number;
  breakdowns: string[];
  money: MoneyContext;
  metrics: MetricDefinition[];
  filters: ReturnType<typeof splitFilters>;
  limits: typeof EXTERNAL_ID_LIMIT | typeof REALTIME_LIMIT;
}

export function runExternalIdReport(pub: SeedPublisher, query: Query, nowMs: number, mode: 'hourly' | 'realtime'): ExternalIdReportResult {
  const request = externalIdRequest(query, nowMs, mode);
  const { operation, breakdowns, limits } = request;
  const build = (): PreparedReport => {
    const widgets = publisherDimensions(pub).widget;
    const { table, variantKeys } = aggregateHours(pub, request, widgets, nowMs);
    return prepare(externalIdRowAccess(pub, table, request, widgets), request.filters.metric, query, operation, variantKeys);
  };
  const prepared = preparedCache.get(cacheKey(mode, pub, query, nowMs, [breakdowns]), build);
  return { response: page(prepared, query, operation, limits), variantKeys: prepared.variantKeys };
}

/** Checks an externalId report's query, paging and sort included, before the aggregation. */
function externalIdRequest(query: Query, nowMs: number, mode: 'hourly' | 'realtime'): ExternalIdRequest {
  const realtime = mode === 'realtime';
  const operation = realtime ? OPERATIONS.realtimeReport : OPERATIONS.externalIdReport;
  const fromMs = hourParam(query, 'fromDate', operation);
  const toMs = hourParam(query, 'toDate', operation);
  if (toMs <= fromMs) {
    throw bad(operation, `Parameter toDate (${formatHour(toMs)}, exclusive) must be after fromDate (${formatHour(fromMs)})`);
  }
  if (toMs - fromMs > MAX_EXTERNAL_ID_RANGE_MS) {
    throw bad(operation, `Parameters fromDate and toDate: the range may span at most 24 hours, got ${(toMs - fromMs) / MS_PER_HOUR} hours`);
  }
  if (realtime) {
    const earliestMs = Math.floor(nowMs / MS_PER_HOUR) * MS_PER_HOUR - REALTIME_WINDOW_MS;
    if (fromMs < earliestMs) {
      throw bad(
        operation,
        `Parameter fromDate: realtime data covers only the last 48 hours (UTC); fromDate must be ${formatHour(earliestMs)} or later`,
      );
    }
  }
  const requested = breakdownsParam(query, EXTERNAL_ID_BREAKDOWNS, operation);
  // externalId is always a breakdown, and first unless the client listed it explicitly.
  const breakdowns = !requested ? ['externalId'] : requested.includes('externalId') ? requested : ['externalId', ...requested];
  const money: MoneyContext = { rateFromUsd: realtime ? 1 : currencyParam(query, operation), decDigits: DEFAULT_DEC_DIGITS };
  const metrics = realtime ? REALTIME_METRICS : EXTERNAL_ID_METRICS;
  const filters = splitFilters(
    query,
    operation,
    (field) => (field === 'externalId' || field === 'externalSecondaryId' ? 'text' : entityFieldKind(field, ['widget'], [])),
    metrics,
    metrics.map((m) => m.name),
  );
  const limits = realtime ? REALTIME_LIMIT : EXTERNAL_ID_LIMIT;
  integerParam(query, 'limit', operation, limits.default, 1, limits.max);
  integerParam(query, 'offset', operation, 0, 0, Number.MAX_SAFE_INTEGER);
  orderParam(query, operation);
  return { realtime, operation, fromMs, toMs, breakdowns, money, metrics, filters, limits };
}

/** The visible hourly facts of the range that pass the filters, summed by the breakdowns, with every fact's variant key. */
function aggregateHours(
  pub: SeedPublisher,
  request: ExternalIdRequest,
  widgets: EntityRecord[],
  nowMs: number,
): { table: GroupTable; variantKeys: number[] } {
  const { realtime, fromMs, toMs, breakdowns, filters } = request;
  const widgetPass = widgets.map((w) =>
    filters.entity.filter((c) => fieldBase(c.field) === 'widget').every((c) => matchesText(c, entityText(c, w))),
  );
  const externalIdConditions = filters.entity.filter((c) => c.field === 'externalId');
  const secondaryConditions = filters.entity.filter((c) => c.field === 'externalSecondaryId');
  const articlePass = new Map<number, boolean>();
  const bySecondary = breakdowns.includes('externalSecondaryId');
  const byWidget = breakdowns.includes('widget');
  const delayMs = realtime ? REALTIME_DATA_DELAY_MS : HOURLY_DATA_DELAY_MS;
  const table = new GroupTable(HOURLY_FIELD_COUNT);
  const variantKeys: number[] = [];
  const dataNowMs = dataClock(nowMs);
  for (let hourMs = fromMs; hourMs < toMs; hourMs += MS_PER_HOUR) {
    const fraction = visibleFraction(hourMs, MS_PER_HOUR, dataNowMs, delayMs);
    if (fraction <= 0) continue;
    const hourNumber = hourMs / MS_PER_HOUR;
    const facts = hourFacts(pub, hourNumber);
    const visibleRows = Math.floor(facts.rowCount * fraction);
    for (let r = 0; r < visibleRows; r++) {
      const article = facts.article[r]!;
      if (!realtime && articlePublishHour(pub, article) * MS_PER_HOUR + EXTERNAL_ID_INJECTION_DELAY_MS > dataNowMs) continue;
      variantKeys.push(hourNumber * VARIANT_ROWS_PER_HOUR + r);
      const widget = facts.widget[r]!;
      if (!widgetPass[widget]) continue;
      let pass = articlePass.get(article);
      if (pass === undefined) {
        const slug = articleSlug(pub, article);
        pass = externalIdConditions.every((c) => matchesText(c, slug));
        articlePass.set(article, pass);
      }
      if (!pass) continue;
      const variant = facts.secondaryVariant[r]!;
      if (secondaryConditions.length > 0) {
        const secondary = secondarySlug(pub, article, variant);
        if (!secondaryConditions.every((c) => matchesText(c, secondary))) continue;
      }
      const key = (article * 2 + (bySecondary ? variant : 0)) * widgets.length + (byWidget ? widget : 0);
      const offset = table.offsetFor(key, () => [article, variant, widget]);
      table.add(offset, facts.values, r * HOURLY_FIELD_COUNT);
    }
  }
  return { table, variantKeys };
}

/** How an externalId report reads a row of its table: a breakdown's text, and the item it answers with. */
function externalIdRowAccess(pub: SeedPublisher, table: GroupTable, request: ExternalIdRequest, widgets: EntityRecord[]): RowAccess {
  const { breakdowns, metrics, money } = request;
  const access: RowAccess = {
    table,
    metrics,
    money,
    breakdowns,
    entityText: (row, b, attribute) => {
      const [article, variant, widget] = table.parts[row] as [number, number, number];
      if (b === 'externalId') return articleSlug(pub, article);
      if (b === 'externalSecondaryId') return secondarySlug(pub, article, variant);
      return widgets[widget]![attribute];
    },
    buildItem: (row) => {
      const [article, variant, widget] = table.parts[row] as [number, number, number];
      const item: Item = {};
      for (const b of breakdowns) {
        if (b === 'externalId') item.externalId = articleSlug(pub, article);
        else if (b === 'externalSecondaryId') item.externalSecondaryId = secondarySlug(pub, article, variant);
        else item.widget = { id: widgets[widget]!.id, name: widgets[widget]!.name };
      }
      return Object.assign(item, metricsOf(access, table.sums, row * table.fieldCount));
    },
  };
  return access;
}
