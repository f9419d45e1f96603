/**
 * Jest runs the TypeScript sources as native ES modules through SWC.
 * middy is ESM-only, so the project is ESM end to end (see docs/toolchain.md "ESM and jest").
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: 'node',
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
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
  maxWorkers: 2,
  setupFiles: ['<rootDir>/test/support/aws-env.ts'],
};
