/**
 * Generates the top-level stubs Apps Script needs. Apps Script only sees `function NAME() {}`
 * declarations at the top level of a script, and reads autocomplete help (`@customfunction`, `@param`)
 * from the JSDoc right above them; esbuild's IIFE hides everything inside `__engage`, so the build
 * appends one stub per exported entry point, copying the JSDoc written above the real function in
 * src/entrypoints/. A tag may be wrapped over several lines there; the stub carries each tag on one
 * line, so Sheets reads a parameter's whole help from its @param line however the source wraps it.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface EntryPointDoc {
  name: string;
  jsdoc: string;
  params: string[];
  file: string;
}

const EXPORTED_FUNCTION = /(\/\*\*(?:(?!\*\/)[\s\S])*?\*\/)\s*export\s+(?:async\s+)?function\s+([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(/g;

/** Reads `/** ... *\/ export function NAME(...)` declarations from the TypeScript entry files. */
export function readEntryPointDocs(entryDir: string): Map<string, EntryPointDoc> {
  const docs = new Map<string, EntryPointDoc>();
  for (const file of fs
    .readdirSync(entryDir)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const source = fs.readFileSync(path.join(entryDir, file), 'utf8');
    for (const match of source.matchAll(EXPORTED_FUNCTION)) {
      const [whole, jsdoc, name] = match as unknown as [string, string, string];
      const paramsStart = (match.index ?? 0) + whole.length;
      docs.set(name, { name, jsdoc: oneLinePerTag(jsdoc.trim()), params: parameterNames(source, paramsStart), file });
    }
  }
  return docs;
}

/**
 * The JSDoc with each tag (`@param ...`) on one line: the lines that continue a tag, up to the next
 * tag, a blank line or the end, are joined to it with one space. The description above the tags stays
 * as written.
 */
export function oneLinePerTag(jsdoc: string): string {
  const lines: string[] = [];
  let inTag = false;
  for (const line of jsdoc.split('\n')) {
    // The text of a ` * ...` line; undefined for the opening `/**` and the closing `*/`.
    const text = /^\s*\*(?!\/)(.*)$/.exec(line)?.[1]?.trim();
    if (text !== undefined && text !== '' && !text.startsWith('@') && inTag) {
      lines[lines.length - 1] += ` ${text}`;
      continue;
    }
    inTag = text?.startsWith('@') ?? false;
    lines.push(line);
  }
  return lines.join('\n');
}

/** Parameter names of a TypeScript signature starting just after its '(' (types and defaults dropped). */
function parameterNames(source: string, start: number): string[] {
  let depth = 0;
  let current = '';
  const parts: string[] = [];
  for (let i = start; i < source.length; i++) {
    const ch = source[i]!;
    if (depth === 0 && ch === ')') {
      parts.push(current);
      break;
    }
    if ('([{<'.includes(ch)) depth++;
    if (')]}>'.includes(ch) && !(ch === '>' && source[i - 1] === '=')) depth--;
    if (depth === 0 && ch === ',') {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  return parts
    .map(
      (p) =>
        p
          .trim()
          .replace(/^\.\.\./, '')
          .match(/^[A-Za-z_$][\w$]*/)?.[0] ?? '',
    )
    .filter((p) => p !== '');
}

/** The footer: one stub per entry point, in the order given, each forwarding to the bundle. */
export function renderStubs(globalName: string, names: string[], docs: Map<string, EntryPointDoc>): string {
  const missing = names.filter((n) => !docs.has(n));
  if (missing.length > 0) {
    throw new Error(
      `Entry points without a JSDoc comment in src/entrypoints: ${missing.join(', ')}. ` +
        'Every exported entry point needs one; Apps Script shows it as help.',
    );
  }
  const invalid = names.filter((n) => n.endsWith('_'));
  if (invalid.length > 0) throw new Error(`Apps Script hides functions whose name ends with "_": ${invalid.join(', ')}`);
  return names
    .map((name) => {
      const doc = docs.get(name)!;
      return `${doc.jsdoc}\nfunction ${name}(${doc.params.join(', ')}) {\n  return ${globalName}.${name}.apply(this, arguments);\n}\n`;
    })
    .join('\n');
}
