/**
 * The project's import graph, read from the source text: every relative `import`, `import type`,
 * `export … from`, side-effect import, `import('…')` type or call and `require('…')` of the TypeScript
 * files under the folders given, resolved to the file it names. A type-only import counts as an edge:
 * to a reader a circle of types is as much a circle as one of values. test/build/import-graph.test.ts
 * uses it to refuse circles and to hold the folders' import directions; its helpers take a plain graph
 * so that the test can try them on a small graph with deliberate mistakes.
 */
import fs from 'node:fs';
import path from 'node:path';

/** File (relative to the root, with "/") → the files it imports, in the order they first appear. */
export type ImportGraph = Map<string, string[]>;

/** Every .ts file under `dir`, as a path relative to `root` with "/", in name order. */
export function tsFilesUnder(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  const entries = fs.readdirSync(full, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  return entries.flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFilesUnder(root, rel);
    return entry.name.endsWith('.ts') ? [rel] : [];
  });
}

/** The source without its comments (string contents are kept: specifiers live in them). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The module specifiers a source names, by any of the import forms listed in the opening comment. */
export function specifiersOf(source: string): string[] {
  const code = withoutComments(source);
  const patterns = [
    /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /(?:^|[^.\w])require\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((m) => m[1]!));
}

/** The file a relative specifier names, among `known`, or undefined when it names none. */
function resolve(from: string, spec: string, known: ReadonlySet<string>): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  return [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => known.has(candidate));
}

/**
 * The graph of every .ts file under `dirs` (relative to `root`). Relative specifiers that resolve
 * to no file of the graph (a JSON file, a file outside `dirs`) are listed in `unresolved`.
 */
export function readImportGraph(root: string, dirs: readonly string[]): { graph: ImportGraph; unresolved: string[] } {
  const files = dirs.flatMap((dir) => tsFilesUnder(root, dir));
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  const unresolved: string[] = [];
  for (const file of files) {
    const targets: string[] = [];
    for (const spec of specifiersOf(fs.readFileSync(path.join(root, file), 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(file, spec, known);
      if (target === undefined) unresolved.push(`${file} → ${spec}`);
      else if (!targets.includes(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return { graph, unresolved };
}

/**
 * The circles of the graph: each strongly connected component of more than one file (or a file
 * importing itself), as its sorted list of files. Tarjan's algorithm, iterative so that a long
 * chain cannot overflow the stack.
 */
export function circles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) found.push(component.sort());
    }
  }
  return found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** A rule of direction: no file under `from` imports a file under `to` (folders relative to the root, no trailing "/"). */
export interface Direction {
  from: string;
  to: string;
  why: string;
}

/** Whether `file` is `place` itself (a file) or lies under it (a folder). */
function under(file: string, place: string): boolean {
  return file === place || file.startsWith(`${place}/`);
}

/** Every import that breaks one of the directions, as "file imports target (rule)". */
export function directionViolations(graph: ImportGraph, directions: readonly Direction[]): string[] {
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      for (const rule of directions) {
        if (under(file, rule.from) && under(target, rule.to)) problems.push(`${file} imports ${target} (${rule.from} ↛ ${rule.to})`);
      }
    }
  }
  return problems.sort();
}

/** Each folder holding more than `max` files directly (not counting its subfolders), with its count. */
export function crowdedRooms(files: readonly string[], max: number): string[] {
  const counts = new Map<string, number>();
  for (const file of files) {
    const folder = path.posix.dirname(file);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, count]) => count > max)
    .map(([folder, count]) => `${folder}/ holds ${count} files`)
    .sort();
}
