/**
 * The "Engage dashboard" sheet, laid out as data: which publisher(s) it is for, the labels, the
 * ENGAGE_* formulas and the box each formula's result may fill, the number formats and the native
 * charts. src/gas writes it in one batch; nothing here touches a spreadsheet.
 *
 * Every figure comes from a formula whose last argument is the refresh cell and whose dates roll
 * (relative days, `"7daysAgo"` to `"yesterday"`, never TODAY()), so Refresh all, scheduled runs and
 * the first open of a new day keep the sheet current:
 * - key figures: ENGAGE_COMPARE of the last 7 days against the 7 before, maxRows 0, so its result is
 *   its header and the Total row alone (revenue, RPM by page views, page views, paid CTR, viewability);
 * - revenue and RPM by day over the last 30 days, sorted by day, feeding a line chart (RPM on the
 *   right axis);
 * - the top 10 countries, platforms and widgets by revenue over the last 7 days.
 * For several publishers the key figures total them (publisher-totals.ts: rates from the summed parts,
 * viewability blank), the daily figures, countries and platforms add the publishers' rows together
 * (`-publisher`), and widgets, each of which belongs to one publisher, are the top 10 of each publisher.
 *
 * Results spill down from their formula, and Sheets refuses a spill into cells that are not empty
 * (#REF!). So every block whose size is bounded sits above or beside the others within its bound, and
 * the one that grows with the number of publishers (widgets of several) is last, with nothing below
 * it. Everything fits the 26 columns of a new sheet.
 */
import { ValidationError } from '../errors';
import { PUBLISHERS_TOGETHER } from '../api/paging/publisher-combined';
import { PUBLISHER_BREAKDOWN, publisherIdProblem, publisherSelection, type PublisherSelection } from '../api/requests/publisher-list';
import { metricLabel } from '../api/requests/report-metrics';
import { CHANGE_PERCENT_SUFFIX, CHANGE_SUFFIX, compareColumnKind, PREVIOUS_SUFFIX } from '../sheets/compare-table';
import { columnKind, NEW_SHEET_COLUMNS, neutraliseText, numberFormatOf } from '../sheets/sheet-output';
import { a1Cell } from '../util/a1-notation';
import type { BuilderRequest } from './builder-request';
import { compareFormula } from './compare-request';
import type { RollingDayPreset } from './date-presets';
import { reportFormula } from './formula-text';

/** The sheet's name; a second dashboard is "Engage dashboard (2)", and so on. */
export const DASHBOARD_SHEET_NAME = 'Engage dashboard';
/** The key figures, in the API's names (the spec's general report metrics). */
export const KPI_METRICS = ['revenue', 'rpmByPvs', 'totalPvs', 'paidCtrByPvs', 'viewabilityRate'] as const;
/** The period of the key figures and the top lists: the 7 days before today, against the 7 before them. */
export const KPI_DAYS = 7;
/** The period of the daily chart: the 30 days before today. */
export const CHART_DAYS = 30;
/** Rows of each top list. */
export const TOP_ROWS = 10;

export type DashboardBlockName = 'kpis' | 'daily' | 'countries' | 'platforms' | 'widgets';
/** The dashboard's formulas, one a block: they take one refresh cell, so it must have room for them all. */
export const DASHBOARD_FORMULAS = 5;

/** One ENGAGE_* formula of the dashboard and the box its result may fill. */
export interface DashboardBlock {
  name: DashboardBlockName;
  /** The formula's cell (1-based). */
  row: number;
  column: number;
  formula: string;
  /** The header its result starts with. */
  header: string[];
  /** Rows its result takes at most, header and Total row included; undefined when it grows with the publishers. */
  maxRows: number | undefined;
  /** Each column's number format (null: as Sheets shows it). */
  numberFormats: Array<string | null>;
}

