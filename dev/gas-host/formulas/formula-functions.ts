/**
 * Which top-level functions a formula may call, in the host's two readings (strict.ts,
 * `anyFunctionAsFormula`). Google's one rule is "The name of a custom function can't end with an
 * underscore" (developers.google.com/apps-script/guides/sheets/functions), so on the platform a
 * sidebar's server function typed into a cell runs: that is the strict reading. The kind reading takes
 * the JSDoc `@customfunction` tag, which Google documents only for autocomplete, as the list of what a
 * formula may call: the functions whose JSDoc in the loaded script carries it (the build's stubs carry
 * each entry point's JSDoc), read from the script's comments with acorn.
 */
import * as acorn from 'acorn';

/** Upper-cased names of the top-level `function NAME() {}` declarations whose JSDoc says `@customfunction`. */
export function customFunctionNames(code: string): Set<string> {
  const comments: acorn.Comment[] = [];
  const program = acorn.parse(code, { ecmaVersion: 'latest', onComment: comments, allowHashBang: true });
  const names = new Set<string>();
  for (const node of program.body) {
    if (node.type !== 'FunctionDeclaration' || !node.id) continue;
    // The JSDoc of a declaration is the block comment right above it, with only white space between.
    const doc = comments.filter((c) => c.type === 'Block' && c.end <= node.start).pop();
    if (!doc?.value.startsWith('*') || code.slice(doc.end, node.start).trim() !== '') continue;
    if (/@customfunction\b/.test(doc.value)) names.add(node.id.name.toUpperCase());
  }
  return names;
}

/**
 * Whether a formula may call `functionName` (as typed: Sheets matches names in any case). Strict:
 * any name not ending in `_`; kind: only a function the loaded script declares `@customfunction`.
 */
export function typeableAsFormula(functionName: string, anyFunctionAsFormula: boolean, customFunctions: ReadonlySet<string>): boolean {
  if (functionName.endsWith('_')) return false;
  return anyFunctionAsFormula || customFunctions.has(functionName.toUpperCase());
}
