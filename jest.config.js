/**
 * Jest runs TypeScript through @swc/jest (type checking is its own step, `npm run typecheck`).
 * The global setup starts the Engage emulator in its own process; see test/support/global-setup.ts.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // zod's locale files are ES modules that jest's CommonJS cannot load: tests use their CommonJS twins
  // (the bundle, built by esbuild, uses the ES modules).
  moduleNameMapper: { '^zod/v4/locales/(.*)\\.js$': '<rootDir>/node_modules/zod/v4/locales/$1.cjs' },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Notes, per test file, where the local host's two readings would have differed (scripts/strict-pass.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/readings.ts'],
  // The longest files first, from a recorded run where jest's cache knows nothing (a fresh clone).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // A test's own limit, not a goal: a hang shows in 90 s. CI's machine, loaded, has run tests three times slower
  // than an idle one (a 10 s test past 30 s), and the timing goals are the benchmarks' (bench/).
  testTimeout: 90000,
  // Two test files at once: on a 2-core machine jest's default is one (cores - 1), and most of a file's time
  // is waiting on the emulator's process, the host's fetch worker and Chromium, whose instances are per file
  // (test/support/emulator.ts). Measured on 2 cores: the strict pass 276 s against 385 s with one.
  maxWorkers: 3,
};
