/**
 * The house a contributor reads, held from the code's own imports (test/support/import-graph.ts reads
 * every relative `import`, `import type`, `export … from`, `import()` and `require()`): no import
 * circle anywhere in src/, sidebar/, dev/, scripts/, bench/ or test/'s own code (a circle of types is a
 * circle to a reader too); no room (folder) of src/core or src/gas holding more than 12 files, and
 * src/gas kept in its two rooms (adapters/, wiring/); and the folders' import directions below. The
 * core's own layers, room by room, are test/unit/core/purity.test.ts's.
 * The checks are first tried on a small graph with deliberate mistakes, which they must name, and the
 * real graph must be of a plausible size, so that none of them can pass on an empty reading.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  circles,
  crowdedRooms,
  type Direction,
  directionViolations,
  type ImportGraph,
  readImportGraph,
  specifiersOf,
} from '../support/import-graph';

const ROOT = path.resolve(__dirname, '..', '..');
/** Everything that is code of the project; test/fixtures holds deliberate mistakes (test/unit/core/purity.test.ts uses them). */
const SCANNED = [
  'src',
  'sidebar',
  'dev',
  'scripts',
  'bench',
  'test/support',
  'test/unit',
  'test/e2e',
  'test/evidence',
  'test/integration',
  'test/browser',
  'test/build',
  'test/contract',
];
/** The most files a room of src/core or src/gas holds directly (a room's subfolders are rooms of their own); every kind of file counts. */
const MAX_FILES_PER_ROOM = 12;

/** The directions the folders keep: no file under `from` imports a file under `to` (a folder, or one file). */
const DIRECTIONS: Direction[] = [
  ...['src/gas', 'src/entrypoints', 'sidebar', 'dev', 'scripts', 'bench', 'test'].map((to) => ({
    from: 'src/core',
    to,
    why: 'the core is plain TypeScript: the adapters, entry points and sidebar use it, never the reverse',
  })),
  { from: 'src/gas', to: 'src/entrypoints', why: 'the Apps Script adapters sit below the entry points that wire them' },
  {
    from: 'src/gas/adapters',
    to: 'src/gas/wiring',
    why: 'an adapter is one port over one Apps Script service; the wiring builds the core’s services from adapters, never the reverse',
  },
  ...['dev', 'scripts', 'bench', 'test', 'sidebar'].map((to) => ({
    from: 'src',
    to,
    why: 'the add-on is bundled alone: it never reaches its stand-ins, tools, tests or the sidebar page',
  })),
  ...['src/gas', 'dev', 'test'].map((to) => ({
    from: 'sidebar',
    to,
    why: 'the sidebar reaches the server only through google.script.run (it may name the entry points’ types)',
  })),
  ...['src', 'test', 'bench'].map((to) => ({
    from: 'dev',
    to,
    why: 'the stand-ins know the add-on only through its built bundle and the spec',
  })),
  { from: 'dev/gas-host', to: 'dev/emulator', why: 'the Apps Script host knows nothing of the Engage emulator' },
  { from: 'dev/gas-host', to: 'dev/playground', why: 'the playground is built on the host, not the reverse' },
  { from: 'dev/emulator', to: 'dev/playground', why: 'the playground is built on the emulator, not the reverse' },
  { from: 'dev/gas-host/state', to: 'dev/gas-host/services', why: 'the shared state serves operations; the facades call them' },
  { from: 'dev/gas-host/services', to: 'dev/gas-host/state', why: 'a facade reaches the state only through HostOps (protocol.ts)' },
  ...['dev/gas-host/runtime.ts', 'dev/gas-host/gas-host.ts', 'dev/gas-host/host-state.ts', 'dev/gas-host/deployment.ts'].map((to) => ({
    from: 'dev/gas-host/services',
    to,
    why: 'the runtime builds the facades, and they see one execution only',
  })),
  ...['dev/gas-host/deployment.ts', 'dev/gas-host/host-state.ts', 'dev/gas-host/gas-host.ts'].map((to) => ({
    from: 'dev/gas-host/state',
    to,
    why: 'the deployment and the host state are made of state/, which names the shapes they keep',
  })),
  ...['dev', 'test', 'sidebar', 'bench'].map((to) => ({ from: 'scripts', to, why: 'the build and deploy scripts need only the core' })),
];

/** Each file's direct files, relative to the root: every file kind counts toward a room. */
function allFilesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    return entry.isDirectory() ? allFilesUnder(rel) : [rel];
  });
}

function graphOf(edges: Record<string, string[]>): ImportGraph {
  return new Map(Object.entries(edges));
}

