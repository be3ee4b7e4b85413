/**
 * Measures the functions of TypeScript sources, for test/build/function-length.test.ts: each function
 * (declaration, expression, arrow, method, accessor or constructor, nested ones on their own) with the
 * names of what encloses it, its first line and its length in lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseSync } from '@swc/core';

export interface LongFunction {
  /** The file, relative to the repository's root, with forward slashes. */
  file: string;
  /** The function's name, prefixed by those of the classes and functions around it (`Outer.inner`). */
  name: string;
  lines: number;
}

export interface Measured extends LongFunction {
  /** The line the function starts on (1-based), to find it by. */
  line: number;
}

type Node = { [key: string]: unknown };

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassMethod',
  'PrivateMethod',
  'Constructor',
  'MethodProperty',
  'GetterProperty',
  'SetterProperty',
]);

/** The name a node gives what it holds: a declared or assigned identifier, a key, a class's name. */
function nameOf(node: Node): string | undefined {
  const named = (node.identifier ?? node.key ?? (node.type === 'VariableDeclarator' ? node.id : undefined)) as Node | undefined;
  if (!named) return undefined;
  if (typeof named.value === 'string') return named.value;
  // A private name (#field) keeps its identifier one level down.
  const id = named.id as Node | undefined;
  return typeof id?.value === 'string' ? `#${id.value}` : undefined;
}

/** Every function of `source` with its qualified name, first line and length in lines. */
export function measureFunctions(file: string, source: string): Measured[] {
  // Positions are byte offsets from a base that swc chooses (and that has moved between releases), and a
  // module's own span starts at its first token, after the header comment; a leading `;` puts a known
  // token at byte 0, so the base is that module's start.
  const ast = parseSync(`;${source}`, { syntax: 'typescript', target: 'es2022', comments: false });
  const base = (ast.span as { start: number }).start + 1;
  const bytes = Buffer.from(source, 'utf8');
  const lineStarts = [0];
  bytes.forEach((byte, at) => {
    if (byte === 0x0a) lineStarts.push(at + 1);
  });
  const lineAt = (position: number): number => {
    const offset = position - base;
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  const found: Measured[] = [];
  const visit = (value: unknown, scope: string[], pendingName: string | undefined): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, scope, pendingName);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const node = value as Node;
    const own = nameOf(node);
    let inner = scope;
    let name = own ?? pendingName;
    if (typeof node.type === 'string' && FUNCTION_TYPES.has(node.type)) {
      const span = node.span as { start: number; end: number };
      const qualified = [...scope, name ?? '(anonymous)'].join('.');
      const first = lineAt(span.start);
      found.push({ file, name: qualified, line: first, lines: lineAt(span.end - 1) - first + 1 });
      inner = [...scope, name ?? '(anonymous)'];
      name = undefined;
    } else if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
      inner = [...scope, name ?? '(anonymous class)'];
      name = undefined;
    } else if (node.type === 'ObjectExpression' && name) {
      // An object of methods names them as its members: `handlers.open`.
      inner = [...scope, name];
      name = undefined;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key !== 'span' && key !== 'key' && key !== 'identifier') visit(child, inner, name);
    }
  };
  visit(ast.body, [], undefined);
  // Two functions of one name in one scope (two callbacks, say) are told apart by their order.
  const seen = new Map<string, number>();
  for (const fn of found) {
    const count = (seen.get(fn.name) ?? 0) + 1;
    seen.set(fn.name, count);
    if (count > 1) fn.name = `${fn.name}#${count}`;
  }
  return found;
}

export function tsFilesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFilesUnder(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

export function longFunctions(functions: Measured[], maxLines: number): Measured[] {
  return functions.filter((fn) => fn.lines > maxLines);
}

const keyOf = (fn: LongFunction): string => `${fn.file}: ${fn.name}`;

/**
 * Holds the long functions against a list of exceptions: those not listed, and the listed ones whose
 * figure is no longer today's (grown, shrunk, or gone or back under `maxLines`), each in a sentence.
 */
export function exceptionProblems(
  exceptions: readonly LongFunction[],
  long: readonly Measured[],
  maxLines: number,
): { unlisted: string[]; stale: string[] } {
  const listed = new Set(exceptions.map(keyOf));
  const today = new Map(long.map((fn) => [keyOf(fn), fn.lines]));
  const unlisted = long.filter((fn) => !listed.has(keyOf(fn))).map((fn) => `${fn.file}:${fn.line} ${fn.name} (${fn.lines} lines)`);
  const stale = exceptions.flatMap((fn) => {
    const lines = today.get(keyOf(fn));
    if (lines === fn.lines) return [];
    if (lines === undefined) return [`${keyOf(fn)}: gone or at most ${maxLines} lines, take it off the list`];
    return [
      lines > fn.lines ? `${keyOf(fn)}: grew from ${fn.lines} to ${lines} lines` : `${keyOf(fn)}: now ${lines} lines, lower its figure`,
    ];
  });
  const twice = exceptions.filter((fn, at) => exceptions.findIndex((other) => keyOf(other) === keyOf(fn)) !== at);
  return { unlisted, stale: [...stale, ...twice.map((fn) => `${keyOf(fn)}: listed twice`)] };
}
