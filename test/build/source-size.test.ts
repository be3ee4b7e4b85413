/**
 * Files stay small enough to read whole: no source file of the add-on (src/) or the sidebar (its
 * TypeScript, stylesheets and page alike) is over 400 lines; a file that grows past it is split by
 * what it holds.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const MAX_LINES = 400;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

describe('source files', () => {
  it(`are at most ${MAX_LINES} lines in src/ and sidebar/, whatever their kind`, () => {
    const files = ['src', 'sidebar'].flatMap((dir) => filesUnder(path.join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(50);
    expect([...new Set(files.map((file) => path.extname(file)))]).toEqual(expect.arrayContaining(['.ts', '.css', '.html']));
    const long = files
      .map((file) => ({ file: path.relative(ROOT, file), lines: fs.readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