export interface DashboardChart {
  title: string;
  /** The cell the chart's top-left corner sits on. */
  row: number;
  column: number;
  widthPx: number;
  heightPx: number;
  /** A1 ranges of the dashboard sheet: the days, then each series. */
  ranges: string[];
  /** The axis of each series (0 left, 1 right), and the axes' titles. */
  seriesAxes: number[];
  axisTitles: string[];
}

export interface DashboardLayout {
  /** Labels and formulas, rows x NEW_SHEET_COLUMNS (a new sheet's width: the layout never needs more), '' where empty: one setValues. */
  values: string[][];
  /** 'bold' or 'normal' for each cell of `values`. */
  fontWeights: Array<Array<'bold' | 'normal'>>;
  /** The cells of the group labels above the key figures (a background marks them). */
  bands: Array<{ row: number; column: number; columns: number }>;
  blocks: DashboardBlock[];
  charts: DashboardChart[];
  /** What the dashboard is for, as its title says it: "Daily Planet", "All publishers", "2 publishers". */
  subject: string;
}

export interface DashboardOptions {
  selection: PublisherSelection;
  /** Publishers' names by ID, from the publishers lookup (an ID it does not list is shown as the ID). */
  names: ReadonlyMap<string, string>;
  /** The named refresh cell every formula takes as its last argument. */
  refreshReference: string;
}

/**
 * The dashboard's publisher choice as the sidebar or the menu gives it: one ID, several joined with
 * commas, or "all"; checked before anything is sent, each problem naming `entityId`.
 */
export function checkDashboardPublishers(entityId: unknown): PublisherSelection {
  if (typeof entityId !== 'string') {
    throw ValidationError.single('entityId', 'must be text: a publisher ID from ENGAGE_PUBLISHERS(), several joined with commas, or "all"');
  }
  if (entityId.trim() === '') throw ValidationError.single('entityId', 'is required: choose a publisher, several publishers, or all');
  const selection = publisherSelection(entityId.trim());
  if (selection.type === 'one') {
    const problem = publisherIdProblem(selection.id);
    if (problem) throw ValidationError.single('entityId', `${JSON.stringify(selection.id).slice(0, 60)} ${problem}`);
  }
  return selection;
}

/** What the title says the dashboard is for. */
function subjectOf(selection: PublisherSelection, names: ReadonlyMap<string, string>): string {
  if (selection.type === 'all') return 'All publishers';
  if (selection.type === 'one') return names.get(selection.id) || selection.id;
  return `${selection.ids.length} publishers: ${selection.ids.map((id) => names.get(id) || id).join(', ')}`;
}

const formatsOf = (header: readonly string[], kindOf: (h: string) => ReturnType<typeof columnKind>) =>
  header.map((h) => numberFormatOf(kindOf(h)));

/**
 * The layout's cells as setValues must receive them: each block's formula as it is, every label
 * neutralised as API text is (the title holds publisher names), so each cell holds exactly its text.
 */
export function dashboardInput(layout: DashboardLayout): string[][] {
  const formulas = new Set(layout.blocks.map((b) => `${b.row}:${b.column}`));
  return layout.values.map((row, r) => row.map((text, c) => (formulas.has(`${r + 1}:${c + 1}`) ? text : neutraliseText(text))));
}

/** What each part of the layout draws with: the cells, the publisher choice and the builder's requests. */
interface DashboardDraft {
  put: (row: number, column: number, text: string, strong?: boolean) => void;
  several: boolean;
  /** The publisher's columns a block of several publishers starts with. */
  publisherColumns: string[];
  /** A breakdown with the publishers' rows added together, for several. */
  together: (breakdown: string) => string;
  request: (
    days: typeof KPI_DAYS | typeof CHART_DAYS,
    breakdowns: string,
    metrics: readonly string[],
    more: Partial<BuilderRequest>,
  ) => BuilderRequest;
  refreshReference: string;
  subject: string;
}

