/**
 * The report the sidebar builds, as plain data that travels through google.script.run: one shape
 * for "Run to sheet", "Insert formula" and "Save to schedule", so the three ask for the same rows.
 * `toReportInput` turns it into the core's ReportInput, which validates every rule before a request.
 */
import { userMessage, ValidationError, type ValidationProblem } from '../errors';
import type { ReportInput } from '../api/requests/report-request';
import { REPORT_SPECS, type ReportKind } from '../spec';
import { presetMatchesDates, presetsFor, type DatePreset } from './date-presets';
import { FORMULA_MAX_ROWS } from '../sheets/formula-args';
import { A1_CELL_PATTERN } from '../util/a1-notation';
import { SHEET_NAME_MAX_CHARS } from '../util/sheet-names';
import { controlCharacterIndex, describeControlCharacter, formatCount } from '../util/text';

export interface BuilderRequest {
  kind: ReportKind;
  entityId: string;
  /** "yyyy-MM-dd" (general report) or "yyyy-MM-dd HH:00" UTC (hourly reports, end excluded). */
  fromDate: string;
  toDate: string;
  /**
   * The sidebar's date preset the dates come from ("last7", "custom", "last24h"): the run asks for the
   * dates; the equivalent formula of the general report writes a rolling preset's bounds ("14daysAgo",
   * "yesterday", ...) instead, and a report reopened from its block in the sheet shows the preset again.
   */
  preset?: DatePreset;
  breakdowns: string[];
  /** The chosen metrics, by API name; left out: the default set. */
  metrics?: string[];
  /** A filter expression, built by the sidebar with buildFilter; "" for none. */
  filter?: string;
  /** A field to sort on; "" for the service's default (revenue). */
  sort?: string;
  order?: 'asc' | 'desc';
  /** General and external-ID reports only. */
  currencyCode?: string;
  /** General report only, 0 to 6. */
  decDigits?: number;
  /** General report only: compared with "previous", "year", "yearWeekday" or "yyyy-MM-dd..yyyy-MM-dd" (compare-periods.ts); left out, no comparison. */
  compareWith?: string;
  /** At most this many rows (1 to 100,000, as the formulas' maxRows); left out: every row. */
  maxRows?: number;
  /** A comparison's "Explain the change": ENGAGE_EXPLAIN of this metric by these breakdowns (explain-formula.ts). */
  explain?: { metric: string; breakdowns: string[] };
}

/** Where "Run to sheet" writes: an existing sheet from A1, or from `cell` (a report reopened from its block). */
export type RunTarget =
  | { type: 'newSheet'; sheetName?: string }
  | { type: 'existingSheet'; sheetName: string; cell?: string }
  | { type: 'activeCell' };

const KINDS = Object.keys(REPORT_SPECS) as ReportKind[];

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * Checks the shape (the sidebar is trusted as little as any caller) and builds the core's input:
 * text fields must be text and breakdowns a list, so nothing is turned into '[object Object]' or
 * silently dropped; the report's own rules follow in buildReportQuery. The row limit is the run's,
 * not the request's: it is returned beside the input.
 */
export function toReportInput(request: unknown): { kind: ReportKind; input: ReportInput; maxRows?: number } {
  if (!request || typeof request !== 'object' || Array.isArray(request))
    throw ValidationError.single('request', 'must be a report built in the sidebar');
  const r = request as Record<string, unknown>;
  if (!KINDS.includes(r.kind as ReportKind)) throw ValidationError.single('kind', `must be one of ${KINDS.join(', ')}`);
  const kind = r.kind as ReportKind;
  const spec = REPORT_SPECS[kind];
  const problems: ValidationProblem[] = [];
  const text = (name: string): string | undefined => {
    const v = r[name];
    if (!given(v)) return undefined;
    if (typeof v !== 'string')
      problems.push({ argument: name, message: `${name}: must be text, not ${Array.isArray(v) ? 'a list' : `a ${typeof v}`}` });
    return typeof v === 'string' ? v : undefined;
  };
  const input: ReportInput = { entityId: text('entityId') ?? '', fromDate: text('fromDate') ?? '', toDate: text('toDate') ?? '' };
  const presets = presetsFor(kind);
  if (given(r.preset) && !presets.includes(r.preset as DatePreset))
    problems.push({ argument: 'preset', message: `preset: must be one of ${presets.join(', ')} for this report` });
  if (given(r.breakdowns)) {
    if (!Array.isArray(r.breakdowns) || !r.breakdowns.every((b) => typeof b === 'string')) {
      problems.push({ argument: 'breakdowns', message: 'breakdowns: must be a list of breakdown names such as ["day", "country"]' });
    } else if (r.breakdowns.length > 0) input.breakdowns = r.breakdowns as string[];
  }
  // An empty list is passed on: the core says that it names no metric.
  if (r.metrics !== undefined && r.metrics !== null) {
    if (!Array.isArray(r.metrics) || !r.metrics.every((m) => typeof m === 'string')) {
      problems.push({ argument: 'metrics', message: 'metrics: must be a list of metric names such as ["revenue", "rpmByPvs"]' });
    } else input.metrics = r.metrics as string[];
  }
  const filter = text('filter');
  if (filter !== undefined) input.filter = filter;
  const sort = text('sort');
  const order = text('order');
  if (order !== undefined && order !== 'asc' && order !== 'desc')
    problems.push({ argument: 'order', message: `order: must be 'asc' or 'desc'` });
  if (sort !== undefined) {
    input.sort = sort;
    if (order !== undefined) input.order = order;
  }
  const currencyCode = text('currencyCode');
  if (spec.acceptsCurrency && currencyCode !== undefined) input.currencyCode = currencyCode;
  if (spec.acceptsDecDigits && given(r.decDigits)) input.decDigits = r.decDigits as number;
  const maxRows = r.maxRows;
  if (given(maxRows) && !(typeof maxRows === 'number' && Number.isInteger(maxRows) && maxRows >= 1 && maxRows <= FORMULA_MAX_ROWS))
    problems.push({ argument: 'maxRows', message: `maxRows: must be a whole number from 1 to ${formatCount(FORMULA_MAX_ROWS)}` });
  if (problems.length > 0) throw new ValidationError(problems);
  return given(maxRows) ? { kind, input, maxRows: maxRows as number } : { kind, input };
}

