/**
 * What NodejsFunction's own esbuild bundles for a function with
 * `lazyChunks` (infra/constructs/switchboard-function.ts): the construct's
 * afterBundling hook then builds the function's real entry code split into
 * the same folder, replacing this module's output. Bundling the real entry
 * whole first would be an esbuild run of the function at every synth whose
 * output is thrown away.
 */
export {};
