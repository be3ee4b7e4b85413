/**
 * Parses the formulas the host can evaluate: one function call whose arguments are literals
 * (numbers, "text", TRUE/FALSE, sums and differences of numbers), cell or range references, date
 * expressions of built-in functions (`TODAY()-14`, `DATE(YEAR(TODAY()),MONTH(TODAY())-1,1)`, a
 * rolling period's bounds: formula-expression.ts), or omitted (`=F(1,,3)`), and a formula that is
 * only a sum or difference of numbers. That is the shape of a custom-function cell; anything richer
 * is reported as a parse error rather than guessed at.
 */
import { parseA1, type ParsedA1 } from '../cells/a1-notation';
import { type Expression, parseExpression } from './formula-expression';

export type FormulaArgument =
  | { kind: 'literal'; value: string | number | boolean }
  | { kind: 'reference'; text: string; ref: ParsedA1; single: boolean }
  | { kind: 'name'; name: string }
  /** Built-in functions such as `TODAY()-14`: computed when the formula runs, by the host's clock in the spreadsheet's zone. */
  | { kind: 'expression'; expression: Expression }
  | { kind: 'omitted' };

export interface ParsedFormula {
  functionName: string;
  args: FormulaArgument[];
}

function splitArguments(inner: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  let inString = false;
  let inQuotedSheet = false;
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (inString) {
      current += ch;
      if (ch === '"') {
        if (inner[i + 1] === '"') current += inner[++i];
        else inString = false;
      }
    } else if (inQuotedSheet) {
      current += ch;
      if (ch === "'") inQuotedSheet = false;
    } else if (ch === '"') {
      inString = true;
      current += ch;
    } else if (ch === "'") {
      inQuotedSheet = true;
      current += ch;
    } else if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else if (ch === '(' || ch === ')') {
      // A call inside an argument (`TODAY()`): kept whole for parseArgument to accept or refuse.
      depth += ch === '(' ? 1 : -1;
      if (depth < 0) return undefined;
      current += ch;
    } else {
      current += ch;
    }
  }
  if (inString || inQuotedSheet || depth !== 0) return undefined;
  parts.push(current);
  return parts;
}

const NUMBER = String.raw`(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?`;
const SUM = new RegExp(String.raw`^\s*[+-]*\s*${NUMBER}(?:\s*[+-][+-\s]*${NUMBER})*\s*$`);

/**
 * The value of numbers joined by + and - (with signs before them), as Sheets computes it: an
 * unquoted date is such a sum, so `2026-11-01` is 2026 - 11 - 1 = 2014, not a date. Undefined for
 * anything else.
 */
export function sumOfNumbers(text: string): number | undefined {
  if (!SUM.test(text)) return undefined;
  let total = 0;
  for (const term of text.replace(/\s+/g, '').match(new RegExp(`[+-]*${NUMBER}`, 'g'))!) {
    const minuses = /^-*/.exec(term.replace(/\+/g, ''))![0].length;
    total += (minuses % 2 ? -1 : 1) * Number(term.replace(/^[+-]+/, ''));
  }
  return total;
}

function parseArgument(text: string): FormulaArgument | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'omitted' };
  if (/^"(?:[^"]|"")*"$/.test(trimmed)) return { kind: 'literal', value: trimmed.slice(1, -1).replace(/""/g, '"') };
  const sum = sumOfNumbers(trimmed);
  if (sum !== undefined) return { kind: 'literal', value: sum };
  if (/^(TRUE|FALSE)$/i.test(trimmed)) return { kind: 'literal', value: trimmed.toUpperCase() === 'TRUE' };
  if (trimmed.includes('(')) {
    const expression = parseExpression(trimmed);
    return expression ? { kind: 'expression', expression } : undefined;
  }
  const ref = parseA1(trimmed);
  // A named range (Refresh all's EngageRefresh): resolved by the host when the formula runs.
  if (!ref) return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(trimmed) ? { kind: 'name', name: trimmed } : undefined;
  const single = !trimmed.includes(':');
  return { kind: 'reference', text: trimmed, ref, single };
}

/** Returns undefined when the formula is not a single call with simple arguments. */
export function parseFormula(formula: string): ParsedFormula | undefined {
  const match = /^=\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(([\s\S]*)\)\s*$/.exec(formula);
  if (!match) return undefined;
  const inner = match[2]!;
  const pieces = inner.trim() === '' ? [] : splitArguments(inner);
  if (!pieces) return undefined;
  const args: FormulaArgument[] = [];
  for (const piece of pieces) {
    const arg = parseArgument(piece);
    if (!arg) return undefined;
    args.push(arg);
  }
  return { functionName: match[1]!, args };
}
