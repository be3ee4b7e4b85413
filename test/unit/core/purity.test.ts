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

const files = fs.readdirSync(CORE_DIR).filter((f) => f.endsWith('.ts'));

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
    expect(imports.filter((i) => !(i === 'zod/mini' || i === 'zod/v4/locales/en.js' || /^\.\/[\w-]+$/.test(i)))).toEqual([]);
    expect(code).not.toMatch(/import\s*\{\s*z\s*\}\s*from\s*['"]zod['"]/);
  });
});
