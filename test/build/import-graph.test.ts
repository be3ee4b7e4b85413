/**
 * The house a contributor reads, held from the code's own imports (test/support/import-graph.ts reads
 * every relative `import`, `import type`, `export … from`, `import()` and `require()`): no import
 * circle anywhere in src/, sidebar/, dev/, scripts/, bench/ or test/'s own code (a circle of types is a
 * circle to a reader too); no room (folder) of src/core, src/gas, sidebar/ or dev/ holding more than 12
 * files (ROOM_LIMITED), and src/gas kept in its two rooms (adapters/, wiring/); and the folders' import
 * directions below, the stand-ins' in dev/ included. The core's own layers, room by room, are
 * test/unit/core/purity.test.ts's.
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
/** The most files a room holds directly (a room's subfolders are rooms of their own); every kind of file counts. */
const MAX_FILES_PER_ROOM = 12;
/**
 * The folders whose every room keeps to MAX_FILES_PER_ROOM, each with the fewest files a whole reading
 * of it must find (so that a wrong path cannot pass on nothing). A folder joins the list once it keeps
 * to the rule.
 */
const ROOM_LIMITED: Record<string, number> = { 'src/core': 80, 'src/gas': 20, sidebar: 40, dev: 80 };

/** dev/gas-host's layers, top first (docs/architecture.md draws them): the host's own files, then executions/ and formulas/, then services/ and state/, then protocol/, then cells/ and fetch/. */
const HOST_FILES = ['gas-host.ts', 'options.ts', 'host-state.ts', 'deployment.ts', 'index.ts'].map((file) => `dev/gas-host/${file}`);
const HOST_ROOMS = ['executions', 'formulas', 'services', 'state', 'protocol', 'cells', 'fetch'].map((room) => `dev/gas-host/${room}`);
const GAS_HOST_DIRECTIONS: Direction[] = [
  { from: 'dev/gas-host/state', to: 'dev/gas-host/services', why: 'the shared state serves operations; the facades call them' },
  {
    from: 'dev/gas-host/services',
    to: 'dev/gas-host/state',
    why: 'a facade reaches the state only through HostOps (protocol/protocol.ts)',
  },
  ...['dev/gas-host/services', 'dev/gas-host/state'].flatMap((from) =>
    [...HOST_FILES, 'dev/gas-host/executions', 'dev/gas-host/formulas'].map((to) => ({
      from,
      to,
      why: 'the runtime builds the facades, which see one execution only; the host state and the deployment are made of state/, which names the shapes they keep',
    })),
  ),
  ...['dev/gas-host/executions', 'dev/gas-host/formulas'].flatMap((from) =>
    [...HOST_FILES, ...HOST_ROOMS.slice(0, 2).filter((room) => room !== from)].map((to) => ({
      from,
      to,
      why: 'the host runs executions and formula cells; they know it only through the shapes it is handed (executions/worker-pool.ts names PoolHost)',
    })),
  ),
  ...[...HOST_FILES, ...HOST_ROOMS.slice(0, 4)].map((to) => ({
    from: 'dev/gas-host/protocol',
    to,
    why: 'the protocol, an execution’s request and the strict readings are what every layer above agrees on',
  })),
  ...['dev/gas-host/cells', 'dev/gas-host/fetch'].flatMap((from) =>
    [...HOST_FILES, ...HOST_ROOMS.filter((room) => room !== from)].map((to) => ({
      from,
      to,
      why: 'how a cell’s text and address read, and the synchronous HTTP beneath UrlFetchApp, import nothing else of the host',
    })),
  ),
];

/**
 * The stand-ins' folders, top first: dev/playground on the emulator and the host; dev/emulator, which
 * mounts dev/bigquery; dev/gas-host beside them; and dev/shared (the API error, the clock and its
 * virtual-time headers) beneath them all, importing nothing else of dev/.
 */
