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
  // Three test files at once on 2 cores. The kernel's count has both cores busy through the first pass, so
  // a fourth gains nothing: the same code's first pass took 852 s with four against 768 s with three
  // (docs/contributing.md). Two left the cores idle while files waited on the emulator, the host's fetch
  // worker, Chromium or the add-on's sleeps (1,053 s against 904 s for three, an earlier code).
  maxWorkers: 3,
};