describe('the import checks, on a small graph with deliberate mistakes', () => {
  it('read every form of import: value, type, re-export, side effect, import() and require()', () => {
    const source = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'import-graph', 'every-import-form.ts.txt'), 'utf8');
    expect(specifiersOf(source).sort()).toEqual(['../b', './a', './c', './d', './e', './f', './g', './h']);
  });

  it('name the files of every circle, a type-only one and a file importing itself included, and nothing else', () => {
    const graph = graphOf({
      'x/a.ts': ['x/b.ts'],
      'x/b.ts': ['x/c.ts', 'y/leaf.ts'],
      'x/c.ts': ['x/a.ts'],
      'y/leaf.ts': [],
      'y/self.ts': ['y/self.ts'],
      'z/chain.ts': ['x/a.ts', 'y/leaf.ts'],
    });
    expect(circles(graph)).toEqual([['x/a.ts', 'x/b.ts', 'x/c.ts'], ['y/self.ts']]);
    expect(circles(graphOf({ 'p.ts': ['q.ts'], 'q.ts': [] }))).toEqual([]);
  });

  it('name every import against a direction, by file or by folder, and no folder that only shares a prefix', () => {
    const graph = graphOf({
      'src/core/api/a.ts': ['src/gas/props.ts', 'src/core/util/text.ts'],
      'src/core-extras/b.ts': ['src/gas/props.ts'],
      'dev/gas-host/services/kit.ts': ['dev/gas-host/runtime.ts'],
    });
    const rules: Direction[] = [
      { from: 'src/core', to: 'src/gas', why: '' },
      { from: 'dev/gas-host/services', to: 'dev/gas-host/runtime.ts', why: '' },
    ];
    expect(directionViolations(graph, rules)).toEqual([
      'dev/gas-host/services/kit.ts imports dev/gas-host/runtime.ts (dev/gas-host/services ↛ dev/gas-host/runtime.ts)',
      'src/core/api/a.ts imports src/gas/props.ts (src/core ↛ src/gas)',
    ]);
  });

  it('name an Apps Script adapter that imports the wiring, by the project’s own directions', () => {
    const graph = graphOf({
      'src/gas/adapters/sheets/sheet.ts': ['src/gas/wiring/services.ts', 'src/gas/adapters/stores.ts'],
      'src/gas/wiring/services.ts': ['src/gas/adapters/stores.ts'],
      'src/entrypoints/menu.ts': ['src/gas/wiring/services.ts'],
    });
    expect(directionViolations(graph, DIRECTIONS)).toEqual([
      'src/gas/adapters/sheets/sheet.ts imports src/gas/wiring/services.ts (src/gas/adapters ↛ src/gas/wiring)',
    ]);
  });

  it('count a room by the files directly in it, not in its subfolders', () => {
    const files = [
      ...Array.from({ length: 13 }, (_, i) => `core/big/f${i}.ts`),
      ...Array.from({ length: 12 }, (_, i) => `core/ok/f${i}.ts`),
    ];
    expect(crowdedRooms([...files, 'core/ok/sub/extra.ts'], 12)).toEqual(['core/big/ holds 13 files']);
  });
});

describe('the project', () => {
  const { graph, unresolved } = readImportGraph(ROOT, SCANNED);
  const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);

  it('is read whole: hundreds of files and a thousand imports, every relative import resolved to a file', () => {
    expect(graph.size).toBeGreaterThan(350);
    expect(edges).toBeGreaterThan(1200);
    for (const dir of ['src/core', 'src/gas', 'src/entrypoints', 'sidebar', 'dev/gas-host/services', 'dev/emulator', 'scripts']) {
      expect([...graph.keys()].filter((file) => file.startsWith(`${dir}/`)).length).toBeGreaterThan(2);
    }
    expect(unresolved).toEqual([]);
  });

  it('has no import circle', () => {
    // Each circle as the files that import one another round (a strongly connected set), in name order.
    expect(circles(graph).map((files) => `${files.length} files import one another: ${files.join(', ')}`)).toEqual([]);
  });

  it('keeps the folders’ import directions', () => {
    expect(directionViolations(graph, DIRECTIONS)).toEqual([]);
  });

  it(`has no room of src/core holding more than ${MAX_FILES_PER_ROOM} files`, () => {
    const files = allFilesUnder('src/core');
    expect(files.length).toBeGreaterThan(80);
    expect(crowdedRooms(files, MAX_FILES_PER_ROOM)).toEqual([]);
  });

  it(`keeps src/gas in its two rooms, adapters/ and wiring/, none holding more than ${MAX_FILES_PER_ROOM} files`, () => {
    const files = allFilesUnder('src/gas');
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((file) => !/^src\/gas\/(adapters|wiring)\//.test(file))).toEqual([]);
    expect(crowdedRooms(files, MAX_FILES_PER_ROOM)).toEqual([]);
  });
});
