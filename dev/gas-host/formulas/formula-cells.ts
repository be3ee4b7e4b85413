/**
 * Custom-function cells: how a formula cell becomes one CUSTOM_FUNCTION execution (the function it
 * names and its arguments as Sheets passes them) and how that execution's outcome is written back
 * into the cell, spilling an array result or showing #ERROR!, #NAME? or #REF! with its message. A
 * custom function given a volatile function as an argument never runs: the cell shows "Loading...".
 */
import { formatA1, resolveA1 } from '../cells/a1-notation';
import { parseFormula, sumOfNumbers } from './formula';
import {
  daySerial,
  evaluateExpression,
  type ExpressionClock,
  ExpressionError,
  type ExpressionValue,
  isBuiltIn,
  parseExpression,
  type VolatileFunction,
  volatileCalls,
} from './formula-expression';
import type { CellValue } from '../protocol/protocol';
import { wallTime } from '../cells/wall-time';
import type { ExecutionOutcome } from '../protocol/execution';
import { toCellValue, type FormulaOutcome, type SheetModel, type SpreadsheetModel } from '../state/spreadsheets/spreadsheet';

export { LOADING_TEXT } from '../state/spreadsheets/spreadsheet';

export interface FormulaResult {
  sheet: string;
  a1: string;
  /** The top-left value (what the cell shows; '#ERROR!' etc. on failure). */
  value: CellValue;
  /** The whole result as a grid (a scalar result is [[value]]). */
  values: CellValue[][];
  /** The message shown in the cell's error note, for #ERROR!, #NAME? and #REF!. */
  error?: string;
  /** The cell shows "Loading..." for good: a custom function given a volatile argument, which never runs. */
  loading?: true;
  executionId?: number;
}

/** The function a formula cell calls with its arguments, or why the cell shows an error (or "Loading...") without running anything. */
export type FormulaCall =
  | { functionName: string; args: unknown[] }
  | (FormulaOutcome & { error: string })
  | { values: CellValue[][] }
  | { loading: true };

/** The functions that keep a custom function from running when an argument calls one (strict.ts decides for TODAY). */
export interface FormulaRules {
  /** TODAY() counts as volatile, as NOW() and RAND() always do. */
  volatileToday: boolean;
  /** Told when an argument calls TODAY() (and neither NOW() nor RAND()): the two readings differ there. */
  onTodayArgument?: () => void;
}

/**
 * The date `days` after today, as Sheets passes a date to a custom function: the Date of that day's
 * midnight in the spreadsheet's time zone, today being the day it is at `now` in that zone.
 */
export function todayPlus(now: number, timeZone: string, days: number): Date {
  const w = wallTime(now, timeZone);
  // Midnight of the target day in the zone (the offset at `now`, then corrected for a change at the target).
  let midnight = Date.UTC(w.year, w.month - 1, w.day + days) - w.offsetMs;
  const at = wallTime(midnight, timeZone);
  const shift = at.hour * 60 + at.minute;
  if (shift !== 0) midnight -= (shift > 720 ? shift - 1440 : shift) * 60000;
  return new Date(midnight);
}

/** A computed value as Sheets passes it to a custom function or shows it: a date as the Date of its midnight in the zone. */
function expressionCell(value: ExpressionValue, now: number, timeZone: string): CellValue {
  if (value.type !== 'date') return value.value;
  const whole = Math.floor(value.serial);
  const midnight = todayPlus(now, timeZone, whole - todaySerial(now, timeZone));
  return new Date(midnight.getTime() + Math.round((value.serial - whole) * 86_400_000));
}

/** Today's day serial (Sheets' TODAY()) at `now` in `timeZone`. */
export function todaySerial(now: number, timeZone: string): number {
  return Math.floor(nowSerial(now, timeZone));
}

/** Now's serial (Sheets' NOW()): today's, plus the time of day in `timeZone` as a fraction of the day. */
export function nowSerial(now: number, timeZone: string): number {
  const w = wallTime(now, timeZone);
  const seconds = w.hour * 3600 + w.minute * 60 + w.second + (now % 1000) / 1000;
  return daySerial(w.year, w.month, w.day) + seconds / 86_400;
}

/**
 * Arguments as Sheets passes them: a one-cell reference as its value, a larger range as a 2D array,
 * an omitted argument as undefined; a named range as the range it names, an unknown name as `#NAME?`;
 * a date expression such as `TODAY()-n` as its value (a date as its midnight, at `now`, in the
 * spreadsheet's zone). A formula that is only such an expression shows its value. A function the
 * formula may not call (`typeable`, formula-functions.ts) is unknown to Sheets: #NAME?. An argument that
 * calls NOW() or RAND() (or TODAY(), when `rules.volatileToday`) anywhere inside it keeps the function
 * from running: the cell shows "Loading..." indefinitely, as Google's guide says.
 */
