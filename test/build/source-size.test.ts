/**
 * Files stay small enough to read whole: no TypeScript file of the add-on (src/) or the sidebar is
 * over 400 lines; a file that grows past it is split by what it holds.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const MAX_LINES = 400;

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('source files', () => {
  it(`are at most ${MAX_LINES} lines in src/ and sidebar/`, () => {
    const files = ['src', 'sidebar'].flatMap((dir) => tsFiles(path.join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(50);
    const long = files
      .map((file) => ({ file: path.relative(ROOT, file), lines: fs.readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
