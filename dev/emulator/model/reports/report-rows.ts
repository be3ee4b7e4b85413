/**
 * What every report does with its aggregated rows: the table of sums by breakdown key, metric
 * filters, sorting, metricsSums and paging, the filter parameter split into entity and metric
 * conditions, and the cache that lets paging through a big report aggregate once.
 */
import { checkOperatorFits, FilterSyntaxError, matchesNumber, parseFilter, type FieldKind, type FilterCondition } from './filters';
import { metricValue, type MetricDefinition, type MoneyContext } from './metrics';
import type { EntityRecord, SeedPublisher } from '../seed';
import { Lru } from '../synthetic-data';
import { bad, integerParam, orderParam, single, type Item, type Operation, type Query } from './parameters';

/**
 * Aggregated rows: one entry per distinct breakdown key, with base-count sums kept in one flat
 * typed array (allocating an object per row made a 25,000-row report several times slower).
 */
export class GroupTable {
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

export interface RowAccess {
  table: GroupTable;
  metrics: MetricDefinition[];
  money: MoneyContext;
  breakdowns: readonly string[];
  /** The text of a breakdown field (`day`, `country`, `country.name`, `externalId`) of a row. */
  entityText: (row: number, breakdown: string, attribute: 'id' | 'name') => string;
  buildItem: (row: number) => Item;
  /**
   * The item's JSON text, exactly `JSON.stringify(buildItem(row))`, built without the object: a page of
   * a big report spends most of its time there (test/unit/emulator/item-json.test.ts holds them equal).
   */
  itemJson?: (row: number) => string;
}

/** `"name":value` of each metric of a row, as JSON.stringify writes them (a number not finite is null). */
export function metricsJson(access: RowAccess, keys: readonly string[], sums: Float64Array, offset: number): string[] {
  const out = new Array<string>(access.metrics.length);
  for (let i = 0; i < access.metrics.length; i++) {
    const value = metricValue(access.metrics[i]!, sums, offset, access.money);
    out[i] = keys[i] + (Number.isFinite(value) ? String(value) : 'null');
  }
  return out;
}

/** Each metric's `"name":`, for metricsJson. */
export function metricKeys(access: Pick<RowAccess, 'metrics'>): string[] {
  return access.metrics.map((m) => `${JSON.stringify(m.name)}:`);
}

export function metricOf(access: RowAccess, name: string): MetricDefinition | undefined {
  return access.metrics.find((m) => m.name === name);
}

export function applyMetricFilters(access: RowAccess, conditions: FilterCondition[]): number[] {
  const rows: number[] = [];
  const checks = conditions.map((c) => ({ c, metric: metricOf(access, c.field)! }));
  const { table, money } = access;
  for (let row = 0; row < table.size; row++) {
    const offset = row * table.fieldCount;
    if (checks.every(({ c, metric }) => matchesNumber(c, metricValue(metric, table.sums, offset, money)))) rows.push(row);
  }
  return rows;
}

export function sortRows(access: RowAccess, rows: number[], query: Query, operation: Operation): number[] {
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

export function metricsOf(access: RowAccess, sums: Float64Array, offset: number): Item {
  const out: Item = {};
  for (const m of access.metrics) out[m.name] = metricValue(m, sums, offset, access.money);
  return out;
}

/** A report aggregated, filtered and sorted: every page of it is a slice. */
export interface PreparedReport {
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
export const preparedCache = new Lru<PreparedReport>(PREPARED_CACHE_ENTRIES);

/**
 * Data visibility moves in whole minutes, so that pages of one report fetched a few seconds apart
 * see the same rows (and can share one aggregation).
 */
const DATA_CLOCK_STEP_MS = 60_000;

export function dataClock(nowMs: number): number {
  return Math.floor(nowMs / DATA_CLOCK_STEP_MS) * DATA_CLOCK_STEP_MS;
}

export function prepare(
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
export function page(prepared: PreparedReport, query: Query, operation: Operation, limits: { default: number; max: number }): Buffer {
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
      json = prepared.access.itemJson ? prepared.access.itemJson(row) : JSON.stringify(prepared.access.buildItem(row));
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

export function cacheKey(kind: string, pub: SeedPublisher, query: Query, nowMs: number, extra: unknown[]): string {
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

export interface SplitFilters {
  entity: FilterCondition[];
  metric: FilterCondition[];
}

export function splitFilters(
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
export function entityText(condition: FilterCondition, entity: EntityRecord): string {
  return condition.field.endsWith('.name') ? entity.name : entity.id;
}

export function entityFieldKind(field: string, entities: readonly string[], numericText: readonly string[]): FieldKind | undefined {
  if (numericText.includes(field)) return 'numericText';
  const [base, attribute, ...rest] = field.split('.');
  if (!base || rest.length > 0 || !entities.includes(base)) return undefined;
  if (attribute !== undefined && attribute !== 'id' && attribute !== 'name') return undefined;
  return 'text';
}

export function fieldBase(field: string): string {
  return field.split('.')[0]!;
}

/** Share of a period's facts that have "arrived" by the emulator's now, given the data delay. */
export function visibleFraction(periodStartMs: number, periodMs: number, nowMs: number, delayMs: number): number {
  return Math.min(1, Math.max(0, (nowMs - delayMs - periodStartMs) / periodMs));
}