const DEV_DIRECTIONS: Direction[] = [
  ...['dev/emulator', 'dev/bigquery', 'dev/gas-host', 'dev/playground'].map((to) => ({
    from: 'dev/shared',
    to,
    why: 'what the stand-ins share sits beneath them all',
  })),
  ...['dev/emulator', 'dev/gas-host', 'dev/playground'].map((to) => ({
    from: 'dev/bigquery',
    to,
    why: 'the BigQuery stand-in is mounted by the emulator and shares only dev/shared with it',
  })),
  ...['dev/emulator', 'dev/bigquery', 'dev/playground'].map((to) => ({
    from: 'dev/gas-host',
    to,
    why: 'the Apps Script host knows nothing of the servers it fetches from, nor of the playground built on it',
  })),
  ...['dev/gas-host', 'dev/playground'].map((to) => ({
    from: 'dev/emulator',
    to,
    why: 'the emulator serves the host over HTTP only, and the playground is built on it',
  })),
  ...GAS_HOST_DIRECTIONS,
  ...['dev/bigquery/routes.ts', 'dev/bigquery/admin-routes.ts', 'dev/bigquery/discovery-validator.ts', 'dev/bigquery/resources.ts'].map(
    (to) => ({
      from: 'dev/bigquery/model',
      to,
      why: 'what the BigQuery stand-in keeps and does (datasets, tables, jobs, limits) knows nothing of HTTP',
    }),
  ),
  ...['dev/emulator/routes', 'dev/emulator/app.ts', 'dev/emulator/server.ts', 'dev/emulator/main.ts', 'dev/emulator/spawn.ts'].map(
    (to) => ({
      from: 'dev/emulator/model',
      to,
      why: 'what the emulated service knows and computes knows nothing of HTTP',
    }),
  ),
  ...['dev/emulator/app.ts', 'dev/emulator/server.ts', 'dev/emulator/main.ts', 'dev/emulator/spawn.ts'].map((to) => ({
    from: 'dev/emulator/routes',
    to,
    why: 'the app assembles the routes and the server listens with it, not the reverse',
  })),
];

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
  ...DEV_DIRECTIONS,
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
      'dev/gas-host/services/kit.ts': ['dev/gas-host/host-state.ts'],
    });
    const rules: Direction[] = [
      { from: 'src/core', to: 'src/gas', why: '' },
      { from: 'dev/gas-host/services', to: 'dev/gas-host/host-state.ts', why: '' },
    ];
    expect(directionViolations(graph, rules)).toEqual([
      'dev/gas-host/services/kit.ts imports dev/gas-host/host-state.ts (dev/gas-host/services ↛ dev/gas-host/host-state.ts)',
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

  it('name a deliberate import against each of the stand-ins’ directions, and none along them', () => {
    for (const rule of DEV_DIRECTIONS) {
      const importer = `${rule.from}/mistake.ts`;
      const imported = rule.to.endsWith('.ts') ? rule.to : `${rule.to}/target.ts`;
      expect(directionViolations(graphOf({ [importer]: [imported] }), DEV_DIRECTIONS)).toEqual([
        `${importer} imports ${imported} (${rule.from} ↛ ${rule.to})`,
      ]);
    }
    const downward = graphOf({
      'dev/playground/a.ts': ['dev/emulator/spawn.ts', 'dev/gas-host/index.ts', 'dev/shared/clock.ts'],
      'dev/emulator/app.ts': ['dev/bigquery/routes.ts', 'dev/emulator/routes/hooks.ts', 'dev/shared/api-error.ts'],
      'dev/emulator/routes/hooks.ts': ['dev/emulator/model/state.ts'],
      'dev/bigquery/admin-routes.ts': ['dev/shared/api-error.ts'],
      'dev/gas-host/deployment.ts': ['dev/shared/clock.ts', 'dev/gas-host/state/locks.ts'],
      'dev/gas-host/gas-host.ts': ['dev/gas-host/executions/worker-pool.ts', 'dev/gas-host/formulas/formula-cells.ts'],
      'dev/gas-host/executions/runtime.ts': ['dev/gas-host/services/kit.ts', 'dev/gas-host/protocol/execution.ts'],
      'dev/gas-host/formulas/formula-cells.ts': ['dev/gas-host/state/spreadsheets/spreadsheet.ts', 'dev/gas-host/cells/a1-notation.ts'],
      'dev/gas-host/services/url-fetch.ts': ['dev/gas-host/protocol/protocol.ts', 'dev/gas-host/fetch/fetch-core.ts'],
      'dev/gas-host/protocol/protocol.ts': ['dev/gas-host/cells/typed-input.ts', 'dev/gas-host/fetch/fetch-core.ts'],
    });
    expect(directionViolations(downward, DEV_DIRECTIONS)).toEqual([]);
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

  it.each(Object.entries(ROOM_LIMITED))(`has no room of %s holding more than ${MAX_FILES_PER_ROOM} files`, (folder, fewestFiles) => {
    const files = allFilesUnder(folder);
    expect(files.length).toBeGreaterThan(fewestFiles);
    expect(crowdedRooms(files, MAX_FILES_PER_ROOM)).toEqual([]);
  });

  it(`keeps src/gas in its two rooms, adapters/ and wiring/, none holding more than ${MAX_FILES_PER_ROOM} files`, () => {
    const files = allFilesUnder('src/gas');
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((file) => !/^src\/gas\/(adapters|wiring)\//.test(file))).toEqual([]);
    expect(crowdedRooms(files, MAX_FILES_PER_ROOM)).toEqual([]);
  });
});