/** The dashboard for the chosen publishers. */
export function dashboardLayout(options: DashboardOptions): DashboardLayout {
  const { selection, refreshReference } = options;
  const several = selection.type !== 'one';
  const entityId = selection.type === 'one' ? selection.id : selection.type === 'all' ? 'all' : selection.ids.join(',');
  const rows: string[][] = [];
  const bold = new Set<string>();
  const draft: DashboardDraft = {
    put: (row, column, text, strong = false) => {
      while (rows.length < row) rows.push(Array.from({ length: NEW_SHEET_COLUMNS }, () => ''));
      rows[row - 1]![column - 1] = text;
      if (strong) bold.add(`${row}:${column}`);
    },
    several,
    publisherColumns: several ? [`${PUBLISHER_BREAKDOWN}.id`, `${PUBLISHER_BREAKDOWN}.name`] : [],
    together: (breakdown) => (several ? `${breakdown},${PUBLISHERS_TOGETHER}` : breakdown),
    // Each block is what the report builder would ask for with the rolling preset "Last 7 days" (or 30),
    // and its formula the builder's: the dates "7daysAgo" (or "30daysAgo") and "yesterday".
    request: (days, breakdowns, metrics, more) => {
      const preset: RollingDayPreset = `last${days}`;
      return {
        kind: 'main',
        entityId,
        fromDate: '',
        toDate: '',
        preset,
        breakdowns: breakdowns.split(','),
        metrics: [...metrics],
        ...more,
      };
    },
    refreshReference,
    subject: subjectOf(selection, options.names),
  };

  putIntroduction(draft);
  const kpiRow = 6;
  const bands: DashboardLayout['bands'] = [];
  const kpis = kpiBlock(draft, kpiRow, bands);
  const dailyRow = kpiRow + 5;
  const daily = dailyBlock(draft, dailyRow);
  const blocks = [kpis, daily.block, ...topListBlocks(draft, dailyRow + CHART_DAYS + 5)];
  for (const block of blocks) draft.put(block.row, block.column, block.formula);

  const fontWeights = rows.map((cells, r) => cells.map((_, c) => (bold.has(`${r + 1}:${c + 1}`) ? 'bold' : 'normal') as 'bold' | 'normal'));
  return { values: rows, fontWeights, bands, blocks, charts: [daily.chart], subject: draft.subject };
}

/** Title and what the dates are. The publishers' names come after the title's own words, so no cell starts with one. */
function putIntroduction({ put, several, subject, refreshReference }: DashboardDraft): void {
  put(1, 1, `Engage dashboard: ${subject}`, true);
  put(
    2,
    1,
    `Key figures and top 10: the last ${KPI_DAYS} days before today against the ${KPI_DAYS} days before them; chart: the last ${CHART_DAYS} days. ` +
      "Days are Engage's UTC days; today is the spreadsheet's. Data is 2 to 4 hours late.",
  );
  put(
    3,
    1,
    several
      ? 'Totals add the publishers up: counts and money summed, RPM and CTR from the summed parts, viewability blank (its parts are not in the API). ' +
          'Days, countries and platforms: all publishers together; widgets: the top 10 of each publisher.'
      : `Refresh all (Extensions > Engage for Sheets), scheduled runs and the first open of each day update every figure through ${refreshReference}.`,
  );
}

/** Key figures: the comparison's header row and its Total row, under a band of labels (added to `bands`). */
function kpiBlock(draft: DashboardDraft, kpiRow: number, bands: DashboardLayout['bands']): DashboardBlock {
  const { put } = draft;
  put(kpiRow - 1, 1, `Key figures: the last ${KPI_DAYS} days against the ${KPI_DAYS} before (the Total row)`, true);
  const kpiHeader = [...draft.publisherColumns, 'day', `day${PREVIOUS_SUFFIX}`];
  for (const m of KPI_METRICS) {
    bands.push({ row: kpiRow, column: kpiHeader.length + 1, columns: 4 });
    put(kpiRow, kpiHeader.length + 1, metricLabel(m), true);
    kpiHeader.push(m, `${m}${PREVIOUS_SUFFIX}`, `${m}${CHANGE_SUFFIX}`, `${m}${CHANGE_PERCENT_SUFFIX}`);
  }
  return {
    name: 'kpis',
    row: kpiRow + 1,
    column: 1,
    // maxRows 0: the header and the Total row alone.
    formula: compareFormula(draft.request(KPI_DAYS, 'day', KPI_METRICS, { compareWith: 'previous', maxRows: 0 }), draft.refreshReference),
    header: kpiHeader,
    maxRows: 2,
    numberFormats: formatsOf(kpiHeader, compareColumnKind),
  };
}

