/**
 * The core must run unchanged in Apps Script V8 and in Node: no file in src/core may name an Apps
 * Script global or a Node-only API.
 */
import fs from 'node:fs';
import path from 'node:path';

const CORE_DIR = path.resolve(__dirname, '..', '..', '..', 'src', 'core');
const FORBIDDEN: Array<[string, RegExp]> = [
  ['SpreadsheetApp', /\bSpreadsheetApp\b/], ['UrlFetchApp', /\bUrlFetchApp\b/], ['PropertiesService', /\bPropertiesService\b/],
  ['CacheService', /\bCacheService\b/], ['LockService', /\bLockService\b/], ['ScriptApp', /\bScriptApp\b/],
  ['HtmlService', /\bHtmlService\b/], ['Session.', /\bSession\./], ['Utilities.', /\bUtilities\./], ['Logger.', /\bLogger\./],
  ['Buffer', /\bBuffer\b/], ['process', /\bprocess\./], ['require(', /(^|[^.\w])require\(/], ['node: import', /from ['"]node:/],
  ['fetch(', /(?:[=(,;!&|?:]|\breturn)\s*fetch\(/], ['setTimeout', /\bsetTimeout\b/], ['setInterval', /\bsetInterval\b/], ['setImmediate', /\bsetImmediate\b/],
  ['TextEncoder', /\bTextEncoder\b/], ['btoa', /\bbtoa\(/], ['globalThis', /\bglobalThis\b/], ['async', /\basync\b/], ['await', /\bawait\b/],
];

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Every .ts file under src/core, as a path relative to it ("api/paging.ts"). */
function coreFiles(dir = CORE_DIR): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return coreFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(CORE_DIR, full)] : [];
  });
}

const files = coreFiles();

describe('src/core', () => {
  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)('%s names no Apps Script global and no Node API', (file) => {
    const code = stripComments(fs.readFileSync(path.join(CORE_DIR, file), 'utf8'));
    const found = FORBIDDEN.filter(([, pattern]) => pattern.test(code)).map(([name]) => name);
    expect(found).toEqual([]);
  });

  it.each(files)('%s imports only zod and other core files', (file) => {
    const code = fs.readFileSync(path.join(CORE_DIR, file), 'utf8');
    const imports = [...code.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
    const outside = imports.filter((i) => {
      if (i === 'zod/mini' || i === 'zod/v4/locales/en.js') return false;
      if (!/^\.\.?\//.test(i)) return true;
      return path.relative(CORE_DIR, path.resolve(path.dirname(path.join(CORE_DIR, file)), i)).startsWith('..');
    });
    expect(outside).toEqual([]);
    expect(code).not.toMatch(/import\s*\{\s*z\s*\}\s*from\s*['"]zod['"]/);
  });
});
