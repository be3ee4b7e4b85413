/**
 * docs/architecture.md is the map a contributor opens first, so it must name every room there is: each
 * folder of src/, sidebar/ and dev/ that holds a file, at any depth, by its whole path from the
 * repository's top (`dev/bigquery/`, `src/gas/wiring/`, `sidebar/panels/report/`). A room added without
 * a line on the page fails here, naming it. The check is first tried on a small tree and page with a
 * deliberate omission, which it must name, and the real tree must be of a plausible size, so that it
 * cannot pass on an empty reading.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../support/paths';

/** The folders whose rooms the page draws. */
const MAPPED = ['src', 'sidebar', 'dev'];

/** Every folder below `top` (itself excluded) that holds at least one file, as `top/…/` from `root`. */
function roomsUnder(root: string, top: string): string[] {
  const rooms: string[] = [];
  const walk = (dir: string): void => {
    const entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
    if (dir !== top && entries.some((entry) => entry.isFile())) rooms.push(`${dir}/`);
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(`${dir}/${entry.name}`);
    }
  };
  walk(top);
  return rooms.sort();
}

/** The rooms the page does not name by their whole path. */
function unnamedRooms(page: string, rooms: string[]): string[] {
  return rooms.filter((room) => !page.includes(room));
}

describe('the room check on a tree with a deliberate omission', () => {
  it('names the room the page leaves out, at any depth, and only it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-rooms-'));
    try {
      for (const file of ['src/core/a.ts', 'src/core/api/b.ts', 'src/gas/wiring/c.ts', 'dev/shared/d.ts']) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), '');
      }
      fs.mkdirSync(path.join(root, 'src/gas/empty'), { recursive: true });
      const rooms = ['src', 'dev'].flatMap((top) => roomsUnder(root, top)).sort();
      expect(rooms).toEqual(['src/core/', 'src/core/api/', 'src/gas/wiring/', 'dev/shared/'].sort());
      const page = 'src/core/ the base; src/core/api/ the client; dev/shared/ what the stand-ins share';
      expect(unnamedRooms(page, rooms)).toEqual(['src/gas/wiring/']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('docs/architecture.md', () => {
  const page = fs.readFileSync(path.join(repoRoot, 'docs', 'architecture.md'), 'utf8');
  const rooms = MAPPED.flatMap((top) => roomsUnder(repoRoot, top));

  it('is checked against a tree of a plausible size', () => {
    expect(rooms.length).toBeGreaterThan(30);
    for (const top of MAPPED) expect(rooms.filter((room) => room.startsWith(`${top}/`)).length).toBeGreaterThan(1);
  });

  it('names every room of src/, sidebar/ and dev/ by its whole path', () => {
    expect(unnamedRooms(page, rooms)).toEqual([]);
  });
});
