/**
 * The core must run unchanged in Apps Script V8 and in Node: no file in src/core may name an Apps
 * Script global or a Node-only API, and it imports nothing but zod. Its rooms (the folders that hold
 * its files: util/, api/requests/, schedules/refresh/ …) are layers, each importing only from itself
 * and the layers below it (LAYERS). The same checks run on a miniature core with deliberate mistakes
 * (test/fixtures/core-layers), which they must report, and the core's own tsconfig (no Apps Script
 * types, no DOM) refuses the fixture's global at compile time. The Layout of docs/contributing.md
 * lists the top folders in the same order, and docs/architecture.md every room.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CORE_DIR = path.join(ROOT, 'src', 'core');
const FIXTURE_DIR = path.join(ROOT, 'test', 'fixtures', 'core-layers');

/**
 * The layers of src/core, lowest first, as rooms: the folder (relative to src/core) that holds a file.
 * A file may import from its own room and from the layers below its own; rooms of one rank may not
 * import each other. 'errors' is the error hierarchy; '.' is the base layer: the files at the root of
 * src/core (spec.ts, ports.ts, budgets.ts, deployment.ts), which may throw those errors. The rooms of
 * api/ and of schedules/ and addon/ are layers within the folder, in the order a call goes down.
 * index.ts, the public surface, sits above them all. src/core/index.ts repeats this order in its
 * opening comment, and docs/architecture.md draws it.
 */
const LAYERS: ReadonlyArray<readonly string[]> = [
  ['util'],
  ['errors'],
  ['.'],
  ['api/responses'],
  ['api/transport', 'api/requests'],
  ['api/paging'],
  ['api/client'],
  ['channels'],
  ['sheets', 'warehouse'],
  ['explain'],
  ['builder', 'recommendations'],
  ['schedules/saved'],
  ['schedules/refresh'],
  ['schedules/watchers'],
  ['schedules/service'],
  ['destinations/sheet', 'destinations/bigquery'],
  ['addon/stores'],
  ['addon/session'],
  ['addon/formulas', 'addon/sidebar'],
];
/** The miniature core's layers: the same rules, with a folder of rooms (schedules/) of its own. */
const FIXTURE_LAYERS: ReadonlyArray<readonly string[]> = [
  ['util'],
  ['errors'],
  ['.'],
  ['api'],
  ['builder', 'recommendations'],
  ['schedules/saved'],
  ['schedules/refresh'],
];
const PUBLIC_SURFACE = 'index.ts';

