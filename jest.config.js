/**
 * Jest runs the TypeScript sources as native ES modules through SWC.
 * The project is ESM end to end (see docs/toolchain.md "ESM and jest").
 *
 * Four projects, so a change can be checked at the speed its tests allow:
 * `unit` (no embedded AWS, no processes: seconds), `integration` (embedded
 * DynamoDB/SQS, the local runtime in process), `infra` (CDK synths, each
 * environment once per run, cached on disk) and `e2e` (`npm start` and
 * worker processes). `npm test` runs all four.
 */
const shared = {
  testEnvironment: '<rootDir>/test/support/node-environment.mjs',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'es6' },
      },
    ],
  },
  setupFiles: ['<rootDir>/test/support/aws-env.ts'],
};

/** @type {import('jest').Config} */
export default {
  maxWorkers: 2,
  /**
   * A worker keeps every test file's module graph (ESM in vm contexts): by
   * the end of the integration project its heap held ~780 MB, and tearing
   * that down at exit took over a second on a loaded machine, past jest's
   * 500 ms wait ("A worker process has failed to exit gracefully"; no handle
   * was left open: the worker's exit event came within 10 ms). Recycling a
   * worker past 512 MB keeps exits short; the wait allows for the rest.
   */
  workerIdleMemoryLimit: '512MB',
  workerGracefulExitTimeout: 3000,
  // jest's order, with the files that read synthesized templates after the first few (see the file).
  testSequencer: '<rootDir>/test/support/test-sequencer.mjs',
  // Jest reads the test timeout from the run, not the project.
  testTimeout: 30000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'infra',
      testMatch: ['<rootDir>/test/infra/**/*.test.ts'],
      // Every environment synthesized once, in the background, from the start of a run that includes this project.
      globalSetup: '<rootDir>/test/support/synth-cache-setup.mjs',
      globalTeardown: '<rootDir>/test/support/synth-cache-teardown.mjs',
    },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
  ],
  collectCoverageFrom: ['shared/**/*.ts', 'functions/**/*.ts', 'infra/**/*.ts', '!**/*.d.ts'],
  coverageProvider: 'v8',
  coverageReporters: ['text-summary', 'json-summary', 'lcov'],
  /**
   * Floors under today's numbers, so coverage cannot drop unnoticed. The
   * unit project alone covers 70.8% of lines, 70.1% of functions and 89.7%
   * of branches; lines can only rise when more projects run, branches and
   * functions can fall (files the unit tests never load add theirs), so
   * those two keep a margin until a full run sets them.
   */
  coverageThreshold: { global: { lines: 70, statements: 70, functions: 65, branches: 80 } },
};
