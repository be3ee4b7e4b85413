/**
 * The lint rules `npm test` relies on hold as errors, not warnings: Biome, with the repository's
 * biome.json and its plugin, lints sample files placed where the add-on, the sidebar, the local tools
 * and the tests live. A module imported by two statements of one file is reported everywhere (the
 * plugin scripts/lint/no-duplicate-imports.grit); an explicit `any` is an error outside test/.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const BIOME = path.join(ROOT, 'node_modules', '.bin', 'biome');

interface Diagnostic {
  category: string;
  severity: string;
  path: string;
}

/** Lints `files` (path to text) in a scratch folder that has the repository's Biome settings. */
function lint(files: Record<string, string>): Diagnostic[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-lint-'));
  try {
    const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'biome.json'), 'utf8')) as Record<string, unknown>;
    delete config.$schema;
    // The scratch folder is no git checkout; the plugins stay the repository's own files.
    config.vcs = { enabled: false };
    config.plugins = (config.plugins as string[]).map((plugin) => path.resolve(ROOT, plugin));
    fs.writeFileSync(path.join(dir, 'biome.json'), JSON.stringify(config));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const run = spawnSync(BIOME, ['lint', '--reporter=json', '--max-diagnostics=none', '.'], { cwd: dir, encoding: 'utf8' });
    const report = JSON.parse(run.stdout) as {
      diagnostics: Array<{ category: string; severity: string; location: { path: string | { file: string } } }>;
    };
    return report.diagnostics.map((d) => ({
      category: d.category,
      severity: d.severity,
      path: typeof d.location.path === 'string' ? d.location.path : d.location.path.file,
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const PLACES = ['src/core/sample.ts', 'sidebar/sample.ts', 'dev/gas-host/sample.ts', 'scripts/sample.ts', 'test/unit/sample.test.ts'];

describe('lint rules', () => {
  it('reports both statements of a module imported twice, a type and a value import alike, in every folder', () => {
    const twice =
      "import type { A } from './m';\nimport { b } from './m';\nimport { c } from './m/c';\n\nexport const x: A | typeof b | typeof c = b;\n";
    const once = "import { type A, b } from './m';\nimport { c } from './m/c';\n\nexport const x: A | typeof b | typeof c = b;\n";
    const files = Object.fromEntries(
      PLACES.flatMap((place) => [
        [place, twice],
        [place.replace('sample', 'merged'), once],
      ]),
    );
    const reported = lint(files).filter((d) => d.category === 'plugin');
    expect(reported.every((d) => d.severity === 'error')).toBe(true);
    expect(reported.map((d) => d.path).sort()).toEqual(PLACES.flatMap((place) => [place, place]).sort());
  });

  it('makes an explicit any an error in src/, sidebar/, dev/ and scripts/, and allows it in test/', () => {
    const withAny = 'export function parse(text: string): any {\n  return JSON.parse(text);\n}\n';
    const reported = lint(Object.fromEntries(PLACES.map((place) => [place, withAny]))).filter(
      (d) => d.category === 'lint/suspicious/noExplicitAny',
    );
    expect(reported.map((d) => [d.path, d.severity]).sort()).toEqual(
      PLACES.filter((place) => !place.startsWith('test/'))
        .map((place) => [place, 'error'])
        .sort(),
    );
  });
});
