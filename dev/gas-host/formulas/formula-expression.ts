/**
 * The built-in expressions the host computes as Sheets does, so that a rolling period can be written
 * in a formula and evaluated here: numbers and "text", + and - (with signs), & (joins text; a number
 * or a date joins as its number), parentheses, and the
 * date functions TODAY(), DATE(year, month, day), YEAR(), MONTH(), DAY() and TEXT(value, format) with
 * a day format such as "yyyy-mm-dd", and the volatile NOW() and RAND(). Values are typed as Sheets
 * types them: a date plus or minus a number is a date, a date minus a date is a number of days,
 * YEAR/MONTH/DAY give numbers, TEXT gives text, NOW() a date with its time of day. Dates are day serial
 * numbers (30 December 1899 is 0) in the spreadsheet's zone. Anything else (cell references, other
 * functions, * and /) is not an expression here, and the caller says so. Which calls an expression
 * makes (volatileCalls) decides whether a custom function may take it as an argument at all.
 */

export type Expression =
  | { kind: 'number'; value: number }
  | { kind: 'text'; value: string }
  | { kind: 'call'; name: BuiltIn; args: Expression[] }
  | { kind: 'sum'; terms: Array<{ sign: 1 | -1; operand: Expression }> }
  | { kind: 'join'; parts: Expression[] };

export type ExpressionValue = { type: 'number'; value: number } | { type: 'date'; serial: number } | { type: 'text'; value: string };

/** A value Sheets cannot compute (#VALUE!, #NUM!), with the message its cell shows. */
export class ExpressionError extends Error {
  constructor(
    readonly errorCode: '#VALUE!' | '#NUM!',
    message: string,
  ) {
    super(message);
  }
}

const ARITY = { TODAY: 0, NOW: 0, RAND: 0, DATE: 3, YEAR: 1, MONTH: 1, DAY: 1, TEXT: 2 } as const;
type BuiltIn = keyof typeof ARITY;

/**
 * Functions that "return a different result each time they calculate" (Google's custom-function guide
 * names NOW() and RAND(); TODAY() changes once a day, and whether it counts is a reading: strict.ts).
 */
export type VolatileFunction = 'TODAY' | 'NOW' | 'RAND';

/** The moment an expression is computed at: today's serial and now's (with the time of day as its fraction), in the spreadsheet's zone. */
export interface ExpressionClock {
  todaySerial: number;
  nowSerial: number;
}

/** True for the functions this module computes (a call to one that did not parse is a parse error, never a script's function). */
export function isBuiltIn(name: string): boolean {
  return name.toUpperCase() in ARITY;
}

const TOKEN = /\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|("(?:[^"]|"")*")|([A-Za-z_][A-Za-z0-9_.]*)|([-+(),&]))/y;

type Token = { type: 'number'; value: number } | { type: 'text'; value: string } | { type: 'name'; value: string } | { type: string };

function tokenize(text: string): Token[] | undefined {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const m = TOKEN.exec(text);
    if (!m) return undefined;
    if (m[1] !== undefined) tokens.push({ type: 'number', value: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ type: 'text', value: m[2].slice(1, -1).replace(/""/g, '"') });
    else if (m[3] !== undefined) tokens.push({ type: 'name', value: m[3].toUpperCase() });
    else tokens.push({ type: m[4]! });
  }
  return tokens;
}

/**
 * The expression `text` (a formula without its "=", or one argument) when it is built only of what
 * this module computes and calls at least one of its functions; undefined otherwise.
 */
export function parseExpression(text: string): Expression | undefined {
  const tokens = tokenize(text);
  if (!tokens || tokens.length === 0) return undefined;
  let at = 0;
  let calls = 0;
  const peek = () => tokens[at]?.type;
  // & binds less tightly than + and -, as in Sheets.
  const join = (): Expression | undefined => {
    const parts: Expression[] = [];
    for (;;) {
      const part = sum();
      if (!part) return undefined;
      parts.push(part);
      if (peek() !== '&') break;
      at++;
    }
    return parts.length === 1 ? parts[0] : { kind: 'join', parts };
  };
  const sum = (): Expression | undefined => {
    const terms: Array<{ sign: 1 | -1; operand: Expression }> = [];
    let sign: 1 | -1 = 1;
    for (;;) {
      while (peek() === '+' || peek() === '-') if (tokens[at++]!.type === '-') sign = sign === 1 ? -1 : 1;
      const operand = primary();
      if (!operand) return undefined;
      terms.push({ sign, operand });
      if (peek() !== '+' && peek() !== '-') break;
      sign = tokens[at++]!.type === '-' ? -1 : 1;
    }
    return terms.length === 1 && terms[0]!.sign === 1 ? terms[0]!.operand : { kind: 'sum', terms };
  };
  const primary = (): Expression | undefined => {
    const token = tokens[at++];
    if (!token) return undefined;
    if (token.type === 'number') return { kind: 'number', value: (token as { value: number }).value };
    if (token.type === 'text') return { kind: 'text', value: (token as { value: string }).value };
    if (token.type === '(') {
      const inner = join();
      return inner && tokens[at++]?.type === ')' ? inner : undefined;
    }
    if (token.type !== 'name' || tokens[at++]?.type !== '(') return undefined;
    const name = (token as { value: string }).value;
    if (!(name in ARITY)) return undefined;
    const args: Expression[] = [];
    if (peek() === ')') at++;
    else {
      for (;;) {
        const arg = join();
        if (!arg) return undefined;
        args.push(arg);
        const next = tokens[at++]?.type;
        if (next === ')') break;
        if (next !== ',') return undefined;
      }
    }
    if (args.length !== ARITY[name as BuiltIn]) return undefined;
    calls++;
    return { kind: 'call', name: name as BuiltIn, args };
  };
  const expression = join();
  return expression && at === tokens.length && calls > 0 ? expression : undefined;
}

