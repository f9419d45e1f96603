/**
 * The esbuild settings of every function bundle, shared by the CDK construct
 * (infra/constructs/switchboard-function.ts), the bundle-size budgets
 * (test/infra/bundle-budgets.test.ts) and the init bench, so all three
 * measure what Lambda runs. No CDK import: the budgets load this alone.
 */

/** ESM bundles still meet CommonJS dependencies that call `require`. */
export const REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** The Node version the bundles are built for (the Lambda runtime's). */
export const BUNDLE_TARGET = 'node22';

/** Package fields esbuild resolves, ESM first. */
export const MAIN_FIELDS = ['module', 'main'];
