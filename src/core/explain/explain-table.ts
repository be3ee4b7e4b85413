/**
 * An explanation as a table: the two periods' rows (report-table.ts) joined on their keys, split by
 * decomposition.ts, and laid out as the key columns (an entity's id and name, the publisher's for
 * several publishers), then for the metric m: `m` (this period), `m.previous`, `m.change` (the key's
 * part of the change of the whole), `m.share%` (that part in % of the whole's change, as the API's
 * percentages are: 62.5 means 62.5 %) and, for a ratio, `m.mix` and `m.rate`. The top keys come
 * largest part first, then an `Other` row (the keys past topN, and the difference between Engage's
 * totals and what the rows add up to), then the `Total` row, whose figures are each period's own
 * sums as ENGAGE_COMPARE's Total row shows them. A key's period cells are its row's figures as
 * Engage sent them, blank in a period without it; Other's are the rest's sums (a ratio recomputed
 * from the rest's parts).
 */
import type { ReportResult } from '../api/paging/paging';
import { PUBLISHER_BREAKDOWN } from '../api/requests/publisher-list';
import type { Cell } from '../ports';
import { CHANGE_SUFFIX, PREVIOUS_SUFFIX } from '../sheets/compare-table';
import { buildReportTable, reportColumnCount, type ReportTable, TOTALS_LABEL } from '../sheets/report-table';
import { ENTITY_BREAKDOWNS } from '../spec';
import { decomposeChange, type Effect, type KeyParts, type PeriodParts } from './decomposition';
import type { ExplainedMetric } from './explained-metric';
import type { Explanation } from './explain-request';

export const OTHER_LABEL = 'Other';
/** Beside Other when no key is past topN: what is left is the difference between Engage's rounded totals and its rows. */
export const ROUNDING_NOTE = 'rounding of the totals';
export const SHARE_SUFFIX = '.share%';
export const MIX_SUFFIX = '.mix';
export const RATE_SUFFIX = '.rate';

export interface ExplainTableOptions {
  metric: ExplainedMetric;
  topN: number;
  /** IANA zone of the spreadsheet (report-table.ts's dates; an explanation has none, but the table asks). */
  timeZone: string;
}

const isEntity = (breakdown: string) => ENTITY_BREAKDOWNS.has(breakdown) || breakdown === PUBLISHER_BREAKDOWN;

/** One key: its cells, and its row in each period. */
interface Keyed {
  cells: Cell[];
  rows: [Cell[] | undefined, Cell[] | undefined];
}

const numberOr = (cell: Cell | undefined, fallback: number) => (typeof cell === 'number' && Number.isFinite(cell) ? cell : fallback);
/** Rounds away the binary noise of a division (12.500000000000002). */
const tidy = (n: number) => Number(n.toPrecision(12));

/** The explanation's header: the key columns, then the metric's. */
export function explainHeader(keyHeader: readonly string[], metric: ExplainedMetric): string[] {
  const m = metric.name;
  const ratio = metric.shape.kind === 'ratio' ? [`${m}${MIX_SUFFIX}`, `${m}${RATE_SUFFIX}`] : [];
  return [...keyHeader, m, `${m}${PREVIOUS_SUFFIX}`, `${m}${CHANGE_SUFFIX}`, `${m}${SHARE_SUFFIX}`, ...ratio];
}

/** The columns an explanation's table takes (Sheets adds none for a formula's result): its keys', then the metric's 4, or 6 for a ratio. */
export function explainColumnCount(explanation: Pick<Explanation, 'comparison' | 'metric'>): number {
  const keys = reportColumnCount('main', explanation.comparison.current.breakdowns, []);
  return keys + (explanation.metric.shape.kind === 'ratio' ? 6 : 4);
}