/** Days from 30 December 1899 (Sheets' day 0) to 1 January 1970. */
const EPOCH_SERIAL = 25569;
const MS_PER_DAY = 86_400_000;

/** The serial of a calendar day (month and day may overflow, as in Sheets' DATE). */
export function daySerial(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return Math.round(d.getTime() / MS_PER_DAY) + EPOCH_SERIAL;
}

function dayOf(serial: number): { year: number; month: number; day: number } {
  const d = new Date((Math.floor(serial) - EPOCH_SERIAL) * MS_PER_DAY);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function asNumber(value: ExpressionValue, what: string): number {
  if (value.type === 'number') return value.value;
  if (value.type === 'date') return value.serial;
  throw new ExpressionError('#VALUE!', `${what} expects number values. But '${value.value}' is a text and cannot be coerced to a number.`);
}

/** Sheets' TEXT with a day format: yyyy, yy, mm, m, dd, d and the separators - / . and space. */
function formatDate(serial: number, format: string): string {
  const { year, month, day } = dayOf(serial);
  const two = (n: number) => String(n).padStart(2, '0');
  const pieces = format.match(/yyyy|yy|mm|m|dd|d|[-/. ]/gi);
  if (!pieces || pieces.join('') !== format)
    throw new ExpressionError('#VALUE!', `TEXT: the host formats days only (yyyy, yy, mm, m, dd, d), not '${format}'.`);
  return pieces
    .map((p) => {
      const lower = p.toLowerCase();
      if (lower === 'yyyy') return String(year);
      if (lower === 'yy') return two(year % 100);
      if (lower === 'mm') return two(month);
      if (lower === 'm') return String(month);
      if (lower === 'dd') return two(day);
      if (lower === 'd') return String(day);
      return p;
    })
    .join('');
}

/** The volatile functions `expression` calls, anywhere inside it. */
export function volatileCalls(expression: Expression): Set<VolatileFunction> {
  const found = new Set<VolatileFunction>();
  const visit = (e: Expression): void => {
    if (e.kind === 'call') {
      if (e.name === 'TODAY' || e.name === 'NOW' || e.name === 'RAND') found.add(e.name);
      for (const arg of e.args) visit(arg);
    } else if (e.kind === 'sum') {
      for (const term of e.terms) visit(term.operand);
    } else if (e.kind === 'join') {
      for (const part of e.parts) visit(part);
    }
  };
  visit(expression);
  return found;
}

function call(name: BuiltIn, args: ExpressionValue[], clock: ExpressionClock): ExpressionValue {
  switch (name) {
    case 'TODAY':
      return { type: 'date', serial: clock.todaySerial };
    case 'NOW':
      return { type: 'date', serial: clock.nowSerial };
    case 'RAND':
      return { type: 'number', value: Math.random() };
    case 'DATE': {
      let [year, month, day] = args.map((a, i) => Math.trunc(asNumber(a, `Function DATE parameter ${i + 1}`))) as [number, number, number];
      if (year >= 0 && year < 1900) year += 1900;
      if (year < 0 || year >= 10000)
        throw new ExpressionError('#NUM!', `Function DATE parameter 1 value is ${year}. It should be between 0 and 9999.`);
      const serial = daySerial(year, month, day);
      if (serial < 0) throw new ExpressionError('#NUM!', 'DATE evaluates to an out of range value, before 30 December 1899.');
      return { type: 'date', serial };
    }
    case 'YEAR':
    case 'MONTH':
    case 'DAY': {
      const serial = asNumber(args[0]!, `Function ${name} parameter 1`);
      if (serial < 0) throw new ExpressionError('#NUM!', `Function ${name} parameter 1 value ${serial} is negative.`);
      const d = dayOf(serial);
      return { type: 'number', value: name === 'YEAR' ? d.year : name === 'MONTH' ? d.month : d.day };
    }
    case 'TEXT': {
      const [value, format] = args as [ExpressionValue, ExpressionValue];
      if (format.type !== 'text') throw new ExpressionError('#VALUE!', 'Function TEXT parameter 2 expects a format text.');
      if (value.type === 'text') return value;
      return { type: 'text', value: formatDate(value.type === 'date' ? value.serial : value.value, format.value) };
    }
  }
}

/** The value of `expression` at the moment of `clock`; throws ExpressionError as Sheets shows an error. */
export function evaluateExpression(expression: Expression, clock: ExpressionClock): ExpressionValue {
  switch (expression.kind) {
    case 'number':
      return { type: 'number', value: expression.value };
    case 'text':
      return { type: 'text', value: expression.value };
    case 'call':
      return call(
        expression.name,
        expression.args.map((a) => evaluateExpression(a, clock)),
        clock,
      );
    case 'join': {
      const text = (value: ExpressionValue) =>
        value.type === 'text' ? value.value : String(value.type === 'date' ? value.serial : value.value);
      return { type: 'text', value: expression.parts.map((p) => text(evaluateExpression(p, clock))).join('') };
    }
    case 'sum': {
      // A date plus or minus numbers stays a date; a date minus a date is a number of days.
      let total = 0;
      let dates = 0;
      for (const { sign, operand } of expression.terms) {
        const value = evaluateExpression(operand, clock);
        total += sign * asNumber(value, sign === 1 ? 'Function ADD parameter' : 'Function MINUS parameter');
        if (value.type === 'date') dates += sign;
      }
      return dates === 1 ? { type: 'date', serial: total } : { type: 'number', value: total };
    }
  }
}
