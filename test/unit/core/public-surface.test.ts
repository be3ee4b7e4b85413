/**
 * src/core/index.ts is the core's only door: the Apps Script adapters, the entry points and the
 * sidebar import the core through it alone, and it exports nothing that none of them imports.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CORE_DIR = path.join(ROOT, 'src', 'core');
const USERS = ['src/gas', 'src/entrypoints', 'sidebar'];

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The names in the braces of every `import {...} from` or `export {...} from` of `source`, by module specifier. */
function namedImports(source: string): Array<{ spec: string; names: string[] }> {
  return [...source.matchAll(/^(?:import|export)(?:\s+type)?\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gm)].map((m) => ({
    spec: m[2]!,
    names: m[1]!
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
      )
      .filter(Boolean),
  }));
}

const userFiles = USERS.flatMap((dir) => tsFiles(path.join(ROOT, dir)));

/** Every import of a core module from the adapters, entry points and sidebar: the file, the module it names and the names. */
const coreImports = userFiles.flatMap((file) => {
  const source = fs.readFileSync(file, 'utf8');
  const all = [
    ...namedImports(source),
    ...[...source.matchAll(/^import\s+(?:\*\s+as\s+\w+|\w+)\s+from\s*['"]([^'"]+)['"]/gm)].map((m) => ({ spec: m[1]!, names: ['*'] })),
  ];
  return all
    .filter(({ spec }) => spec.startsWith('.'))
    .map(({ spec, names }) => ({
      file: path.relative(ROOT, file),
      module: path.relative(CORE_DIR, path.resolve(path.dirname(file), spec)),
      names,
    }))
    .filter(({ module }) => !module.startsWith('..'));
});

describe("the core's public surface", () => {
  it('is where the adapters, the entry points and the sidebar import the core from, and nowhere else', () => {
    expect(coreImports.length).toBeGreaterThan(20);
    expect(coreImports.filter(({ module }) => module !== '').map(({ file, module }) => `${file} imports src/core/${module}`)).toEqual([]);
  });

  it('exports exactly what they import', () => {
    const exported = namedImports(fs.readFileSync(path.join(CORE_DIR, 'index.ts'), 'utf8'))
      .flatMap(({ names }) => names)
      .sort();
    const imported = [...new Set(coreImports.flatMap(({ names }) => names))].sort();
    expect(exported).toEqual(imported);
  });
});
