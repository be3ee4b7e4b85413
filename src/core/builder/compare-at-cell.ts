/**
 * The comparison in a cell: a cell whose formula is `=ENGAGE_COMPARE(entityId, fromDate, toDate,
 * compareWith, breakdowns, metrics, filter, ...)` read as the builder's request for the same
 * publisher, days, compareWith and filter, so "Explain the change" can start from it as it starts
 * from the builder's comparison (explain-formula.ts). Its arguments are read as written
 * (formula-reading.ts): an argument that is a cell reference or a calculation cannot be known from
 * the formula's text, and the one sentence says which and what to write instead. The comparison's
 * own breakdowns and metrics, when written as text, are where the sidebar's pickers start. The
 * server checks the request again as the formula does; nothing here sends anything.
 */
import type { BlockPlacement } from '../ports';
import { a1Cell, cellReference } from '../util/a1-notation';
import type { BuilderRequest } from './builder-request';
import { type FormulaArgument, readFormulaCall } from './formula-reading';
import { COMPARE_FORMULA_NAME } from './formula-text';

/** ENGAGE_COMPARE's arguments in its signature's order (src/entrypoints/compare.ts). */
const COMPARE_ARGUMENTS = ['entityId', 'fromDate', 'toDate', 'compareWith', 'breakdowns', 'metrics', 'filter'] as const;
type CompareArgument = (typeof COMPARE_ARGUMENTS)[number];
const REQUIRED: readonly CompareArgument[] = ['entityId', 'fromDate', 'toDate', 'compareWith'];

export interface ComparisonAtCell {
  /** The cell holding the formula ("Sheet1!B3"). */
  cell: string;
  /** Where ENGAGE_EXPLAIN goes beside it: the first cell past the comparison's columns and one empty column. */
  beside: { sheetName: string; cell: string };
  /** The comparison as the builder's request, when every argument it needs is written as text. */
  request?: BuilderRequest;
  /** Else what could not be read, in one sentence. */
  problem?: string;
  /** The comparison's breakdowns and metrics as written (empty when not text). */
  breakdowns: string[];
  metrics: string[];
}

/** Whether a formula's text is ENGAGE_COMPARE's, worth reading (a cheap test before the whole reading). */
export function isCompareFormula(formula: string): boolean {
  return new RegExp(`^\\s*=\\s*${COMPARE_FORMULA_NAME}\\s*\\(`, 'i').test(formula);
}

const list = (arg: FormulaArgument | undefined) =>
  arg?.kind === 'text'
    ? arg.value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
    : [];

/** How an argument that could not be read is named: "fromDate (the cell reference B2)". */
function unreadable(name: string, arg: FormulaArgument): string {
  return `${name} (${arg.kind === 'reference' ? 'the cell reference' : 'the calculation'} ${arg.source})`;
}

const either = (items: string[]) => (items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`);

/** The request, or the sentence saying what could not be read. */
function readRequest(args: Partial<Record<CompareArgument, FormulaArgument>>): { request: BuilderRequest } | { problem: string } {
  const missing = REQUIRED.filter((name) => !args[name] || args[name]!.kind === 'empty');
  if (missing.length > 0)
    return {
      problem: `The ENGAGE_COMPARE in this cell gives no ${either(missing)}: it needs entityId, fromDate, toDate and compareWith.`,
    };
  const unread = (['entityId', 'fromDate', 'toDate', 'compareWith', 'filter'] as const).filter(
    (name) => args[name]?.kind === 'reference' || args[name]?.kind === 'expression',
  );
  if (unread.length > 0)
    return {
      problem:
        `Explain the change reads the comparison's arguments as written in its formula, and cannot read ` +
        `${either(unread.map((name) => unreadable(name, args[name]!)))}: write ${unread.length === 1 ? 'it' : 'them'} in the formula as text ` +
        `(such as "2026-11-01", "7daysAgo" or "previous"), or build the comparison in the builder below.`,
    };
  const text = (name: CompareArgument) => {
    const arg = args[name];
    return arg?.kind === 'text' ? arg.value : arg?.kind === 'number' ? String(arg.value) : '';
  };
  const request: BuilderRequest = {
    kind: 'main',
    entityId: text('entityId'),
    fromDate: text('fromDate'),
    toDate: text('toDate'),
    breakdowns: [],
    compareWith: text('compareWith'),
  };
  const filter = text('filter');
  if (filter !== '') request.filter = filter;
  return { request };
}

/**
 * The comparison of the formula at `at`, or undefined when the formula is not one call of
 * ENGAGE_COMPARE. `columns`: how many columns its result shows (at least 1).
 */
export function comparisonAtCell(formula: string, at: BlockPlacement, columns: number): ComparisonAtCell | undefined {
  const call = readFormulaCall(formula);
  if (!call || call.name !== COMPARE_FORMULA_NAME) return undefined;
  const args: Partial<Record<CompareArgument, FormulaArgument>> = {};
  COMPARE_ARGUMENTS.forEach((name, i) => {
    if (call.args[i]) args[name] = call.args[i];
  });
  return {
    cell: cellReference(at.sheetName, a1Cell(at.row, at.column)),
    beside: { sheetName: at.sheetName, cell: a1Cell(at.row, at.column + Math.max(1, columns) + 1) },
    ...readRequest(args),
    breakdowns: list(args.breakdowns),
    metrics: list(args.metrics),
  };
}
