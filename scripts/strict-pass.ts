/**
 * The strict pass of `npm test` (`npm run test:strict`): the end-to-end, evidence and integration suites
 * again with GAS_HOST_STRICT=1, where the local host takes the strict reading of every rule Google's pages
 * leave open (dev/gas-host/protocol/strict.ts).
 *
 * After a first pass that noted where the readings mattered (`npm test` sets READINGS_DIR_ENV for it:
 * test/support/readings.ts), only the suites that can come out differently run again:
 * - those in which a local host reached a place where the two readings act differently (a clock
 *   trigger's run, a formula naming a function that is not `@customfunction`, TODAY() as an argument,
 *   text that the strict reading reads as a value, a 31st execution at once, a grant withholding a
 *   scope), as its witness noted: a suite that reached none did in the kind reading exactly what it
 *   would do in the strict one, since its first difference would be at one of those places;
 * - those whose own code reads the reading (GAS_HOST_STRICT, a host's `strict` settings).
 * Without that first pass's notes, every suite of the three folders runs again.
 *
 * Two files leave the strict pass whatever happens, as before: refresh-waves and installation-check name
 * both readings themselves and run each in the first pass.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The variable the first pass sets to the folder of its notes (one file per test file). */
export const READINGS_DIR_ENV = 'ENGAGE_READINGS_DIR';
/** The folder `npm test` gives the first pass. */
export const READINGS_DIR = path.join('build', 'readings');

const FOLDERS = ['test/e2e', 'test/evidence', 'test/integration'];
const NAMING_BOTH_READINGS = ['test/e2e/refresh-waves.test.ts', 'test/e2e/installation-check.test.ts'];
/** Source that reads the reading itself: its outcome may follow it even where no host noted a difference. */
const READS_THE_READING = /GAS_HOST_STRICT|STRICT_ENV|\.strict\b|resolveStrict/;

/** The notes' file name for a test file (its path from the repository, one name). */
export function readingsFileOf(testFile: string): string {
  return `${testFile.split(path.sep).join('__')}.txt`;
}

function suites(root: string): string[] {
  const out: string[] = [];
  for (const folder of FOLDERS) {
    const walk = (dir: string): void => {
      for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (entry.name.endsWith('.test.ts')) out.push(file);
      }
    };
    if (existsSync(path.join(root, folder))) walk(folder);
  }
  return out.filter((file) => !NAMING_BOTH_READINGS.includes(file.split(path.sep).join('/'))).sort();
}

/** Each suite to run again with why, or undefined when the first pass left no notes (run them all). */
export function strictSuites(root: string, notesDir: string): { file: string; why: string }[] | undefined {
  const dir = path.join(root, notesDir);
  if (!existsSync(dir)) return undefined;
  const chosen: { file: string; why: string }[] = [];
  for (const file of suites(root)) {
    const notes = path.join(dir, readingsFileOf(file));
    const switches = existsSync(notes) ? [...new Set(readFileSync(notes, 'utf8').split('\n').filter(Boolean))].sort() : [];
    if (switches.length > 0) chosen.push({ file, why: switches.join(', ') });
    else if (READS_THE_READING.test(readFileSync(path.join(root, file), 'utf8'))) chosen.push({ file, why: 'reads the reading' });
  }
  return chosen;
}

function main(): void {
  const root = path.resolve(__dirname, '..');
  const chosen = strictSuites(root, READINGS_DIR);
  const all = suites(root);
  if (chosen) {
    console.log(`The strict reading: ${chosen.length} of ${all.length} suites, those whose outcome can depend on it:`);
    for (const { file, why } of chosen) console.log(`  ${file} (${why})`);
  } else {
    console.log(`The strict reading: all ${all.length} suites (no notes of a first pass in ${READINGS_DIR}).`);
  }
  const files = chosen ? chosen.map((c) => c.file) : all;
  if (files.length === 0) return;
  const jest = path.join(root, 'node_modules', '.bin', 'jest');
  const run = spawnSync(jest, [...process.argv.slice(2), '--runTestsByPath', ...files], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, GAS_HOST_STRICT: '1', [READINGS_DIR_ENV]: '' },
  });
  process.exit(run.status ?? 1);
}

if (require.main === module) main();
