/**
 * The host's worker entries, built by esbuild on first use (dev/gas-host/fetch/worker-build.ts): a later
 * module registry (another jest test file) reuses the build while its inputs are unchanged, without
 * running esbuild, and builds again as soon as one input changes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

type BuildWorkerFile = (entry: string) => string;

/** buildWorkerFile from a fresh module registry, as another test file would load it, with esbuild's calls counted. */
function freshBuilder(): { buildWorkerFile: BuildWorkerFile; builds: () => number } {
  let count = 0;
  let buildWorkerFile!: BuildWorkerFile;
  jest.isolateModules(() => {
    jest.doMock('esbuild', () => {
      const actual = jest.requireActual<typeof import('esbuild')>('esbuild');
      return {
        ...actual,
        buildSync: (...args: Parameters<typeof actual.buildSync>) => {
          count++;
          return actual.buildSync(...args);
        },
      };
    });
    ({ buildWorkerFile } = require('../../../dev/gas-host/fetch/worker-build') as { buildWorkerFile: BuildWorkerFile });
  });
  return { buildWorkerFile, builds: () => count };
}

describe('the worker build', () => {
  let dir: string;
  let entry: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engage-worker-build-'));
    entry = path.join(dir, 'entry.ts');
    fs.writeFileSync(path.join(dir, 'helper.ts'), 'export const word: string = "first";\n');
    fs.writeFileSync(entry, "import { word } from './helper';\nconsole.log(word);\n");
  });
  afterEach(() => {
    jest.dontMock('esbuild');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is reused by another registry while its inputs are unchanged, and made again when one changes', () => {
    const first = freshBuilder();
    const built = first.buildWorkerFile(entry);
    expect(first.builds()).toBe(1);
    expect(fs.readFileSync(built, 'utf8')).toContain('"first"');
    // The same registry asks esbuild nothing more.
    expect(first.buildWorkerFile(entry)).toBe(built);
    expect(first.builds()).toBe(1);

    const second = freshBuilder();
    expect(second.buildWorkerFile(entry)).toBe(built);
    expect(second.builds()).toBe(0);

    // An imported file changes: the next registry builds again, and its file says the new word.
    fs.writeFileSync(path.join(dir, 'helper.ts'), 'export const word: string = "second";\n');
    const third = freshBuilder();
    const rebuilt = third.buildWorkerFile(entry);
    expect(third.builds()).toBe(1);
    expect(rebuilt).not.toBe(built);
    expect(fs.readFileSync(rebuilt, 'utf8')).toContain('"second"');
  });
});
