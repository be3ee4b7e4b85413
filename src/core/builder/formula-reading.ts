/**
 * Reading a formula's text back: `=NAME(arg, arg, ...)` as one call of a function, each argument as
 * written: a quoted text ("" inside for a quote), a number, left empty, a cell reference or a named
 * range (B2, $B$2, Sheet1!B2:C3, 'My sheet'!B2, EngageRefresh), or anything else, an expression
 * (TODAY()-7, "a"&B1, DATE(2026,1,1)), kept as its source. Arguments are separated by commas, or by
 * semicolons in the locales whose decimal separator is the comma (there a number is written 1,5); a
 * separator inside quotes, parentheses or braces belongs to its argument. Only a formula that is one
 * call and nothing else is read: `=IFERROR(ENGAGE_COMPARE(...),"")` is not ENGAGE_COMPARE's.
 */

export type FormulaArgument =
  | { kind: 'text'; value: string; source: string }
  | { kind: 'number'; value: number; source: string }
  | { kind: 'empty'; source: string }
  | { kind: 'reference'; source: string }
  | { kind: 'expression'; source: string };

export interface FormulaCall {
  /** The function's name in capitals. */
  name: string;
  args: FormulaArgument[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;
/** A cell or range, optionally on a sheet (quoted with '' inside for a quote), $ anchors allowed; whole columns or rows too. */
const CELL = String.raw`\$?[A-Za-z]{1,3}\$?\d+`;
const REFERENCE = new RegExp(
  String.raw`^(?:(?:'(?:[^']|'')+'|[A-Za-z0-9_.]+)!)?(?:${CELL}(?::${CELL})?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+)$`,
);
/** A named range: a name that is not TRUE or FALSE and not a cell. */
const NAMED_RANGE = /^[A-Za-z_\\][A-Za-z0-9_.]*$/;

/**
 * Splits `text` at top-level `separator`s (outside quotes, parentheses and braces); undefined when
 * its quotes or brackets do not close.
 */
function splitTopLevel(text: string, separator: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let sheetQuoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') quoted = text[i + 1] === '"' ? (i++, true) : false;
    } else if (sheetQuoted) {
      if (c === "'") sheetQuoted = text[i + 1] === "'" ? (i++, true) : false;
    } else if (c === '"') quoted = true;
    else if (c === "'") sheetQuoted = true;
    else if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') {
      if (--depth < 0) return undefined;
    } else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted || sheetQuoted || depth !== 0) return undefined;
  parts.push(text.slice(start));
  return parts;
}

/** One argument as written; `decimalComma`: the locale writes 1,5 for 1.5. */
function readArgument(raw: string, decimalComma: boolean): FormulaArgument {
  const source = raw.trim();
  if (source === '') return { kind: 'empty', source };
  const text = /^"((?:[^"]|"")*)"$/.exec(source);
  if (text) return { kind: 'text', value: text[1]!.replace(/""/g, '"'), source };
  const number = decimalComma ? source.replace(',', '.') : source;
  if (/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(number)) return { kind: 'number', value: Number(number), source };
  if (REFERENCE.test(source) || (NAMED_RANGE.test(source) && !/^(TRUE|FALSE)$/i.test(source))) return { kind: 'reference', source };
  return { kind: 'expression', source };
}

/**
 * The one call a formula's text is, or undefined when it is not a formula of one call alone. The
 * separator is the semicolon when the arguments have one at the top level (a comma-locale formula
 * has semicolons only inside its array literals' braces), else the comma.
 */
export function readFormulaCall(formula: string): FormulaCall | undefined {
  const call = /^\s*=\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(([\s\S]*)\)\s*$/.exec(formula);
  if (!call || !NAME.test(call[1]!)) return undefined;
  const inside = call[2]!;
  // The closing parenthesis must be the call's own: "=F(1)+G(2)" is no single call.
  if (splitTopLevel(inside, ',') === undefined) return undefined;
  const bySemicolon = splitTopLevel(inside, ';')!;
  const semicolons = bySemicolon.length > 1;
  const parts = semicolons ? bySemicolon : splitTopLevel(inside, ',')!;
  // "=F()" has no argument, not one empty one.
  const args = parts.length === 1 && parts[0]!.trim() === '' ? [] : parts.map((p) => readArgument(p, semicolons));
  return { name: call[1]!.toUpperCase(), args };
}
