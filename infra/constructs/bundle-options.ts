/**
 * The esbuild settings of every function bundle, and the settings a
 * function is deployed with that shape it (`asDeployed`), shared by the CDK
 * stacks and construct (infra/stages/service-stack.ts,
 * infra/constructs/switchboard-function.ts), the bundle-size budgets
 * (test/infra/bundle-budgets.test.ts) and the init bench, so all of them
 * measure what Lambda runs. No CDK import: the budgets load this alone.
 */

import { resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';
import type { FunctionDefinition } from '../../shared/catalogue/functions';
import { IN_PROCESS_TRACING_OFF } from '../../shared/platform/tracing-settings';

/** ESM bundles still meet CommonJS dependencies that call `require`. */
export const REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/** The Node version the bundles are built for (the Lambda runtime's). */
export const BUNDLE_TARGET = 'node22';

/** Package fields esbuild resolves, ESM first. */
export const MAIN_FIELDS = ['module', 'main'];

/**
 * Packages a bundle gets a stand-in for, the stand-in's path relative to
 * the project root (esbuild resolves an alias in its working directory:
 * every build runs there). `form-data`: required by `@hubspot/api-client`
 * for a multipart test no request of ours passes (bundle-shims/form-data.ts).
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  'form-data': './infra/constructs/bundle-shims/form-data.ts',
});

/**
 * The esbuild settings above as options of esbuild's JavaScript API, the
 * stand-ins' paths resolved against `root` (the project root): what the
 * bundle budgets, the init bench and the tests that run a bundle build
 * with, so none of them can leave one out. The CDK construct passes the
 * same settings as command-line flags (switchboard-function.ts).
 */
export function functionBundleOptions(root: string) {
  return {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE_TARGET,
    mainFields: MAIN_FIELDS,
    minify: true,
    banner: { js: REQUIRE_BANNER },
    alias: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([name, path]) => [name, resolve(root, path)])),
  } satisfies BuildOptions;
}

/**
 * Settings a function's bundle is built with as constants, from the
 * settings it is deployed with: `POWERTOOLS_TRACE_ENABLED=false`
 * (shared/platform/tracing-settings.ts) leaves the tracing modules
 * (shared/platform/xray) out of the bundle altogether. Tracing such a
 * function in-process again takes a deploy without that setting, not a
 * change of its environment.
 */
export function bundleDefines(deployedSettings: Readonly<Record<string, string>> = {}): Record<string, string> {
  return deployedSettings.POWERTOOLS_TRACE_ENABLED === 'false' ? { 'process.env.POWERTOOLS_TRACE_ENABLED': JSON.stringify('false') } : {};
}

/**
 * A catalogue function as an environment deploys it: a function a caller
 * waits on (an API route, a webhook) gets `POWERTOOLS_TRACE_ENABLED=false`
 * (shared/platform/tracing-settings.ts), and so a bundle without the
 * tracing modules, unless `apiTracing` is on (infra/config.ts) or its catalogue entry
 * already decides (the phone path's functions are off whatever the
 * environment says). Workers are left as they are: traced.
 */
export function asDeployed(definition: FunctionDefinition, options: { apiTracing?: boolean } = {}): FunctionDefinition {
  const callerFacing = definition.kind === 'api' || definition.kind === 'webhook';
  if (!callerFacing || options.apiTracing || definition.deployedSettings?.POWERTOOLS_TRACE_ENABLED !== undefined) return definition;
  return { ...definition, deployedSettings: { ...definition.deployedSettings, ...IN_PROCESS_TRACING_OFF } };
}
