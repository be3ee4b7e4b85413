/**
 * The externalId reports, hourly (/reports/externalId) and realtime (/reports/realtime/externalId), as
 * pure functions of (publisher, query, emulator time): the query checked, the hourly facts of its
 * range aggregated by article, secondary variant and widget, with every fact's variant key for the
 * unique-variants limit, then filtered, sorted and paged as every report is.
 */
import { OPERATIONS } from '../operations';
import type { EntityRecord, SeedPublisher } from '../seed';
import {
  HOURLY_FIELD_COUNT,
  MS_PER_HOUR,
  articlePublishHour,
  articleSlug,
  hourFacts,
  publisherDimensions,
  secondarySlug,
} from '../synthetic-data';
import { matchesText } from './filters';
import { EXTERNAL_ID_METRICS, REALTIME_METRICS, type MetricDefinition, type MoneyContext } from './metrics';
import {
  bad,
  breakdownsParam,
  currencyParam,
  DEFAULT_DEC_DIGITS,
  EXTERNAL_ID_BREAKDOWNS,
  EXTERNAL_ID_INJECTION_DELAY_MS,
  EXTERNAL_ID_LIMIT,
  formatHour,
  HOURLY_DATA_DELAY_MS,
  hourParam,
  integerParam,
  MAX_EXTERNAL_ID_RANGE_MS,
  orderParam,
  REALTIME_DATA_DELAY_MS,
  REALTIME_LIMIT,
  REALTIME_WINDOW_MS,
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
  metricsOf,
  page,
  prepare,
  preparedCache,
  splitFilters,
  visibleFraction,
  type PreparedReport,
  type RowAccess,
} from './report-rows';

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
