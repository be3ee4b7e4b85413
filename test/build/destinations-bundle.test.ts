/**
 * Only what is deployed is bundled: a build whose deployment does not say `"bigquery": true` leaves
 * the BigQuery destination's code (src/core/destinations/bigquery/ and the warehouse beneath it) out of
 * Code.js, as it leaves it out of the sidebar, while a build with it carries that code. Every
 * function, class and constant those rooms export is looked for in the bundle, by its declaration or by
 * the name esbuild's keepNames gives a function or class back once identifiers are minified; a name some
 * other file of src/ declares too is left out of the look.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bigQueryBundle, distBundle } from '../support/bundles';
import { repoRoot } from '../support/paths';

const BIGQUERY_ROOMS = ['src/core/destinations/bigquery', 'src/core/warehouse'];
const DECLARED = /^export (?:async )?(?:function|class|const) (\w+)/gm;

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .filter((file) => file.endsWith('.ts'));
}

const declaredIn = (files: string[], pattern = DECLARED): Set<string> =>
  new Set(files.flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(pattern)].map((m) => m[1]!)));
/** A method or property of an object or class (the sheet destination's `statusAfterEdit(…)`), which keepNames names too. */
const MEMBER = /^\s+(?:async )?(\w+)(?:\(|: )/gm;

/** The names the BigQuery rooms export and no other file of src/ declares, or names a member. */
function bigQueryNames(): string[] {
  const rooms = BIGQUERY_ROOMS.map((room) => path.join(repoRoot, room));
  const inRooms = rooms.flatMap(sourceFiles);
  const others = sourceFiles(path.join(repoRoot, 'src')).filter((file) => !inRooms.includes(file));
  const elsewhere = new Set([...declaredIn(others), ...declaredIn(others, MEMBER)]);
  return [...declaredIn(inRooms)].filter((name) => !elsewhere.has(name)).sort();
}

/** The names of `names` that `code` declares (a function, a class, or a variable) or names as a string (keepNames). */
function declaredInBundle(code: string, names: string[]): string[] {
  return names.filter((name) => new RegExp(`(?:function|class) ${name}\\b|(?:\\b(?:var|let|const) |,)${name}=|"${name}"`).test(code));
}

describe("the BigQuery destination's code in Code.js", () => {
  const names = bigQueryNames();

  it('is found by many names', () => {
    expect(names.length).toBeGreaterThan(50);
    expect(names).toEqual(expect.arrayContaining(['bigQueryDestination', 'refreshIntoBigQuery', 'BigQueryClient', 'loadReportDay']));
  });

  it('is left out of a build without "bigquery": true, with Connected Sheets\' call', () => {
    const { code } = distBundle();
    expect(declaredInBundle(code, names)).toEqual([]);
    expect(code).not.toContain('enableBigQueryExecution');
  });

  it('is in a build with "bigquery": true', async () => {
    const { code } = await bigQueryBundle('http://127.0.0.1:9/');
    expect(
      declaredInBundle(code, ['bigQueryDestination', 'refreshIntoBigQuery', 'BigQueryClient', 'loadReportDay', 'openReportTable']),
    ).toEqual(['bigQueryDestination', 'refreshIntoBigQuery', 'BigQueryClient', 'loadReportDay', 'openReportTable']);
    expect(code).toContain('enableBigQueryExecution');
    // Most of what the rooms export is in it (the rest serves their tests and one another's types).
    expect(declaredInBundle(code, names).length).toBeGreaterThan(names.length / 2);
  });
});