export function planFormulaCall(
  model: SpreadsheetModel,
  sheet: SheetModel,
  row: number,
  column: number,
  now: number,
  rules: FormulaRules = { volatileToday: false },
  typeable: (functionName: string) => boolean = (name) => !name.endsWith('_'),
): FormulaCall {
  const formula = model.cell(sheet, row, column)?.formula;
  if (!formula) return { error: 'The cell has no formula.', errorCode: '#ERROR!' };
  // A formula that is only numbers added and subtracted (`=2026-11-01`, which is 2014) needs no script.
  const sum = sumOfNumbers(formula.slice(1));
  if (sum !== undefined) return { values: [[sum]] };
  const clock = (): ExpressionClock => ({ todaySerial: todaySerial(now, model.timeZone), nowSerial: nowSerial(now, model.timeZone) });
  const whole = parseExpression(formula.slice(1));
  if (whole) {
    // A built-in formula on its own (`=TODAY()`, `=NOW()`) is computed whatever the reading.
    try {
      return { values: [[expressionCell(evaluateExpression(whole, clock()), now, model.timeZone)]] };
    } catch (e) {
      if (e instanceof ExpressionError) return { error: e.message, errorCode: e.errorCode };
      throw e;
    }
  }
  const parsed = parseFormula(formula);
  if (!parsed || isBuiltIn(parsed.functionName)) return { error: 'Formula parse error.', errorCode: '#ERROR!' };
  if (!typeable(parsed.functionName)) return { error: `Unknown function: '${parsed.functionName}'.`, errorCode: '#NAME?' };
  const volatile: VolatileFunction[] = rules.volatileToday ? ['TODAY', 'NOW', 'RAND'] : ['NOW', 'RAND'];
  for (const arg of parsed.args) {
    if (arg.kind !== 'expression') continue;
    const calls = volatileCalls(arg.expression);
    if (calls.has('TODAY') && !calls.has('NOW') && !calls.has('RAND')) rules.onTodayArgument?.();
    if (volatile.some((name) => calls.has(name))) return { loading: true };
  }
  let failed: ExpressionError | undefined;
  const args = parsed.args.map((arg) => {
    if (arg.kind === 'omitted') return undefined;
    if (arg.kind === 'literal') return arg.value;
    if (arg.kind === 'expression') {
      try {
        return expressionCell(evaluateExpression(arg.expression, clock()), now, model.timeZone);
      } catch (e) {
        if (!(e instanceof ExpressionError)) throw e;
        failed ??= e;
        return undefined;
      }
    }
    if (arg.kind === 'name') {
      const named = model.namedRanges.get(arg.name);
      if (!named) return '#NAME?';
      const values = model.readValues(named);
      return named.numRows === 1 && named.numColumns === 1 ? values[0]![0] : values;
    }
    const source = arg.ref.sheetName !== undefined ? model.sheetByName(arg.ref.sheetName) : sheet;
    if (!source) return '#REF!';
    const box = resolveA1(arg.ref, source.maxRows, source.maxColumns);
    const values = model.readValues({ sheetId: source.id, ...box });
    // A one-cell reference or range arrives as its value; a larger range as a 2D array.
    return box.numRows === 1 && box.numColumns === 1 ? values[0]![0] : values;
  });
  // An argument Sheets cannot compute is the cell's error; the function does not run.
  if (failed) return { error: failed.message, errorCode: failed.errorCode };
  return { functionName: parsed.functionName, args };
}

/** What the cell takes from an execution: its value as a grid (a 1-D array fills down), or its error. */
export function formulaOutcome(outcome: ExecutionOutcome): FormulaOutcome {
  if (outcome.functionNotFound)
    return {
      error: `Unknown function: '${/Script function not found: (.*)$/.exec(outcome.error?.message ?? '')?.[1] ?? ''}'.`,
      errorCode: '#NAME?',
    };
  if (!outcome.ok) return { error: outcome.error?.message ?? 'Error', errorCode: '#ERROR!' };
  const value = outcome.value;
  if (Array.isArray(value)) {
    if (value.length === 0) return { values: [['']] };
    return { values: value.map((row) => (Array.isArray(row) ? row.map(toCellValue) : [toCellValue(row)])) };
  }
  return { values: [[toCellValue(value)]] };
}

/** Writes the result into the cell (spilling it) and reports what the cell now shows. */
export function applyFormulaOutcome(
  model: SpreadsheetModel,
  sheet: SheetModel,
  row: number,
  column: number,
  result: FormulaOutcome,
  executionId?: number,
): FormulaResult {
  model.writeFormulaResult(sheet, row, column, result);
  const record = model.cell(sheet, row, column);
  const value = record?.value ?? '';
  return {
    sheet: sheet.name,
    a1: formatA1({ row, column, numRows: 1, numColumns: 1 }),
    value,
    values: result.values && !record?.error ? result.values : [[value]],
    error: record?.error,
    ...(record?.loading ? { loading: true as const } : {}),
    executionId,
  };
}