/** Revenue and RPM by day, with the chart beside them. */
function dailyBlock(draft: DashboardDraft, dailyRow: number): { block: DashboardBlock; chart: DashboardChart } {
  draft.put(dailyRow - 1, 1, `Revenue and RPM by day, the last ${CHART_DAYS} days`, true);
  const dailyHeader = ['day', 'revenue', 'rpmByPvs'];
  const block: DashboardBlock = {
    name: 'daily',
    row: dailyRow,
    column: 1,
    formula: reportFormula(
      draft.request(CHART_DAYS, draft.together('day'), dailyHeader.slice(1), { sort: 'day', order: 'asc' }),
      draft.refreshReference,
    ),
    header: dailyHeader,
    // The header, a row a day and the Total row.
    maxRows: CHART_DAYS + 2,
    numberFormats: formatsOf(dailyHeader, columnKind),
  };
  const chart: DashboardChart = {
    title: `Revenue and RPM by day: ${draft.subject}`.slice(0, 120),
    row: dailyRow,
    column: dailyHeader.length + 2,
    widthPx: 720,
    heightPx: 400,
    // The header and the 30 days; the Total row below them is left out.
    ranges: [1, 2, 3].map((c) => `${a1Cell(dailyRow, c)}:${a1Cell(dailyRow + CHART_DAYS, c)}`),
    seriesAxes: [0, 1],
    axisTitles: ['Revenue', 'RPM (page views)'],
  };
  return { block, chart };
}

/** The top 10 lists side by side, under the daily block; widgets last, the one that grows with the publishers. */
function topListBlocks(draft: DashboardDraft, topRow: number): DashboardBlock[] {
  const { put, several, publisherColumns } = draft;
  put(topRow - 2, 1, `Top ${TOP_ROWS} by revenue, the last ${KPI_DAYS} days`, true);
  const lists: Array<{ name: DashboardBlockName; breakdown: string; rpm: string; title: string }> = [
    { name: 'countries', breakdown: 'country', rpm: 'rpmByPvs', title: 'Countries' },
    { name: 'platforms', breakdown: 'platform', rpm: 'rpmByPvs', title: 'Platforms' },
    // Widgets count requests, not page views: their RPM is by request.
    {
      name: 'widgets',
      breakdown: 'widget',
      rpm: 'reqsRpm',
      title: several ? `Widgets (the top ${TOP_ROWS} of each publisher)` : 'Widgets',
    },
  ];
  const blocks: DashboardBlock[] = [];
  let column = 1;
  for (const list of lists) {
    const perPublisher = list.name === 'widgets' && several;
    const header = [...(perPublisher ? publisherColumns : []), `${list.breakdown}.id`, `${list.breakdown}.name`, 'revenue', list.rpm];
    put(topRow - 1, column, list.title, true);
    blocks.push({
      name: list.name,
      row: topRow,
      column,
      formula: reportFormula(
        draft.request(KPI_DAYS, perPublisher ? list.breakdown : draft.together(list.breakdown), ['revenue', list.rpm], {
          sort: 'revenue',
          order: 'desc',
          maxRows: TOP_ROWS,
        }),
        draft.refreshReference,
      ),
      header,
      maxRows: perPublisher ? undefined : TOP_ROWS + 2,
      numberFormats: formatsOf(header, columnKind),
    });
    column += header.length + 1;
  }
  return blocks;
}