const FORBIDDEN: Array<[string, RegExp]> = [
  ['SpreadsheetApp', /\bSpreadsheetApp\b/],
  ['UrlFetchApp', /\bUrlFetchApp\b/],
  ['PropertiesService', /\bPropertiesService\b/],
  ['CacheService', /\bCacheService\b/],
  ['LockService', /\bLockService\b/],
  ['ScriptApp', /\bScriptApp\b/],
  ['HtmlService', /\bHtmlService\b/],
  ['Session.', /\bSession\./],
  ['Utilities.', /\bUtilities\./],
  ['Logger.', /\bLogger\./],
  ['Buffer', /\bBuffer\b/],
  ['process', /\bprocess\./],
  ['require(', /(^|[^.\w])require\(/],
  ['node: import', /from ['"]node:/],
  ['fetch(', /(?:[=(,;!&|?:]|\breturn)\s*fetch\(/],
  ['setTimeout', /\bsetTimeout\b/],
  ['setInterval', /\bsetInterval\b/],
  ['setImmediate', /\bsetImmediate\b/],
  ['TextEncoder', /\bTextEncoder\b/],
  ['btoa', /\bbtoa\(/],
  ['globalThis', /\bglobalThis\b/],
  ['async', /\basync\b/],
  ['await', /\bawait\b/],
];

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Every .ts file under `root`, as a path relative to it with "/" ("api/paging/paging.ts"), in name order. */
function tsFiles(root: string, dir = root): string[] {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(root, full);
    return entry.name.endsWith('.ts') ? [path.relative(root, full).split(path.sep).join('/')] : [];
  });
}

/** The module specifiers a file imports or re-exports. */
function importsOf(root: string, file: string): string[] {
  const code = fs.readFileSync(path.join(root, file), 'utf8');
  return [...code.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

/** Names of the forbidden globals and APIs a file uses. */
function forbiddenNames(root: string, file: string): string[] {
  const code = stripComments(fs.readFileSync(path.join(root, file), 'utf8'));
  return FORBIDDEN.filter(([, pattern]) => pattern.test(code)).map(([name]) => name);
}

/** The room of a file: the folder that holds it ("." for the root's files). */
function folderOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '.' : file.slice(0, slash);
}

/** Every import that breaks the layer order, and every file in a room of no layer, under `root`. */
function layerViolations(root: string, layers: ReadonlyArray<readonly string[]>): string[] {
  const rankOf = (folder: string) => layers.findIndex((layer) => layer.includes(folder));
  const problems: string[] = [];
  for (const file of tsFiles(root)) {
    if (file === PUBLIC_SURFACE) continue;
    const folder = folderOf(file);
    const rank = rankOf(folder);
    if (rank < 0) {
      problems.push(`${file}: its room ${folder}/ is in no layer`);
      continue;
    }
    for (const spec of importsOf(root, file)) {
      if (!spec.startsWith('.')) continue;
      const target = path
        .relative(root, path.resolve(path.dirname(path.join(root, file)), spec))
        .split(path.sep)
        .join('/');
      const targetFolder = folderOf(target);
      if (targetFolder === folder) continue;
      const targetRank = rankOf(targetFolder);
      if (targetRank < rank && targetRank >= 0) continue;
      const why = targetRank === rank ? 'a room of the same rank' : 'a higher layer';
      problems.push(`${file} imports ${spec}, ${why}`);
    }
  }
  return problems.sort();
}

const files = tsFiles(CORE_DIR);

describe('src/core', () => {
  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)('%s names no Apps Script global and no Node API', (file) => {
    expect(forbiddenNames(CORE_DIR, file)).toEqual([]);
  });

  it.each(files)('%s imports only zod and other core files', (file) => {
    const outside = importsOf(CORE_DIR, file).filter((i) => {
      if (i === 'zod/mini' || i === 'zod/v4/locales/en.js') return false;
      if (!i.startsWith('.')) return true;
      return path.relative(CORE_DIR, path.resolve(path.dirname(path.join(CORE_DIR, file)), i)).startsWith('..');
    });
    expect(outside).toEqual([]);
    expect(fs.readFileSync(path.join(CORE_DIR, file), 'utf8')).not.toMatch(/import\s*\{\s*z\s*\}\s*from\s*['"]zod['"]/);
  });

  it('has every file in a layer, and each layer imports only from itself and the layers below it', () => {
    expect(new Set(files.map(folderOf))).toEqual(new Set(LAYERS.flat()));
    expect(layerViolations(CORE_DIR, LAYERS)).toEqual([]);
  });

  it('has every room drawn in docs/architecture.md, one line each, from the top layer down', () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const drawing = page.slice(page.indexOf('```', page.indexOf("## The core's rooms")) + 3);
    const rooms = [...drawing.slice(0, drawing.indexOf('```')).matchAll(/^ {2}src\/core\/([\w/]*?)\/? {2}/gm)].map((m) => m[1] || '.');
    expect(rooms).toEqual([...LAYERS].reverse().flat());
  });

  it("has its top folders listed in docs/contributing.md's Layout, one line each, in the layer order", () => {
    const readme = fs.readFileSync(path.join(ROOT, 'docs', 'contributing.md'), 'utf8');
    const layout = readme.slice(readme.indexOf('## Layout'));
    const listed = [...layout.slice(0, layout.indexOf('\n```\n', layout.indexOf('```') + 3)).matchAll(/^ {2}([\w*.]+)\/?\s/gm)].map(
      (m) => m[1],
    );
    const topFolders = [...new Set(LAYERS.flat().map((room) => room.split('/')[0]!))];
    expect(listed).toEqual(topFolders.map((folder) => (folder === '.' ? '*.ts' : folder)));
  });
});

describe('the purity and layering checks on a core with deliberate mistakes', () => {
  it('report a lower layer importing a higher one, rooms of one rank importing each other, a lower room of a folder importing a higher one, and a room in no layer', () => {
    expect(layerViolations(FIXTURE_DIR, FIXTURE_LAYERS)).toEqual([
      'builder/form.ts imports ../recommendations/preview, a room of the same rank',
      'extras/stray.ts: its room extras/ is in no layer',
      'schedules/saved/report.ts imports ../refresh/runner, a higher layer',
      'util/text.ts imports ../api/client, a higher layer',
    ]);
  });

  it('report the Apps Script global, and only there', () => {
    const named = tsFiles(FIXTURE_DIR)
      .map((file): [string, string[]] => [file, forbiddenNames(FIXTURE_DIR, file)])
      .filter(([, names]) => names.length > 0);
    expect(named).toEqual([['recommendations/preview.ts', ['UrlFetchApp']]]);
  });

  it("are backed by the compiler: with the core's tsconfig (no Apps Script types, no DOM) the global does not compile", () => {
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '--noEmit', '-p', path.join(FIXTURE_DIR, 'tsconfig.json')], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout);
    }
    expect(output.trim().split('\n')).toEqual([
      expect.stringMatching(/preview\.ts\(\d+,\d+\): error TS2304: Cannot find name 'UrlFetchApp'\./),
    ]);
  });
});
