/**
 * Jest setup for each test file (setupFilesAfterEnv). When the first pass of `npm test` asks for it
 * (READINGS_DIR_ENV), every local host of this file, and of any process it starts, notes in one file per
 * test file each strict switch whose two readings would have acted differently in its run
 * (dev/gas-host/protocol/strict.ts, ReadingWitness). `scripts/strict-pass.ts` then runs again, in the
 * strict reading, the files that noted one.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { READINGS_FILE_ENV } from '../../dev/gas-host/protocol/strict';
import { readingsFileOf, READINGS_DIR_ENV } from '../../scripts/strict-pass';
import { repoRoot } from './paths';

const dir = process.env[READINGS_DIR_ENV];
const { testPath } = expect.getState();
if (dir && testPath) {
  mkdirSync(dir, { recursive: true });
  process.env[READINGS_FILE_ENV] = path.join(dir, readingsFileOf(path.relative(repoRoot, testPath)));
} else {
  delete process.env[READINGS_FILE_ENV];
}