/**
 * A checked request (toReportInput) with its preset kept only when its dates are that preset's at
 * `nowMs` in the spreadsheet's zone: otherwise the dates the user saw win, so Run to sheet, Insert
 * formula (which writes fixed dates instead of relative days) and the report reopened from its block
 * all ask for the same days.
 */
export function withPresetOfItsDates(request: BuilderRequest, nowMs: number, timeZone: string): BuilderRequest {
  const { preset, ...rest } = request;
  if (preset === undefined || !presetsFor(request.kind).includes(preset)) return request;
  return presetMatchesDates(request.kind, preset, request, nowMs, timeZone) ? request : rest;
}

/** Checks where "Run to sheet" should write, before anything is inserted or fetched. */
export function checkRunTarget(target: unknown): RunTarget {
  const t = (target && typeof target === 'object' ? target : {}) as Record<string, unknown>;
  const problem = (rule: string) => ValidationError.single('target', rule);
  if (t.type !== 'newSheet' && t.type !== 'existingSheet' && t.type !== 'activeCell')
    throw problem('must be a new sheet, an existing sheet or the active cell');
  if (t.type === 'activeCell') return { type: 'activeCell' };
  const name = t.sheetName;
  if (name === undefined || name === null || name === '') {
    if (t.type === 'existingSheet') throw problem('needs the name of the sheet to write to');
    return { type: 'newSheet' };
  }
  if (typeof name !== 'string') throw problem('the sheet name must be text');
  if (name.length > SHEET_NAME_MAX_CHARS) throw problem(`the sheet name must be at most ${SHEET_NAME_MAX_CHARS} characters`);
  if (controlCharacterIndex(name) >= 0) throw problem(`the sheet name contains ${describeControlCharacter(name)}`);
  if (t.type === 'newSheet') return { type: 'newSheet', sheetName: name };
  if (t.cell === undefined || t.cell === null || t.cell === '') return { type: 'existingSheet', sheetName: name };
  if (typeof t.cell !== 'string' || !A1_CELL_PATTERN.test(t.cell.trim())) throw problem('the first cell must be one cell such as A1');
  return { type: 'existingSheet', sheetName: name, cell: t.cell.trim().toUpperCase() };
}

/**
 * The report builder's labels of the request's fields: what the sidebar calls each one, so that a
 * message there says "Currency: ..." where a formula's says "currencyCode: ...".
 */
export const BUILDER_FIELD_LABELS: Readonly<Record<string, string>> = {
  kind: 'Report',
  entityId: 'Publisher',
  preset: 'Period',
  fromDate: 'From',
  toDate: 'To',
  breakdowns: 'Breakdowns',
  metrics: 'Metrics',
  filter: 'Filters',
  sort: 'Sort by',
  order: 'Order',
  currencyCode: 'Currency',
  decDigits: 'Decimals',
  maxRows: 'Row limit',
  compareWith: 'Compare with',
  target: 'Write to',
};

/** The sentence the sidebar shows for a failure of the report builder: bad input named by its label. */
export function builderMessage(error: unknown): string {
  if (!(error instanceof ValidationError)) return userMessage(error);
  return error.problems
    .map((p) => {
      const label = BUILDER_FIELD_LABELS[p.argument];
      return label && p.message.startsWith(`${p.argument}:`) ? `${label}:${p.message.slice(p.argument.length + 1)}` : p.message;
    })
    .join('; ');
}
