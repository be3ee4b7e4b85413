/**
 * Functions stay short enough to read at once: no function of src/, sidebar/, dev/, scripts/ or bench/
 * (declaration, expression, arrow, method, accessor or constructor; a nested one counted on its own, from
 * its first line to its last) is over 80 lines, bar the named exceptions below. That list may only
 * shrink: a listed function that grew fails, one that shrank must have its figure lowered, one that is
 * gone or back under the ceiling must leave the list, and the list holds at most 15 entries. The
 * measuring is first tried on a small source with a deliberate long function, which it must name, and
 * the real reading must be of a plausible size. The 400-line file cap (source-size.test.ts) stays beside
 * it: the two catch different things, a file that holds too many thoughts and a thought too long to hold,
 * and with functions short the cap no longer pushes a long function into a second file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { exceptionProblems, type LongFunction, longFunctions, measureFunctions, tsFilesUnder } from '../support/function-lengths';

const ROOT = path.resolve(__dirname, '..', '..');
const SCANNED = ['src', 'sidebar', 'dev', 'scripts', 'bench'];
/** The longest a function may be, in lines, its first and last included. */
const MAX_FUNCTION_LINES = 80;
/** The most functions the exception list may hold while it shrinks to nothing. */
const MAX_EXCEPTIONS = 15;

/**
 * The functions over the ceiling today, each with its length in lines: shorten one by extracting
 * well-named functions, then lower its figure or take it off the list. Never add one.
 */
const EXCEPTIONS: LongFunction[] = [];

describe('function length', () => {
  it('names a deliberate long function, nested and anonymous ones included, and measures it whole', () => {
    const body = (count: number): string => Array.from({ length: count }, (_, at) => `  total += ${at};\n`).join('');
    const source = [
      '/**\n * A header paragraph, with a character of three bytes: 😀.\n */\n',
      `export function short(): number {\n  let total = 0;\n${body(10)}  return total;\n}\n`,
      `export function long(): number {\n  let total = 0;\n${body(79)}  return total;\n}\n`,
      `export class Panel {\n  constructor() {\n    const later = () => {\n      let total = 0;\n${body(80)}      return total;\n    };\n    later();\n  }\n}\n`,
      `export const handlers = {\n  open(): void {\n    [1].forEach(() => {\n      let total = 0;\n${body(81)}    });\n  },\n};\n`,
    ].join('');
    const measured = measureFunctions('sample.ts', source);
    expect(measured.find((fn) => fn.name === 'short')).toEqual({ file: 'sample.ts', name: 'short', line: 4, lines: 14 });
    expect(longFunctions(measured, MAX_FUNCTION_LINES)).toEqual([
      { file: 'sample.ts', name: 'long', line: 18, lines: 83 },
      { file: 'sample.ts', name: 'Panel.constructor', line: 102, lines: 87 },
      { file: 'sample.ts', name: 'Panel.constructor.later', line: 103, lines: 84 },
      { file: 'sample.ts', name: 'handlers.open', line: 191, lines: 86 },
      { file: 'sample.ts', name: 'handlers.open.(anonymous)', line: 192, lines: 84 },
    ]);
  });

  it('holds long functions against the list: unlisted, grown, shrunk, gone and twice-listed ones are named', () => {
    const at = (name: string, lines: number) => ({ file: 'a.ts', name, line: 1, lines });
    const listed = (name: string, lines: number) => ({ file: 'a.ts', name, lines });
    const long = [at('same', 90), at('grown', 95), at('shrunk', 85), at('new', 81)];
    const exceptions = [listed('same', 90), listed('grown', 90), listed('shrunk', 90), listed('gone', 90), listed('same', 90)];
    expect(exceptionProblems(exceptions, long, 80)).toEqual({
      unlisted: ['a.ts:1 new (81 lines)'],
      stale: [
        'a.ts: grown: grew from 90 to 95 lines',
        'a.ts: shrunk: now 85 lines, lower its figure',
        'a.ts: gone: gone or at most 80 lines, take it off the list',
        'a.ts: same: listed twice',
      ],
    });
  });

  const measured = SCANNED.flatMap((dir) => tsFilesUnder(path.join(ROOT, dir))).flatMap((full) =>
    measureFunctions(path.relative(ROOT, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8')),
  );
  const long = longFunctions(measured, MAX_FUNCTION_LINES);

  it('reads every function of the code, a plausible number of them', () => {
    expect(new Set(measured.map((fn) => fn.file.split('/')[0]))).toEqual(new Set(SCANNED));
    expect(measured.length).toBeGreaterThan(2000);
  });

  const problems = exceptionProblems(EXCEPTIONS, long, MAX_FUNCTION_LINES);

  it(`finds no function over ${MAX_FUNCTION_LINES} lines outside the exception list`, () => {
    expect(problems.unlisted).toEqual([]);
  });

  it('lists each exception at its length today, so the list only shrinks', () => {
    expect(problems.stale).toEqual([]);
  });

  it(`holds at most ${MAX_EXCEPTIONS} exceptions`, () => {
    expect(EXCEPTIONS.length).toBeLessThanOrEqual(MAX_EXCEPTIONS);
  });
});