export function buildExplainTable(current: ReportResult, earlier: ReportResult, options: ExplainTableOptions): ReportTable {
  const { metric } = options;
  const breakdowns = current.query.breakdowns;
  const tables = [current, earlier].map((result) =>
    buildReportTable(result.items, {
      kind: 'main',
      breakdowns,
      metrics: metric.columns,
      timeZone: options.timeZone,
      ...(result.metricsSums ? { metricsSums: result.metricsSums } : {}),
    }),
  ) as [ReportTable, ReportTable];
  const header = tables[0].header;
  const keyWidth = header.length - metric.columns.length;
  const at = (name: string) => keyWidth + metric.columns.indexOf(name);
  const valueColumn = at(metric.name);
  const parts = (row: Cell[] | undefined): PeriodParts | undefined => {
    if (!row) return undefined;
    if (metric.shape.kind === 'additive') return { numerator: numberOr(row[valueColumn], 0), denominator: 1 };
    return { numerator: numberOr(row[at(metric.numerator!)], 0), denominator: numberOr(row[at(metric.denominator!)], 0) };
  };
  const keyed = joinKeys(
    tables,
    breakdowns.map((b) => header.indexOf(isEntity(b) ? `${b}.id` : b)),
    keyWidth,
  );
  const keys: KeyParts<Keyed>[] = [...keyed].map(([id, k]) => {
    const key: KeyParts<Keyed> = { key: k, id };
    const [now, before] = [parts(k.rows[0]), parts(k.rows[1])];
    if (now) key.current = now;
    if (before) key.earlier = before;
    return key;
  });
  const [nowTotal, beforeTotal] = [tables[0].totals?.[valueColumn], tables[1].totals?.[valueColumn]];
  const totals = typeof nowTotal === 'number' && typeof beforeTotal === 'number' ? { current: nowTotal, earlier: beforeTotal } : undefined;
  const split = decomposeChange({
    shape: metric.shape,
    keys,
    decimals: metric.decimals,
    topN: options.topN,
    ...(totals ? { totals } : {}),
  });

  const whole = split.total.change;
  const effectCells = (e: Effect): Cell[] => [
    e.change,
    whole === 0 ? '' : tidy((e.change / whole) * 100),
    ...(metric.shape.kind === 'ratio' ? [e.mix!, e.rate!] : []),
  ];
  const rows = split.drivers.map((d) => [
    ...d.key.cells,
    d.key.rows[0]?.[valueColumn] ?? '',
    d.key.rows[1]?.[valueColumn] ?? '',
    ...effectCells(d.effect),
  ]);
  const rest = split.others.map((k) => k.rows);
  const otherCells = header.slice(0, keyWidth).map((_, c) => (c === 0 ? OTHER_LABEL : c === 1 ? otherNote(split.other) : ''));
  rows.push([...otherCells, restFigure(rest, 0, parts, metric), restFigure(rest, 1, parts, metric), ...effectCells(split.other)]);
  const totalCells = header.slice(0, keyWidth).map((_, c) => (c === 0 ? TOTALS_LABEL : ''));
  return {
    header: explainHeader(header.slice(0, keyWidth), metric),
    rows,
    // Engage's sums when both periods have them (ENGAGE_COMPARE's Total row), else the rows' own.
    totals: [
      ...totalCells,
      ...(totals ? [totals.current, totals.earlier] : [tidy(split.current), tidy(split.earlier)]),
      ...effectCells(split.total),
    ],
  };
}

/** What the Other row holds, beside its label: the keys past topN, or only the rounding of Engage's totals. */
function otherNote(other: { keys: number; change: number }): string {
  if (other.keys > 0) return `${other.keys} more`;
  return other.change === 0 ? '' : ROUNDING_NOTE;
}

/** The two periods' rows joined on their keys (the breakdowns' ids), in the order first seen. */
function joinKeys(tables: readonly [ReportTable, ReportTable], keyColumns: readonly number[], keyWidth: number): Map<string, Keyed> {
  const keyed = new Map<string, Keyed>();
  tables.forEach((table, which) => {
    for (const row of table.rows) {
      const id = JSON.stringify(keyColumns.map((c) => row[c]));
      let entry = keyed.get(id);
      if (!entry) {
        entry = { cells: row.slice(0, keyWidth), rows: [undefined, undefined] };
        keyed.set(id, entry);
      }
      entry.rows[which] = row;
    }
  });
  return keyed;
}

/** The Other row's figure in one period: the rest's sum, or a ratio of the rest's summed parts; blank without any. */
function restFigure(
  rest: ReadonlyArray<Keyed['rows']>,
  which: 0 | 1,
  parts: (row: Cell[] | undefined) => PeriodParts | undefined,
  metric: ExplainedMetric,
): Cell {
  const present = rest.map((rows) => parts(rows[which])).filter((p): p is PeriodParts => p !== undefined);
  if (present.length === 0) return '';
  const numerator = present.reduce((a, p) => a + p.numerator, 0);
  const scale = 10 ** metric.decimals;
  if (metric.shape.kind === 'additive') return Math.round(numerator * scale) / scale;
  const denominator = present.reduce((a, p) => a + p.denominator, 0);
  return denominator === 0 ? '' : Math.round((numerator / denominator) * metric.shape.factor * scale) / scale;
}
